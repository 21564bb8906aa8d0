// Which versions run each step of the migration, per root module, and what follows for the generated code.
// Pure: the Terraform layer gathers the constraints (with file:line), the lock and `required_version`.
//
// - Steps 1-6 run on the provider the root has today. The lock file's version is what actually runs; with
//   no lock, any version the constraints admit may be installed, so the ruleset must load on all of them
//   (while legacy resources remain, only those up to 3.35.0, the last with them). No constraint at all: the
//   next `init` takes the newest provider, which has no legacy resources; the plan assumes `~> 3.35`, the
//   constraint it tells the user to add.
// - `import {}` blocks need Terraform 1.5 (OpenTofu has them from its first release, 1.6.0): they are written
//   only when every version `required_version` admits has them. No `required_version`: unknown, so none.
import { finding, type FindingCode } from "./findings.js";
import { LEGACY_WAF_RESOURCE_TYPES } from "./legacy-types.js";
import type { Finding } from "./model.js";
import { isSatisfiable, LAST_LEGACY_PROVIDER_VERSION, parseConstraint, parseVersion } from "./provider-version.js";
import { fitRuleset, type FitOptions, type FittedRuleset, type MissingConstruct } from "./ruleset-features.js";
import type { Ruleset } from "./model.js";

/**
 * The provider major a root's generated ruleset and its import ids (`zone/…` or provider 5's `zones/…`) are
 * written for. Steps 1-6 run where the legacy resources still exist (<= 3.35, provider-4 block syntax): a root
 * that holds one is written for 4 (pinned to 5, it is moved to ~> 3.35 first: PROVIDER_FEATURE_MISSING); any
 * other root for the major its lock file or constraints say (`rootMajor`).
 */
export function migrationSyntaxMajor(resources: readonly { type: string }[], rootMajor: 4 | 5): 4 | 5 {
  return resources.some((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type)) ? 4 : rootMajor;
}

/** What the plan tells a root pinned too low: a version with both the legacy resources and the full ruleset. */
export const RECOMMENDED_CONSTRAINT = "~> 3.35";
export const RAISE_CONSTRAINT_STEP = `raise the constraint to ${RECOMMENDED_CONSTRAINT} and run terraform init -upgrade`;
/**
 * The other direction: a root that still holds legacy resources but pins or locks a provider after 3.35 (a
 * Renovate bump to 4.x or 5.x before the migration) moves *down* to ~> 3.35; `init -upgrade` also moves the
 * lock to the newest version the lowered constraint admits.
 */
export const LOWER_CONSTRAINT_STEP = `lower the constraint to ${RECOMMENDED_CONSTRAINT} (back from a provider after ${LAST_LEGACY_PROVIDER_VERSION}) and run terraform init -upgrade`;
export const IMPORT_BLOCK_TERRAFORM = "1.5.0";
/** OpenTofu's first release (1.6.0) already had `import {}` blocks. */
export const IMPORT_BLOCK_OPENTOFU = "1.6.0";
/** Terraform 1.5's `import {}` takes only a literal `id`; references in it (`${cloudflare_zone.z.id}`) came in 1.6.0. */
export const IMPORT_ID_EXPRESSIONS_TERRAFORM = "1.6.0";

export interface Located {
  constraint: string;
  file: string;
  line: number;
  /** Config module path of the declaring module ("" for the root). */
  module?: string;
}

export interface RootVersionInput {
  /** Display path of the root module. */
  root: string;
  /** Every `version` of a Cloudflare `required_providers` entry in the root and its modules. */
  provider: Located[];
  lock: { version: string | null; file: string; line: number; source?: string } | null;
  /** Every `required_version` of the root and its modules. */
  terraform: Located[];
  /** OpenTofu rather than Terraform (the lock file names registry.opentofu.org, or `.tofu` files exist). */
  openTofu: boolean;
  /** The root's `terraform {}` block, else its first legacy resource: where a finding without a constraint points. */
  anchor: { file: string; line: number } | null;
  /** Legacy WAF resources in this root's configuration or state. */
  hasLegacy: boolean;
}

