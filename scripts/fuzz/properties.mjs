// @ts-check
// The properties the fuzz run (scripts/fuzz.mjs, against dist/) and the property tests (test/property/*,
// against src/) both check. Each property takes the implementation as an argument, so one definition serves
// both; each keeps counters (what kind of outcome each case had) for the fuzz report.
//
// A failure is either a crash (the code under test threw: the scanner must never let an exception escape)
// or a violation (it returned something the contract forbids). Both fail the run.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import * as g from "./generators.mjs";

/**
 * The code under test. Fuzzing passes dist/ modules, tests pass src/ modules.
 * @typedef {{
 *   parseConfigFile: (file: string, text: string) => Promise<any>;
 *   parseConfigFileSelective?: (file: string, text: string, opts: any) => Promise<any>;
 *   scanStructure: (text: string) => any;
 *   hcl2json: (file: string, text: string) => Promise<any>;
 *   hcl2parser?: { parseToObject: (text: string) => [any, any] };
 *   parseStateText: (text: string, display: string) => any;
 *   formatAddress: (a: any) => string;
 *   parseAddress: (s: string) => any;
 *   formatModulePath: (steps: any[]) => string;
 *   quoteHclString: (s: string) => string;
 *   pageRuleTargetToExpression: (target: string, opts?: { zoneName?: string | null; meter?: { steps: number } }) => { expression: string };
 *   evaluateExpression: (expr: string, req: { url: string }) => boolean;
 *   pageRuleMatches: (target: string, url: string) => boolean;
 *   loadWorkspace: (opts: any) => Promise<any>;
 *   createSecretRedactor?: (input: { secrets: string[]; wholeOnly?: string[]; marker: string }) => (text: string) => string;
 *   analyze?: (inv: any, opts: any) => any;
 *   templateCostOverrun?: (text: string) => unknown;
 *   evaluate?: (expr: any, scope: any, meter?: { steps: number }) => any;
 *   parseExpression?: (text: string) => any;
 *   maxEvaluationSteps?: number;
 *   parseWithRuntime?: (file: string, text: string) => Promise<unknown>;
 * }} Impl
 * @typedef {{ file: string; text: string }} Fixture
 * @typedef {{ hcl: Fixture[]; json: Fixture[]; state: Fixture[]; trees: { name: string; files: Fixture[] }[] }} Fixtures
 * @typedef {{ impl: Impl; fixtures: Fixtures }} Ctx
 * @typedef {Map<string, number>} Stats
 * @typedef {{
 *   name: string;
 *   title: string;
 *   arbitrary: (ctx: Ctx) => fc.Arbitrary<any>;
 *   run: (input: any, ctx: Ctx, stats: Stats) => Promise<void> | void;
 *   show?: (input: any) => unknown;
 * }} Property
 */

export class Violation extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "Violation";
  }
}

export class Crash extends Error {
  /** @param {string} what @param {unknown} cause */
  constructor(what, cause) {
    const e = /** @type {Error} */ (cause);
    super(`${what} threw ${e?.name ?? typeof cause}: ${e?.message ?? String(cause)}`);
    this.name = "Crash";
    this.stackOfCause = e?.stack ?? String(cause);
  }
}

/**
 * A violation already found, described for its owner, and not yet fixed: counted per case (the fuzz report
 * lists the counts) instead of failing the run. Remove an entry when its count stays at zero.
 */
export class KnownIssue extends Error {
  /** @param {string} id @param {string} detail */
  constructor(id, detail) {
    super(`known issue ${id}: ${detail}`);
    this.name = "KnownIssue";
    this.id = id;
  }
}

/** @type {Record<string, { owner: string; what: string; matchError?: (e: any) => boolean }>} */
export const KNOWN_ISSUES = {
};

/** Throws the known issue an error entry is an instance of, if any. @param {any} error */
function knownErrorIssue(error) {
  for (const [id, k] of Object.entries(KNOWN_ISSUES)) if (k.matchError?.(error)) throw new KnownIssue(id, String(error.message).slice(0, 120));
}

/** @param {unknown} cond @param {string} message @returns {asserts cond} */
function ensure(cond, message) {
  if (!cond) throw new Violation(message);
}

/** Runs the code under test: anything it throws is a crash. @template T @param {string} what @param {() => T | Promise<T>} fn @returns {Promise<T>} */
async function guarded(what, fn) {
  try {
    return await fn();
  } catch (e) {
    throw new Crash(what, e);
  }
}

/** @param {Stats} stats @param {string} key */
function count(stats, key) {
  stats.set(key, (stats.get(key) ?? 0) + 1);
}

/** @param {string} text */
function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset. @param {string} text @param {number} offset */
function lineOf(text, offset) {
  let n = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Short, printable form of a long text for failure reports. @param {string} text */
export function clip(text, max = 400) {
  return text.length <= max ? text : `${text.slice(0, max / 2)}…[${text.length - max} more]…${text.slice(-max / 2)}`;
}

/**
 * An error entry as the contract wants it: the file named, a line inside the text, a column when given,
 * and a one-line message.
 * @param {any} error @param {string} file @param {string} text @param {string} where
 */
function checkPositionedError(error, file, text, where) {
  ensure(error && typeof error === "object", `${where}: error is not an object`);
  if (!Number.isInteger(error.line)) knownErrorIssue(error);
  ensure(error.file === file, `${where}: error names ${JSON.stringify(error.file)}, not ${JSON.stringify(file)}`);
  ensure(typeof error.message === "string" && error.message.trim() !== "", `${where}: error without a message`);
  ensure(!error.message.includes("\n"), `${where}: multi-line error message ${JSON.stringify(clip(error.message, 200))}`);
  ensure(Number.isInteger(error.line) && error.line >= 1, `${where}: error without a line: ${JSON.stringify(error)}`);
  const starts = lineStarts(text);
  ensure(error.line <= starts.length + 1, `${where}: line ${error.line} is past the end (${starts.length} lines)`);
  if (error.column !== null && error.column !== undefined) {
    ensure(Number.isInteger(error.column) && error.column >= 1, `${where}: bad column ${error.column}`);
    if (error.line <= starts.length) {
      const lineEnd = error.line < starts.length ? starts[error.line] - 1 : text.length;
      const length = lineEnd - starts[error.line - 1];
      ensure(error.column <= length + 2, `${where}: column ${error.column} is past the end of line ${error.line} (${length} characters)`);
    }
  }
}

// ---- fixtures ------------------------------------------------------------------------------------------

/** @param {string} dir @param {string} base @returns {Promise<string[]>} */
async function walk(dir, base = dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "expected" || e.name === ".terraform") continue;
      out.push(...(await walk(full, base)));
    } else out.push(path.relative(base, full).split(path.sep).join("/"));
  }
  return out.sort();
}

