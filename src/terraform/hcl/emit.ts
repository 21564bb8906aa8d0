// Generated HCL: the zone's `cloudflare_ruleset` (provider 4 blocks or provider 5 attributes), `import {}`
// and `removed {}` blocks, and the `terraform import` command line.
//
// The text is built here with one item per line and then passed through `@cdktn/hcl-tools` `format()`
// (hclwrite.Format, the engine of `terraform fmt`), so the output is what `terraform fmt` would write.
// `format()` does not validate, so the result is re-parsed with `@cdktn/hcl2json` before it is returned.

import { loadHcl2Json } from "../parse-pool/pool.js";
import { fastParse, labelShapesConflict } from "./fast.js";
import { layoutHclLines } from "./layout.js";
import type { CategoryOverride, RuleActionParameters, RuleOverride, Ruleset, RulesetRule } from "../../core/model.js";
import { configAddressOf, parseAddress } from "../../core/address.js";
import { quoteHclString } from "../../core/hcl-string.js";
import { shellQuote } from "../../core/shell-quote.js";

export type ProviderMajor = 4 | 5;

type HclTools = typeof import("@cdktn/hcl-tools");
let hclTools: Promise<HclTools> | null = null;
/** The formatter's WASM instantiates at import time: load it on first use, not when the CLI starts. */
function loadHclTools(): Promise<HclTools> {
  hclTools ??= import("@cdktn/hcl-tools");
  return hclTools;
}

export interface EmitRulesetOptions {
  /** Terraform resource name (second label); see `rulesetResourceName`. */
  resourceName: string;
  /** Raw HCL expression for `zone_id`, e.g. `cloudflare_zone.shop.id` or `"0da4…"` (quotes included). */
  zoneIdExpression: string;
  ruleset: Ruleset;
  providerMajor: ProviderMajor;
  /** Each entry becomes `# TODO: <text>` above the resource (multi-line entries become several comments). */
  todoComments?: string[];
  /** Each entry becomes `# <text>` above the TODOs: what the ruleset was fitted to (provider version). */
  headerComments?: string[];
  /** `# TODO: <text>` lines inside a rule, by the rule's index: where a value unknown offline would go. */
  ruleTodos?: Record<number, string[]>;
  /**
   * `count = <expression>` as the resource's first line (a raw HCL expression): one workspace's ruleset in
   * a root several workspaces share, `terraform.workspace == "eu" ? 1 : 0`. Core Terraform, any provider.
   */
  count?: string;
}

/** Raised when the emitter is given something it cannot turn into valid HCL. */
export class HclEmitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HclEmitError";
  }
}

export const RULESET_KIND = "zone";
export const RULESET_PHASE = "http_request_firewall_managed";

// ---- Literals ----------------------------------------------------------------------------------------

/**
 * An HCL quoted string literal whose value is exactly `s` (Terraform's own quoting: template introducers
 * doubled, control and non-printable characters escaped), so Cloudflare raw strings such as `r"a\d"` survive.
 */
export const hclString = quoteHclString;

function hclNumber(n: number, what: string): string {
  if (!Number.isFinite(n)) throw new HclEmitError(`${what} must be a finite number, got ${n}`);
  return String(n);
}

function hclBool(b: boolean): string {
  return b ? "true" : "false";
}

// ---- A tiny line writer ------------------------------------------------------------------------------
// Indentation and alignment are left to format(); the writer only decides what goes on which line.

type Attr = [name: string, value: string];

function attrLines(attrs: Attr[]): string[] {
  return attrs.map(([k, v]) => `${k} = ${v}`);
}

function ruleAttrs(rule: RulesetRule): Attr[] {
  const attrs: Attr[] = [];
  if (rule.ref !== undefined) attrs.push(["ref", hclString(rule.ref)]);
  attrs.push(["action", hclString(rule.action)]);
  attrs.push(["expression", hclString(rule.expression)]);
  attrs.push(["description", hclString(rule.description)]);
  attrs.push(["enabled", hclBool(rule.enabled)]);
  return attrs;
}

