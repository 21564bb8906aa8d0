// Provider versions and Terraform version constraints, and the provider-upgrade decision.
//
// Pure: no I/O. Syntax and semantics follow Terraform itself (measured from its sources):
//
// - Syntax. Terraform decodes a `version = "..."` string with hashicorp/go-version's NewConstraint and then
//   re-parses it with apparentlymart/go-versions' ParseRubyStyleMulti for provider selection; a string has to
//   pass both. So: comma-separated clauses, each `[op][space]X[.Y[.Z]][-pre][+meta]`, op one of
//   `= != > >= < <= ~>` or none (= exact), at most one space after the operator, no `v` prefix, at most three
//   numeric parts, no wildcards, no empty clause. Leading/trailing whitespace and spaces around commas are fine.
// - Provider semantics (the default, `mode: "provider"`), as Terraform's provider installer
//   (`versions.MeetingConstraints` of go-versions):
//     `~> X` and `~> X.Y` mean >= X.Y.0, < (X+1).0.0;  `~> X.Y.Z` means >= X.Y.Z, < X.(Y+1).0;
//     missing parts are zero; all clauses (and all constraint strings of all modules) are ANDed;
//     a pre-release is admitted only when an exact (`=` or bare) clause names it and every other clause
//     admits it; inequalities never admit pre-releases.
// - Core semantics (`mode: "core"`), as hashicorp/go-version's Constraints.Check, which Terraform uses for
//   `required_version`: a pre-release only matches a clause that names a pre-release with the same
//   major.minor.patch; and `~> X` (one part) has no upper bound there.
//
// The legacy WAF resources (cloudflare_waf_package/group/rule/override) exist up to provider 3.35.0, the
// last 3.x, and were removed in 4.0.0. A 4.0.0 pre-release is treated as 4.x (no legacy schema).

export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers; empty for a release. */
  prerelease: string[];
  /** Build metadata (ignored for ordering). */
  build: string;
  /** How many numeric parts were written (1..3); `~>` depends on it. */
  parts: number;
}

export type ConstraintOperator = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>";

export interface ConstraintClause {
  operator: ConstraintOperator;
  version: Version;
  /** The clause as written (trimmed). */
  text: string;
}

export interface Constraint {
  /** The constraint string as given. */
  text: string;
  /** Empty = any version (an empty or all-whitespace string). */
  clauses: ConstraintClause[];
}

export type ConstraintMode = "provider" | "core";

/** A constraint string Terraform would reject. `constraint` is the whole input text. */
export class InvalidConstraintError extends Error {
  constructor(
    readonly constraint: string,
    readonly detail: string,
  ) {
    super(`invalid version constraint ${JSON.stringify(constraint)}: ${detail}`);
    this.name = "InvalidConstraintError";
  }
}

/** A version string that is not a version. */
export class InvalidVersionError extends Error {
  constructor(
    readonly version: string,
    readonly detail: string,
  ) {
    super(`invalid version ${JSON.stringify(version)}: ${detail}`);
    this.name = "InvalidVersionError";
  }
}

// ---- versions ---------------------------------------------------------------------------------------

const IDENT = "[0-9A-Za-z-]+";
const VERSION_RE = new RegExp(
  `^v?(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+(${IDENT}(?:\\.${IDENT})*))?$`,
);

function toNumber(digits: string, whole: string): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) throw new InvalidVersionError(whole, `number ${digits} is too large`);
  return n;
}

/**
 * Parses `3.35.0`, `v3.35.0`, `4.0.0-beta1`, `3.35`, `3`, `1.2.3-rc.1+build.5`. Missing parts are zero.
 * Leading/trailing whitespace is ignored.
 */
