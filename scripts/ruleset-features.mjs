#!/usr/bin/env node
// Rebuilds src/core/data/ruleset-features.json: which `cloudflare_ruleset` blocks and attributes the
// Cloudflare provider's schema has at each release tag, read from the provider's own Go source.
//
//   node scripts/ruleset-features.mjs PATH/TO/terraform-provider-cloudflare [OUT.json]
//
// PATH is a git clone (a bare one is fine) of github.com/cloudflare/terraform-provider-cloudflare with its
// tags. Nothing here runs in the tests: the JSON it writes is the data the tool uses, and a test checks
// that the generator's version rules agree with it.
//
// How the schema is read. The resource's schema has lived in four places:
//   v2.26 – v3.4   cloudflare/resource_cloudflare_ruleset.go       SDKv2 `Schema: map[string]*schema.Schema{…}`
//   v3.5  – v4.x   */schema_cloudflare_ruleset.go                  SDKv2 `func resourceCloudflareRulesetSchema()`
//   late 4.x       internal/framework/service/rulesets/schema.go   plugin framework, nested *blocks*
//   v5.x           internal/services/ruleset/schema.go             plugin framework, nested *attributes*
// Each is Go composite literals nested by braces, where every schema entry is `"name": <type>{ … }` (or a
// `consts.XSchemaKey:` key). A small Go tokenizer (strings, raw strings, runes and comments skipped) walks
// the braces and keeps, for every entry, its path of entry names, whether it is a block or an attribute,
// and whether a configuration may set it (Optional/Required, or any block) or it is Computed only.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_URL = "https://github.com/cloudflare/terraform-provider-cloudflare";
const FIRST_TAG = "v2.26.0"; // cloudflare_ruleset first appears here

/** The constructs the table keeps (paths below the resource); the generator emits a subset of them. */
const CONSTRUCTS = [
  "import", // not a schema entry: `terraform import` / `import {}` of the resource (zone/<zone_id>/<ruleset_id>)
  "zone_id",
  "name",
  "description",
  "kind",
  "phase",
  "rules",
  "rules.ref",
  "rules.action",
  "rules.expression",
  "rules.description",
  "rules.enabled",
  "rules.version",
  "rules.logging",
  "rules.logging.enabled",
  "rules.logging.status",
  "rules.action_parameters",
  "rules.action_parameters.id",
  "rules.action_parameters.version",
  "rules.action_parameters.ruleset",
  "rules.action_parameters.rulesets",
  "rules.action_parameters.rules",
  "rules.action_parameters.phases",
  "rules.action_parameters.products",
  "rules.action_parameters.overrides",
  "rules.action_parameters.overrides.action",
  "rules.action_parameters.overrides.enabled",
  "rules.action_parameters.overrides.status",
  "rules.action_parameters.overrides.sensitivity_level",
  "rules.action_parameters.overrides.categories",
  "rules.action_parameters.overrides.categories.category",
  "rules.action_parameters.overrides.categories.action",
  "rules.action_parameters.overrides.categories.enabled",
  "rules.action_parameters.overrides.categories.status",
  "rules.action_parameters.overrides.categories.sensitivity_level",
  "rules.action_parameters.overrides.rules",
  "rules.action_parameters.overrides.rules.id",
  "rules.action_parameters.overrides.rules.action",
  "rules.action_parameters.overrides.rules.enabled",
  "rules.action_parameters.overrides.rules.status",
  "rules.action_parameters.overrides.rules.score_threshold",
  "rules.action_parameters.overrides.rules.sensitivity_level",
];

const CONST_KEYS = { IDSchemaKey: "id", ZoneIDSchemaKey: "zone_id", AccountIDSchemaKey: "account_id" };

function git(repo, ...args) {
  return execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
}