export interface ProviderVersions {
  /** The constraints with their locations. */
  constraints: Located[];
  /** All constraints ANDed, as Terraform intersects them (`~> 3.4.0, >= 3.0`); "" when none. */
  combined: string;
  lock: RootVersionInput["lock"];
  /** The versions of steps 1-6, as a list of ANDed constraints (a locked version is an exact one). */
  target: string[];
  /** How `target` was chosen. */
  basis: "lock" | "constraints" | "assumed";
  /** One line for people: "3.20.0 (locked in .terraform.lock.hcl:3)". */
  summary: string;
  /**
   * Legacy resources remain, but the lock selects a provider above 3.35.0 (or the constraints admit none up
   * to it): no version the root pins has the cloudflare_waf_* resources that steps 1-6 still load, so the
   * plan moves to `~> 3.35` first and `target` is that.
   */
  legacyUnavailable: boolean;
}

export interface TerraformVersions {
  tool: "terraform" | "opentofu";
  constraints: Located[];
  combined: string;
  /** Every admitted version has `import {}` blocks. */
  importBlocks: boolean;
  /** Every admitted version also evaluates references in an import block's `id` (Terraform 1.6, every OpenTofu). */
  importIdExpressions: boolean;
  /** Why (or why not), for the plan. */
  reason: string;
}

export interface RootVersionFit {
  root: string;
  /** The root holds legacy resources: its versions are the ones steps 1-6 run on. */
  hasLegacy: boolean;
  provider: ProviderVersions;
  terraform: TerraformVersions;
  findings: Finding[];
}

function combine(list: Located[]): string {
  return list
    .map((c) => c.constraint.trim())
    .filter((c) => c !== "")
    .join(", ");
}

function parses(c: string): boolean {
  try {
    parseConstraint(c);
    return true;
  } catch {
    return false;
  }
}

/** The provider versions of steps 1-6 for one root. */
export function providerVersions(input: RootVersionInput): ProviderVersions {
  const constraints = input.provider;
  const combined = combine(constraints);
  const lockVersion = input.lock?.version ?? null;
  if (lockVersion !== null) {
    try {
      parseVersion(lockVersion);
      const summary = `${lockVersion} (locked in ${input.lock!.file}:${input.lock!.line})`;
      if (input.hasLegacy && !isSatisfiable([`= ${lockVersion}`, `<= ${LAST_LEGACY_PROVIDER_VERSION}`])) {
        return { constraints, combined, lock: input.lock, target: [RECOMMENDED_CONSTRAINT], basis: "lock", summary: `${summary}, which has no legacy resources: the plan moves to "${RECOMMENDED_CONSTRAINT}" first`, legacyUnavailable: true };
      }
      return { constraints, combined, lock: input.lock, target: [`= ${lockVersion}`], basis: "lock", summary, legacyUnavailable: false };
    } catch {
      // an unreadable lock version is reported by the lock reader; fall back to the constraints
    }
  }
  const usable = constraints.map((c) => c.constraint).filter((c) => c.trim() !== "" && parses(c));
  if (usable.length) {
    const legacyRange = [...usable, `<= ${LAST_LEGACY_PROVIDER_VERSION}`];
    if (input.hasLegacy && !isSatisfiable(legacyRange)) {
      return { constraints, combined, lock: input.lock, target: [RECOMMENDED_CONSTRAINT], basis: "constraints", summary: `"${combined}", which admits no version with the legacy resources: the plan moves to "${RECOMMENDED_CONSTRAINT}" first`, legacyUnavailable: true };
    }
    const target = input.hasLegacy ? legacyRange : usable;
    const upTo = target.length > usable.length ? `, up to ${LAST_LEGACY_PROVIDER_VERSION} while the legacy resources remain` : "";
    return { constraints, combined, lock: input.lock, target, basis: "constraints", summary: `any version of "${combined}"${upTo} (no lock file: terraform init may pick any of them)`, legacyUnavailable: false };
  }
  return {
    constraints,
    combined,
    lock: input.lock,
    target: [RECOMMENDED_CONSTRAINT],
    basis: "assumed",
    summary: `not pinned: the next terraform init takes the newest provider; the plan assumes "${RECOMMENDED_CONSTRAINT}"`,
    legacyUnavailable: false,
  };
}