export function parseVersion(text: string): Version {
  const s = text.trim();
  const m = VERSION_RE.exec(s);
  if (!m) throw new InvalidVersionError(text, "expected MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]");
  return {
    major: toNumber(m[1]!, text),
    minor: m[2] === undefined ? 0 : toNumber(m[2], text),
    patch: m[3] === undefined ? 0 : toNumber(m[3], text),
    prerelease: m[4] === undefined ? [] : m[4].split("."),
    build: m[5] ?? "",
    parts: m[3] !== undefined ? 3 : m[2] !== undefined ? 2 : 1,
  };
}

function asVersion(v: string | Version): Version {
  return typeof v === "string" ? parseVersion(v) : v;
}

/** `3.35.0`, `4.0.0-rc1` (always three parts; build metadata kept when present). */
export function formatVersion(v: Version): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease.length > 0) s += `-${v.prerelease.join(".")}`;
  if (v.build) s += `+${v.build}`;
  return s;
}

export function isPrerelease(v: string | Version): boolean {
  return asVersion(v).prerelease.length > 0;
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) {
    const d = Number(a) - Number(b);
    if (d !== 0) return d < 0 ? -1 : 1;
    // Same value, different spelling (leading zeros): order by text so the comparison stays total.
    return a === b ? 0 : a < b ? -1 : 1;
  }
  if (an) return -1; // numeric identifiers sort before alphanumeric ones
  if (bn) return 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Semantic-version precedence: -1, 0 or 1. Build metadata is ignored. */
export function compareVersions(a: string | Version, b: string | Version): number {
  const x = asVersion(a);
  const y = asVersion(b);
  for (const k of ["major", "minor", "patch"] as const) {
    if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;
  }
  const xp = x.prerelease;
  const yp = y.prerelease;
  if (xp.length === 0 || yp.length === 0) {
    if (xp.length === yp.length) return 0;
    return xp.length === 0 ? 1 : -1; // a release is above its pre-releases
  }
  for (let i = 0; i < Math.min(xp.length, yp.length); i++) {
    const c = compareIdentifiers(xp[i]!, yp[i]!);
    if (c !== 0) return c;
  }
  return xp.length === yp.length ? 0 : xp.length < yp.length ? -1 : 1;
}

function sameBase(a: Version, b: Version): boolean {
  return a.major === b.major && a.minor === b.minor && a.patch === b.patch;
}

function release(major: number, minor: number, patch: number): Version {
  return { major, minor, patch, prerelease: [], build: "", parts: 3 };
}

function baseOf(v: Version): Version {
  return release(v.major, v.minor, v.patch);
}

// ---- constraint parsing -----------------------------------------------------------------------------

const OPERATORS: ReadonlySet<string> = new Set(["=", "!=", ">", ">=", "<", "<=", "~>"]);