/** Every configuration and state fixture of testdata/, and the fixture trees (for workspace runs). */
/** @param {string} root the repository root @returns {Promise<Fixtures>} */
export async function loadFixtures(root) {
  const testdata = path.join(root, "testdata");
  const files = await walk(testdata);
  /** @type {Fixtures} */
  const fx = { hcl: [], json: [], state: [], trees: [] };
  for (const f of files) {
    const text = await readFile(path.join(testdata, f), "utf8");
    if (f.endsWith(".tf")) fx.hcl.push({ file: f, text });
    else if (f.endsWith(".tf.json")) fx.json.push({ file: f, text });
    else if (f.endsWith(".tfstate")) fx.state.push({ file: f, text });
  }
  for (const name of ["multi-zone", "broken", "certificates", "provider-upgrade", "hand-migrated-bypass", "already-migrated"]) {
    const tree = files.filter((f) => f.startsWith(`${name}/`) && /\.(tf|tf\.json|tfstate|hcl)$/.test(f));
    fx.trees.push({ name, files: await Promise.all(tree.map(async (f) => ({ file: f.slice(name.length + 1), text: await readFile(path.join(testdata, f), "utf8") }))) });
  }
  return fx;
}

// ---- HCL -----------------------------------------------------------------------------------------------

/** The top-level (type, labels) multiset of an hcl2json body, leaving out top-level attributes. */
/** @param {Record<string, unknown>} body @param {string[]} attributes @returns {string[]} */
function hcl2jsonInventory(body, attributes) {
  /** @type {string[]} */
  const out = [];
  /** @param {unknown} v @param {string} type @param {string[]} labels */
  const visit = (v, type, labels) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) out.push(JSON.stringify([type, ...labels]));
    } else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) visit(inner, type, [...labels, k]);
    } else throw new Violation(`hcl2json gave a non-block value at ${type} ${JSON.stringify(labels)}`);
  };
  for (const [type, v] of Object.entries(body)) if (!attributes.includes(type)) visit(v, type, []);
  return out.sort();
}

/** @param {{ type: string; labels: string[] }[]} blocks */
function inventoryOf(blocks) {
  return blocks.map((b) => JSON.stringify([b.type, ...b.labels])).sort();
}

/** @param {string[]} a @param {string[]} b */
function multisetDiff(a, b) {
  const only = (/** @type {string[]} */ x, /** @type {string[]} */ y) => {
    const rest = [...y];
    return x.filter((/** @type {string} */ v) => {
      const i = rest.indexOf(v);
      if (i === -1) return true;
      rest.splice(i, 1);
      return false;
    });
  };
  return { onlyLeft: only(a, b), onlyRight: only(b, a) };
}

/** Structural blocks: ranges inside the text, in order, lines right, each range holding exactly that block. */
/** @param {string} text @param {any[]} blocks @param {(t: string) => any} scan */
function checkRanges(text, blocks, scan) {
  let prevEnd = 0;
  for (const b of blocks) {
    const where = `block ${b.type} ${JSON.stringify(b.labels)}`;
    ensure(b.start >= prevEnd && b.start < b.bodyStart && b.bodyStart <= b.bodyEnd && b.bodyEnd < b.end && b.end <= text.length, `${where}: ranges out of order ${JSON.stringify([b.start, b.bodyStart, b.bodyEnd, b.end])}`);
    ensure(text.startsWith(b.type, b.start), `${where}: does not start with its type`);
    ensure(text[b.bodyStart - 1] === "{" && text[b.bodyEnd] === "}" && b.end === b.bodyEnd + 1, `${where}: body range is not {…}`);
    ensure(b.line === lineOf(text, b.start), `${where}: line ${b.line}, expected ${lineOf(text, b.start)}`);
    ensure(b.endLine === lineOf(text, b.bodyEnd), `${where}: end line ${b.endLine}, expected ${lineOf(text, b.bodyEnd)}`);
    const alone = scan(text.slice(b.start, b.end));
    ensure(alone.error === null && alone.blocks.length === 1 && alone.blocks[0].type === b.type && isDeepStrictEqual(alone.blocks[0].labels, b.labels), `${where}: its range does not hold exactly that block`);
    prevEnd = b.end;
  }
}

/** @param {string} text */
const hasLoneSurrogate = (text) => !(/** @type {any} */ (text).isWellFormed());

/** @type {Property} */
export const hclParse = {
  name: "hcl-parse",
  title: "parseConfigFile on mutated fixtures and generated files: never throws; a failure names file, line and column",
  arbitrary: ({ fixtures }) => g.mutatedConfig([...fixtures.hcl, ...fixtures.json]),
  async run(input, { impl }, stats) {
    const outcome = await guarded("parseConfigFile", () => impl.parseConfigFile(input.file, input.text));
    ensure(outcome && typeof outcome.ok === "boolean", "parseConfigFile returned no outcome");
    if (outcome.ok) {
      count(stats, "parsed");
      for (const b of outcome.parsed.blocks) ensure(Number.isInteger(b.line) && b.line >= 1 && b.line <= lineStarts(input.text).length, `block line ${b.line} outside the file`);
      return;
    }
    count(stats, outcome.error.column === null ? "error (line only)" : "error (line and column)");
    checkPositionedError(outcome.error, input.file, input.text, "parseConfigFile");
  },
  show: (input) => ({ file: input.file, mutations: input.mutations, text: clip(input.text, 1200) }),
};