/** Whether `import {}` blocks can be used with the Terraform (or OpenTofu) versions `required_version` admits. */
export function terraformVersions(input: RootVersionInput): TerraformVersions {
  const tool = input.openTofu ? "opentofu" : "terraform";
  const name = input.openTofu ? "OpenTofu" : "Terraform";
  const constraints = input.terraform;
  const combined = combine(constraints);
  const usable = constraints.map((c) => c.constraint).filter((c) => c.trim() !== "");
  const bad = usable.find((c) => !parses(c));
  if (usable.length === 0 || bad !== undefined) {
    return {
      tool,
      constraints,
      combined,
      importBlocks: false,
      importIdExpressions: false,
      reason:
        bad !== undefined
          ? `required_version "${bad}" cannot be read, so the ${name} version is unknown: import {} blocks need ${name} ${input.openTofu ? IMPORT_BLOCK_OPENTOFU : "1.5"} or later, use the terraform import commands`
          : `no required_version, so the ${name} version is unknown: import {} blocks need ${input.openTofu ? `OpenTofu ${IMPORT_BLOCK_OPENTOFU}` : "Terraform 1.5"} or later, use the terraform import commands (or add required_version = ">= 1.5")`,
    };
  }
  // OpenTofu has had import blocks since its first release, so only Terraform versions below 1.5 lack them.
  const floor = input.openTofu ? IMPORT_BLOCK_OPENTOFU : IMPORT_BLOCK_TERRAFORM;
  const admitsOlder = isSatisfiable([...usable, `< ${floor}`]);
  const importIdExpressions = input.openTofu || !isSatisfiable([...usable, `< ${IMPORT_ID_EXPRESSIONS_TERRAFORM}`]);
  if (!admitsOlder) {
    return { tool, constraints, combined, importBlocks: true, importIdExpressions, reason: `required_version "${combined}" admits only ${name} ${input.openTofu ? IMPORT_BLOCK_OPENTOFU : "1.5"} or later, which has import {} blocks` };
  }
  return {
    tool,
    constraints,
    combined,
    importBlocks: false,
    importIdExpressions: false,
    reason: `required_version "${combined}" admits ${name} versions below ${input.openTofu ? IMPORT_BLOCK_OPENTOFU : "1.5"}, which have no import {} blocks: use the terraform import commands`,
  };
}

/** The constraint a person edits to raise the version: the first one that admits `version`, with its location. */
function constraintAdmitting(constraints: Located[], version: string): Located | null {
  for (const c of constraints) {
    if (c.constraint.trim() === "" || !parses(c.constraint)) continue;
    if (isSatisfiable([c.constraint, `= ${version}`])) return c;
  }
  return constraints.find((c) => c.constraint.trim() !== "") ?? null;
}

function missingMessage(m: MissingConstruct, pv: ProviderVersions, at: Located | null): string {
  const where =
    pv.basis === "lock"
      ? `the lock file (${pv.lock!.file}:${pv.lock!.line}) selects provider ${m.missingAt}`
      : `"${pv.combined}"${at ? ` (${at.file}:${at.line})` : ""} admits provider ${m.missingAt}`;
  return `the migration needs provider ${m.minimum} or later for ${m.what}, but ${where}: ${RAISE_CONSTRAINT_STEP} (3.35 still has the legacy resources and the whole ruleset)`;
}

