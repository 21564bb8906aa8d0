// A plan or apply of some roots only: other roots of the same repository may configure Page Rules or
// firewall rules that bypass the WAF for a zone this run migrates. The migration turns such rules into skip
// rules of the zone's one http_request_firewall_managed entry point (the estate plan does, with every
// root's), and after it they exempt nothing by themselves: a ruleset planned without them starts blocking
// what they let through. Pure: the Terraform layer reads the other roots (estate/other-root-rules.ts), this
// decides which of their rules concern this run's zones and says so.
import { withLine } from "./report-paths.js";
import { isWafBypass, pageRuleBecomesSkip } from "./compat.js";
import { finding } from "./findings.js";
import { isLiteralZoneId } from "./import-id.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { ExistingRuleset, Finding, FirewallRule, PageRule, ResourceRef, ZoneResource } from "./model.js";
import { buildRuleset } from "./ruleset-builder.js";
import { compareText } from "./text-order.js";
import { mayBypassWaf, pageRuleMayTouchWaf } from "./unresolved.js";

/** What one other root configures that may bypass the WAF (file paths already as the report shows them). */
export interface OtherRootRules {
  /** The root as the user sees it (relative to the working directory). */
  root: string;
  firewallRules: FirewallRule[];
  pageRules: PageRule[];
  /** Its legacy WAF resources (package, group, rule, override; core/other-root-legacy-waf.ts). */
  legacyWaf?: ResourceRef[];
  /** Its http_request_firewall_managed rulesets (core/other-root-entry-points.ts). */
  entryPoints?: ResourceRef[];
  /** Why part of the root could not be read (`file:line: message`): its rules there are not known. */
  unreadable?: string[];
}

/** One other root's rule concerning a zone of this run: `zone` its zone is one of them, `maybe` not known offline. */
export interface OtherRootBypass {
  root: string;
  rule: { kind: "firewall"; value: FirewallRule } | { kind: "page"; value: PageRule };
  /** `zone`: its zone is `zoneId`, one this run migrates; `maybe`: its zone or this run's is not known offline. */
  match: "zone" | "maybe";
  zoneId: string | null;
  /** Its WAF settings are known to bypass (false: not known offline, it may). */
  known: boolean;
}

export interface OtherRootScan {
  bypasses: OtherRootBypass[];
  /** Roots with Page Rules or firewall rules that could not be read, with why. */
  unreadable: { root: string; reasons: string[] }[];
}

/** This run's zones as other roots are matched against them. */
export interface RunZones {
  literal: ReadonlySet<string>;
  /** Some zone of this run is an expression: any other zone may be it. */
  anyUnknown: boolean;
}

export function runZones(zoneIds: readonly string[]): RunZones {
  return { literal: new Set(zoneIds.filter(isLiteralZoneId)), anyUnknown: zoneIds.some((z) => !isLiteralZoneId(z)) };
}

/**
 * How another root's zone id relates to this run's zones: `zone` (a literal id on both sides, one of them),
 * `maybe` (an expression there or here: it names a zone only inside its own root, so it is never taken for
 * the zone nor ignored), or null (another zone, known on both sides: not this run's business).
 */
export function otherRootZoneMatch(zoneId: string | null, run: RunZones): "zone" | "maybe" | null {
  if (zoneId === null || !isLiteralZoneId(zoneId)) return "maybe";
  if (run.literal.has(zoneId)) return "zone";
  return run.anyUnknown ? "maybe" : null;
}

/**
 * The other roots' rules that may bypass the WAF for one of `zoneIds` (the zones whose ruleset this run
 * generates or imports). A zone id matches only as a literal on both sides: an expression (`var.zone_id`,
 * `cloudflare_zone.docs.id`) names a zone only inside its own root, so it is `maybe`, never taken as the zone.
 */
export function matchOtherRootBypasses(zoneIds: readonly string[], others: readonly OtherRootRules[]): OtherRootScan {
  const run = runZones(zoneIds);
  const bypasses: OtherRootBypass[] = [];
  const unreadable: OtherRootScan["unreadable"] = [];
  if (zoneIds.length === 0) return { bypasses, unreadable };
  for (const other of others) {
    const rules: OtherRootBypass["rule"][] = [
      ...other.firewallRules.filter((f) => isWafBypass(f) || mayBypassWaf(f)).map((value) => ({ kind: "firewall" as const, value })),
      ...other.pageRules.filter((p) => pageRuleBecomesSkip(p) || pageRuleMayTouchWaf(p)).map((value) => ({ kind: "page" as const, value })),
    ];
    for (const rule of rules) {
      const zoneId = rule.value.ref.zoneId;
      const match = otherRootZoneMatch(zoneId, run);
      if (match === null) continue;
      const known = rule.kind === "firewall" ? isWafBypass(rule.value) : pageRuleBecomesSkip(rule.value);
      bypasses.push({ root: other.root, rule, match, zoneId, known });
    }
    if (other.unreadable?.length) unreadable.push({ root: other.root, reasons: other.unreadable });
  }
  return { bypasses, unreadable };
}