/** Block labels decoded as HCL does (escapes, `$${`, `%%{`) from a block's head text (before its `{`). @param {string} head */
export function labelsFromHead(head) {
  /** @type {string[]} */
  const labels = [];
  const re = /"((?:[^"\\\n]|\\.)*)"|([A-Za-z_][A-Za-z0-9_-]*)|#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/|\s+/gu;
  let first = true;
  for (const m of head.matchAll(re)) {
    if (m[2] !== undefined) {
      if (first) first = false;
      else labels.push(m[2]);
    } else if (m[1] !== undefined) {
      labels.push(
        m[1]
          .replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e) =>
            e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : /** @type {Record<string, string>} */ ({ n: "\n", t: "\t", r: "\r" })[e] ?? e,
          )
          .replace(/\$\$\{/g, "${")
          .replace(/%%\{/g, "%{"),
      );
    }
  }
  return labels;
}

/** @type {Property} */
export const hclDifferential = {
  name: "hcl-differential",
  title: "structural pass vs @cdktn/hcl2json: same top-level block types, labels and counts; exact ranges",
  arbitrary: ({ fixtures }) =>
    fc.oneof(
      { weight: 3, arbitrary: g.validHclFile.map((f) => ({ origin: "generated", text: f.text, expected: f })) },
      { weight: 1, arbitrary: fc.constantFrom(...fixtures.hcl).map((f) => ({ origin: f.file, text: f.text, expected: null })) },
      { weight: 3, arbitrary: g.mutatedConfig(fixtures.hcl).map((m) => ({ origin: `${m.source} mutated`, text: m.text, mutations: m.mutations, expected: null })) },
    ),
  async run(input, { impl }, stats) {
    // A lone surrogate cannot come from a file (UTF-8 decoding replaces it); hcl2json sees U+FFFD instead.
    if (hasLoneSurrogate(input.text)) return void count(stats, "lone surrogate in the text (not compared)");
    const structure = await guarded("scanStructure", () => impl.scanStructure(input.text));
    /** @type {any} */
    let body = null;
    /** @type {unknown} */
    let rejected = null;
    try {
      body = await impl.hcl2json("t.tf", input.text);
    } catch (e) {
      rejected = e;
    }
    if (rejected !== null) {
      if (input.expected && !hasLoneSurrogate(input.text)) {
        throw new Violation(`hcl2json rejects a generated valid file (generator bug?): ${clip(String(/** @type {any} */ (rejected)?.message ?? rejected), 300)}`);
      }
      count(stats, structure.error ? "hcl2json rejects, structural flags it too" : "hcl2json rejects, structural accepts");
      return;
    }
    ensure(structure.error === null, `structural pass rejects a file hcl2json accepts: ${JSON.stringify(structure.error)}`);
    const fromStructure = inventoryOf(structure.blocks);
    const fromHcl2json = hcl2jsonInventory(body, structure.attributes);
    const d = multisetDiff(fromStructure, fromHcl2json);
    if (d.onlyLeft.length || d.onlyRight.length) {
      // Decode the labels from the block heads as HCL does: if that agrees, the structural pass's decoding is the difference.
      const redecoded = inventoryOf(structure.blocks.map((/** @type {any} */ b) => ({ type: b.type, labels: labelsFromHead(input.text.slice(b.start, b.bodyStart - 1)) })));
      if (isDeepStrictEqual(redecoded, fromHcl2json)) throw new KnownIssue("structural-label-escapes", `${d.onlyLeft.join(" ")} vs ${d.onlyRight.join(" ")}`);
    }
    ensure(d.onlyLeft.length === 0 && d.onlyRight.length === 0, `block inventories differ: structural only ${d.onlyLeft.join(" ")}; hcl2json only ${d.onlyRight.join(" ")}`);
    if (input.expected) {
      const e = multisetDiff(fromStructure, inventoryOf(input.expected.blocks));
      ensure(e.onlyLeft.length === 0 && e.onlyRight.length === 0, `structural inventory differs from the generated one: found ${e.onlyLeft.join(" ")}; generated ${e.onlyRight.join(" ")}`);
      ensure(isDeepStrictEqual(structure.blocks.map((/** @type {any} */ b) => b.type), input.expected.blocks.map((/** @type {any} */ b) => b.type)), "structural block order differs from the file's");
    }
    checkRanges(input.text, structure.blocks, impl.scanStructure);
    count(stats, `both accept (${input.expected ? "generated" : input.mutations ? "mutated" : "fixture"})`);
  },
  show: (input) => ({ origin: input.origin, mutations: input.mutations, text: clip(input.text, 1500) }),
};

/** Selective reading must equal the full reading (the fast reader claims to yield exactly hcl2json's output). */
/** @type {Property} */
export const hclSelective = {
  name: "hcl-selective",
  title: "parseConfigFileSelective (every block selected) gives exactly what parseConfigFile gives; skimming never throws",
  arbitrary: ({ fixtures }) => fc.tuple(g.mutatedConfig([...fixtures.hcl, ...fixtures.json]), fc.boolean()),
  async run([input, skim], { impl }, stats) {
    if (!impl.parseConfigFileSelective) return void count(stats, "not available");
    const full = await guarded("parseConfigFile", () => impl.parseConfigFile(input.file, input.text));
    if (skim) {
      const select = (/** @type {string} */ type) => type === "module" || type === "terraform" || type === "variable" || type === "locals";
      const part = await guarded("parseConfigFileSelective(skim)", () => impl.parseConfigFileSelective?.(input.file, input.text, { select, skim: true }));
      if (!part.ok && !Number.isInteger(part.error.line)) knownErrorIssue(part.error);
      if (!part.ok) checkPositionedError(part.error, input.file, input.text, "parseConfigFileSelective(skim)");
      // Skimming skips what it does not read, so it may accept a broken file; never the reverse. It may return
      // more than was selected (a file read whole), never something else for what was.
      if (full.ok) {
        ensure(part.ok, `skimming rejects a file the full parse accepts: ${JSON.stringify(part.error)}`);
        for (const type of ["module", "terraform", "variable", "locals"]) {
          if (type in full.parsed.body) ensure(isDeepStrictEqual(part.parsed.body[type], full.parsed.body[type]), `skimming reads ${type} differently: ${clip(JSON.stringify(part.parsed.body[type]))} vs ${clip(JSON.stringify(full.parsed.body[type]))}`);
        }
      }
      count(stats, `skim: ${part.ok ? "ok" : "error"}`);
      return;
    }
    const sel = await guarded("parseConfigFileSelective", () => impl.parseConfigFileSelective?.(input.file, input.text, { select: () => true }));
    if (!sel.ok && !Number.isInteger(sel.error.line)) knownErrorIssue(sel.error);
    ensure(sel.ok === full.ok, `selective ${sel.ok ? "accepts" : "rejects"} what the full parse ${full.ok ? "accepts" : "rejects"}: ${JSON.stringify(sel.ok ? full.error : sel.error)}`);
    if (!full.ok) {
      ensure(sel.error.line === full.error.line && sel.error.column === full.error.column, `error position differs: selective ${sel.error.line}:${sel.error.column}, full ${full.error.line}:${full.error.column}`);
      count(stats, sel.error.message === full.error.message ? "both reject, same error" : "both reject, same position, other message");
      return;
    }
    ensure(isDeepStrictEqual(sel.parsed.body, full.parsed.body), `bodies differ: selective ${clip(JSON.stringify(sel.parsed.body), 600)} vs full ${clip(JSON.stringify(full.parsed.body), 600)}`);
    const heads = (/** @type {any} */ p) => p.parsed.blocks.map((/** @type {any} */ b) => [b.type, b.labels, b.line]);
    ensure(isDeepStrictEqual(heads(sel), heads(full)), `block positions differ: ${JSON.stringify(heads(sel))} vs ${JSON.stringify(heads(full))}`);
    count(stats, "both accept, same result");
  },
  show: ([input, skim]) => ({ skim, file: input.file, mutations: input.mutations, text: clip(input.text, 1200) }),
};

