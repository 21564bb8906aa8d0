// Which `cloudflare_ruleset` constructs a given Cloudflare provider version has, and which of them the
// generated ruleset uses. Pure: the facts are the data file `data/ruleset-features.json`, read from the
// provider's Go source at every release tag by `scripts/ruleset-features.mjs` (never written by hand).
//
// A construct is a path below the resource (`rules.action_parameters.overrides.categories.enabled`), or
// `import` (whether `terraform import` / `import {}` works for the resource at all: not before 3.29.0).
// The generator's own rules (GENERATOR_CONSTRUCTS) name the minimum version of everything it can emit and
// whether the migration needs it to keep the legacy settings ("required") or can leave it out ("optional");
// a test holds them equal to what the data says, so neither can drift alone.
import table from "./data/ruleset-features.json" with { type: "json" };
import type { Ruleset, RulesetRule } from "./model.js";
import { compareVersions, formatVersion, parseConstraint, parseVersion, satisfies } from "./provider-version.js";

export type ConstructState = "absent" | "computed" | "block" | "attribute" | "supported";

export interface ConstructHistory {
  /** First tag read where a configuration may use it (`v3.13.0`), null when never. */
  firstTag: string | null;
  /** The tag read just before `firstTag` (it did not have it). */
  lastTagWithout: string | null;
  /** Run-length states over `tagsRead`, oldest first. */
  history: { state: ConstructState; from: string; to: string }[];
}

export interface FeatureTable {
  provider: string;
  resource: string;
  source: string;
  commit: string;
  tagsRead: string[];
  schemaFiles: { from: string; file: string }[];
  constructs: Record<string, ConstructHistory>;
}

export const RULESET_FEATURES: FeatureTable = table as FeatureTable;

const USABLE: ReadonlySet<ConstructState> = new Set(["block", "attribute", "supported"]);

const TAG_VERSIONS = RULESET_FEATURES.tagsRead.map((t) => ({ tag: t, version: parseVersion(t) }));

/**
 * The state of a construct at a provider version: that of the newest tag read at or below the version
 * (every release tag from the first one was read, so a release between two tags cannot exist).
 * Below the first tag (2.26.0) the resource does not exist: "absent".
 */
export function constructStateAt(construct: string, version: string): ConstructState {
  // The table never changes, so each answer is remembered: a plan asks the same few questions for every
  // zone, and thousands of zones made re-deriving them (version parsing, tag scans) most of the plan's work.
  const key = `${construct}\u0000${version}`;
  const known = STATE_AT.get(key);
  if (known !== undefined) return known;
  const state = computeStateAt(construct, version);
  if (STATE_AT.size >= MEMO_LIMIT) STATE_AT.clear();
  STATE_AT.set(key, state);
  return state;
}

const STATE_AT = new Map<string, ConstructState>();
/** A long-lived process asking about ever new versions must not grow the memos without bound. */
const MEMO_LIMIT = 10_000;

function computeStateAt(construct: string, version: string): ConstructState {
  const c = Object.hasOwn(RULESET_FEATURES.constructs, construct) ? RULESET_FEATURES.constructs[construct] : undefined;
  if (!c) throw new Error(`construct ${JSON.stringify(construct)} is not in the feature table`);
  const v = parseVersion(version);
  let tag: string | null = null;
  for (const t of TAG_VERSIONS) if (compareVersions({ ...t.version }, { ...v, prerelease: [] }) <= 0) tag = t.tag;
  if (tag === null) return "absent";
  const at = parseVersion(tag);
  for (const h of c.history) {
    if (compareVersions(parseVersion(h.from), at) <= 0 && compareVersions(at, parseVersion(h.to)) <= 0) return h.state;
  }
  return "absent";
}

/** Can a configuration use the construct with this provider version? */
export function hasConstruct(construct: string, version: string): boolean {
  return USABLE.has(constructStateAt(construct, version));
}

