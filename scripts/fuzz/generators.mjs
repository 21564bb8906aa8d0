// @ts-check
// Input generators shared by the fuzz run (scripts/fuzz.mjs, against dist/) and the property tests
// (test/property/*, against src/): valid HCL files with a known top-level inventory, mutations of valid
// texts (truncation, character flips, stray unicode, deep nesting, huge strings), Terraform states (v4 and
// `terraform show -json`) and their mutations, resource addresses with awkward keys, and Page Rule
// patterns with URLs derived from them. Plain JavaScript so the fuzz script needs no build step of its own.
import fc from "fast-check";

// ---- HCL: valid files ------------------------------------------------------------------------------------

/**
 * @typedef {{ src: string; value: string }} Piece  source text and what HCL decodes it to
 * @typedef {{ type: string; labels: string[] }} BlockHead
 * @typedef {{ text: string; blocks: BlockHead[]; attributes: string[] }} GeneratedHcl
 */

/** Pieces of a quoted string without template sequences: source text and decoded value. */
const labelPiece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "waf", "cloudflare_waf_rule", "x-1", "0", " ", ".", "/", "_").map((s) => ({ src: s, value: s })) },
  { weight: 2, arbitrary: fc.constantFrom("{", "}", "#", "//", "/*", "*/", "<<EOT", "[", "]", "=", "'").map((s) => ({ src: s, value: s })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      { src: '\\"', value: '"' },
      { src: "\\\\", value: "\\" },
      { src: "\\n", value: "\n" },
      { src: "\\t", value: "\t" },
      { src: "\\r", value: "\r" },
      { src: "\\u00e9", value: "é" },
      { src: "\\U0001F389", value: "🎉" },
      { src: "$${", value: "${" },
      { src: "%%{", value: "%{" },
      // A lone `$`/`%` must not meet a following `{` piece: that would open a template sequence.
      { src: "$ ", value: "$ " },
      { src: "% ", value: "% " },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("é", "日本", "🎉", "\u00a0", "Ω").map((s) => ({ src: s, value: s })) },
);

const quotedLabel = fc.array(labelPiece, { maxLength: 5 }).map((ps) => ({ src: `"${ps.map((p) => p.src).join("")}"`, value: ps.map((p) => p.value).join("") }));

const identifier = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/).filter((s) => !["true", "false", "null", "for", "in", "if", "endif", "else", "endfor"].includes(s));
/** A block label written as an identifier (`module waf {`). */
const bareLabel = identifier.map((s) => ({ src: s, value: s }));

/** Nested attribute names and nested block types come from disjoint sets, so a body never has both. */
const attrName = fc.constantFrom("zone_id", "mode", "rule_id", "description", "expression", "enabled", "count", "for_each", "source", "value", "tags", "x");
/** Nested block types with their label counts (one type with and without labels cannot be converted to JSON). */
const nestedBlockType = fc.constantFrom(["actions", 0], ["rules", 0], ["lifecycle", 0], ["content", 0], ["validation", 0], ["overrides", 0], ["dynamic", 1], ["nested", 1], ["provisioner", 2]);

/** Top-level block types, each with a fixed label count (hcl2json refuses one type with both shapes). */
const TOP_TYPES = /** @type {const} */ ([
  ["resource", 2],
  ["data", 2],
  ["module", 1],
  ["variable", 1],
  ["output", 1],
  ["provider", 1],
  ["locals", 0],
  ["terraform", 0],
  ["moved", 0],
  ["import", 0],
  ["check", 1],
  ["custom_block", 3],
]);

const templateInner = fc.constantFrom(
  "var.x",
  "local.y[0]",
  'upper("}")',
  '{ a = "}" }["a"]',
  '"${var.nested}"',
  "each.key",
  "count.index + 1",
  'join(",", [for s in var.l : "${s}}"])',
);

/** Pieces of a template string: literal text, escapes, interpolations and directives. */
const templatePiece = fc.oneof(
  { weight: 5, arbitrary: labelPiece.map((p) => p.src) },
  { weight: 2, arbitrary: templateInner.map((e) => `\${${e}}`) },
  { weight: 1, arbitrary: fc.constantFrom("%{ if var.on }on%{ else }off%{ endif }", "%{ for s in var.l }${s},%{ endfor }", "${~ var.x ~}") },
);
const templateString = fc.array(templatePiece, { maxLength: 5 }).map((ps) => `"${ps.join("")}"`);

const heredocLine = fc.constantFrom("plain text", "} not a brace", '" quote', "{ open", "${var.x}", "$${literal}", "%{ if true }y%{ endif }", "# not a comment", "/* nor this", "", "  indented }", "EOTX", "  EOT_NOT");
const heredoc = fc
  .record({ indent: fc.boolean(), marker: fc.constantFrom("EOT", "EOF", "POLICY", "END_1"), lines: fc.array(heredocLine, { maxLength: 4 }) })
  .map(({ indent, marker, lines }) => `<<${indent ? "-" : ""}${marker}\n${lines.map((l) => (indent ? `    ${l}` : l)).join("\n")}${lines.length ? "\n" : ""}${indent ? "  " : ""}${marker}\n`);