/**
 * hcl2-parser (the old GopherJS build of the same converter) as a second opinion on values. Known, documented
 * differences are normalised away: it loses `$${`/`%%{` escapes and reads some expressions with older hcl.
 * @param {unknown} v
 * @returns {unknown}
 */
function normaliseForHcl2Parser(v) {
  if (typeof v === "string") return v.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
  if (Array.isArray(v)) return v.map(normaliseForHcl2Parser);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [/** @type {string} */ (normaliseForHcl2Parser(k)), normaliseForHcl2Parser(x)]));
  return v;
}

/** The first path where two JSON values differ. @param {unknown} a @param {unknown} b @returns {string | null} */
function firstDifference(a, b, at = "$") {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k], `${at}.${k}`);
      if (d) return d;
    }
  }
  return `${at}: ${clip(JSON.stringify(a) ?? "undefined", 160)} vs ${clip(JSON.stringify(b) ?? "undefined", 160)}`;
}

/** @type {Property} */
export const hclSecondOpinion = {
  name: "hcl2-parser-values",
  title: "hcl2-parser as a second opinion: where both parse, same blocks, and the same values after its documented escape loss",
  arbitrary: ({ fixtures }) =>
    fc.oneof(
      { weight: 4, arbitrary: g.validHclFile.map((f) => ({ origin: "generated", text: f.text })) },
      { weight: 1, arbitrary: fc.constantFrom(...fixtures.hcl).map((f) => ({ origin: f.file, text: f.text })) },
    ),
  async run(input, { impl }, stats) {
    if (!impl.hcl2parser) return void count(stats, "hcl2-parser not installed");
    let ours;
    try {
      ours = await impl.hcl2json("t.tf", input.text);
    } catch {
      return void count(stats, "hcl2json rejects");
    }
    const [theirs, err] = impl.hcl2parser.parseToObject(input.text);
    if (theirs === null || err) return void count(stats, "hcl2-parser cannot parse (hcl2json can)");
    const attributes = impl.scanStructure(input.text).attributes;
    const a = hcl2jsonInventory(ours, attributes);
    const b = hcl2jsonInventory(theirs, attributes);
    ensure(isDeepStrictEqual(a, b), `block inventories differ: ${firstDifference(a, b)}`);
    const diff = firstDifference(normaliseForHcl2Parser(ours), normaliseForHcl2Parser(theirs));
    if (diff === null) return void count(stats, "same values");
    // Older hcl formats some expressions' source differently; anything else is a disagreement worth reading.
    count(stats, "values differ (reported, not failed)");
    const key = `example: ${diff}`;
    if ([...stats.keys()].filter((k) => k.startsWith("example: ")).length < 3) count(stats, key);
  },
  show: (input) => ({ origin: input.origin, text: clip(input.text, 1500) }),
};

// ---- state ---------------------------------------------------------------------------------------------

/** @type {Property} */
export const stateParse = {
  name: "state-parse",
  title: "parseStateText on mutated states (tree and text mutations): never throws; a JSON error names file, line and column",
  arbitrary: ({ fixtures, impl }) => g.mutatedState(fixtures.state, g.stateDocument(impl.formatModulePath, impl.formatAddress)),
  async run(input, { impl }, stats) {
    const display = "terraform.tfstate";
    const outcome = await guarded("parseStateText", () => impl.parseStateText(input.text, display));
    ensure(outcome && typeof outcome.ok === "boolean", "parseStateText returned no outcome");
    if (outcome.ok) {
      for (const inst of outcome.state.instances) {
        let back;
        try {
          back = impl.parseAddress(inst.address);
        } catch {
          throw new KnownIssue("state-invalid-names-accepted", inst.address);
        }
        ensure(impl.formatAddress(back) === inst.address, `instance address does not round-trip: ${inst.address}`);
      }
      return void count(stats, "read");
    }
    const e = outcome.error;
    let json = true;
    try {
      JSON.parse(input.text);
    } catch {
      json = false;
    }
    if (!json && input.text.trim() !== "") {
      checkPositionedError(e, display, input.text, "parseStateText");
      return void count(stats, "JSON syntax error with line and column");
    }
    // Valid JSON that is not a state (or an empty file): the file and a reason; positions are not located.
    ensure(e.file === display && typeof e.message === "string" && e.message.trim() !== "", `state error without file or message: ${JSON.stringify(e)}`);
    count(stats, e.line === null ? "not a state (no line)" : "not a state (with line)");
  },
  show: (input) => ({ source: input.source, tree: input.tree, mutations: input.mutations, text: clip(input.text, 1500) }),
};

