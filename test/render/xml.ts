// A small, strict XML 1.0 reader for the JUnit tests: it throws on anything not well-formed (unbalanced or
// crossed tags, a duplicate or unquoted attribute, `<` or a bare `&` in text or attribute values, an
// unknown entity, a character reference to a character XML forbids, a forbidden raw character, text or a
// second element outside the root) and returns the element tree with entities decoded. Enough for the
// documents we write: no DTD, no CDATA, no namespaces, no processing instructions but the declaration.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Decoded text directly inside this element (not of its children). */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_.:]*/;

export function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

export function parseXml(src: string): XmlElement {
  for (const ch of src) {
    const cp = ch.codePointAt(0)!;
    if (!isXmlChar(cp)) throw new Error(`forbidden character U+${cp.toString(16).padStart(4, "0")}`);
  }
  let i = 0;
  const fail = (msg: string): never => {
    const line = src.slice(0, i).split("\n").length;
    throw new Error(`${msg} (line ${line})`);
  };

  if (src.startsWith("<?xml")) {
    const end = src.indexOf("?>");
    if (end < 0) fail("unterminated XML declaration");
    const decl = src.slice(0, end + 2);
    if (!/^<\?xml version="1\.[0-9]"( encoding="[A-Za-z0-9._-]+")?( standalone="(yes|no)")?\s*\?>$/.test(decl)) fail(`bad declaration ${decl}`);
    i = end + 2;
  }
  const skipSpace = () => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };

  const decode = (raw: string, inAttr: boolean): string => {
    if (raw.includes("<")) fail("'<' in " + (inAttr ? "an attribute value" : "text"));
    return raw.replace(/&([^;]*);?/g, (m, body: string) => {
      if (!m.endsWith(";")) fail(`bare '&' in ${JSON.stringify(raw.slice(0, 60))}`);
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
      if (body in named) return named[body]!;
      const num = /^#([0-9]+)$/.exec(body) ?? null;
      const hex = /^#x([0-9A-Fa-f]+)$/.exec(body) ?? null;
      const cp = num ? parseInt(num[1]!, 10) : hex ? parseInt(hex[1]!, 16) : NaN;
      if (Number.isNaN(cp)) fail(`unknown entity &${body};`);
      if (!isXmlChar(cp)) fail(`character reference to a forbidden character &${body};`);
      return String.fromCodePoint(cp);
    });
  };

  const parseElement = (): XmlElement => {
    if (src[i] !== "<") fail("expected '<'");
    i++;
    const name = NAME.exec(src.slice(i))?.[0] ?? fail("expected an element name");
    i += name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipSpace();
      if (src.startsWith("/>", i)) {
        i += 2;
        return { name, attrs, children: [], text: "" };
      }
      if (src[i] === ">") {
        i++;
        break;
      }
      if (i === before) fail(`expected whitespace before an attribute of <${name}>`);
      const an = NAME.exec(src.slice(i))?.[0] ?? fail(`bad attribute in <${name}>`);
      i += an.length;
      skipSpace();
      if (src[i] !== "=") fail(`expected '=' after ${an}`);
      i++;
      skipSpace();
      const q = src[i];
      if (q !== '"' && q !== "'") fail(`unquoted value of ${an}`);
      const end = src.indexOf(q!, i + 1);
      if (end < 0) fail(`unterminated value of ${an}`);
      if (an in attrs) fail(`duplicate attribute ${an} in <${name}>`);
      // Attribute-value normalization: literal tab/newline/CR become spaces; references survive.
      attrs[an] = decode(src.slice(i + 1, end).replace(/[\t\n\r]/g, " "), true);
      i = end + 1;
    }
    const el: XmlElement = { name, attrs, children: [], text: "" };
    for (;;) {
      const lt = src.indexOf("<", i);
      if (lt < 0) fail(`unclosed <${name}>`);
      el.text += decode(src.slice(i, lt).replace(/\r\n?/g, "\n"), false);
      i = lt;
      if (src.startsWith("</", i)) {
        i += 2;
        const close = NAME.exec(src.slice(i))?.[0];
        if (close !== name) fail(`</${close}> closes <${name}>`);
        i += name.length;
        skipSpace();
        if (src[i] !== ">") fail("expected '>'");
        i++;
        return el;
      }
      if (src.startsWith("<!--", i)) {
        const end = src.indexOf("-->", i);
        if (end < 0) fail("unterminated comment");
        i = end + 3;
        continue;
      }
      if (src.startsWith("<!", i) || src.startsWith("<?", i)) fail("unsupported markup");
      el.children.push(parseElement());
    }
  };

  skipSpace();
  const root = parseElement();
  skipSpace();
  if (i !== src.length) fail("content after the root element");
  return root;
}

/** All descendants (and the element itself) named `name`, in document order. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}