function ruleOverrideAttrs(o: RuleOverride): Attr[] {
  const attrs: Attr[] = [["id", hclString(o.id)]];
  if (o.action !== undefined) attrs.push(["action", hclString(o.action)]);
  if (o.enabled !== undefined) attrs.push(["enabled", hclBool(o.enabled)]);
  if (o.score_threshold !== undefined)
    attrs.push(["score_threshold", hclNumber(o.score_threshold, `score_threshold of rule override ${o.id}`)]);
  return attrs;
}

function categoryOverrideAttrs(o: CategoryOverride): Attr[] {
  const attrs: Attr[] = [["category", hclString(o.category)]];
  if (o.action !== undefined) attrs.push(["action", hclString(o.action)]);
  if (o.enabled !== undefined) attrs.push(["enabled", hclBool(o.enabled)]);
  return attrs;
}

interface OverridesParts {
  attrs: Attr[];
  categories: CategoryOverride[];
  rules: RuleOverride[];
}

function overridesParts(ap: RuleActionParameters): OverridesParts | null {
  const o = ap.overrides;
  if (!o) return null;
  const attrs: Attr[] = [];
  if (o.action !== undefined) attrs.push(["action", hclString(o.action)]);
  if (o.enabled !== undefined) attrs.push(["enabled", hclBool(o.enabled)]);
  const categories = o.categories ?? [];
  const rules = o.rules ?? [];
  if (attrs.length === 0 && categories.length === 0 && rules.length === 0) return null;
  return { attrs, categories, rules };
}

function actionParamAttrs(ap: RuleActionParameters): Attr[] {
  const attrs: Attr[] = [];
  if (ap.id !== undefined) attrs.push(["id", hclString(ap.id)]);
  if (ap.ruleset !== undefined) attrs.push(["ruleset", hclString(ap.ruleset)]);
  return attrs;
}

// Provider 4: nested blocks.
function rulesV4(rule: RulesetRule, todos?: string[]): string[] {
  const out = ["rules {", ...todoLines(todos), ...attrLines(ruleAttrs(rule))];
  const ap = rule.action_parameters;
  if (ap) {
    const apAttrs = actionParamAttrs(ap);
    const ov = overridesParts(ap);
    if (apAttrs.length > 0 || ov) {
      out.push("action_parameters {", ...attrLines(apAttrs));
      if (ov) {
        out.push("overrides {", ...attrLines(ov.attrs));
        for (const c of ov.categories) out.push("categories {", ...attrLines(categoryOverrideAttrs(c)), "}");
        for (const r of ov.rules) out.push("rules {", ...attrLines(ruleOverrideAttrs(r)), "}");
        out.push("}");
      }
      out.push("}");
    }
  }
  if (rule.logging) out.push("logging {", `enabled = ${hclBool(rule.logging.enabled)}`, "}");
  out.push("}");
  return out;
}

// Provider 5: nested attributes (objects and lists of objects).
function objectList(name: string, items: Attr[][]): string[] {
  const out = [`${name} = [`];
  items.forEach((attrs, i) => {
    out.push("{", ...attrLines(attrs), i < items.length - 1 ? "}," : "}");
  });
  out.push("]");
  return out;
}

function ruleV5(rule: RulesetRule, last: boolean, todos?: string[]): string[] {
  const out = ["{", ...todoLines(todos), ...attrLines(ruleAttrs(rule))];
  const ap = rule.action_parameters;
  if (ap) {
    const apAttrs = actionParamAttrs(ap);
    const ov = overridesParts(ap);
    if (apAttrs.length > 0 || ov) {
      out.push("action_parameters = {", ...attrLines(apAttrs));
      if (ov) {
        out.push("overrides = {", ...attrLines(ov.attrs));
        if (ov.categories.length > 0) out.push(...objectList("categories", ov.categories.map(categoryOverrideAttrs)));
        if (ov.rules.length > 0) out.push(...objectList("rules", ov.rules.map(ruleOverrideAttrs)));
        out.push("}");
      }
      out.push("}");
    }
  }
  if (rule.logging) out.push("logging = {", `enabled = ${hclBool(rule.logging.enabled)}`, "}");
  out.push(last ? "}" : "},");
  return out;
}

