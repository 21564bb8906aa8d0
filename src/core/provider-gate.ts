// The provider-upgrade gate: would moving the Cloudflare provider to 4.0 or later break legacy WAF
// resources that still exist? Pure: the Terraform layer supplies the `required_providers` entries, the lock
// and the legacy addresses; this module decides (with `decideProviderUpgrade`) and words the finding.
//
// Rule (DESIGN.md section 4, PROVIDER_UPGRADE_BLOCKED): legacy resources remain while the constraints
// (ANDed) admit 4.0 or later, the lock selects 4.0 or later, or the `--target-provider` is 4.0 or later.
// `~> 3.30` admits nothing above 3.35.x, so it does not block. With no legacy resources nothing blocks.
//
// Location: the `required_providers` entry that admits 4.0 (the first one, root module first); when no
// entry exists, the lock file's provider block; when only the lock says so, the lock; for a target-only
// block, the first entry (or the lock). With neither, the caller's fallback (the root's terraform block or
// first legacy resource).
import { finding } from "./findings.js";
import type { Finding, InputError } from "./model.js";
import {
  allowsVersionAtOrAbove,
  compareVersions,
  decideProviderUpgrade,
  formatVersion,
  InvalidConstraintError,
  InvalidVersionError,
  LAST_LEGACY_PROVIDER_VERSION,
  LEGACY_REMOVED_IN,
  parseConstraint,
  parseVersion,
  type ProviderUpgradeDecision,
} from "./provider-version.js";
import { compareText } from "./text-order.js";

/** The resource types provider 4.0 removed (their data sources `cloudflare_waf_packages/groups/rules` too). */
export { LEGACY_WAF_RESOURCE_TYPES } from "./legacy-types.js";

/** One `required_providers` constraint on the Cloudflare provider; `text` "" when the entry has no version. */
export interface ConstraintEntry {
  text: string;
  file: string;
  /** The entry's line (`cloudflare = {`): where the finding points. */
  line: number;
  /** The line of its `version = …`, where a constraint that does not parse is reported; defaults to `line`. */
  versionLine?: number;
}

export interface LockRef {
  version: string;
  file: string;
  line: number;
}

export interface LegacyAddress {
  address: string;
  file: string | null;
  line: number | null;
  zoneId: string | null;
  /** A block whose count/for_each gives no instance: no resource, but its block still needs the legacy schema. */
  noInstances?: boolean;
}

export interface ProviderGateInput {
  /** Every Cloudflare `required_providers` entry of one configuration (root and its modules), root first. */
  constraints: ConstraintEntry[];
  /** The Cloudflare provider's block of the root's `.terraform.lock.hcl`, when there is one. */
  lock: LockRef | null;
  /** `--target-provider`: the version the user intends to move to. */
  targetVersion?: string;
  /** Every legacy WAF resource (and legacy data source) of the configuration and its state. */
  legacyAddresses: LegacyAddress[];
  /** Where the finding points when there is neither an entry nor a lock (e.g. the root's terraform block). */
  fallback?: { file: string; line: number } | null;
  /** Display path of the root module, named in the message when a run covers several roots. */
  root?: string;
}

export interface ProviderGateResult {
  /** At most one PROVIDER_UPGRADE_BLOCKED finding. */
  findings: Finding[];
  /** Constraints, locked or target versions that do not parse: the command reports them (exit 2). */
  errors: InputError[];
  /** null when the input had errors. */
  decision: ProviderUpgradeDecision | null;
  /** One sentence for a person: blocked or not, and why (the gate's text verdict uses it). */
  summary: string;
}

/** The lowest possible 4.x version: pre-releases of 4.0.0 have no legacy schema either. */
const FIRST_WITHOUT_LEGACY = "4.0.0-0";