function parseTag(t) {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(t);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Release tags (no pre-releases) from v2.26.0 on, oldest first. */
function releaseTags(repo) {
  const first = parseTag(FIRST_TAG);
  return git(repo, "tag", "--list", "v*")
    .split("\n")
    .map((t) => t.trim())
    .filter((t) => parseTag(t) && cmp(parseTag(t), first) >= 0)
    .sort((a, b) => cmp(parseTag(a), parseTag(b)));
}

/** The file holding the schema at a tag, and the start of the literal to read in it. */
function schemaSource(repo, tag) {
  const files = git(repo, "ls-tree", "-r", "--name-only", tag).split("\n");
  const pick = (re) => files.find((f) => re.test(f));
  const candidates = [
    [pick(/^internal\/services\/ruleset\/schema\.go$/), /func ResourceSchema\(/],
    [pick(/^internal\/framework\/service\/rulesets\/schema\.go$/), /func \([^)]*\) Schema\(/],
    [pick(/(^|\/)schema_cloudflare_ruleset\.go$/), /func resourceCloudflareRulesetSchema\(/],
    [pick(/(^|\/)resource_cloudflare_ruleset\.go$/), /Schema:\s*map\[string\]\*schema\.Schema\{/],
  ];
  for (const [file, start] of candidates) {
    if (!file) continue;
    const text = git(repo, "show", `${tag}:${file}`);
    const m = start.exec(text);
    if (m) return { file, text, from: m.index };
  }
  throw new Error(`${tag}: no cloudflare_ruleset schema found`);
}

/**
 * Whether `terraform import` works for the resource at a tag: the SDKv2 importer returned "Import is not
 * yet supported for Rulesets" until it was implemented; the framework resources implement ImportState.
 */
function importState(repo, tag) {
  const files = git(repo, "ls-tree", "-r", "--name-only", tag).split("\n");
  const file =
    files.find((f) => /^internal\/services\/ruleset\/resource\.go$/.test(f)) ??
    files.find((f) => /^internal\/framework\/service\/rulesets\/resource\.go$/.test(f)) ??
    files.find((f) => /(^|\/)resource_cloudflare_ruleset\.go$/.test(f));
  if (!file) throw new Error(`${tag}: no cloudflare_ruleset resource file found`);
  const text = git(repo, "show", `${tag}:${file}`);
  if (text.includes("Import is not yet supported for Rulesets")) return "absent";
  if (/ImportState\(|func resourceCloudflareRulesetImport\(/.test(text)) return "supported";
  throw new Error(`${tag}: ${file}: cannot tell whether import is supported`);
}

/** Go tokens: identifiers/numbers, strings (value kept), punctuation. Comments dropped. */
function tokenize(text, from) {
  const out = [];
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) i++;
    else if (c === "/" && text[i + 1] === "/") i = text.indexOf("\n", i) === -1 ? n : text.indexOf("\n", i);
    else if (c === "/" && text[i + 1] === "*") i = text.indexOf("*/", i + 2) + 2;
    else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < n && text[k] !== c) k += text[k] === "\\" ? 2 : 1;
      out.push({ t: c === '"' ? "str" : "rune", v: text.slice(i + 1, k) });
      i = k + 1;
    } else if (c === "`") {
      const k = text.indexOf("`", i + 1);
      out.push({ t: "str", v: text.slice(i + 1, k) });
      i = k + 1;
    } else if (/[A-Za-z0-9_]/.test(c)) {
      let k = i;
      while (k < n && /[A-Za-z0-9_]/.test(text[k])) k++;
      out.push({ t: "id", v: text.slice(i, k) });
      i = k;
    } else {
      out.push({ t: "p", v: c });
      i++;
    }
  }
  return out;
}

/**
 * Walks the literal that starts at the first `{` of the token list and returns every schema entry:
 * path → { kind: "block" | "attribute", configurable }.
 */
function schemaEntries(tokens) {
  const entries = new Map();
  // Each frame: the entry it opens (or null for a plain composite literal) and what its direct fields say.
  const stack = [];
  let started = false;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok.t === "p" && tok.v === "{") {
      // Is this `{` the body of an entry? Look back over a type expression to `KEY :`.
      let j = i - 1;
      let typeText = "";
      while (j >= 0 && (tokens[j].t === "id" || (tokens[j].t === "p" && ".&*[]".includes(tokens[j].v)))) {
        typeText = tokens[j].v + typeText;
        j--;
      }
      let key = null;
      if (j >= 1 && tokens[j].t === "p" && tokens[j].v === ":") {
        const k = tokens[j - 1];
        if (k.t === "str" && stack.length > 0) key = k.v;
        else if (k.t === "id" && CONST_KEYS[k.v] && tokens[j - 2]?.v === "." && tokens[j - 3]?.v === "consts") key = CONST_KEYS[k.v];
      }
      // `"x": "y"` pairs never reach here (no `{`); map types are written `map[string]…{`, never after a key.
      const parent = [...stack].reverse().find((f) => f.entry);
      const entry = key !== null ? { path: parent ? `${parent.entry.path}.${key}` : key, typeText, fields: {}, sdkResource: false } : null;
      stack.push({ entry, depthTokens: [] });
      started = true;
      if (entry) entries.set(entry.path, entry);
      continue;
    }
    if (tok.t === "p" && tok.v === "}") {
      stack.pop();
      if (started && stack.length === 0) break;
      continue;
    }
    const top = stack[stack.length - 1];
    if (!top?.entry) {
      // `Elem: &schema.Resource{` sits in a frame without an entry: mark the nearest entry as a block.
      continue;
    }
    // Direct fields of an entry: `Optional: true`, `Required: true`, `Computed: true`, `Elem: &schema.Resource`.
    if (tok.t === "id" && tokens[i + 1]?.v === ":") {
      const name = tok.v;
      if (name === "Optional" || name === "Required" || name === "Computed") top.entry.fields[name] = tokens[i + 2]?.v === "true";
      if (name === "Elem" && tokens[i + 2]?.v === "&" && tokens[i + 3]?.v === "schema" && tokens[i + 5]?.v === "Resource") top.entry.sdkResource = true;
    }
  }
  const out = {};
  for (const [p, e] of entries) {
    const framework = /^schema\./.test(e.typeText);
    const kind = framework ? (/Block$/.test(e.typeText) ? "block" : "attribute") : e.sdkResource ? "block" : "attribute";
    const configurable = kind === "block" && framework ? true : Boolean(e.fields.Optional || e.fields.Required);
    out[p] = { kind, configurable };
  }
  return out;
}