/** The first provider version that has the construct, from the data (`3.13.0`), or null. */
export function tableMinimumVersion(construct: string): string | null {
  const first = RULESET_FEATURES.constructs[construct]?.firstTag;
  return first ? formatVersion(parseVersion(first)) : null;
}

// ---- what the generator emits ----------------------------------------------------------------------

export type ConstructNeed = "required" | "optional";

export interface EmittedConstruct {
  /** The first provider version with it (kept equal to the data by a test). */
  minimum: string;
  /** required: the migration cannot keep the legacy settings without it; optional: left out when missing. */
  need: ConstructNeed;
  /** For people: what it is. */
  what: string;
}

const AP = "rules.action_parameters";
const OV = `${AP}.overrides`;

/** Everything `emitRulesetHcl` can write, and the import the plan runs. */
export const GENERATOR_CONSTRUCTS: Readonly<Record<string, EmittedConstruct>> = {
  import: { minimum: "3.29.0", need: "required", what: "importing an existing cloudflare_ruleset (step 3)" }, // earlier: "Import is not yet supported for Rulesets"
  zone_id: { minimum: "2.26.0", need: "required", what: "zone_id" },
  name: { minimum: "2.26.0", need: "required", what: "name" },
  description: { minimum: "2.26.0", need: "required", what: "description" },
  kind: { minimum: "2.26.0", need: "required", what: "kind" },
  phase: { minimum: "2.26.0", need: "required", what: "phase" },
  rules: { minimum: "2.26.0", need: "required", what: "rules" },
  "rules.ref": { minimum: "4.2.0", need: "optional", what: "a rule's ref (computed by the provider before 4.2.0)" },
  "rules.action": { minimum: "2.26.0", need: "required", what: "a rule's action" },
  "rules.expression": { minimum: "2.26.0", need: "required", what: "a rule's expression" },
  "rules.description": { minimum: "2.26.0", need: "required", what: "a rule's description" },
  "rules.enabled": { minimum: "2.26.0", need: "required", what: "a rule's enabled" },
  "rules.logging": { minimum: "3.13.0", need: "optional", what: "logging on a skip rule" },
  "rules.logging.enabled": { minimum: "3.13.0", need: "optional", what: "logging.enabled on a skip rule" },
  [AP]: { minimum: "2.26.0", need: "required", what: "action_parameters" },
  [`${AP}.id`]: { minimum: "2.26.0", need: "required", what: "action_parameters.id (the managed ruleset to execute)" },
  [`${AP}.ruleset`]: { minimum: "2.26.0", need: "required", what: "action_parameters.ruleset (skip the rest of the ruleset)" },
  [OV]: { minimum: "2.26.0", need: "required", what: "action_parameters.overrides" },
  [`${OV}.action`]: { minimum: "3.3.0", need: "required", what: "overrides.action (the ruleset's action)" },
  [`${OV}.enabled`]: { minimum: "2.26.0", need: "required", what: "overrides.enabled" },
  [`${OV}.categories`]: { minimum: "2.26.0", need: "required", what: "overrides.categories (the paranoia level of a sensitivity, a group's mode)" },
  [`${OV}.categories.category`]: { minimum: "2.26.0", need: "required", what: "overrides.categories.category" },
  [`${OV}.categories.action`]: { minimum: "2.26.0", need: "required", what: "overrides.categories.action" },
  [`${OV}.categories.enabled`]: { minimum: "2.26.0", need: "required", what: "overrides.categories.enabled" },
  [`${OV}.rules`]: { minimum: "2.26.0", need: "required", what: "overrides.rules (the anomaly score of a sensitivity, a rule's mode)" },
  [`${OV}.rules.id`]: { minimum: "2.26.0", need: "required", what: "overrides.rules.id" },
  [`${OV}.rules.action`]: { minimum: "2.26.0", need: "required", what: "overrides.rules.action" },
  [`${OV}.rules.enabled`]: { minimum: "2.26.0", need: "required", what: "overrides.rules.enabled" },
  [`${OV}.rules.score_threshold`]: { minimum: "2.26.0", need: "required", what: "overrides.rules.score_threshold (a sensitivity's anomaly score)" },
};