/** @type {Property} */
export const stateAddresses = {
  name: "state-addresses",
  title: "generated states (v4 and show -json, awkward keys and module paths) list exactly the addresses they hold",
  arbitrary: ({ impl }) => g.stateDocument(impl.formatModulePath, impl.formatAddress),
  async run(input, { impl }, stats) {
    const outcome = await guarded("parseStateText", () => impl.parseStateText(JSON.stringify(input.doc), "s.tfstate"));
    ensure(outcome.ok, `a valid state is rejected: ${JSON.stringify(outcome.error)}`);
    const got = outcome.state.instances.map((/** @type {any} */ i) => i.address);
    ensure(isDeepStrictEqual([...got].sort(), [...input.expected].sort()), `addresses differ: got ${JSON.stringify(got)}, expected ${JSON.stringify(input.expected)}`);
    count(stats, "format_version" in input.doc ? "show -json" : "state v4");
  },
  show: (input) => input,
};

// ---- addresses -----------------------------------------------------------------------------------------

/** @param {any} a */
function canonicalAddress(a) {
  /** @param {any} s */
  const step = (s) => (s.key === undefined ? { name: s.name } : { name: s.name, key: s.key });
  return { modules: a.modules.map(step), mode: a.mode, type: a.type, name: a.name, ...(a.key === undefined ? {} : { key: a.key }) };
}

/** @type {Property} */
export const addressRoundTrip = {
  name: "address-roundtrip",
  title: "formatAddress then parseAddress gives the same address for any keys (quotes, backslashes, unicode, digits as strings)",
  arbitrary: () => g.parsedAddress,
  async run(a, { impl }, stats) {
    const text = await guarded("formatAddress", () => impl.formatAddress(a));
    ensure(!/[\u0000-\u001f\u007f\u2028\u2029]/.test(text), `formatted address holds a raw control character: ${JSON.stringify(text)}`);
    const back = await guarded(`parseAddress(${JSON.stringify(text)})`, () => impl.parseAddress(text));
    ensure(isDeepStrictEqual(canonicalAddress(back), canonicalAddress(a)), `round trip changed the address: ${JSON.stringify(a)} -> ${JSON.stringify(text)} -> ${JSON.stringify(back)}`);
    ensure(impl.formatAddress(back) === text, "formatting is not canonical");
    count(stats, typeof a.key === "string" ? "string key" : typeof a.key === "number" ? "number key" : "no key");
  },
  show: (a) => a,
};

/** @type {Property} */
export const addressKeyDecoding = {
  name: "address-key-hcl",
  title: "quoteHclString(key) is an HCL quoted string that hcl2json decodes back to the key (as a block label)",
  arbitrary: () => g.indexKey.filter((k) => typeof k === "string" && /** @type {any} */ (k).isWellFormed()),
  async run(key, { impl }, stats) {
    const quoted = impl.quoteHclString(key);
    let body;
    try {
      body = await impl.hcl2json("k.tf", `k ${quoted} {}\n`);
    } catch (e) {
      throw new Violation(`hcl2json rejects the quoted key ${quoted}: ${clip(String(/** @type {any} */ (e)?.message ?? e), 300)}`);
    }
    ensure(isDeepStrictEqual(Object.keys(body.k ?? {}), [key]), `hcl2json decodes ${quoted} as ${JSON.stringify(Object.keys(body.k ?? {}))}, not ${JSON.stringify(key)}`);
    count(stats, /[^\x20-\x7e]/.test(key) ? "key with non-ASCII or control characters" : "printable ASCII key");
  },
  show: (k) => ({ key: k }),
};

// ---- Page Rules ----------------------------------------------------------------------------------------

/** @type {Property} */
export const pageRuleExpression = {
  name: "page-rule-expression",
  title: "Page Rule pattern -> expression matches exactly the URLs the pattern matches (reference matcher)",
  arbitrary: () => g.patternAndUrl,
  async run([parts, url], { impl }, stats) {
    const target = g.renderPattern(parts);
    let translated;
    try {
      translated = impl.pageRuleTargetToExpression(target);
    } catch (e) {
      // A refusal is allowed (an untranslatable target), as a plain Error with a message.
      ensure(e instanceof Error && e.message.length > 0 && !(e instanceof TypeError) && !(e instanceof RangeError), `translator failed with ${String(e)}`);
      return void count(stats, "target refused");
    }
    const { expression } = translated;
    ensure(!expression.includes("full_uri"), `whole-URL wildcard in ${expression}`);
    let expected;
    try {
      expected = impl.pageRuleMatches(target, url);
    } catch {
      return void count(stats, "reference cannot read target");
    }
    const got = await guarded(`evaluateExpression(${JSON.stringify(expression)})`, () => impl.evaluateExpression(expression, { url }));
    ensure(got === expected, `${JSON.stringify(target)} on ${JSON.stringify(url)}: expression ${expression} says ${got}, the pattern ${expected}`);
    count(stats, expected ? "matches" : "does not match");
  },
  show: ([parts, url]) => ({ target: g.renderPattern(parts), url }),
};

/** Work allowed per character of a target (plus a constant): the translator makes a few passes, no more. */
const PAGE_RULE_STEPS_PER_CHAR = 40;