function todoLines(todos: string[] | undefined): string[] {
  const out: string[] = [];
  for (const t of todos ?? []) {
    if (!t.includes("\n")) out.push(`# TODO: ${t}`.trimEnd());
    else for (const line of t.split(/\r?\n/)) out.push(`# TODO: ${line}`.trimEnd());
  }
  return out;
}

const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function checkIdentifier(name: string, what: string): void {
  if (!IDENT_RE.test(name)) {
    throw new HclEmitError(
      `${what} ${JSON.stringify(name)} is not a valid Terraform name (letters, digits, "_" and "-", not starting with a digit)`,
    );
  }
}

/**
 * Reads generated text back; format() accepts broken HCL, so this is the real check. The fast reader
 * (hcl/fast.ts) accepts only what it is sure parses, exactly as hcl2json would read it; whatever it is
 * not sure of goes to HashiCorp's parser. (hcl2json is WASM with a cost per call: once per zone, that was
 * most of a plan over thousands of zones.)
 */
async function assertParses(text: string, what: string): Promise<void> {
  if (readsBackFast(text)) return;
  try {
    await (await loadHcl2Json()).parse(`${what}.tf`, text);
  } catch (e) {
    throw new HclEmitError(`generated HCL for ${what} does not parse: ${(e as Error).message}`);
  }
}

function readsBackFast(text: string): boolean {
  try {
    const r = fastParse(text, { select: () => true });
    return r.ok && !labelShapesConflict(r.blocks) && r.blocks.every((b) => b.body !== null && !b.needsJudge);
  } catch {
    // The fast reader recurses per nesting level (the emitter nests six deep at most): out of stack, the
    // judge reads it.
    return false;
  }
}

// ---- Public API ------------------------------------------------------------------------------------

/**
 * The zone's `cloudflare_ruleset` in phase `http_request_firewall_managed`, rules in the given order,
 * formatted like `terraform fmt`. Provider 4 writes `rules {}` / `action_parameters {}` / `overrides {}` /
 * `categories {}` / `logging {}` blocks; provider 5 writes `rules = [ { … } ]` with nested object and list
 * attributes. Empty override lists and empty `overrides` are omitted. Computed rule fields (`id`,
 * `version`) are not written; `ref` is written when the rule has one. `description` defaults to `""`.
 */
export async function emitRulesetHcl(opts: EmitRulesetOptions): Promise<string> {
  const lines = rulesetHclLines(opts);
  // The layout is computed here when every line has a shape hcl-layout.ts knows (so far, always), else
  // by format(); either way the text is read back before it is returned.
  const text = layoutHclLines(lines) ?? (await (await loadHclTools()).format(lines.join("\n") + "\n"));
  await assertParses(text, `cloudflare_ruleset.${opts.resourceName}`);
  return text;
}