function ruleConstructs(rule: RulesetRule, out: Set<string>): void {
  for (const k of ["action", "expression", "description", "enabled"]) out.add(`rules.${k}`);
  if (rule.ref !== undefined) out.add("rules.ref");
  if (rule.logging) {
    out.add("rules.logging");
    out.add("rules.logging.enabled");
  }
  const ap = rule.action_parameters;
  if (!ap) return;
  const used = new Set<string>();
  if (ap.id !== undefined) used.add(`${AP}.id`);
  if (ap.ruleset !== undefined) used.add(`${AP}.ruleset`);
  const o = ap.overrides;
  if (o) {
    const inner = new Set<string>();
    if (o.action !== undefined) inner.add(`${OV}.action`);
    if (o.enabled !== undefined) inner.add(`${OV}.enabled`);
    for (const c of o.categories ?? []) {
      inner.add(`${OV}.categories`).add(`${OV}.categories.category`);
      if (c.action !== undefined) inner.add(`${OV}.categories.action`);
      if (c.enabled !== undefined) inner.add(`${OV}.categories.enabled`);
    }
    for (const r of o.rules ?? []) {
      inner.add(`${OV}.rules`).add(`${OV}.rules.id`);
      if (r.action !== undefined) inner.add(`${OV}.rules.action`);
      if (r.enabled !== undefined) inner.add(`${OV}.rules.enabled`);
      if (r.score_threshold !== undefined) inner.add(`${OV}.rules.score_threshold`);
    }
    // The emitter leaves out an empty overrides block.
    if (inner.size) used.add(OV);
    for (const x of inner) used.add(x);
  }
  if (used.size) out.add(AP);
  for (const x of used) out.add(x);
}

/** The constructs the emitted `cloudflare_ruleset` of this ruleset uses (mirrors `emitRulesetHcl`). */
export function constructsOf(ruleset: Ruleset): string[] {
  const out = new Set<string>(["zone_id", "name", "description", "kind", "phase"]);
  if (ruleset.rules.length) out.add("rules");
  for (const r of ruleset.rules) ruleConstructs(r, out);
  return [...out].sort();
}

// ---- fitting a ruleset to a provider version -----------------------------------------------------------

export interface MissingConstruct {
  construct: string;
  need: ConstructNeed;
  what: string;
  /** The first provider version with it. */
  minimum: string;
  /** The lowest version the target admits that lacks it. */
  missingAt: string;
}

/**
 * The release versions (among the tags read) a target admits: a version (`3.20.0`), or a constraint
 * (`~> 3.4.0`), or several constraints ANDed (every module's, plus e.g. `<= 3.35.0`).
 */
export function admittedReleases(target: string | readonly string[]): string[] {
  return [...admitted(target).versions];
}

interface Admitted {
  versions: readonly string[];
  /** Names this list in the per-construct memo. */
  key: string;
}

/**
 * Every zone of a root asks with the same target: remembered per target (admittedReleases hands out a
 * copy, so callers cannot alter the remembered list). Malformed input is never remembered: it throws
 * every time.
 */
function admitted(target: string | readonly string[]): Admitted {
  const list = typeof target === "string" ? [target] : [...target];
  const nonBlank = list.filter((c) => c.trim() !== "");
  const key = JSON.stringify(nonBlank);
  const known = ADMITTED.get(key);
  if (known) return known;
  nonBlank.forEach((c) => parseConstraint(c)); // throws InvalidConstraintError on malformed input
  const versions = TAG_VERSIONS.filter((t) => satisfies(t.version, nonBlank)).map((t) => formatVersion(t.version));
  const entry = { versions, key: versions.join(" ") };
  if (ADMITTED.size >= MEMO_LIMIT) ADMITTED.clear();
  ADMITTED.set(key, entry);
  return entry;
}

