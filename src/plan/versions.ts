// The plan's version fitting: which provider and Terraform versions each root runs steps 1-6 on, the
// generated ruleset fitted to them, whether `import {}` blocks can be offered, and what PLAN.md and
// report.json say about it. The rules are core's (core/version-fit.ts, core/ruleset-features.ts); this file
// only gathers their inputs from the workspace and words the result.
import type { Finding, Ruleset } from "../core/model.js";
import { LAST_LEGACY_PROVIDER_VERSION } from "../core/provider-version.js";
import { fitRuleset, GENERATOR_CONSTRUCTS, tableMinimumVersion, type FitOptions } from "../core/ruleset-features.js";
import { fitRulesetToRoots, RAISE_CONSTRAINT_STEP, RECOMMENDED_CONSTRAINT, type RootVersionFit, type RulesetFit } from "../core/version-fit.js";
import type { ProviderInfo } from "../terraform/versions/providers.js";
import { rootVersionFits } from "../terraform/versions/root-versions.js";
import type { Workspace } from "../terraform/inventory/workspace.js";

/** The `versions` entry of report.json (one per root module; docs/report-format.md). */
export interface VersionsReport {
  root: string;
  provider: {
    constraints: { constraint: string; file: string; line: number; module: string }[];
    combined: string;
    lock: { version: string | null; file: string; line: number } | null;
    /** The versions steps 1-6 run on, as ANDed constraints. */
    stepsTarget: string[];
    basis: "lock" | "constraints" | "assumed";
  };
  terraform: {
    tool: "terraform" | "opentofu";
    requiredVersion: { constraint: string; file: string; line: number; module: string }[];
    combined: string;
    importBlocks: boolean;
  };
  /** Constructs left out of ruleset.tf (optional) and constructs missing (required), with minimum versions. */
  omitted: { construct: string; minimumVersion: string }[];
  missing: { construct: string; minimumVersion: string }[];
}

export interface PlanVersions {
  roots: RootVersionFit[];
  findings: Finding[];
  /** Every root's Terraform admits only versions with `import {}` blocks. */
  importBlocks: boolean;
  importReason: string;
  /** imports.tf may reference a root zone resource in an `id` (Terraform 1.6+ or OpenTofu); else the id is a literal. */
  importIdExpressions: boolean;
  fitRuleset(ruleset: Ruleset, options?: Pick<FitOptions, "constructs">): RulesetFit;
  report(fits: RulesetFit[]): VersionsReport[];
  markdown(fits: RulesetFit[], providerMajor: 4 | 5): string[];
  /** "Ruleset syntax: …" of PLAN.md's first paragraph. */
  syntaxLabel(fits: RulesetFit[], providerMajor: 4 | 5): string;
}

/**
 * Fits the plan to the versions of every root the run reads. `imports`: how many rulesets the plan imports in
 * this instance; with none (legacy blocks with no instance, a zone whose ruleset another root holds) whether
 * `import {}` blocks are available does not matter, and IMPORT_BLOCKS_UNAVAILABLE is not reported.
 */