/** @type {Property} */
export const pageRuleHostileTargets = {
  name: "page-rule-untranslatable",
  title: "Page Rule target of any shape: an expression or an UntranslatableTargetError with a fix, in linear work",
  arbitrary: () => g.hostileTarget,
  async run({ target, zoneName }, { impl }, stats) {
    const meter = { steps: 0 };
    let translated;
    try {
      translated = impl.pageRuleTargetToExpression(target, { zoneName, meter });
    } catch (e) {
      // Untranslatable input is a finding on the Page Rule (PAGE_RULE_TARGET_UNTRANSLATABLE): anything else is a crash.
      if (/** @type {any} */ (e)?.name !== "UntranslatableTargetError") throw new Crash(`pageRuleTargetToExpression(${clip(JSON.stringify(target), 120)})`, e);
      const err = /** @type {any} */ (e);
      ensure(err.message.length > 0 && typeof err.hint === "string" && err.hint.length > 0, `refusal without a message or a fix: ${String(err.message)}`);
      if (/[^\u0000-\u007f]/.test(target.split(/[/?]/, 1)[0] ?? "") && /not ASCII/.test(err.message) && !target.includes("*")) {
        ensure(/xn--|punycode/.test(err.hint), `a non-ASCII host's fix names no punycode form: ${err.hint}`);
      }
      count(stats, "refused as untranslatable");
    }
    ensure(meter.steps <= PAGE_RULE_STEPS_PER_CHAR * (target.length + 64), `${meter.steps} steps for a ${target.length}-character target: not linear`);
    if (!translated) return;
    ensure(!translated.expression.includes("full_uri"), `whole-URL wildcard in ${clip(translated.expression)}`);
    if (target.length < 400) {
      await guarded(`evaluateExpression(${clip(JSON.stringify(translated.expression))})`, () => impl.evaluateExpression(translated.expression, { url: "https://shop.example.com/admin/x" }));
    }
    count(stats, target.length >= 1_000 ? "translated (long target)" : "translated");
  },
  show: (input) => ({ zoneName: input.zoneName, target: clip(input.target, 300), length: input.target.length }),
};

// ---- expression evaluation cost (issue 17) ------------------------------------------------------------

/** Evaluation steps allowed per character of expression text (every local's included), plus a constant. */
const EXPRESSION_STEPS_PER_CHAR = 1;

/** @type {Property} */
export const expressionCost = {
  name: "expression-cost",
  title: "nested conditionals, calls, for, templates, try and doubling locals: evaluated in linear steps, Unknown past a bound, never a crash",
  arbitrary: () => g.nestedExpression,
  run(input, { impl }, stats) {
    if (!impl.evaluate || !impl.parseExpression) return void count(stats, "not available");
    const { evaluate, parseExpression } = impl;
    const meter = { steps: 0 };
    const cache = new Map();
    /** @type {any} */
    const scope = {
      reference: (/** @type {string[]} */ parts) => {
        if (parts[0] === "var" && parts[1] === "c") return input.c;
        const name = parts[1] ?? "";
        if (parts[0] === "local" && Object.hasOwn(input.locals, name)) {
          if (!cache.has(name)) cache.set(name, evaluate(parseExpression(input.locals[name]), scope, meter));
          return cache.get(name);
        }
        throw new Violation(`unexpected reference ${parts.join(".")}`);
      },
      readFile: () => "",
    };
    let value;
    try {
      value = evaluate(parseExpression(input.text), scope, meter);
    } catch (e) {
      // An error terraform would raise (EvalError) is allowed; anything else escaped the evaluator.
      if (!(e instanceof Error) || e.constructor.name !== "EvalError") throw new Crash(`evaluate(${clip(input.text, 200)})`, e);
      value = "error";
    }
    const chars = input.text.length + Object.values(input.locals).reduce((n, t) => n + t.length, 0);
    if (input.doubling === "none") {
      ensure(meter.steps <= EXPRESSION_STEPS_PER_CHAR * chars + 64, `${meter.steps} steps for ${chars} characters of expression: not linear`);
    } else {
      // A `for` over a doubled value does work per element: each evaluation (the expression, each local once) is bounded.
      const evaluations = 1 + cache.size;
      ensure(meter.steps <= EXPRESSION_STEPS_PER_CHAR * chars + evaluations * (impl.maxEvaluationSteps ?? 1 << 22) + 64, `${meter.steps} steps over ${evaluations} evaluations: past the bound`);
    }
    const kind = value === "error" ? "error" : value?.constructor?.name === "Unknown" ? (/too (large|long)|steps/.test(value.reason) ? "unknown: over the bound" : "unknown") : "known";
    count(stats, `${input.doubling === "none" ? "nested" : `doubling ${input.doubling}`}: ${kind}`);
  },
  show: (input) => ({ shapes: input.shapes, c: input.c, doubling: input.doubling, steps: input.steps, length: input.text.length }),
};

// ---- template runs ---------------------------------------------------------------------------------------

/** @type {Property} */
export const templateRuns = {
  name: "template-runs",
  title: "long runs of $ and % in a template: read by the fast reader or within hcl2json's work budget, else a positioned error",
  arbitrary: () => g.templateRun,
  async run(input, { impl }, stats) {
    if (!impl.parseConfigFileSelective || !impl.templateCostOverrun || !impl.parseWithRuntime) return void count(stats, "not available");
    /** @type {string[]} */
    const texts = [];
    const judge = {
      bytes: 0,
      close: async () => {},
      parse: async (/** @type {string} */ file, /** @type {string} */ text) => {
        texts.push(text);
        return impl.parseWithRuntime?.(file, text);
      },
    };
    const out = await guarded("parseConfigFileSelective", () => impl.parseConfigFileSelective?.("main.tf", input.text, { select: () => true, judge }));
    if (!out.ok) checkPositionedError(out.error, "main.tf", input.text, "parseConfigFileSelective");
    // The only text over the budget hcl2json may be handed is one its guard refuses before scanning.
    const over = texts.filter((t) => impl.templateCostOverrun?.(t) !== null);
    if (over.length) ensure(!out.ok && /^Template text too costly to read/.test(out.error.message), `a text over the work budget reached hcl2json: ${out.ok ? "it was parsed" : out.error.message}`);
    const size = input.text.length >= 100_000 ? "long" : "short";
    count(stats, `${size}: ${texts.length === 0 ? "fast reader alone" : over.length ? "refused over the budget" : "hcl2json within the budget"}, ${out.ok ? "read" : "error"}`);
  },
  show: (input) => ({ piece: input.piece, times: input.times, where: input.where, after: input.after, legacy: input.legacy, length: input.text.length }),
};

// ---- credential redaction -------------------------------------------------------------------------------

/**
 * What an independent reader could recover of a credential from a text: any 8-character run of it
 * (ASCII case-insensitive, also with separators removed), 16 hex digits of it, or base64 of it at any
 * alignment (10 characters that depend on the credential's bytes alone).
 * @param {string} text @param {string} secret @returns {string | null}
 */