/** @type {fc.Arbitrary<string>} */
const expression = fc.letrec((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: fc.oneof(fc.integer({ min: -1000, max: 100000 }).map(String), fc.constantFrom("true", "false", "null", "1.5e3", "0.25")) },
    { weight: 5, arbitrary: templateString },
    { weight: 3, arbitrary: fc.constantFrom("var.zone_id", "cloudflare_zone.main.id", "local.rules[0]", 'lookup(var.m, "k", null)', "var.on ? 1 : 0", "[for k, v in var.m : v if v != null]", '{ for k in var.l : k => upper(k) }', "-var.n", "!var.b", "(1 + 2) * 3", "var.list[*].id") },
    { weight: 1, arbitrary: heredoc },
    { weight: 2, arbitrary: fc.array(tie("expr"), { maxLength: 3 }).map((es) => `[${es.join(", ")}]`) },
    {
      weight: 2,
      arbitrary: fc
        .uniqueArray(fc.tuple(fc.oneof(identifier, quotedLabel.map((l) => l.src)), tie("expr")), { maxLength: 3, selector: (kv) => kv[0] })
        .map((kvs) => (kvs.length === 0 ? "{}" : `{\n${kvs.map(([k, v]) => `    ${k} = ${v}`).join("\n")}\n  }`)),
    },
  ),
})).expr;

const comment = fc.constantFrom("# a } comment", "// another { one", '/* block " } */', "/* multi\n line { */", "#", "//");

/** A block body: unique attributes, nested blocks, comments. `depth` limits nesting. */
/** @param {number} depth @returns {fc.Arbitrary<string>} */
function bodyArb(depth) {
  const nested =
    depth <= 0
      ? fc.constant("")
      : fc.tuple(nestedBlockType, fc.array(quotedLabel, { minLength: 2, maxLength: 2 }), bodyArb(depth - 1)).map(([[t, n], ls, b]) => `${t} ${ls.slice(0, /** @type {number} */ (n)).map((l) => `${l.src} `).join("")}{${b}}`);
  return fc
    .record({
      attrs: fc.uniqueArray(fc.tuple(attrName, expression), { maxLength: 4, selector: (a) => a[0] }),
      blocks: fc.array(nested, { maxLength: depth <= 0 ? 0 : 2 }),
      comments: fc.array(comment, { maxLength: 2 }),
      oneLine: fc.boolean(),
    })
    .map(({ attrs, blocks, comments, oneLine }) => {
      // `name {}`/`name { a = 1 }` on one line is valid only for at most one attribute and no nested block.
      if (oneLine && attrs.length <= 1 && blocks.filter(Boolean).length === 0 && comments.length === 0 && !attrs.some(([, v]) => v.includes("\n"))) {
        return attrs.length ? ` ${attrs[0][0]} = ${attrs[0][1]} ` : "";
      }
      const lines = [...attrs.map(([k, v]) => `${k} = ${v}`), ...blocks.filter(Boolean), ...comments];
      return `\n${lines.map((l) => `  ${l}`).join("\n")}\n`;
    });
}

const topBlock = fc
  .record({
    kind: fc.nat({ max: TOP_TYPES.length - 1 }),
    labels: fc.array(fc.oneof({ weight: 4, arbitrary: quotedLabel }, { weight: 1, arbitrary: bareLabel }), { minLength: 3, maxLength: 3 }),
    body: bodyArb(2),
    leading: fc.array(comment, { maxLength: 1 }),
  })
  .map(({ kind, labels, body, leading }) => {
    const [type, n] = TOP_TYPES[kind];
    const ls = labels.slice(0, n);
    const head = [type, ...ls.map((l) => l.src)].join(" ");
    return { text: `${leading.map((c) => `${c}\n`).join("")}${head} {${body}}\n`, head: { type, labels: ls.map((l) => l.value) } };
  });

/** A valid HCL file and the top-level blocks it holds, in order. */
/** @type {fc.Arbitrary<GeneratedHcl>} */
export const validHclFile = fc
  .record({
    blocks: fc.array(topBlock, { maxLength: 6 }),
    attrs: fc.uniqueArray(fc.tuple(fc.constantFrom("top_a", "top_b"), expression), { maxLength: 1, selector: (a) => a[0] }),
    separator: fc.constantFrom("\n", "\n\n", "\n# between\n"),
    crlf: fc.nat({ max: 7 }).map((n) => n === 0),
    bom: fc.nat({ max: 19 }).map((n) => n === 0),
  })
  .map(({ blocks, attrs, separator, crlf, bom }) => {
    const text = [...attrs.map(([k, v]) => `${k} = ${v}\n`), ...blocks.map((b) => b.text)].join(separator);
    return { text: (bom ? "\uFEFF" : "") + (crlf ? text.replace(/\n/g, "\r\n") : text), blocks: blocks.map((b) => b.head), attributes: attrs.map(([k]) => k) };
  });

// ---- mutations -----------------------------------------------------------------------------------------

/** Characters that matter to a parser, and characters that should not matter but may trip one. */
export const SPECIAL_CHARS = ["{", "}", "[", "]", "(", ")", '"', "\\", "$", "%", "#", "/", "*", "<", "\n", "\r", "=", ",", ":", "?", "~", "'", "`", " ", "\t", "0", "a", "é"];
export const STRAY_UNICODE = ["\uFEFF", "\u200B", "\u0000", "\uD800", "\uDFFF", "🎉", "\u2028", "\u2029", "\u00A0", "\u001B", "\u0085", "\uFFFD", "\uFFFF", "\u202E", "ǅ"];

/**
 * @typedef {{ kind: "truncate"; at: number }
 *   | { kind: "flip"; at: number; char: string }
 *   | { kind: "insert"; at: number; text: string }
 *   | { kind: "delete"; at: number; length: number }
 *   | { kind: "duplicate"; at: number; length: number }
 *   | { kind: "nest"; at: number; depth: number; style: "block" | "list" | "object" | "paren" | "template" | "json"; closed: boolean }
 *   | { kind: "huge"; at: number; size: number; quoted: boolean; char: string }} Mutation
 */

/** Deepest nesting the in-process runs generate (see the "nest" mutation). */
export const MAX_IN_PROCESS_DEPTH = 100;

// Unbiased: fast-check's numbers lean towards small values, which would put every mutation at the start.
const fraction = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

/**
 * @param {number} maxDepth deepest nesting to generate
 * @returns {fc.Arbitrary<Mutation>}
 */