export function providerFindings(input: ProviderGateInput): ProviderGateResult {
  const errors: InputError[] = [];
  const valid: ConstraintEntry[] = [];
  for (const c of input.constraints) {
    try {
      parseConstraint(c.text);
      valid.push(c);
    } catch (e) {
      if (!(e instanceof InvalidConstraintError)) throw e;
      errors.push({ file: c.file, line: c.versionLine ?? c.line, column: null, message: e.message });
    }
  }
  if (input.lock) {
    try {
      parseVersion(input.lock.version);
    } catch (e) {
      if (!(e instanceof InvalidVersionError)) throw e;
      errors.push({ file: input.lock.file, line: input.lock.line, column: null, message: `locked provider version: ${e.message}` });
    }
  }
  if (input.targetVersion !== undefined) {
    try {
      parseVersion(input.targetVersion);
    } catch (e) {
      if (!(e instanceof InvalidVersionError)) throw e;
      errors.push({ file: "--target-provider", line: null, column: null, message: e.message });
    }
  }
  const where = input.root && input.root !== "." ? ` (root module ${input.root})` : "";
  if (errors.length > 0) {
    // Terraform itself would refuse these: there is nothing sound to decide on.
    return { findings: [], errors, decision: null, summary: `the provider upgrade could not be judged${where}: ${errors.length} version${errors.length === 1 ? "" : "s"} or constraint${errors.length === 1 ? "" : "s"} did not parse` };
  }

  const decision = decideProviderUpgrade({
    constraints: valid.map((c) => c.text),
    ...(input.lock ? { lockedVersion: input.lock.version } : {}),
    ...(input.targetVersion !== undefined ? { targetVersion: input.targetVersion } : {}),
  });
  const addresses = [...new Set(input.legacyAddresses.map((a) => a.address))].sort();
  const n = addresses.length;
  // Resources are instances (or blocks whose instances are unknown); a block known to give no instance is
  // counted as a block: it manages nothing, but terraform still needs the legacy schema to load it.
  const withoutInstances = [...new Set(input.legacyAddresses.filter((a) => a.noInstances).map((a) => a.address))].sort();
  const resources = legacyCount(n - withoutInstances.length, withoutInstances.length);

  if (!decision.blocked) {
    const summary =
      n === 0
        ? `no legacy WAF resources remain${where}; ${decision.reason}`
        : `the provider stays on the legacy schema${where} (${decision.reason}): the ${resources} keep${n === 1 ? "s" : ""} working until ${n === 1 ? "it is" : "they are"} migrated`;
    return { findings: [], errors, decision, summary };
  }
  if (n === 0) {
    // decision.reason explains why the upgrade *would* break legacy resources; with none left, quoting it
    // next to "safe" read as a contradiction. Say only what holds, and name the target when one was given.
    const including = input.targetVersion !== undefined ? `, the target ${formatVersion(parseVersion(input.targetVersion))} included` : "";
    return { findings: [], errors, decision, summary: `no legacy WAF resources remain${where}, so moving the provider to ${LEGACY_REMOVED_IN} or later (where they no longer exist) is safe${including}` };
  }

  const target = input.targetVersion !== undefined ? parseVersion(input.targetVersion) : null;
  const targetBlocks = target !== null && compareVersions(target, FIRST_WITHOUT_LEGACY) >= 0;
  const lockBlocks = decision.lockedHasLegacySchema === false;
  const at = locate(valid, input, decision.allowsLegacyRemoval, lockBlocks, targetBlocks);
  const onlyTarget = targetBlocks && !decision.allowsLegacyRemoval && !lockBlocks;
  const advice = onlyTarget
    ? `Migrate them before moving to ${formatVersion(target!)}`
    : `Migrate them first (remove them from state, then delete their blocks: \`cf-waf-migrate plan\` lists the steps), or keep the provider at ${LAST_LEGACY_PROVIDER_VERSION} or below (e.g. version = "~> 3.35") until then`;
  const message = `Upgrading the Cloudflare provider${where} would break ${resources}: ${decision.reason}. ${advice}. Legacy resources: ${addresses.join(", ")}`;
  const f = finding("PROVIDER_UPGRADE_BLOCKED", message, { zoneId: null, file: at?.file ?? null, line: at?.line ?? null }, {
    addresses,
    ...(withoutInstances.length ? { withoutInstances } : {}),
    reason: decision.reason,
    constraints: valid.map((c) => c.text),
    lockedVersion: input.lock?.version ?? null,
    targetVersion: target ? formatVersion(target) : null,
    ...(input.root !== undefined ? { root: input.root } : {}),
  });
  return { findings: [f], errors, decision, summary: `provider upgrade blocked${where}: ${resources} remain${n === 1 ? "s" : ""} and ${decision.reason}` };
}

/** "2 legacy WAF resources", "1 legacy WAF block with no instance", "1 legacy WAF resource and 2 blocks with no instance". */
function legacyCount(resources: number, blocks: number): string {
  const r = `${resources} legacy WAF resource${resources === 1 ? "" : "s"}`;
  const b = `${blocks} ${resources === 0 ? "legacy WAF " : ""}block${blocks === 1 ? "" : "s"} with no instance`;
  return blocks === 0 ? r : resources === 0 ? b : `${r} and ${b}`;
}

function locate(
  entries: ConstraintEntry[],
  input: ProviderGateInput,
  constraintsBlock: boolean,
  lockBlocks: boolean,
  targetBlocks: boolean,
): { file: string; line: number } | null {
  const lock = input.lock ? { file: input.lock.file, line: input.lock.line } : null;
  const fallback = input.fallback ?? firstLocated(input.legacyAddresses);
  if (constraintsBlock) {
    const culprit = entries.find((c) => allowsVersionAtOrAbove(c.text, FIRST_WITHOUT_LEGACY)) ?? entries[0];
    return culprit ? { file: culprit.file, line: culprit.line } : (lock ?? fallback);
  }
  if (lockBlocks && lock) return lock;
  if (targetBlocks) return entries[0] ? { file: entries[0].file, line: entries[0].line } : (lock ?? fallback);
  return lock ?? fallback;
}

function firstLocated(list: LegacyAddress[]): { file: string; line: number } | null {
  const sorted = [...list].sort((a, b) => compareText(a.address, b.address));
  for (const a of sorted) if (a.file !== null && a.line !== null) return { file: a.file, line: a.line };
  return null;
}