function credentialLeak(text, secret) {
  const lower = text.toLowerCase();
  const squeezed = lower.replace(/[^a-z0-9]+/g, "");
  const s = secret.toLowerCase();
  const sq = s.replace(/[^a-z0-9]+/g, "");
  for (let i = 0; i + 8 <= s.length; i++) if (lower.includes(s.slice(i, i + 8))) return `run ${s.slice(i, i + 8)}`;
  for (let i = 0; i + 8 <= sq.length; i++) if (squeezed.includes(sq.slice(i, i + 8))) return `spaced run ${sq.slice(i, i + 8)}`;
  const hex = Buffer.from(secret).toString("hex");
  for (let i = 0; i + 16 <= hex.length; i += 2) if (squeezed.includes(hex.slice(i, i + 16))) return `hex ${hex.slice(i, i + 16)}`;
  for (let skip = 0; skip < 3; skip++) {
    const bytes = Buffer.from(secret).subarray(skip);
    for (const enc of [bytes.toString("base64"), bytes.toString("base64url")]) {
      const core = enc.slice(0, Math.floor(bytes.length / 3) * 4);
      for (let i = 0; i + 12 <= core.length; i += 4) if (text.includes(core.slice(i, i + 12))) return `base64 ${core.slice(i, i + 12)}`;
    }
  }
  return null;
}

/** @type {Property} */
export const credentialRedaction = {
  name: "credential-echo",
  title: "a credential echoed cut, re-cased, spaced, hex or base64 never survives the redactor",
  arbitrary: () => g.credentialEcho,
  async run({ secret, piece, how, email, text }, { impl }, stats) {
    if (!impl.createSecretRedactor) return void count(stats, "no redactor in this build");
    const redact = impl.createSecretRedactor({ secrets: [secret], wholeOnly: [email], marker: "[REDACTED]" });
    const out = await guarded("redact", () => redact(text));
    const leak = credentialLeak(out, secret);
    ensure(leak === null, `${how} echo of ${JSON.stringify(piece)} leaks ${leak} in ${clip(JSON.stringify(out), 300)}`);
    // A separated echo (`a b c`, `a-b-c`) is recognised by its letters and digits: with fewer than 8 of
    // them (a piece full of the credential's own `-`/`_`) it is below the threshold, like a 7-character cut.
    const separated = how === "spaced" || how === "dashed";
    if (separated && piece.replace(/[^A-Za-z0-9]/g, "").length < 8) return void count(stats, `${how}: fewer than 8 letters and digits`);
    ensure(out.includes("[REDACTED]"), `${how} echo of ${JSON.stringify(piece)} was not redacted at all`);
    count(stats, `${how} redacted`);
  },
  show: (input) => input,
};

// ---- workspace pipeline ------------------------------------------------------------------------------------

/** @param {Fixtures} fixtures */
function workspaceCase(fixtures) {
  const trees = fixtures.trees.filter((t) => t.files.some((f) => f.file.endsWith(".tf")));
  return fc
    .record({
      tree: fc.constantFrom(...trees),
      which: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }),
      ms: fc.array(g.mutations, { minLength: 2, maxLength: 2 }),
      jsonMs: fc.array(g.jsonMutations, { minLength: 2, maxLength: 2 }),
      extra: fc.option(g.validHclFile, { freq: 3 }),
      stateMutation: fc.option(fc.tuple(fc.array(g.treeMutation, { maxLength: 2 }), fc.oneof(fc.constant([]), g.jsonMutations)), { freq: 2 }),
      fullParse: fc.boolean(),
    })
    .map(({ tree, which, ms, jsonMs, extra, stateMutation, fullParse }) => {
      const configs = tree.files.map((f, i) => ({ ...f, index: i })).filter((f) => !f.file.endsWith(".tfstate") && !f.file.endsWith(".hcl"));
      const files = tree.files.map((f) => ({ file: f.file, text: f.text, mutations: /** @type {any[]} */ ([]) }));
      which.forEach((w, i) => {
        const target = configs[w % configs.length];
        const m = target.file.endsWith(".json") ? jsonMs[i] : ms[i];
        files[target.index] = { file: target.file, text: g.applyMutations(files[target.index].text, m), mutations: m };
      });
      if (extra) files.push({ file: "extra.tf", text: extra.text, mutations: [] });
      const state = files.find((f) => f.file.endsWith(".tfstate"));
      if (state && stateMutation) {
        const doc = stateMutation[0].reduce(g.applyTreeMutation, JSON.parse(state.text));
        state.text = g.applyMutations(JSON.stringify(doc, null, 2) ?? "null", /** @type {g.Mutation[]} */ (stateMutation[1]));
        state.mutations = [...stateMutation[0], ...stateMutation[1]];
      }
      return { tree: tree.name, files, fullParse };
    });
}