/** Versions, findings and the fitted ruleset inputs for one root. `ruleset` is what the generator would emit. */
export function fitRoot(input: RootVersionInput): RootVersionFit {
  const provider = providerVersions(input);
  const terraform = terraformVersions(input);
  const findings: Finding[] = [];
  // An entry with a source but no version pins nothing either: the next init takes the newest provider too.
  const unversioned = input.provider.length > 0 && input.provider.every((c) => c.constraint.trim() === "") ? input.provider[0]! : null;
  if (input.hasLegacy && unversioned) {
    findings.push(
      finding(
        "PROVIDER_CONSTRAINT_MISSING",
        `the Cloudflare entry of required_providers in ${input.root} has no version: the next terraform init installs the newest provider, where the cloudflare_waf_* resources no longer exist (removed in 4.0.0); add version = "${RECOMMENDED_CONSTRAINT}" to it before any step`,
        { zoneId: null, file: unversioned.file, line: unversioned.line },
      ),
    );
  }
  if (input.hasLegacy && input.provider.length === 0) {
    findings.push(
      finding(
        "PROVIDER_CONSTRAINT_MISSING",
        `no required_providers entry for the Cloudflare provider in ${input.root}: the next terraform init installs the newest provider, where the cloudflare_waf_* resources no longer exist (removed in 4.0.0); add cloudflare = { source = "cloudflare/cloudflare", version = "${RECOMMENDED_CONSTRAINT}" } to required_providers before any step`,
        { zoneId: null, file: input.anchor?.file ?? null, line: input.anchor?.line ?? null },
      ),
    );
  }
  if (provider.legacyUnavailable) {
    const at = provider.basis === "lock" ? { file: provider.lock!.file, line: provider.lock!.line } : (input.provider.find((c) => c.constraint.trim() !== "") ?? null);
    const where =
      provider.basis === "lock"
        ? `the lock file (${provider.lock!.file}:${provider.lock!.line}) selects provider ${provider.lock!.version}`
        : `"${provider.combined}"${at ? ` (${at.file}:${at.line})` : ""} admits no version up to ${LAST_LEGACY_PROVIDER_VERSION}`;
    findings.push(
      finding(
        "PROVIDER_FEATURE_MISSING",
        `steps 1-6 of the migration load the configuration and state that still hold the legacy cloudflare_waf_* resources, which exist only up to provider ${LAST_LEGACY_PROVIDER_VERSION}, but ${where}: terraform cannot plan or import with it. Set the constraint to "${RECOMMENDED_CONSTRAINT}" and run terraform init -upgrade (3.35 still has the legacy resources and the whole ruleset)`,
        { zoneId: null, file: at?.file ?? null, line: at?.line ?? null },
        { construct: "legacy resources", maximumVersion: LAST_LEGACY_PROVIDER_VERSION },
      ),
    );
  }
  if (input.hasLegacy && !terraform.importBlocks) {
    const at = terraform.constraints.find((c) => c.constraint.trim() !== "") ?? null;
    findings.push(
      finding("IMPORT_BLOCKS_UNAVAILABLE", `${terraform.reason}`, { zoneId: null, file: at?.file ?? input.anchor?.file ?? null, line: at?.line ?? input.anchor?.line ?? null }),
    );
  }
  return { root: input.root, hasLegacy: input.hasLegacy, provider, terraform, findings };
}

export interface RulesetFit extends FittedRuleset {
  findings: Finding[];
}

/**
 * Fits the zone rulesets to every root's provider versions at once (ruleset.tf is one file for them all):
 * optional constructs some root lacks are left out (an info finding each), required ones give
 * PROVIDER_FEATURE_MISSING at the root's constraint (or lock) line.
 */
export function fitRulesetToRoots(ruleset: Ruleset, roots: RootVersionFit[], options: Pick<FitOptions, "constructs"> = {}): RulesetFit {
  let current = ruleset;
  const omitted = new Map<string, MissingConstruct>();
  const missing = new Map<string, MissingConstruct>();
  const findings: Finding[] = [];
  for (const r of roots) {
    const fit = fitRuleset(current, r.provider.target, options);
    current = fit.ruleset;
    for (const m of fit.omitted) if (!omitted.has(m.construct)) omitted.set(m.construct, m);
    for (const m of fit.missing) {
      const key = `${r.root}\u0000${m.construct}`;
      if (missing.has(key)) continue;
      missing.set(key, m);
      const at = r.provider.basis === "lock" ? null : constraintAdmitting(r.provider.constraints, m.missingAt);
      const loc = r.provider.basis === "lock" ? { file: r.provider.lock!.file, line: r.provider.lock!.line } : at ? { file: at.file, line: at.line } : { file: null, line: null };
      findings.push(finding("PROVIDER_FEATURE_MISSING", missingMessage(m, r.provider, at), { zoneId: null, ...loc }, { construct: m.construct, minimumVersion: m.minimum, missingAt: m.missingAt }));
    }
  }
  for (const m of omitted.values()) {
    const r = roots.find((x) => fitRuleset(ruleset, x.provider.target, options).omitted.some((o) => o.construct === m.construct));
    const at = r && r.provider.basis !== "lock" ? constraintAdmitting(r.provider.constraints, m.missingAt) : null;
    const loc = r?.provider.basis === "lock" ? { file: r.provider.lock!.file, line: r.provider.lock!.line } : at ? { file: at.file, line: at.line } : { file: null, line: null };
    findings.push(
      finding(
        "RULESET_CONSTRUCT_OMITTED" satisfies FindingCode,
        `${m.what} is left out of the generated cloudflare_ruleset: it needs provider ${m.minimum} or later and this root may run ${m.missingAt}; add it after raising the provider`,
        { zoneId: null, ...loc },
        { construct: m.construct, minimumVersion: m.minimum, missingAt: m.missingAt },
      ),
    );
  }
  return { ruleset: current, omitted: [...omitted.values()], missing: [...new Map([...missing.values()].map((m) => [m.construct, m])).values()], findings };
}