/** The ruleset's lines before layout: one item per line, no indentation. Throws HclEmitError on bad input. */
export function rulesetHclLines(opts: EmitRulesetOptions): string[] {
  const { resourceName, zoneIdExpression, ruleset, providerMajor } = opts;
  checkIdentifier(resourceName, "resource name");
  const zoneExpr = zoneIdExpression.trim();
  if (zoneExpr === "" || /[\r\n]/.test(zoneExpr)) {
    throw new HclEmitError(`zone_id expression must be one non-empty line, got ${JSON.stringify(zoneIdExpression)}`);
  }
  if (providerMajor !== 4 && providerMajor !== 5) {
    throw new HclEmitError(`provider major version must be 4 or 5, got ${String(providerMajor)}`);
  }

  const header = (opts.headerComments ?? []).flatMap((t) => t.split(/\r?\n/)).map((l) => `# ${l}`.trimEnd());
  const lines: string[] = [...header, ...todoLines(opts.todoComments)];
  lines.push(`resource "cloudflare_ruleset" ${hclString(resourceName)} {`);
  if (opts.count !== undefined) {
    const count = opts.count.trim();
    if (count === "" || /[\r\n]/.test(count)) throw new HclEmitError(`count expression must be one non-empty line, got ${JSON.stringify(opts.count)}`);
    lines.push(`count = ${count}`, "");
  }
  lines.push(
    ...attrLines([
      ["zone_id", zoneExpr],
      ["name", hclString(ruleset.name)],
      ["description", hclString(ruleset.description ?? "")],
      ["kind", hclString(RULESET_KIND)],
      ["phase", hclString(RULESET_PHASE)],
    ]),
  );
  if (providerMajor === 4) {
    ruleset.rules.forEach((rule, i) => lines.push("", ...rulesV4(rule, opts.ruleTodos?.[i])));
  } else {
    lines.push("", "rules = [");
    ruleset.rules.forEach((rule, i) => lines.push(...ruleV5(rule, i === ruleset.rules.length - 1, opts.ruleTodos?.[i])));
    lines.push("]");
  }
  lines.push("}");

  return lines;
}

/**
 * `import { to = … id = "…" }` (Terraform ≥ 1.5). `to` is a resource address written as is; `id` is the
 * provider's import id (`zone/<zone_id>/<ruleset_id>` for provider 4, `zones/…` for provider 5).
 */
export function emitImportBlock(to: string, id: string, opts: { interpolate?: string } = {}): string {
  stripInstanceKeys(to); // validates
  let literal = hclString(id);
  // `interpolate`: a reference (`cloudflare_zone.shop.id`) whose `${…}` in the id is meant to be evaluated
  // by the import block; every other `${` stays escaped as literal text.
  // A keyed reference (`cloudflare_zone.z["shop"].id`) was quoted with escaped quotes: inside `${…}` they are
  // plain quotes again.
  if (opts.interpolate) {
    const quoted = hclString(opts.interpolate).slice(1, -1).replace(/\$\$\{/g, "${");
    literal = literal.split("$${" + quoted + "}").join("${" + opts.interpolate + "}");
  }
  return `import {\n  to = ${to.trim()}\n  id = ${literal}\n}\n`;
}

/**
 * One `removed { from = … lifecycle { destroy = false } }` block (Terraform ≥ 1.7) per resource. `from`
 * cannot carry instance keys, so `module.a["x"].t.n[0]` becomes `module.a.t.n`; duplicates collapse and
 * the first occurrence's order is kept. Blocks are separated by one blank line.
 */
export function emitRemovedBlocks(configAddresses: string[]): string {
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const a of configAddresses) {
    const from = stripInstanceKeys(a);
    if (seen.has(from)) continue;
    seen.add(from);
    blocks.push(`removed {\n  from = ${from}\n\n  lifecycle {\n    destroy = false\n  }\n}\n`);
  }
  return blocks.join("\n");
}

/** `terraform import '<to>' '<id>'` with POSIX single-quote escaping. */
export function emitTerraformImportCommand(to: string, id: string): string {
  return `terraform import ${shellQuote(to)} ${shellQuote(id)}`;
}

/** Names and addresses come from the core, so every layer names the generated resource the same way. */
export { rulesetResourceName } from "../../core/naming.js";

/** The address without any instance keys: `module.a["x"].t.n[0]` → `module.a.t.n`. Throws on a non-address. */
export function stripInstanceKeys(address: string): string {
  try {
    return configAddressOf(parseAddress(address.trim()));
  } catch (e) {
    throw new HclEmitError(`not a Terraform address: ${JSON.stringify(address)} (${(e as Error).message})`);
  }
}