/** @type {Property} */
export const workspacePipeline = {
  name: "workspace",
  title: "loadWorkspace on a temp copy of a fixture tree with mutated files: never throws; every error names its file, and a line for configuration files",
  arbitrary: ({ fixtures }) => workspaceCase(fixtures),
  async run(input, { impl }, stats) {
    const dir = await mkdtemp(path.join(tmpdir(), "cfwm-fuzz-"));
    try {
      for (const f of input.files) {
        await mkdir(path.dirname(path.join(dir, f.file)), { recursive: true });
        await writeFile(path.join(dir, f.file), f.text);
      }
      const statePaths = input.files.filter((/** @type {any} */ f) => f.file.endsWith(".tfstate")).map((/** @type {any} */ f) => f.file);
      const ws = await guarded("loadWorkspace", () =>
        impl.loadWorkspace({ paths: [dir], statePaths, cwd: dir, readStdin: async () => Buffer.alloc(0), ...(input.fullParse ? { fullParse: true } : {}) }),
      );
      const configFiles = new Map(input.files.filter((/** @type {any} */ f) => /\.tf(\.json)?$/.test(f.file)).map((/** @type {any} */ f) => [f.file, f.text]));
      for (const e of ws.errors) {
        ensure(typeof e.file === "string" && e.file !== "" && typeof e.message === "string" && e.message !== "", `error without file or message: ${JSON.stringify(e)}`);
        const text = configFiles.get(e.file);
        if (text !== undefined) checkPositionedError(e, e.file, text, "loadWorkspace");
      }
      // A root-module file that holds Cloudflare resources and does not parse is always reported.
      for (const [file, text] of configFiles) {
        if (file.includes("/") || !text.includes("cloudflare_")) continue;
        const alone = await impl.parseConfigFile(file, text);
        if (!alone.ok) ensure(ws.errors.some((/** @type {any} */ e) => e.file === file), `${file} does not parse (${alone.error.message}) but the workspace reports no error for it`);
      }
      for (const r of ws.resources) {
        if (r.file !== null) ensure(Number.isInteger(r.line) && r.line >= 1, `resource ${r.address} has file ${r.file} but line ${r.line}`);
      }
      count(stats, ws.errors.length ? `errors reported (${input.fullParse ? "full" : "default"} reading)` : `clean (${input.fullParse ? "full" : "default"} reading)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  show: (input) => ({ tree: input.tree, fullParse: input.fullParse, files: input.files.filter((/** @type {any} */ f) => f.mutations.length).map((/** @type {any} */ f) => ({ file: f.file, mutations: f.mutations, text: clip(f.text, 800) })) }),
};

// ---- input keys that are Object.prototype members ---------------------------------------------------------

/** Writes a tree to a temp dir, loads and analyzes it; returns what the user sees, names as written. @param {Impl} impl @param {{ file: string; text: string }[]} files */
async function loadAndAnalyze(impl, files) {
  const dir = await mkdtemp(path.join(tmpdir(), "cfwm-proto-"));
  try {
    for (const f of files) {
      await mkdir(path.dirname(path.join(dir, f.file)), { recursive: true });
      await writeFile(path.join(dir, f.file), f.text);
    }
    const statePaths = files.filter((f) => f.file.endsWith(".tfstate")).map((f) => f.file);
    const ws = await guarded("loadWorkspace", () => impl.loadWorkspace({ paths: [dir], statePaths, cwd: dir, readStdin: async () => Buffer.alloc(0) }));
    const analysis = await guarded("analyze", () => /** @type {any} */ (impl.analyze)(ws.domain, {
      stateKnown: ws.stateKnown,
      // Plain objects, as a library caller passes them: a zone id like `toString` must not find a member.
      zonePlans: { "0da42c8d2132a9ddaf714f9e7c920711": "pro" },
      rulesetIds: {},
      configRulesets: {},
      rulesetResourceNames: {},
    }));
    return {
      errors: ws.errors.map((/** @type {any} */ e) => `${e.file}: ${e.message}`).sort(),
      resources: ws.resources.map((/** @type {any} */ r) => `${r.address} config=${r.inConfig} state=${r.inState}`).sort(),
      zones: analysis.zones
        .flatMap((/** @type {any} */ z) => [`${z.zone.zoneId} plan=${z.zone.plan} rules=${z.zone.ruleset.rules.length}`, ...z.zone.stateRemovals.map((/** @type {string} */ a) => `${z.zone.zoneId} removes ${a}`)])
        .sort(),
      findings: analysis.findings.map((/** @type {any} */ f) => `${f.code} ${f.address} ${f.zoneId} ${f.file}:${f.line}`).sort(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @type {Property} */
export const prototypeNames = {
  name: "prototype-names",
  title: "names like toString/constructor/__proto__ in labels, keys, modules, state and zone ids behave like any other name",
  arbitrary: () => g.prototypeTree,
  async run(names, { impl }, stats) {
    if (!impl.analyze) return void count(stats, "no analyze in this build");
    const got = await loadAndAnalyze(impl, g.renderPrototypeTree(names));
    const twin = await loadAndAnalyze(impl, g.renderPrototypeTree(g.renamedPrototypeTree(names)));
    // Back to the original names: `zz` + a prototype name only ever comes from the renaming.
    const back = (/** @type {string} */ s) => s.replace(/zz(__defineGetter__|__defineSetter__|hasOwnProperty|__lookupGetter__|__lookupSetter__|isPrototypeOf|propertyIsEnumerable|toString|valueOf|__proto__|toLocaleString|constructor)/g, "$1");
    for (const key of /** @type {const} */ (["errors", "resources", "zones", "findings"])) {
      const expected = twin[key].map(back).sort();
      ensure(isDeepStrictEqual(got[key], expected), `${key} differ from the renamed twin:\n  got      ${clip(JSON.stringify(got[key]), 600)}\n  expected ${clip(JSON.stringify(expected), 600)}`);
    }
    count(stats, names.withState ? "same as renamed twin (with state)" : "same as renamed twin (config only)");
  },
  show: (names) => names,
};

/** Every property, in report order. */
export const PROPERTIES = [hclParse, hclDifferential, hclSelective, hclSecondOpinion, stateParse, stateAddresses, addressRoundTrip, addressKeyDecoding, pageRuleExpression, pageRuleHostileTargets, expressionCost, templateRuns, credentialRedaction, prototypeNames, workspacePipeline];

/**
 * Runs one property for `numRuns` cases with fast-check (shrinking a failure to a minimal input).
 * @param {Property} prop @param {Ctx} ctx @param {{ seed: number; numRuns: number }} opts
 * @returns {Promise<{ name: string; runs: number; stats: Stats; failure: null | { error: unknown; counterexample: unknown; shrinks: number; seed: number; path?: string } }>}
 */
export async function runProperty(prop, ctx, opts) {
  /** @type {Stats} */
  const stats = new Map();
  let runs = 0;
  let shrinking = false;
  const details = await fc.check(
    fc.asyncProperty(prop.arbitrary(ctx), async (input) => {
      if (!shrinking) runs++;
      const s = shrinking ? new Map() : stats;
      try {
        await prop.run(input, ctx, s);
      } catch (e) {
        if (e instanceof KnownIssue) return void count(s, `known issue: ${e.id}`);
        shrinking = true;
        throw e;
      }
    }),
    { seed: opts.seed, numRuns: opts.numRuns },
  );
  if (!details.failed) return { name: prop.name, runs, stats, failure: null };
  return {
    name: prop.name,
    runs,
    stats,
    failure: { error: details.errorInstance, counterexample: details.counterexample?.[0], shrinks: details.numShrinks, seed: details.seed, path: details.counterexamplePath ?? undefined },
  };
}