const mutationUpTo = (maxDepth) => fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant(/** @type {const} */ ("truncate")), at: fraction }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant(/** @type {const} */ ("flip")),
      at: fraction,
      char: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SPECIAL_CHARS) }, { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant(/** @type {const} */ ("insert")), at: fraction, text: fc.oneof(fc.constantFrom(...STRAY_UNICODE), fc.constantFrom(...SPECIAL_CHARS), fc.string({ unit: "binary", maxLength: 4 })) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant(/** @type {const} */ ("delete")), at: fraction, length: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant(/** @type {const} */ ("duplicate")), at: fraction, length: fc.integer({ min: 1, max: 200 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant(/** @type {const} */ ("nest")),
      at: fraction,
      // hcl2json overflows the JS stack from about 1,200 nested blocks (1,750 templates, 2,000 brackets), and
      // its Go runtime is then corrupt: later parses fail, and a timer of its glue code throws out of the
      // process; how deep is enough depends on what the stack holds already. In-process runs of HCL stay far
      // below (100 levels a mutation); scripts/fuzz/deep.mjs probes the deeper cases in child processes.
      depth: maxDepth <= 100 ? fc.integer({ min: 1, max: maxDepth }) : fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1000, max: maxDepth })),
      style: fc.constantFrom(/** @type {const} */ ("block"), /** @type {const} */ ("list"), /** @type {const} */ ("object"), /** @type {const} */ ("paren"), /** @type {const} */ ("template"), /** @type {const} */ ("json")),
      closed: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant(/** @type {const} */ ("huge")),
      at: fraction,
      size: fc.oneof({ weight: 19, arbitrary: fc.integer({ min: 1000, max: 20_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 300_000 }) }),
      quoted: fc.boolean(),
      // Not `$` or `%`: HCL's scanner is quadratic in runs of them (64 K `$` in a string: 23 s in hcl2json).
      // `{` only inside a string: outside, 20 K of them is 20 K levels of nesting (see "nest").
      char: fc.constantFrom("a", "{", "é", "🎉", "\\", "\n"),
    }).map((m) => (m.char === "{" && !m.quoted ? { ...m, quoted: true } : m)),
  },
);

/** Deeply nested text: blocks, tuples, objects, parentheses or templates. */
/** @param {Extract<Mutation, { kind: "nest" }>} m */
export function nested(m) {
  // JSON: a bare nested array, to be inserted where a value may stand.
  if (m.style === "json") return "[".repeat(m.depth) + "1" + (m.closed ? "]".repeat(m.depth) : "");
  const [open, close] = {
    block: ["n {\n", "}\n"],
    list: ["[", "]"],
    object: ["{ a = ", "}"],
    paren: ["(", ")"],
    template: ['"${', '}"'],
  }[m.style];
  const core = m.style === "block" ? "x = 1\n" : "1";
  const inner = open.repeat(m.depth) + core + (m.closed ? close.repeat(m.depth) : "");
  return m.style === "block" ? `\ndeep {\n${inner}}\n` : `\ndeep_value = ${inner}\n`;
}

/** Applies one mutation; positions are fractions of the current length so shrinking keeps them meaningful. */
/** @param {string} text @param {Mutation} m @returns {string} */
export function applyMutation(text, m) {
  const at = Math.floor(m.at * (text.length + 1));
  switch (m.kind) {
    case "truncate":
      return text.slice(0, at);
    case "flip":
      return text.slice(0, at) + m.char + text.slice(at + 1);
    case "insert":
      return text.slice(0, at) + m.text + text.slice(at);
    case "delete":
      return text.slice(0, at) + text.slice(at + m.length);
    case "duplicate":
      return text.slice(0, at + m.length) + text.slice(at, at + m.length) + text.slice(at + m.length);
    case "nest": {
      // JSON nesting replaces the value after the nearest `:` (or goes where it falls).
      if (m.style === "json") {
        const colon = text.indexOf(":", at);
        const pos = colon === -1 ? at : colon + 1;
        return text.slice(0, pos) + nested(m) + text.slice(pos).replace(/^\s*("([^"\\]|\\.)*"|-?[0-9.eE+-]+|true|false|null)/, "");
      }
      // At a line start, so the nesting is either a new top-level construct or lands inside a body.
      const lineStart = text.lastIndexOf("\n", at - 1) + 1;
      return text.slice(0, lineStart) + nested(m) + text.slice(lineStart);
    }
    case "huge": {
      const body = m.char.repeat(m.size);
      const insert = m.quoted ? `\nhuge = "${body.replace(/\n/g, "\\n").replace(/\\(?!n)/g, "\\\\")}"\n` : body;
      return text.slice(0, at) + insert + text.slice(at);
    }
  }
}

/** @param {string} text @param {Mutation[]} ms */
export function applyMutations(text, ms) {
  return ms.reduce(applyMutation, text);
}

/** One mutation of HCL text (nesting stays below what corrupts hcl2json in-process). */
export const mutation = mutationUpTo(MAX_IN_PROCESS_DEPTH);
/** One to three mutations of HCL text. */
export const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });
/** One to three mutations of JSON text: nesting goes far deeper (no hcl2json involved). */
export const jsonMutations = fc.array(mutationUpTo(20_000), { minLength: 1, maxLength: 3 });
/** @param {string} file */
export const mutationsFor = (file) => (/\.(json|tfstate)$/.test(file) ? jsonMutations : mutations);

/**
 * A configuration text to throw at the parser: a fixture or a generated file, mutated or not.
 * @param {{ file: string; text: string }[]} fixtures
 * @returns {fc.Arbitrary<{ file: string; source: string; text: string; mutations: Mutation[] }>}
 */