/** One clause, scanned like go-versions' ragel scanner: op, separator, numbers, -pre, +meta. */
function parseClause(clause: string, whole: string): ConstraintClause {
  const fail = (detail: string): never => {
    throw new InvalidConstraintError(whole, detail);
  };
  const text = clause.trim();
  if (text === "") fail("empty clause (stray comma?)");
  const m = /^([^0-9A-Za-z\s.*]*)([\sv]*)(.*)$/s.exec(text)!;
  const op = m[1]!;
  const sep = m[2]!;
  const rest = m[3]!;
  if (op === "=<") fail(`invalid constraint operator "=<"; did you mean "<="?`);
  if (op === "=>") fail(`invalid constraint operator "=>"; did you mean ">="?`);
  if (op !== "" && !OPERATORS.has(op)) fail(`invalid constraint operator ${JSON.stringify(op)}`);
  if (sep.includes("v")) fail(`a "v" prefix should not be used when specifying versions`);
  if (sep !== "" && op === "") fail("extraneous spaces at start of specification");
  if (sep !== "" && sep !== " ") fail(`only one space is expected after the operator ${JSON.stringify(op)}`);
  const vm = /^(\d+|[*xX])((?:\.(?:\d+|[*xX]))*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(rest);
  if (!vm) {
    if (rest === "") fail(`missing version after ${JSON.stringify(op || "=")}`);
    fail(`invalid version ${JSON.stringify(rest)}`);
  }
  const nums = [vm![1]!, ...vm![2]!.split(".").slice(1)];
  if (nums.length > 3) fail("too many numbered portions; only three are allowed (major, minor, patch)");
  const names = ["major", "minor", "patch"];
  nums.forEach((n, i) => {
    if (!/^\d+$/.test(n)) fail(`can't use wildcard for ${names[i]} number; omit segments that should be unconstrained`);
  });
  // hashicorp/go-version (the first parser Terraform runs) requires well-formed dot-separated identifiers.
  const pre = vm![3]?.slice(1);
  const meta = vm![4]?.slice(1);
  const identOk = (s: string) => s.split(".").every((p) => p !== "");
  if (pre !== undefined && !identOk(pre)) fail(`malformed pre-release ${JSON.stringify(pre)}`);
  if (meta !== undefined && !identOk(meta)) fail(`malformed build metadata ${JSON.stringify(meta)}`);
  let version: Version;
  try {
    version = parseVersion(rest);
  } catch (e) {
    return fail((e as Error).message);
  }
  return { operator: (op || "=") as ConstraintOperator, version, text };
}

/**
 * Parses one constraint string as Terraform does (`required_providers` `version`, or a lock file's
 * `constraints`). An empty or blank string means "any version". Throws InvalidConstraintError.
 */
export function parseConstraint(text: string): Constraint {
  if (text.trim() === "") return { text, clauses: [] };
  return { text, clauses: text.split(",").map((c) => parseClause(c, text)) };
}

type ConstraintInput = string | Constraint | readonly (string | Constraint)[];

function clausesOf(input: ConstraintInput): ConstraintClause[] {
  const list = typeof input === "string" || !Array.isArray(input) ? [input as string | Constraint] : input;
  return list.flatMap((c) => (typeof c === "string" ? parseConstraint(c) : c).clauses);
}

// ---- sets of versions as unions of intervals (provider semantics) -----------------------------------

interface Bound {
  v: Version;
  inclusive: boolean;
}
/** lo/hi null = unbounded. */
interface Interval {
  lo: Bound | null;
  hi: Bound | null;
}

const ALL: Interval = { lo: null, hi: null };

function clauseIntervals(c: ConstraintClause): Interval[] {
  const v = { ...c.version, build: "" };
  switch (c.operator) {
    case "=":
      return [{ lo: { v, inclusive: true }, hi: { v, inclusive: true } }];
    case "!=":
      return [
        { lo: null, hi: { v, inclusive: false } },
        { lo: { v, inclusive: false }, hi: null },
      ];
    case ">":
      return [{ lo: { v, inclusive: false }, hi: null }];
    case ">=":
      return [{ lo: { v, inclusive: true }, hi: null }];
    case "<":
      return [{ lo: null, hi: { v, inclusive: false } }];
    case "<=":
      return [{ lo: null, hi: { v, inclusive: true } }];
    case "~>": {
      const upper = c.version.parts === 3 ? release(v.major, v.minor + 1, 0) : release(v.major + 1, 0, 0);
      return [{ lo: { v, inclusive: true }, hi: { v: upper, inclusive: false } }];
    }
  }
}

function maxLo(a: Bound | null, b: Bound | null): Bound | null {
  if (!a) return b;
  if (!b) return a;
  const c = compareVersions(a.v, b.v);
  if (c !== 0) return c > 0 ? a : b;
  return a.inclusive ? b : a; // the exclusive one is tighter
}

function minHi(a: Bound | null, b: Bound | null): Bound | null {
  if (!a) return b;
  if (!b) return a;
  const c = compareVersions(a.v, b.v);
  if (c !== 0) return c < 0 ? a : b;
  return a.inclusive ? b : a;
}

function nonEmpty(i: Interval): boolean {
  if (!i.lo || !i.hi) return true;
  const c = compareVersions(i.lo.v, i.hi.v);
  return c < 0 || (c === 0 && i.lo.inclusive && i.hi.inclusive);
}

function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const i = { lo: maxLo(x.lo, y.lo), hi: minHi(x.hi, y.hi) };
      if (nonEmpty(i)) out.push(i);
    }
  }
  return out;
}