/** What the rule does to the WAF, for messages. */
function effect(b: OtherRootBypass): string {
  if (b.rule.kind === "firewall") return b.known ? "bypasses the WAF (action bypass, products waf)" : "may bypass the WAF (its action or products are not known offline)";
  const p = b.rule.value;
  if (!b.known) return "may disable security or the WAF (its actions are not known offline)";
  return p.disableSecurity ? "disables security (disable_security = true)" : `turns the WAF off (waf = "off")`;
}

function where(b: OtherRootBypass): string {
  const r = b.rule.value.ref;
  return `${r.address} in root ${b.root}`;
}

/** How to get every root's skip rules into the one ruleset. */
function remedy(repository: string, roots: string[]): string {
  return `plan the roots together (\`cf-waf-migrate plan ${repository}\`: the estate plan gives the zone one ruleset with every root's skip rules, ZONE_SPLIT_ACROSS_ROOTS) or pass ${roots.join(", ")} too`;
}

/**
 * One finding per rule whose zone is known to be one of this run's (BYPASS_IN_OTHER_ROOT when its settings
 * bypass, VALUE_UNRESOLVED when they are not known offline), one VALUE_UNRESOLVED per other root whose rules'
 * zones are not known offline (at its first such rule, naming them all), one per root that could not be read.
 * `repository`: the directory to plan together, as the user types it.
 */
export function otherRootBypassFindings(scan: OtherRootScan, repository: string): Finding[] {
  const out: Finding[] = [];
  for (const b of scan.bypasses.filter((x) => x.match === "zone")) {
    const ref = b.rule.value.ref;
    const at = { zoneId: b.zoneId, file: ref.file, line: ref.line };
    const details = { otherRoot: b.root, address: ref.address, ...(b.known ? {} : { possibleBypass: true }) };
    const lacking = `the migration turns it into a skip rule of the zone's ${MANAGED_PHASE} ruleset, and the ruleset planned here (for this run's roots only) has no skip rule for it, so after the migration it exempts nothing and the new WAF acts on what it let through`;
    const message = `${where(b)} (not in this run) ${effect(b)} for zone ${b.zoneId}: ${lacking}; ${remedy(repository, [b.root])}`;
    out.push(b.known ? finding("BYPASS_IN_OTHER_ROOT", message, at, details) : finding("VALUE_UNRESOLVED", message, at, details, "warning"));
  }
  const maybe = new Map<string, OtherRootBypass[]>();
  for (const b of scan.bypasses.filter((x) => x.match === "maybe")) maybe.set(b.root, [...(maybe.get(b.root) ?? []), b]);
  for (const [root, unsorted] of maybe) {
    // At the root's first such rule in its files.
    const list = [...unsorted].sort((a, b) => compareText(a.rule.value.ref.file ?? "", b.rule.value.ref.file ?? "") || (a.rule.value.ref.line ?? 0) - (b.rule.value.ref.line ?? 0));
    const first = list[0]!.rule.value.ref;
    const rules = list.map((b) => `${b.rule.value.ref.address} (zone ${b.zoneId ?? "not set"}) ${effect(b)}`);
    out.push(
      finding(
        "VALUE_UNRESOLVED",
        `root ${root} (not in this run) has ${list.length === 1 ? "a rule" : `${list.length} rules`} that may exempt requests from the WAF for a zone of this run, which is not known offline (a zone id there or here is an expression): ${rules.join("; ")}. If one is a zone migrated here, the ruleset planned here lacks its skip rule; ${remedy(repository, [root])}, where its variables and state can be given`,
        { zoneId: null, file: first.file, line: first.line },
        { otherRoot: root, addresses: list.map((b) => b.rule.value.ref.address), possibleBypass: true },
        "warning",
      ),
    );
  }
  for (const u of scan.unreadable) {
    out.push(
      finding(
        "VALUE_UNRESOLVED",
        `root ${u.root} (not in this run) configures Page Rules, firewall rules or legacy WAF resources and cannot be read (${u.reasons.join("; ")}): whether they exempt requests from the WAF for a zone of this run, or configure its legacy WAF, is not known; fix it and ${remedy(repository, [u.root])}`,
        { zoneId: null, file: null, line: null },
        { otherRoot: u.root, possibleBypass: true },
        "warning",
      ),
    );
  }
  return out;
}