/** The state of one construct at one tag: "absent", "computed" (read-only), "block", "attribute" or (import) "supported". */
function stateOf(entries, p) {
  const e = entries[p];
  if (!e) return "absent";
  if (!e.configurable) return "computed";
  if (e.kind === "import") return "supported";
  return e.kind;
}

function main() {
  const [repoArg, outArg] = process.argv.slice(2);
  if (!repoArg) {
    process.stderr.write("usage: node scripts/ruleset-features.mjs PATH/TO/terraform-provider-cloudflare [OUT.json]\n");
    process.exit(2);
  }
  const repo = path.resolve(repoArg);
  const out = outArg ?? fileURLToPath(new URL("../src/core/data/ruleset-features.json", import.meta.url));
  const tags = releaseTags(repo);
  const perTag = [];
  const files = [];
  for (const tag of tags) {
    const src = schemaSource(repo, tag);
    const entries = schemaEntries(tokenize(src.text, src.from));
    if (!entries["rules"] || !entries["rules.expression"]) throw new Error(`${tag}: ${src.file} did not read as the ruleset schema`);
    entries["import"] = importState(repo, tag) === "supported" ? { kind: "import", configurable: true } : undefined;
    if (!entries["import"]) delete entries["import"];
    perTag.push({ tag, entries });
    if (files.at(-1)?.file !== src.file) files.push({ from: tag, file: src.file });
  }
  const constructs = {};
  for (const p of CONSTRUCTS) {
    // Run-length history over the tags read: where the construct is absent, read-only, a block or an attribute.
    const history = [];
    for (const { tag, entries } of perTag) {
      const state = stateOf(entries, p);
      const last = history.at(-1);
      if (last && last.state === state) last.to = tag;
      else history.push({ state, from: tag, to: tag });
    }
    const firstConfigurable = history.find((h) => h.state === "block" || h.state === "attribute" || h.state === "supported");
    const idx = firstConfigurable ? perTag.findIndex((t) => t.tag === firstConfigurable.from) : -1;
    constructs[p] = {
      firstTag: firstConfigurable ? firstConfigurable.from : null,
      // The tag read just before it, which did not have it: the minimum is after this one.
      lastTagWithout: idx > 0 ? perTag[idx - 1].tag : null,
      history,
    };
  }
  const data = {
    $comment: "Generated by scripts/ruleset-features.mjs from the provider's Go source; do not edit by hand.",
    provider: "cloudflare/cloudflare",
    resource: "cloudflare_ruleset",
    source: REPO_URL,
    commit: git(repo, "rev-parse", "HEAD").trim(),
    tagsRead: tags,
    schemaFiles: files,
    constructs,
  };
  writeFileSync(out, JSON.stringify(data, null, 2) + "\n");
  process.stderr.write(`read ${tags.length} tags (${tags[0]} … ${tags.at(-1)}), wrote ${out}\n`);
}

main();
