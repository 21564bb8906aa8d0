// apply's version precondition: the provider of a root with legacy resources must be able to import the
// cloudflare_ruleset (step 3), or the run would stop half-way. Decided by the provider feature table.
import { admittedReleases, hasConstruct, tableMinimumVersion } from "../core/ruleset-features.js";
import { RAISE_CONSTRAINT_STEP, type RootVersionFit } from "../core/version-fit.js";

/**
 * One refusal per root whose provider (locked, else any the constraints admit) cannot import the ruleset, or
 * has no legacy resources any more (above 3.35.0) while the root still holds them.
 */
export function importRefusals(roots: readonly RootVersionFit[]): string[] {
  const out: string[] = [];
  for (const r of roots) {
    if (!r.hasLegacy) continue;
    // Its target is then the ~> 3.35 the plan moves to: what runs today is the pinned 4.x, without the legacy types.
    const legacyFinding = r.findings.find((f) => f.code === "PROVIDER_FEATURE_MISSING");
    if (r.provider.legacyUnavailable && legacyFinding) {
      out.push(`${r.root}: ${legacyFinding.message}, then run apply again`);
      continue;
    }
    let versions: string[];
    try {
      versions = admittedReleases(r.provider.target);
    } catch {
      continue; // an unreadable constraint is reported by the input reader
    }
    const lacking = versions.find((v) => !hasConstruct("import", v));
    if (lacking === undefined) continue;
    const where = r.provider.basis === "lock" ? `the lock file (${r.provider.lock!.file}:${r.provider.lock!.line}) selects provider ${lacking}` : `"${r.provider.combined || "no constraint"}" admits provider ${lacking}`;
    out.push(`${r.root}: importing a cloudflare_ruleset needs provider ${tableMinimumVersion("import")} or later, but ${where}: ${RAISE_CONSTRAINT_STEP}, then run apply again`);
  }
  return out;
}