/**
 * migrate.sh's line for one finding otherRootBypassFindings made (this module wrote its details): where,
 * what, which root, and whether it is known.
 */
export function otherRootBypassLine(f: Finding): string {
  const d = f.details as { otherRoot: string; address?: string; addresses?: string[] };
  const what = d.address ?? (d.addresses ?? []).join(", ");
  return `${f.file ?? d.otherRoot}${f.line !== null && f.line !== undefined ? `:${f.line}` : ""}: ${what ? `${what} in root ${d.otherRoot}` : `root ${d.otherRoot}`} (${f.code === "BYPASS_IN_OTHER_ROOT" ? "BYPASS_IN_OTHER_ROOT" : "VALUE_UNRESOLVED: not known offline"})`;
}

/** Step 2's note when other roots' rules concern this run's zones, or null. */
export function otherRootRulesetNote(scan: OtherRootScan, repository: string): string | null {
  const roots = [...new Set([...scan.bypasses.map((b) => b.root), ...scan.unreadable.map((u) => u.root)])];
  if (roots.length === 0) return null;
  const known = scan.bypasses.some((b) => b.match === "zone");
  const unknown = scan.bypasses.some((b) => b.match === "maybe" || !b.known) || scan.unreadable.length > 0;
  const codes = [...(scan.bypasses.some((b) => b.match === "zone" && b.known) ? ["BYPASS_IN_OTHER_ROOT"] : []), ...(unknown ? ["VALUE_UNRESOLVED"] : [])];
  return `${known ? "the ruleset lacks the skip rules of" : "the ruleset may lack skip rules of"} Page Rules or firewall rules in ${roots.join(", ")}, ${roots.length === 1 ? "a root" : "roots"} not in this run (${codes.join(", ")}): after the migration they exempt nothing; ${remedy(repository, roots)}`;
}

/**
 * For `apply`: the rules that stop it, as one line each. A rule whose zone is this run's is fine when the
 * zone's ruleset declared in the root (the one apply imports) already has its skip rule (the same expression
 * the migration gives it: copied from the estate plan's ruleset.tf); anything not known offline stops it too.
 */
export function applyRefusals(scan: OtherRootScan, declared: (zoneId: string) => { rulesets: ExistingRuleset[]; zone: ZoneResource | null }, repository: string): string[] {
  const out: string[] = [];
  for (const b of scan.bypasses) {
    const ref = b.rule.value.ref;
    const pos = withLine(ref.file ?? "?", ref.line);
    if (b.match === "zone" && b.known && hasSkipRule(b, declared(b.zoneId!))) continue;
    const zone = b.match === "zone" ? `zone ${b.zoneId}, which this root migrates` : `zone ${b.zoneId ?? "not set"}, not known offline to be or not to be one this root migrates`;
    out.push(`${pos}: ${where(b)} ${effect(b)} for ${zone}, and this root's ruleset has no skip rule for it: after the migration it exempts nothing. ${APPLY_REMEDY(repository)}, or pass --accept-missing-skip-rules once you know it needs none`);
  }
  for (const u of scan.unreadable) {
    out.push(`root ${u.root} configures Page Rules, firewall rules or legacy WAF resources and cannot be read (${u.reasons.join("; ")}): whether they need skip rules in this root's ruleset, or configure the legacy WAF of its zone, is not known; fix it, or pass --accept-missing-skip-rules once you know they need none`);
  }
  return out;
}

/** apply runs in one root: the estate plan's ruleset for it is the one with every root's skip rules. */
const APPLY_REMEDY = (repository: string) =>
  `Plan the roots together (\`cf-waf-migrate plan ${repository} --out-dir DIR\`) and copy the ruleset.tf it writes for this root (DIR/<root>/ruleset.tf, with every root's skip rules) here in place of this one`;

/** The declared entry point ruleset already has the skip rule the migration would give this rule. */
function hasSkipRule(b: OtherRootBypass, zone: { rulesets: ExistingRuleset[]; zone: ZoneResource | null }): boolean {
  const built = buildRuleset({
    packages: [],
    firewallRules: b.rule.kind === "firewall" ? [b.rule.value] : [],
    pageRules: b.rule.kind === "page" ? [b.rule.value] : [],
    zone: zone.zone,
  });
  const wanted = built.ruleset.rules.filter((r) => r.action === "skip").map((r) => r.expression.trim());
  if (wanted.length === 0) return false;
  const have = new Set(zone.rulesets.filter((r) => r.phase === MANAGED_PHASE && r.ref.inConfig).flatMap((r) => r.rules.filter((x) => x.action === "skip" && x.expression !== null).map((x) => x.expression!.trim())));
  return wanted.every((e) => have.has(e));
}
