// Terraform resource instance addresses, formatted exactly as `terraform state list` prints them and
// parsed back. The string-key quoting follows Terraform's addrs.StringKey (HCL quoted-string syntax):
// a removal command built from these addresses must name the very instance state holds.

import { quoteHclString, quotedStringEnd, unquoteHclString } from "./hcl-string.js";

export { quoteHclString } from "./hcl-string.js";

export type IndexKey = string | number;

export interface AddressStep {
  /** `module` steps carry the module name; the last step is the resource. */
  name: string;
  key?: IndexKey;
}

export interface ParsedAddress {
  /** Module instance path steps (`module.a["x"].module.b` → [{a,"x"},{b}]). */
  modules: AddressStep[];
  mode: "managed" | "data";
  type: string;
  name: string;
  key?: IndexKey;
}

export function formatIndexKey(key: IndexKey | undefined): string {
  if (key === undefined) return "";
  return typeof key === "number" ? `[${key}]` : `[${quoteHclString(key)}]`;
}

export function formatModulePath(steps: AddressStep[]): string {
  return steps.map((s) => `module.${s.name}${formatIndexKey(s.key)}`).join(".");
}

export function formatAddress(a: ParsedAddress): string {
  const mod = formatModulePath(a.modules);
  const res = `${a.mode === "data" ? "data." : ""}${a.type}.${a.name}${formatIndexKey(a.key)}`;
  return mod ? `${mod}.${res}` : res;
}

/** The join key of config and state: the address with every instance key dropped. */
export function configAddressOf(a: ParsedAddress): string {
  return formatAddress({
    modules: a.modules.map((m) => ({ name: m.name })),
    mode: a.mode,
    type: a.type,
    name: a.name,
  });
}

export class AddressParseError extends Error {}

/** Parses an address `terraform state list` prints (or a module instance path when `modulePathOnly`). */
export function parseAddress(text: string): ParsedAddress {
  const p = new AddressParser(text);
  const modules: AddressStep[] = [];
  let mode: "managed" | "data" = "managed";
  for (;;) {
    const word = p.identifier();
    if (word === "module") {
      p.expect(".");
      const name = p.identifier();
      const key = p.optionalKey();
      modules.push(key === undefined ? { name } : { name, key });
      p.expect(".");
      continue;
    }
    let type = word;
    if (word === "data") {
      mode = "data";
      p.expect(".");
      type = p.identifier();
    }
    p.expect(".");
    const name = p.identifier();
    const key = p.optionalKey();
    p.end();
    return key === undefined ? { modules, mode, type, name } : { modules, mode, type, name, key };
  }
}

/** Parses a module instance path such as `module.waf["shop"].module.inner[0]` ("" is the root). */
export function parseModulePath(text: string): AddressStep[] {
  if (text === "") return [];
  const p = new AddressParser(text);
  const steps: AddressStep[] = [];
  for (;;) {
    const word = p.identifier();
    if (word !== "module") throw new AddressParseError(`expected "module" in module path ${JSON.stringify(text)}`);
    p.expect(".");
    const name = p.identifier();
    const key = p.optionalKey();
    steps.push(key === undefined ? { name } : { name, key });
    if (p.atEnd()) return steps;
    p.expect(".");
  }
}

const IDENTIFIER = /[\p{ID_Start}_][\p{ID_Continue}_-]*/uy;
const INDEX = /-?[0-9]+/y;

class AddressParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  end(): void {
    if (!this.atEnd()) this.fail(`unexpected ${JSON.stringify(this.text.slice(this.pos))}`);
  }

  expect(ch: string): void {
    if (this.text[this.pos] !== ch) this.fail(`expected "${ch}"`);
    this.pos++;
  }

  identifier(): string {
    // Sticky match at the position: slicing the rest of the text for every name cost more than the match.
    IDENTIFIER.lastIndex = this.pos;
    const m = IDENTIFIER.exec(this.text);
    if (!m) this.fail("expected a name");
    this.pos += m![0].length;
    return m![0];
  }

  optionalKey(): IndexKey | undefined {
    if (this.text[this.pos] !== "[") return undefined;
    this.pos++;
    let key: IndexKey;
    if (this.text[this.pos] === '"') key = this.quoted();
    else {
      INDEX.lastIndex = this.pos;
      const m = INDEX.exec(this.text);
      if (!m) this.fail("expected an index key");
      this.pos += m![0].length;
      key = Number(m![0]);
    }
    this.expect("]");
    return key;
  }

  private quoted(): string {
    const end = quotedStringEnd(this.text, this.pos);
    if (end === -1) this.fail("unterminated string key");
    try {
      const value = unquoteHclString(this.text.slice(this.pos + 1, end), { strict: true });
      this.pos = end + 1;
      return value;
    } catch (e) {
      this.fail((e as Error).message);
    }
  }

  private fail(why: string): never {
    throw new AddressParseError(`invalid address ${JSON.stringify(this.text)} at ${this.pos}: ${why}`);
  }
}