function within(v: Version, i: Interval): boolean {
  if (i.lo) {
    const c = compareVersions(v, i.lo.v);
    if (c < 0 || (c === 0 && !i.lo.inclusive)) return false;
  }
  if (i.hi) {
    const c = compareVersions(v, i.hi.v);
    if (c > 0 || (c === 0 && !i.hi.inclusive)) return false;
  }
  return true;
}

/** The lowest release version inside the interval, if there is one. */
function lowestRelease(i: Interval): Version | null {
  let cand: Version;
  if (!i.lo) cand = release(0, 0, 0);
  else if (i.lo.v.prerelease.length > 0) cand = baseOf(i.lo.v); // the release is above its pre-releases
  else cand = i.lo.inclusive ? baseOf(i.lo.v) : release(i.lo.v.major, i.lo.v.minor, i.lo.v.patch + 1);
  return within(cand, i) ? cand : null;
}

/** The admitted set of ANDed clauses: release versions in `intervals`, plus the exactly named pre-releases. */
interface VersionSet {
  intervals: Interval[];
  prereleases: Version[];
}

function admittedSet(clauses: readonly ConstraintClause[]): VersionSet {
  let intervals: Interval[] = [ALL];
  for (const c of clauses) intervals = intersect(intervals, clauseIntervals(c));
  const prereleases = clauses
    .filter((c) => c.operator === "=" && c.version.prerelease.length > 0)
    .map((c) => ({ ...c.version, build: "" }))
    .filter((v) => intervals.some((i) => within(v, i)));
  return { intervals, prereleases };
}

/** The lowest version the set admits that is >= `bound`, or null. */
function lowestAdmittedAtOrAbove(set: VersionSet, bound: Version): Version | null {
  const above = intersect(set.intervals, [{ lo: { v: bound, inclusive: true }, hi: null }]);
  const cands: Version[] = [];
  for (const i of above) {
    const r = lowestRelease(i);
    if (r) cands.push(r);
  }
  for (const p of set.prereleases) if (compareVersions(p, bound) >= 0) cands.push(p);
  cands.sort(compareVersions);
  return cands[0] ?? null;
}

/** 0.0.0-0 is the lowest version there is. */
const LOWEST_VERSION: Version = { ...release(0, 0, 0), prerelease: ["0"] };

function lowestAdmitted(set: VersionSet): Version | null {
  return lowestAdmittedAtOrAbove(set, LOWEST_VERSION);
}

// ---- checks -----------------------------------------------------------------------------------------

function coreClauseCheck(v: Version, c: ConstraintClause): boolean {
  const cv = c.version;
  const vPre = v.prerelease.length > 0;
  const cPre = cv.prerelease.length > 0;
  // hashicorp/go-version prereleaseCheck
  const preOk = cPre && vPre ? sameBase(v, cv) : !cPre && vPre ? false : true;
  const cmp = compareVersions(v, cv);
  switch (c.operator) {
    case "=":
      return cmp === 0;
    case "!=":
      return cmp !== 0;
    case ">":
      return preOk && cmp > 0;
    case ">=":
      return preOk && cmp >= 0;
    case "<":
      return preOk && cmp < 0;
    case "<=":
      return preOk && cmp <= 0;
    case "~>": {
      if (!preOk || (cPre && !vPre)) return false;
      if (cmp < 0) return false;
      const vs = [v.major, v.minor, v.patch];
      const cs = [cv.major, cv.minor, cv.patch];
      for (let i = 0; i < cv.parts - 1; i++) if (vs[i] !== cs[i]) return false;
      return true;
    }
  }
}