export function planVersions(ws: Pick<Workspace, "resources" | "tree">, info: ProviderInfo, imports = 1): PlanVersions {
  const roots = rootVersionFits(ws, info);
  const findings = dedupe(roots.flatMap((r) => r.findings)).filter((f) => imports > 0 || f.code !== "IMPORT_BLOCKS_UNAVAILABLE");
  const importRoots = roots.some((r) => r.hasLegacy) ? roots.filter((r) => r.hasLegacy) : roots;
  const importBlocks = importRoots.length > 0 && importRoots.every((r) => r.terraform.importBlocks);
  const importIdExpressions = importBlocks && importRoots.every((r) => r.terraform.importIdExpressions);
  const importReason = importRoots.find((r) => !r.terraform.importBlocks)?.terraform.reason ?? importRoots[0]?.terraform.reason ?? "no root module was read, so the Terraform version is unknown: use the terraform import commands";
  // The generated rulesets replace legacy resources: the roots that hold them are the ones that run them.
  const legacyRoots = roots.filter((r) => r.hasLegacy);
  const fitOne = (ruleset: Ruleset, options: Pick<FitOptions, "constructs"> = {}) => fitRulesetToRoots(ruleset, legacyRoots.length ? legacyRoots : roots, options);
  return {
    roots,
    findings,
    importBlocks,
    importIdExpressions,
    importReason,
    fitRuleset: fitOne,
    report: (fits) => roots.map((r) => reportOf(r, fits)),
    markdown: (fits, major) => markdownOf(roots, fits, major, importBlocks, imports > 0 ? importReason : null),
    syntaxLabel: (fits, major) => {
      const describe = (r: RootVersionFit) =>
        r.provider.basis === "lock" ? `${r.provider.lock!.version} (locked)` : r.provider.basis === "assumed" ? `"${RECOMMENDED_CONSTRAINT}" (assumed: not pinned)` : `"${r.provider.combined}"`;
      const targets = [...new Set((legacyRoots.length ? legacyRoots : roots).map(describe))];
      const lowered = legacyRoots.some((r) => r.provider.legacyUnavailable);
      const raised = fits.some((f) => f.missing.length > 0) || lowered;
      const forWhat = raised ? `for provider "${RECOMMENDED_CONSTRAINT}" (${lowered ? "lower" : "raise"} the constraint first)` : targets.length ? `for provider ${targets.join(" and ")}, which runs steps 1-6` : "";
      return `${major === 5 ? "provider 5 attributes" : "blocks"}${forWhat ? ` ${forWhat}` : ""}`;
    },
  };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}\u0000${f.file}\u0000${f.line}\u0000${String((f.details as { construct?: string } | undefined)?.construct ?? f.message)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The service's rules carry id/version (computed, never in config) and often an empty ref. */
export function withoutComputedFields(ruleset: Ruleset): Ruleset {
  return {
    ...ruleset,
    rules: ruleset.rules.map((r) => {
      const { id: _id, version: _version, ...rest } = r;
      if (rest.ref === "") delete rest.ref;
      return rest;
    }),
  };
}

/**
 * One zone's generated ruleset fitted to the versions of steps 1-6. When a required construct is missing, the
 * plan raises the constraint first, so the ruleset is written for the version that step installs (and what
 * it would leave out for the pinned version is no longer left out).
 */
export function fitZoneRuleset(versions: Pick<PlanVersions, "fitRuleset">, ruleset: Ruleset, options: Pick<FitOptions, "constructs"> = {}): RulesetFit {
  const fit = versions.fitRuleset(ruleset, options);
  if (!fit.missing.length) return fit;
  const raised = fitRuleset(ruleset, RECOMMENDED_CONSTRAINT, { ...options, imports: false });
  return { ...fit, ruleset: raised.ruleset, omitted: raised.omitted, findings: fit.findings.filter((f) => f.code !== "RULESET_CONSTRUCT_OMITTED") };
}

/**
 * The version findings of a run without writing anything (gate): each root's (PROVIDER_CONSTRAINT_MISSING,
 * IMPORT_BLOCKS_UNAVAILABLE) and those of fitting every zone's ruleset (PROVIDER_FEATURE_MISSING,
 * RULESET_CONSTRUCT_OMITTED), the same ones `plan` reports.
 */
export function versionFindings(ws: Pick<Workspace, "resources" | "tree">, info: ProviderInfo, rulesets: Ruleset[], imports = rulesets.length): Finding[] {
  const versions = planVersions(ws, info, imports);
  return versionFindingsOf(
    versions,
    imports,
    rulesets.map((r) => zoneFitFindings(versions, r)),
  );
}

/**
 * versionFindings from its parts, for a caller that fits each zone's ruleset as it reads it (gate over a
 * spilled report): the roots' findings (`versions` of any `imports`), then each zone's fit findings in zone order.
 */
export function versionFindingsOf(versions: Pick<PlanVersions, "findings">, imports: number, zoneFits: readonly Finding[][]): Finding[] {
  const roots = versions.findings.filter((f) => imports > 0 || f.code !== "IMPORT_BLOCKS_UNAVAILABLE");
  return dedupe([...roots, ...dedupe(zoneFits.flat())]);
}

/** What fitting one zone's ruleset to the versions finds (what versionFindings reports of it). */
export function zoneFitFindings(versions: Pick<PlanVersions, "fitRuleset">, ruleset: Ruleset): Finding[] {
  return fitZoneRuleset(versions, withoutComputedFields(ruleset)).findings;
}

/** The findings of a set of ruleset fits, once each. */
export function fitFindings(fits: RulesetFit[]): Finding[] {
  return dedupe(fits.flatMap((f) => f.findings));
}

function uniqueConstructs(list: { construct: string; minimum: string }[]): { construct: string; minimumVersion: string }[] {
  const m = new Map(list.map((x) => [x.construct, x.minimum]));
  return [...m].map(([construct, minimumVersion]) => ({ construct, minimumVersion }));
}

function reportOf(r: RootVersionFit, fits: RulesetFit[]): VersionsReport {
  return {
    root: r.root,
    provider: {
      constraints: r.provider.constraints.map((c) => ({ constraint: c.constraint, file: c.file, line: c.line, module: c.module ?? "" })),
      combined: r.provider.combined,
      lock: r.provider.lock ? { version: r.provider.lock.version, file: r.provider.lock.file, line: r.provider.lock.line } : null,
      stepsTarget: r.provider.target,
      basis: r.provider.basis,
    },
    terraform: {
      tool: r.terraform.tool,
      requiredVersion: r.terraform.constraints.map((c) => ({ constraint: c.constraint, file: c.file, line: c.line, module: c.module ?? "" })),
      combined: r.terraform.combined,
      importBlocks: r.terraform.importBlocks,
    },
    omitted: uniqueConstructs(fits.flatMap((f) => f.omitted)),
    missing: uniqueConstructs(fits.flatMap((f) => f.missing)),
  };
}

/** `importReason` null: the plan imports nothing, so whether import {} blocks are available does not matter. */
function markdownOf(roots: RootVersionFit[], fits: RulesetFit[], major: 4 | 5, importBlocks: boolean, importReason: string | null): string[] {
  const out: string[] = ["## Versions", ""];
  for (const r of roots) {
    out.push(`Root \`${r.root}\`:`, "");
    const cs = r.provider.constraints.filter((c) => c.constraint.trim() !== "");
    out.push(
      `- Cloudflare provider constraints: ${cs.length ? cs.map((c) => `\`${c.constraint}\` (\`${c.file}:${c.line}\`)`).join(", ") : r.provider.constraints.length ? "an entry without a version (any version)" : "**none** (no required_providers entry)"}${cs.length > 1 ? `; together \`${r.provider.combined}\`` : ""}`,
    );
    out.push(`- Lock file: ${r.provider.lock ? `${r.provider.lock.version ?? "no version"} (\`${r.provider.lock.file}:${r.provider.lock.line}\`)` : "none"}`);
    out.push(`- Steps 1-6 run on provider: ${r.provider.summary}`);
    const tv = r.terraform.constraints.filter((c) => c.constraint.trim() !== "");
    out.push(`- ${r.terraform.tool === "opentofu" ? "OpenTofu" : "Terraform"} required_version: ${tv.length ? tv.map((c) => `\`${c.constraint}\` (\`${c.file}:${c.line}\`)`).join(", ") : "none"}`);
    out.push("");
  }
  const omitted = uniqueConstructs(fits.flatMap((f) => f.omitted));
  const missing = uniqueConstructs(fits.flatMap((f) => f.missing));
  const what = (c: string) => GENERATOR_CONSTRUCTS[c]?.what ?? c;
  const syntax = major === 5 ? "provider 5 attribute syntax" : "block syntax";
  out.push(
    missing.length
      ? `ruleset.tf is written for provider \`${RECOMMENDED_CONSTRAINT}\` (${syntax}), the version the first step installs: the provider above lacks what the migration needs.`
      : `ruleset.tf is written for the provider of steps 1-6 (${syntax}), using only what every version above has (feature table read from the provider's source, \`src/core/data/ruleset-features.json\`).`,
  );
  out.push("");
  for (const m of missing) out.push(`- **Missing**: ${what(m.construct)} needs provider ${m.minimumVersion}: ${RAISE_CONSTRAINT_STEP}.`);
  for (const m of omitted) out.push(`- Left out: ${what(m.construct)} (needs provider ${m.minimumVersion}); the ruleset works without it. Add it after raising the provider.`);
  if (missing.length || omitted.length) out.push("");
  if (importReason === null) out.push("- No imports.tf: nothing to import.");
  else out.push(importBlocks ? `- import {} blocks: offered in imports.tf (${importReason}).` : `- No imports.tf: ${importReason}. Step 3 uses \`terraform import\`.`);
  out.push("");
  out.push(
    `At the upgrade (after step 7, leaving ${LAST_LEGACY_PROVIDER_VERSION}): provider 4.x reads the same blocks and the same import id \`zone/<zone_id>/<ruleset_id>\` (a rule's \`ref\` becomes settable from ${tableMinimumVersion("rules.ref")}); provider 5.x writes \`rules = [ { … } ]\` with \`action_parameters = { … }\`, \`overrides = { categories = [ … ], rules = [ … ] }\` and \`logging = { … }\` as attributes, and its import id is \`zones/<zone_id>/<ruleset_id>\`: re-run \`cf-waf-migrate plan --provider-major 5\` for that syntax.`,
  );
  out.push("");
  return out;
}