export function mutatedConfig(fixtures) {
  const base = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...fixtures).map((f) => ({ file: f.file, source: f.file, text: f.text })) },
    { weight: 2, arbitrary: validHclFile.map((g) => ({ file: "generated.tf", source: "generated", text: g.text })) },
  );
  return base
    .chain((b) => fc.tuple(fc.constant(b), fc.oneof({ weight: 1, arbitrary: fc.constant(/** @type {Mutation[]} */ ([])) }, { weight: 6, arbitrary: mutationsFor(b.file) })))
    .map(([b, ms]) => ({ ...b, text: applyMutations(b.text, ms), mutations: ms }));
}

// ---- Terraform state -----------------------------------------------------------------------------------

/** Instance keys with everything that needs quoting: quotes, backslashes, templates, unicode, digits. */
export const indexKey = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 1_000_000 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('"', "\\", "$", "%", "{", "}", "\n", "\t", "\r", "a", "0", "é", "🎉", "\u0000", "\u200B", "\uFEFF", "\u2028", "\u0085", " ", "[", "]", "."), maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom("0", "01", "-1", "1e3", "NaN", "${var.x}", "$${x}", "%{if}", "", "\uD800", "a\uDC00b", "\u{10FFFF}", "\u00AD") },
);

const resourceName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,10}$/);
const resourceType = fc.oneof(fc.constantFrom("cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule", "cloudflare_waf_override", "cloudflare_firewall_rule", "cloudflare_page_rule", "cloudflare_zone"), resourceName);

/** @type {fc.Arbitrary<{ name: string; key?: string | number }[]>} */
export const modulePath = fc.array(
  fc.record({ name: resourceName, key: indexKey }, { requiredKeys: ["name"] }),
  { maxLength: 3 },
);

/** A resource address as `parseAddress` returns it. */
export const parsedAddress = fc
  .record(
    {
      modules: modulePath,
      mode: fc.constantFrom(/** @type {const} */ ("managed"), /** @type {const} */ ("data")),
      type: resourceType,
      name: resourceName,
      key: indexKey,
    },
    { requiredKeys: ["modules", "mode", "type", "name"] },
  )
  // `data` is the mode keyword, `module` the module keyword: neither can be a resource type.
  .filter((a) => a.type !== "data" && a.type !== "module");

const jsonLeaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const jsonValue = fc.jsonValue({ maxDepth: 2 });

/**
 * A state document: v4 (`terraform.tfstate`) or `terraform show -json`, with the addresses it should list.
 * @param {(steps: { name: string; key?: string | number }[]) => string} formatModulePath from src/core/address
 * @param {(a: any) => string} formatAddress
 */
export function stateDocument(formatModulePath, formatAddress) {
  const resource = fc.record({
    modules: modulePath,
    mode: fc.constantFrom("managed", "data"),
    type: resourceType.filter((t) => t !== "data" && t !== "module"),
    name: resourceName,
    keys: fc.oneof(fc.constant([undefined]), fc.uniqueArray(indexKey, { minLength: 0, maxLength: 3, selector: (k) => `${typeof k}:${k}` })),
    attributes: fc.dictionary(fc.constantFrom("id", "zone_id", "mode", "rule_id", "expression", "description"), jsonLeaf, { maxKeys: 4 }),
  });
  return fc.record({ resources: fc.array(resource, { maxLength: 5 }), show: fc.boolean(), version: fc.constantFrom("1.5.7", "1.11.4") }).map(({ resources, show, version }) => {
    const expected = [];
    for (const r of resources) {
      for (const key of r.keys) {
        expected.push(formatAddress({ modules: r.modules, mode: r.mode, type: r.type, name: r.name, ...(key === undefined ? {} : { key }) }));
      }
    }
    if (!show) {
      const doc = {
        version: 4,
        terraform_version: version,
        serial: 1,
        lineage: "00000000-0000-0000-0000-000000000000",
        outputs: {},
        resources: resources.map((r) => ({
          ...(r.modules.length ? { module: formatModulePath(r.modules) } : {}),
          mode: r.mode,
          type: r.type,
          name: r.name,
          provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
          instances: /** @type {(string | number | undefined)[]} */ (r.keys).map((key) => ({ ...(key === undefined ? {} : { index_key: key }), schema_version: 0, attributes: r.attributes })),
        })),
      };
      return { doc, expected };
    }
    // show -json: every instance is one entry under its module's child_modules entry.
    /** @type {any} */
    const root = { resources: [], child_modules: [] };
    /** @type {Map<string, any>} */
    const byPath = new Map([["", root]]);
    for (const r of resources) {
      let mod = root;
      for (let i = 1; i <= r.modules.length; i++) {
        const p = formatModulePath(r.modules.slice(0, i));
        let child = byPath.get(p);
        if (!child) {
          child = { address: p, resources: [], child_modules: [] };
          byPath.set(p, child);
          mod.child_modules.push(child);
        }
        mod = child;
      }
      for (const key of r.keys) {
        mod.resources.push({
          address: formatAddress({ modules: r.modules, mode: r.mode, type: r.type, name: r.name, ...(key === undefined ? {} : { key }) }),
          mode: r.mode,
          type: r.type,
          name: r.name,
          ...(key === undefined ? {} : { index: key }),
          provider_name: "registry.terraform.io/cloudflare/cloudflare",
          schema_version: 0,
          values: r.attributes,
        });
      }
    }
    return { doc: { format_version: "1.0", terraform_version: version, values: { root_module: root } }, expected };
  });
}

/**
 * @typedef {{ kind: "replace"; at: number; value: unknown }
 *   | { kind: "remove"; at: number }
 *   | { kind: "wrap"; at: number }} TreeMutation
 */