/**
 * Does `version` meet the constraint(s)? An array of constraints is ANDed (several modules' requirements).
 * `mode: "provider"` (default) is Terraform's provider selection; `"core"` is go-version's Check.
 */
export function satisfies(
  version: string | Version,
  constraint: ConstraintInput,
  options: { mode?: ConstraintMode } = {},
): boolean {
  const v = asVersion(version);
  const clauses = clausesOf(constraint);
  if ((options.mode ?? "provider") === "core") return clauses.every((c) => coreClauseCheck(v, c));
  const set = admittedSet(clauses);
  if (!set.intervals.some((i) => within(v, i))) return false;
  return v.prerelease.length === 0 || set.prereleases.some((p) => compareVersions(p, v) === 0);
}

/**
 * Is there any version >= `bound` that the constraint(s) admit under Terraform's provider semantics?
 * Reasoned on intervals, so `~> 3.30` (< 4.0.0) does not allow 4.0.0 and `>= 3.0` does.
 */
export function allowsVersionAtOrAbove(constraint: ConstraintInput, bound: string | Version): boolean {
  return lowestAdmittedAtOrAbove(admittedSet(clausesOf(constraint)), asVersion(bound)) !== null;
}

/** Can any version at all meet the constraint(s)? (`>= 4.0, < 3.0` cannot.) */
export function isSatisfiable(constraint: ConstraintInput): boolean {
  return lowestAdmitted(admittedSet(clausesOf(constraint))) !== null;
}

// ---- the upgrade decision ---------------------------------------------------------------------------

/** 3.35.0 was the last provider with cloudflare_waf_*; 4.0.0 removed them. */
export const LAST_LEGACY_PROVIDER_VERSION = "3.35.0";
export const LEGACY_REMOVED_IN = "4.0.0";
/** The lowest possible 4.0.0 pre-release: 4.x pre-releases have no legacy schema either. */
const FIRST_WITHOUT_LEGACY = parseVersion("4.0.0-0");

export interface ProviderUpgradeInput {
  /** Every `version` constraint on the Cloudflare provider, from every module (ANDed). */
  constraints: string[];
  /** The version in `.terraform.lock.hcl`, when there is one. */
  lockedVersion?: string;
  /** The provider version the user intends to move to (`--target-provider`). */
  targetVersion?: string;
}

export interface ProviderUpgradeDecision {
  /** Legacy resources would break: the constraints admit, the lock pins or the target is 4.0 or later. */
  blocked: boolean;
  reason: string;
  /** The constraints together admit a provider without the legacy resources (4.0.0 or later). */
  allowsLegacyRemoval: boolean;
  /** The locked provider still has the legacy schema (≤ 3.35.x); null without a lock. */
  lockedHasLegacySchema: boolean | null;
}

function hasLegacySchema(v: Version): boolean {
  return compareVersions(v, FIRST_WITHOUT_LEGACY) < 0;
}

/** Subject and verb ending for the reason text: `["the constraint \"~> 3.30\"", "s"]`. */
function describeConstraints(list: string[]): [string, string] {
  const nonEmpty = list.filter((c) => c.trim() !== "");
  if (nonEmpty.length === 0) return ["no version constraint (any version)", "s"];
  return nonEmpty.length === 1
    ? [`the constraint ${JSON.stringify(nonEmpty[0]!.trim())}`, "s"]
    : [`the constraints ${nonEmpty.map((c) => JSON.stringify(c.trim())).join(" and ")} together`, ""];
}

/**
 * Decides whether moving the provider is blocked while legacy WAF resources remain.
 * Throws InvalidConstraintError / InvalidVersionError on malformed input.
 */