const ADMITTED = new Map<string, Admitted>();

/**
 * The constructs `ruleset` (and, unless `imports: false`, the import of step 3) would need that some version
 * the target admits lacks. A target that admits no version read (`~> 9.0`) lacks nothing we can name.
 */
export interface FitOptions {
  /** Whether step 3's import counts (default true). */
  imports?: boolean;
  /**
   * The constructs a ruleset written by someone else uses (cf-terraforming's output, parsed), instead of what
   * the generator would emit for `ruleset`. Those the generator never writes are judged by the table as
   * required (dropping them would change the ruleset); those the table does not know cannot be judged.
   */
  constructs?: readonly string[];
}

/** The version rule of a construct found in someone else's ruleset: the generator's, else the table's. */
function ruleFor(construct: string, foreign: boolean): EmittedConstruct | null {
  const rule = GENERATOR_CONSTRUCTS[construct];
  if (rule) return rule;
  if (!foreign) throw new Error(`the generator emits ${construct}, which has no version rule`);
  const minimum = tableMinimumVersion(construct);
  return minimum && RULESET_FEATURES.constructs[construct] ? { minimum, need: "required", what: construct } : null;
}

export function missingConstructs(
  ruleset: Ruleset,
  providerVersionOrConstraint: string | readonly string[],
  options: FitOptions = {},
): MissingConstruct[] {
  const versions = admitted(providerVersionOrConstraint);
  const used = options.constructs ? [...options.constructs] : constructsOf(ruleset);
  if (options.imports ?? true) used.unshift("import");
  const out: MissingConstruct[] = [];
  for (const construct of used) {
    const rule = ruleFor(construct, options.constructs !== undefined);
    if (!rule) continue;
    const lacking = firstVersionLacking(construct, versions);
    if (lacking) out.push({ construct, need: rule.need, what: rule.what, minimum: tableMinimumVersion(construct) ?? rule.minimum, missingAt: lacking });
  }
  // A missing block says it all: `rules.logging` missing makes `rules.logging.enabled` noise.
  const names = new Set(out.map((m) => m.construct));
  return out.filter((m) => !names.has(m.construct.slice(0, m.construct.lastIndexOf("."))));
}

/** The first of the admitted versions without the construct, remembered per version list (the same for every zone). */
function firstVersionLacking(construct: string, versions: Admitted): string | undefined {
  const key = `${construct}\u0000${versions.key}`;
  if (LACKING.has(key)) return LACKING.get(key) ?? undefined;
  const lacking = versions.versions.find((v) => !hasConstruct(construct, v));
  if (LACKING.size >= MEMO_LIMIT) LACKING.clear();
  LACKING.set(key, lacking ?? null);
  return lacking;
}

const LACKING = new Map<string, string | null>();

export interface FittedRuleset {
  ruleset: Ruleset;
  /** Optional constructs left out because some admitted version lacks them. */
  omitted: MissingConstruct[];
  /** Required constructs some admitted version lacks: the migration cannot keep the settings there. */
  missing: MissingConstruct[];
}

/** Leaves out the optional constructs the target lacks; reports the required ones it lacks. */
export function fitRuleset(ruleset: Ruleset, target: string | readonly string[], options: FitOptions = {}): FittedRuleset {
  const lacking = missingConstructs(ruleset, target, options);
  const drop = new Set(lacking.filter((m) => m.need === "optional").map((m) => m.construct));
  const rules = ruleset.rules.map((r) => {
    const copy: RulesetRule = { ...r };
    if (drop.has("rules.ref")) delete copy.ref;
    if (drop.has("rules.logging") || drop.has("rules.logging.enabled")) delete copy.logging;
    return copy;
  });
  return {
    ruleset: { ...ruleset, rules },
    omitted: lacking.filter((m) => m.need === "optional"),
    missing: lacking.filter((m) => m.need === "required"),
  };
}