/** Mutations of the parsed JSON tree: a node replaced by any JSON value, a key removed, a node wrapped in an array. */
/** @type {fc.Arbitrary<TreeMutation>} */
export const treeMutation = fc.oneof(
  fc.record({ kind: fc.constant(/** @type {const} */ ("replace")), at: fraction, value: fc.oneof(jsonValue, fc.constantFrom(null, [], {}, [null], "", 0, -1, 4, 3, 1e308, "module.", 'module.a["')) }),
  fc.record({ kind: fc.constant(/** @type {const} */ ("remove")), at: fraction }),
  fc.record({ kind: fc.constant(/** @type {const} */ ("wrap")), at: fraction }),
);

/** @param {unknown} doc @param {TreeMutation} m */
export function applyTreeMutation(doc, m) {
  /** @type {{ parent: any; key: string | number }[]} */
  const slots = [];
  /** @param {any} v */
  const walk = (v) => {
    if (v === null || typeof v !== "object") return;
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      slots.push({ parent: v, key: k });
      walk(v[k]);
    }
  };
  const copy = structuredClone(doc);
  walk(copy);
  if (slots.length === 0) return m.kind === "replace" ? m.value : copy;
  const { parent, key } = slots[Math.floor(m.at * slots.length)];
  if (m.kind === "replace") parent[key] = structuredClone(m.value);
  else if (m.kind === "wrap") parent[key] = [parent[key]];
  else if (Array.isArray(parent)) parent.splice(/** @type {number} */ (key), 1);
  else delete parent[key];
  return copy;
}

/**
 * A state text to throw at the reader: a fixture or generated document, mutated in its tree or its text.
 * @param {{ file: string; text: string }[]} fixtures
 * @param {ReturnType<typeof stateDocument>} generated
 */
export function mutatedState(fixtures, generated) {
  const base = fc.oneof(
    fc.constantFrom(...fixtures).map((f) => ({ source: f.file, doc: /** @type {unknown} */ (JSON.parse(f.text)) })),
    generated.map((g) => ({ source: "generated", doc: /** @type {unknown} */ (g.doc) })),
  );
  return fc
    .record({
      base,
      tree: fc.array(treeMutation, { maxLength: 3 }),
      text: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: jsonMutations }),
      pretty: fc.boolean(),
    })
    .map(({ base, tree, text, pretty }) => {
      const doc = tree.reduce(applyTreeMutation, base.doc);
      const json = JSON.stringify(doc, null, pretty ? 2 : undefined) ?? "null";
      return { source: base.source, text: applyMutations(json, /** @type {Mutation[]} */ (text)), tree, mutations: text };
    });
}

// ---- Page Rule patterns ----------------------------------------------------------------------------------

/**
 * @typedef {{ scheme: string; hostPrefix: string; labels: string[]; port: number | null;
 *   segments: string[] | null; query: string | null }} PatternParts
 */

const hostLabel = fc.constantFrom("shop", "example", "com", "a", "www", "Api", "ex", "x-y", "0");
const pathSegment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("admin", "a", "Foo", "*", "*.php", "t*st", "x*", "", "**", "downloads", "A*B*c") },
  // Characters that need care in a wildcard or raw string literal.
  { weight: 2, arbitrary: fc.constantFrom('q"#', 'a"', '"#"##', "back\\slash", "\\*", "per%20cent", "é", "semi;colon", "~user", "a+b", "$x", "(x)", "[y]", "{z}", "r#\"") },
);
const queryPart = fc.constantFrom("q=*", "*", "a=1", "a=*&b=*", 'x="#', "Q=A*");

/** @type {fc.Arbitrary<PatternParts>} */
export const patternParts = fc.record({
  scheme: fc.constantFrom("", "", "http://", "https://", "*://", "HTTPS://", "http*://"),
  hostPrefix: fc.constantFrom("", "", "*", "*.", "HOST-LESS", "**."),
  labels: fc.array(hostLabel, { minLength: 1, maxLength: 3 }),
  port: fc.option(fc.constantFrom(8080, 443, 80, 2053), { freq: 5 }),
  segments: fc.option(fc.array(pathSegment, { minLength: 1, maxLength: 3 }), { freq: 6 }),
  query: fc.option(queryPart, { freq: 5 }),
});

/** @param {PatternParts} p */
export function hostPattern(p) {
  return p.hostPrefix === "HOST-LESS" ? "*" : p.hostPrefix + p.labels.join(".");
}

/** @param {PatternParts} p */
function pathPattern(p) {
  return p.segments === null ? "" : `/${p.segments.join("/")}`;
}

/** @param {PatternParts} p */
export function renderPattern(p) {
  const port = p.port === null ? "" : `:${p.port}`;
  const query = p.query === null ? "" : `?${p.query}`;
  return `${p.scheme}${hostPattern(p)}${port}${pathPattern(p)}${query}`;
}

/** @param {string} pattern @param {string[]} fills */
function substitute(pattern, fills) {
  let i = 0;
  return pattern.replace(/\*+/g, () => fills[i++ % fills.length]);
}

const fill = (/** @type {string[]} */ chars) => fc.array(fc.constantFrom(...chars), { maxLength: 4 }).map((cs) => cs.join(""));
const hostFill = fill(["a", "b", ".", "-", "X"]);
const pathFill = fill(["a", "/", ".", "B", "-", "?", "t", '"', "\\", "=", "&", "%"]);