export function decideProviderUpgrade(input: ProviderUpgradeInput): ProviderUpgradeDecision {
  const parsed = input.constraints.map(parseConstraint);
  const set = admittedSet(parsed.flatMap((c) => c.clauses));
  const firstWithout = lowestAdmittedAtOrAbove(set, FIRST_WITHOUT_LEGACY);
  const allowsLegacyRemoval = firstWithout !== null;
  const locked = input.lockedVersion !== undefined ? parseVersion(input.lockedVersion) : null;
  const target = input.targetVersion !== undefined ? parseVersion(input.targetVersion) : null;
  const lockedHasLegacySchema = locked ? hasLegacySchema(locked) : null;
  const [what, s] = describeConstraints(input.constraints);

  const reasons: string[] = [];
  if (allowsLegacyRemoval) {
    reasons.push(
      `${what} allow${s} provider ${formatVersion(firstWithout)}, which no longer has the cloudflare_waf_* resources ` +
        `(removed in ${LEGACY_REMOVED_IN}; ${LAST_LEGACY_PROVIDER_VERSION} was the last 3.x)`,
    );
  }
  if (locked && !lockedHasLegacySchema) {
    reasons.push(`the lock file selects provider ${formatVersion(locked)}, which no longer has the cloudflare_waf_* resources`);
  }
  if (target && !hasLegacySchema(target)) {
    reasons.push(`the target provider ${formatVersion(target)} no longer has the cloudflare_waf_* resources`);
  }
  const blocked = reasons.length > 0;
  let reason: string;
  if (blocked) {
    reason = reasons.join("; ");
  } else {
    const lowest = lowestAdmitted(set);
    const parts: string[] = [];
    if (lowest === null) {
      parts.push(`${what} cannot be met by any version`);
    } else {
      parts.push(`${what} admit${s} only versions below ${LEGACY_REMOVED_IN}`);
    }
    if (locked) parts.push(`the lock file selects ${formatVersion(locked)}`);
    if (target) parts.push(`the target provider ${formatVersion(target)} still has the legacy schema`);
    reason = parts.join("; ");
  }
  return { blocked, reason, allowsLegacyRemoval, lockedHasLegacySchema };
}

/** Terraform learned `removed {}` blocks in 1.7. */
export const REMOVED_BLOCK_TERRAFORM = "1.7.0";

/**
 * `removed {}` can replace `terraform state rm` only while Terraform is at least 1.7 and the locked provider
 * still has the legacy schema (<= 3.35): the block needs the provider to read the resources it forgets.
 * Versions that do not parse count as neither.
 */
export function removedBlocksEligible(terraformVersions: readonly string[], lockedProviderVersions: readonly string[]): boolean {
  const cmp = (a: string, b: string): number | null => {
    try {
      return compareVersions(a, b);
    } catch {
      return null;
    }
  };
  const tfOk = terraformVersions.some((v) => (cmp(v, REMOVED_BLOCK_TERRAFORM) ?? -1) >= 0);
  const schemaOk = lockedProviderVersions.some((v) => (cmp(v, LAST_LEGACY_PROVIDER_VERSION) ?? 1) <= 0);
  return tfOk && schemaOk;
}

/**
 * The one provider major version the constraints admit, or null when they admit several, none, or cannot
 * be read. Used where a wrong guess would write an edit the provider rejects (certificate CA values), so
 * an ambiguous answer is no answer. The admitted set is an interval: the highest major M with a version at
 * or above M.0.0, provided nothing at the top of M-1 is admitted too.
 */
export function onlyAdmittedMajor(constraints: readonly string[]): 3 | 4 | 5 | null {
  if (constraints.length === 0) return null;
  try {
    let major: number | null = null;
    for (let m = 9; m >= 1; m--) {
      if (allowsVersionAtOrAbove([...constraints], `${m}.0.0`)) {
        major = m;
        break;
      }
    }
    if (major === null || satisfies(`${major - 1}.99999.99999`, [...constraints])) return null;
    return major === 3 || major === 4 || major === 5 ? major : null;
  } catch {
    return null;
  }
}