/** A URL built from the pattern itself, so a good share matches. @param {PatternParts} p */
export function derivedUrl(p) {
  return fc
    .record({
      https: fc.boolean(),
      hostFills: fc.array(hostFill, { minLength: 1, maxLength: 3 }),
      pathFills: fc.array(pathFill, { minLength: 1, maxLength: 3 }),
      upper: fc.boolean(),
      extraQuery: fc.option(fc.constantFrom("x=1", "q=1", "a=1&q=2"), { freq: 3 }),
      keepPort: fc.boolean(),
      pathPrefix: fc.constantFrom("", "/static", "/x/y"),
    })
    .map((d) => {
      const scheme = d.https ? "https" : "http";
      const host = hostPattern(p) === "*" ? `h${d.hostFills[0]}.example.net` : substitute(hostPattern(p).replace(/^\*\*/, "*"), d.hostFills);
      const port = p.port !== null && d.keepPort ? `:${p.port}` : "";
      const prefix = hostPattern(p) === "*" ? d.pathPrefix : "";
      const rawPath = prefix + substitute(pathPattern(p) || "/", d.pathFills);
      const path = d.upper ? rawPath.toUpperCase() : rawPath;
      const query = p.query !== null ? `?${substitute(p.query, d.pathFills)}` : d.extraQuery ? `?${d.extraQuery}` : "";
      // A `#` would start the fragment: the request line never carries it.
      return `${scheme}://${host}${port}${path}${query}`.replace(/#/g, "%23");
    });
}

/** An unrelated URL from the same small alphabets. */
export const randomUrl = fc
  .record({
    https: fc.boolean(),
    labels: fc.array(hostLabel, { minLength: 1, maxLength: 4 }),
    port: fc.constantFrom("", "", ":8080", ":443", ":80"),
    segments: fc.array(fc.constantFrom("admin", "a", "foo", "test", "x.php", "downloads", "q=1", 'q"', "back\\slash", "é"), { maxLength: 3 }),
    query: fc.constantFrom("", "?q=1", "?x=/admin/", "?q=", '?x="'),
  })
  .map((u) => `${u.https ? "https" : "http"}://${u.labels.join(".")}${u.port}/${u.segments.join("/")}${u.query}`);

/** A pattern (as text, with its parts) and a URL to test it against. */
export const patternAndUrl = patternParts.chain((p) => fc.tuple(fc.constant(p), fc.oneof(derivedUrl(p), randomUrl)));

// ---- hostile Page Rule targets (issue 18 §2) -----------------------------------------------------------

/** Pieces a damaged or hand-typed target is made of: IDN hosts, whitespace, ports, quotes, long runs. */
const TARGET_PIECES = ["https://", "HTTPS://", "h*://", "*", "*.", "shop.", "example.com", "bücher.", "xn--bcher-kva.", ":", ":8443", ":99999", ":0", "/", "/admin/", "?", "?q=*", '"', "#", "$", "'", " ", "\t", "%20", "\\", "é", "🎉", "\u00A0", "**"];

/** A target of random pieces with one piece repeated up to 20,000 times: size scaling is part of the case. */
export const hostileTarget = fc
  .record({
    // Half the heads are a well-formed start, so the long runs also reach the path, query and raw strings.
    head: fc.oneof(
      fc.array(fc.constantFrom(...TARGET_PIECES), { maxLength: 8 }),
      fc.tuple(fc.constantFrom("", "https://", "*."), fc.constantFrom("example.com", "shop.example.com", "*example.com"), fc.constantFrom("", "/", "/a/", "?", "/x?")).map((xs) => xs),
    ),
    run: fc.constantFrom("#", "$", '"#', "*a", "?", "/", "example.com", "a", "*", ":"),
    times: fc.oneof(fc.nat({ max: 40 }), fc.integer({ min: 1_000, max: 20_000 })),
    tail: fc.array(fc.constantFrom(...TARGET_PIECES), { maxLength: 4 }),
    zoneName: fc.constantFrom(null, "example.com", "shop.example.com"),
  })
  .map(({ head, run, times, tail, zoneName }) => ({ target: head.join("") + run.repeat(times) + tail.join(""), zoneName }));

// ---- long runs of $ and % in template text (issue 17) -----------------------------------------------------

/**
 * A file whose one template holds a long run of a piece with `$` or `%` in it, in a quoted string, a heredoc
 * or a comment, next to a legacy resource, sometimes in a file the fast reader leaves to hcl2json whole (a
 * top-level attribute) or with a `{` after the run: up to 400,000 characters, so size scaling is part of it.
 */
export const templateRun = fc
  .record({
    piece: fc.constantFrom("$", "%", "$a", "a%", "%s", "$$", "%%", "$%", "a$b", "$ ", "\\$"),
    times: fc.oneof(fc.nat({ max: 40 }), fc.integer({ min: 1_000, max: 200_000 })),
    where: fc.constantFrom("quoted", "heredoc", "comment", "top-level attribute"),
    after: fc.constantFrom("", "{", "${x}", "%{ if true }y%{ endif }", "$"),
    legacy: fc.boolean(),
  })
  .map(({ piece, times, where, after, legacy }) => {
    const run = piece.repeat(times) + after;
    const head = legacy ? 'resource "cloudflare_waf_group" "g" {\n  zone_id  = "z"\n  group_id = "g"\n  mode     = "off"\n}\n\n' : "";
    const body =
      where === "quoted"
        ? `locals {\n  s = "${run}"\n}\n`
        : where === "heredoc"
          ? `locals {\n  s = <<EOT\n${run}\nEOT\n}\n`
          : where === "comment"
            ? `# ${run}\nlocals {\n  s = 1\n}\n`
            : `x = "${run}"\n`;
    return { text: head + body, piece, times, where, after, legacy };
  });

// ---- credentials echoed in transformed forms (issue 18 §3) ---------------------------------------------

const TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".split("");
const HEX_CHARS = "0123456789abcdef".split("");

/** How an echo can transform a piece of a header: what misconfigured proxies and debug pages do. */
export const ECHO_TRANSFORMS = ["verbatim", "upper", "lower", "spaced", "dashed", "hex", "HEX", "base64", "base64url", "bearer-base64", "email-key-base64", "json"];

/** Applies one echo transform to the piece of a credential it shows. @param {string} how @param {string} piece @param {string} email */
export function echoForm(how, piece, email) {
  switch (how) {
    case "upper": return piece.toUpperCase();
    case "lower": return piece.toLowerCase();
    case "spaced": return piece.split("").join(" ");
    case "dashed": return piece.split("").join("-");
    case "hex": return Buffer.from(piece).toString("hex");
    case "HEX": return Buffer.from(piece).toString("hex").toUpperCase();
    case "base64": return Buffer.from(piece).toString("base64");
    case "base64url": return Buffer.from(piece).toString("base64url");
    case "bearer-base64": return Buffer.from(`Bearer ${piece}`).toString("base64");
    case "email-key-base64": return Buffer.from(`${email}:${piece}`).toString("base64");
    case "json": return JSON.stringify({ authorization: piece }).slice(1, -1);
    default: return piece;
  }
}

/** A credential, a piece of it (8 characters or more: a prefix, a suffix or the middle) and how it is echoed. */
export const credentialEcho = fc
  .record({
    secret: fc.oneof(
      fc.array(fc.constantFrom(...TOKEN_CHARS), { minLength: 20, maxLength: 60 }).map((a) => a.join("")),
      fc.array(fc.constantFrom(...HEX_CHARS), { minLength: 37, maxLength: 37 }).map((a) => a.join("")),
    ),
    start: fc.nat(),
    length: fc.integer({ min: 8, max: 80 }),
    how: fc.constantFrom(...ECHO_TRANSFORMS),
    before: fc.string({ maxLength: 40 }),
    after: fc.string({ maxLength: 40 }),
    email: fc.constantFrom("ops@shop.example", "jane.doe+cf@example.com"),
  })
  .map(({ secret, start, length, how, before, after, email }) => {
    const len = Math.min(length, secret.length);
    const from = start % (secret.length - len + 1);
    const piece = secret.slice(from, from + len);
    return { secret, piece, how, email, text: `${before}${echoForm(how, piece, email)}${after}` };
  });

// ---- input keys that are also Object.prototype members (issue 18 §1) -----------------------------------

/** Every own property name of Object.prototype: all legal Terraform identifiers and map keys. */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

const SAFE_NAMES = ["main", "shop", "blog", "edge", "waf"];

/**
 * A small realistic tree whose every user-chosen name comes from a slot: resource labels (HCL and JSON),
 * attribute names, map keys, the module name, for_each keys, state instance keys, zone ids, variable and
 * output names. `prototypeTree` draws the slots mostly from PROTOTYPE_NAMES.
 */
export const prototypeTree = fc.record({
  zoneLabel: fc.constantFrom(...PROTOTYPE_NAMES, ...SAFE_NAMES),
  moduleName: fc.constantFrom(...PROTOTYPE_NAMES, ...SAFE_NAMES),
  forEachKeys: fc.uniqueArray(fc.constantFrom(...PROTOTYPE_NAMES, ...SAFE_NAMES), { minLength: 1, maxLength: 3 }),
  groupKeys: fc.uniqueArray(fc.constantFrom(...PROTOTYPE_NAMES, "de677e5818985db1285d0e80225f06e5"), { minLength: 1, maxLength: 3 }),
  packageLabel: fc.constantFrom(...PROTOTYPE_NAMES),
  groupLabel: fc.constantFrom(...PROTOTYPE_NAMES),
  jsonRuleLabels: fc.uniqueArray(fc.constantFrom(...PROTOTYPE_NAMES, ...SAFE_NAMES), { minLength: 1, maxLength: 3 }),
  extraAttribute: fc.constantFrom(...PROTOTYPE_NAMES),
  variableName: fc.constantFrom(...PROTOTYPE_NAMES),
  outputName: fc.constantFrom(...PROTOTYPE_NAMES),
  literalZoneId: fc.constantFrom(...PROTOTYPE_NAMES, "0da42c8d2132a9ddaf714f9e7c920711"),
  countKeyRule: fc.constantFrom(...PROTOTYPE_NAMES),
  withState: fc.boolean(),
});

const ZONE_ID = "5f0d8a7b6c5d4e3f2a1b0c9d8e7f6a5b";
const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';

/** The tree's files for one assignment of names (the same function renders the renamed twin). @param {any} n */
export function renderPrototypeTree(n) {
  const q = JSON.stringify;
  const main = [
    `variable "${n.variableName}" {\n  type    = map(string)\n  default = {\n${n.groupKeys.map((k) => `    ${q(k)} = "off"`).join("\n")}\n  }\n}`,
    `locals {\n  zones = {\n${n.forEachKeys.map((k) => `    ${q(k)} = { zone_id = cloudflare_zone.${n.zoneLabel}.id }`).join("\n")}\n  }\n}`,
    `resource "cloudflare_zone" "${n.zoneLabel}" {\n  zone = "example.com"\n  plan = "business"\n}`,
    `module "${n.moduleName}" {\n  source   = "./modules/waf"\n  for_each = local.zones\n\n  zone_id     = each.value.zone_id\n  group_modes = var.${n.variableName}\n}`,
    `output "${n.outputName}" {\n  value = cloudflare_zone.${n.zoneLabel}.id\n}`,
  ].join("\n\n") + "\n";
  const mod = [
    `variable "zone_id" {\n  type = string\n}`,
    `variable "group_modes" {\n  type = map(string)\n}`,
    `resource "cloudflare_waf_package" "${n.packageLabel}" {\n  zone_id     = var.zone_id\n  package_id  = "c504870194831cd12c3fc0284f294abb"\n  sensitivity = "high"\n  ${n.extraAttribute} = "x"\n}`,
    `resource "cloudflare_waf_group" "${n.groupLabel}" {\n  for_each = var.group_modes\n\n  zone_id  = var.zone_id\n  group_id = each.key\n  mode     = each.value\n}`,
  ].join("\n\n") + "\n";
  /** @type {Record<string, unknown>} */
  const rules = Object.create(null);
  n.jsonRuleLabels.forEach((/** @type {string} */ label, /** @type {number} */ i) => {
    rules[label] = { zone_id: i === 0 ? n.literalZoneId : "${cloudflare_zone." + n.zoneLabel + ".id}", rule_id: String(100015 + i), mode: "block", [n.extraAttribute]: "y" };
  });
  const json = JSON.stringify({ resource: { cloudflare_waf_rule: rules } }, null, 2) + "\n";
  const resources = [
    { mode: "managed", type: "cloudflare_zone", name: n.zoneLabel, provider: PROVIDER, instances: [{ schema_version: 0, attributes: { id: ZONE_ID, zone: "example.com", plan: "business" } }] },
    ...n.forEachKeys.flatMap((/** @type {string} */ k) => [
      { module: `module.${n.moduleName}[${q(k)}]`, mode: "managed", type: "cloudflare_waf_package", name: n.packageLabel, provider: PROVIDER, instances: [{ schema_version: 0, attributes: { id: `p-${k}`, zone_id: ZONE_ID, package_id: "c504870194831cd12c3fc0284f294abb", sensitivity: "high", action_mode: "block" } }] },
      { module: `module.${n.moduleName}[${q(k)}]`, mode: "managed", type: "cloudflare_waf_group", name: n.groupLabel, provider: PROVIDER, instances: n.groupKeys.map((/** @type {string} */ g) => ({ index_key: g, schema_version: 0, attributes: { id: `g-${k}-${g}`, zone_id: ZONE_ID, group_id: g, mode: "off" } })) },
    ]),
    ...n.jsonRuleLabels.map((/** @type {string} */ label, /** @type {number} */ i) => ({ mode: "managed", type: "cloudflare_waf_rule", name: label, provider: PROVIDER, instances: [{ schema_version: 0, attributes: { id: `r-${label}`, zone_id: i === 0 ? n.literalZoneId : ZONE_ID, rule_id: String(100015 + i), mode: "block" } }] })),
    { mode: "managed", type: "cloudflare_waf_rule", name: "counted", provider: PROVIDER, instances: [{ index_key: n.countKeyRule, schema_version: 0, attributes: { id: "c1", zone_id: n.literalZoneId, rule_id: "100099", mode: "simulate" } }] },
  ];
  const state = JSON.stringify({ version: 4, terraform_version: "1.5.7", serial: 1, lineage: "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d", outputs: { [n.outputName]: { value: ZONE_ID, type: "string" } }, resources }, null, 2) + "\n";
  return [
    { file: "main.tf", text: main },
    { file: "modules/waf/main.tf", text: mod },
    { file: "rules.tf.json", text: json },
    ...(n.withState ? [{ file: "terraform.tfstate", text: state }] : []),
  ];
}

/** The same assignment with every prototype name replaced by a harmless one (`zz` + name). @param {any} n */
export function renamedPrototypeTree(n) {
  /** @param {unknown} v @returns {any} */
  const map = (v) => (typeof v === "string" ? (PROTOTYPE_NAMES.includes(v) ? `zz${v}` : v) : Array.isArray(v) ? v.map(map) : v);
  /** @type {any} */
  const out = {};
  for (const [k, v] of Object.entries(n)) out[k] = map(v);
  return out;
}

// ---- nested expressions and doubling locals (issue 17) ----------------------------------------------------

/** Nesting shapes of the evaluator's constructs; `e` is the expression one level down. */
export const EXPRESSION_SHAPES = {
  "cond-other": (e, i) => `var.c ? ["a${i}"] : (${e})`,
  "cond-taken": (e, i) => `var.c ? (${e}) : ["a${i}"]`,
  "cond-list": (e, i) => `var.c ? [${e}] : toset(["a${i}"])`,
  "cond-compare": (e, i) => `(var.c ? ${e} : ["a${i}"]) == [] ? [] : ["x"]`,
  call: (e) => `concat(coalesce(${e}, []), [])`,
  lookup: (e) => `lookup({ k = ${e} }, "k", [])`,
  for: (e) => `[for x in ${e} : x]`,
  "for-map": (e) => `values({ for i, x in ${e} : tostring(i) => x })`,
  template: (e) => `"\${jsonencode(${e})}"`,
  try: (e) => `try(${e}, can(var.c) ? [] : [])`,
  set: (e) => `tolist(toset(flatten([${e}])))`,
};

/**
 * An expression nesting up to 400 random shapes around a small list, with optionally a chain of up to 45
 * locals that each double the one before (a list or a string): linear text, exponential value written out.
 */
export const nestedExpression = fc
  .record({
    shapes: fc.array(fc.constantFrom(...Object.keys(EXPRESSION_SHAPES)), { minLength: 1, maxLength: 400 }),
    c: fc.boolean(),
    doubling: fc.constantFrom("none", "list", "string"),
    steps: fc.nat({ max: 45 }),
  })
  .map(({ shapes, c, doubling, steps }) => {
    const locals = {};
    let inner = '["z"]';
    if (doubling !== "none") {
      locals.d0 = doubling === "list" ? '["a", "b"]' : '"ab"';
      for (let i = 1; i <= steps; i++) locals[`d${i}`] = doubling === "list" ? `[local.d${i - 1}, local.d${i - 1}]` : `"\${local.d${i - 1}}\${local.d${i - 1}}"`;
      inner = doubling === "list" ? `flatten(local.d${steps})` : `[local.d${steps}]`;
    }
    let text = inner;
    shapes.forEach((s, i) => (text = EXPRESSION_SHAPES[s](text, i)));
    return { text, c, locals, shapes, doubling, steps };
  });
