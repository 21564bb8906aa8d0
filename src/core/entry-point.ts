// A zone has exactly one entry point ruleset per phase. Two `cloudflare_ruleset` resources for the
// `http_request_firewall_managed` entry point of one zone (written by hand, in config or in state) fail to
// apply or overwrite each other, whatever the migration generates. Pure.
import { finding } from "./findings.js";
import { isLiteralZoneId } from "./import-id.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { ExistingRuleset, Finding, ZoneResource } from "./model.js";
import { compareText } from "./text-order.js";

/**
 * `DUPLICATE_ENTRY_POINT` (error) for each zone with more than one managed-phase entry point ruleset.
 * Rulesets are the same zone when their zone ids are equal after resolving a `cloudflare_zone` reference
 * or domain name to the zone's id; an unresolved expression (`var.zone_id`) only matches the same
 * expression in the same module, since two modules' variables may hold different zones.
 */
export function duplicateEntryPointFindings(rulesets: ExistingRuleset[], zones: ZoneResource[]): Finding[] {
  const aliases = new Map<string, string>();
  for (const z of zones) {
    if (!z.id) continue;
    aliases.set(`${z.ref.configAddress}.id`, z.id);
    if (z.name) aliases.set(z.name, z.id);
  }
  const byZone = new Map<string, { zoneId: string; rulesets: ExistingRuleset[] }>();
  for (const rs of rulesets) {
    if (rs.phase !== MANAGED_PHASE || (rs.kind !== null && rs.kind !== "zone")) continue;
    const raw = rs.ref.zoneId;
    if (!raw) continue; // account-level (`account_id`): not a zone entry point
    const zoneId = aliases.get(raw) ?? raw;
    const key = isLiteralZoneId(zoneId) ? zoneId : `${modulePath(rs.ref.configAddress)}\u0000${zoneId}`;
    const entry = byZone.get(key) ?? { zoneId, rulesets: [] };
    entry.rulesets.push(rs);
    byZone.set(key, entry);
  }
  const out: Finding[] = [];
  for (const { zoneId, rulesets: list } of byZone.values()) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => compareText(a.ref.file ?? "~", b.ref.file ?? "~") || (a.ref.line ?? 0) - (b.ref.line ?? 0) || compareText(a.ref.address, b.ref.address));
    const named = sorted.map((rs) => `${rs.ref.address}${rs.ref.file ? ` (${rs.ref.file}${rs.ref.line ? `:${rs.ref.line}` : ""})` : " (state only)"}`);
    out.push(
      finding(
        "DUPLICATE_ENTRY_POINT",
        `${list.length} ${MANAGED_PHASE} entry point rulesets for zone ${zoneId}: ${joinNames(named)}. A zone has exactly one entry point per phase, so they fail to apply or overwrite each other: keep one (merge the rules into it) and remove the other${list.length > 2 ? "s" : ""} from the configuration and from state`,
        { ref: sorted[0]!.ref, zoneId },
        { addresses: sorted.map((rs) => rs.ref.address) },
      ),
    );
  }
  return out;
}

/**
 * The `http_request_firewall_managed` rulesets the root module itself declares (not a module's): what a
 * zone's entry point is imported into (plan, apply) and what terraform would create when no import or state
 * covers an instance of them.
 */
export function rootModuleEntryPoints(rulesets: readonly ExistingRuleset[]): ExistingRuleset[] {
  return rulesets.filter((r) => r.phase === MANAGED_PHASE && r.ref.inConfig && !r.ref.configAddress.startsWith("module."));
}

/**
 * The one root-module `http_request_firewall_managed` ruleset of a zone (a hand-migrated entry point, or
 * ruleset.tf copied in): its name, and the instance of it that serves the zone (`[0]`, `["prod"]`; "" for a
 * resource without count or for_each). Null when there is none, two (DUPLICATE_ENTRY_POINT), or one whose
 * instances are not known offline. `rulesets` are the zone's own. What scan, plan and apply all import the
 * zone's entry point into, instead of a second, generated resource that would manage the same entry point
 * (each apply overwriting the other); apply reads the same instance address (apply/preflight.ts).
 */
export function declaredEntryPoint(rulesets: readonly ExistingRuleset[]): { name: string; instance: string } | null {
  const own = rootModuleEntryPoints(rulesets);
  if (own.length !== 1) return null;
  const ref = own[0]!.ref;
  if (ref.instancesUnknown || ref.noInstances || !ref.address.startsWith(ref.configAddress)) return null;
  const instance = ref.address.slice(ref.configAddress.length);
  // At the bare address, a resource with count or for_each is one whose instances are not known offline (an
  // instance that is known has its key; `mayHaveNoInstances` only says zero instances would be no drift).
  if (instance === "" && ref.mayHaveNoInstances) return null;
  return { name: ref.configAddress.slice("cloudflare_ruleset.".length), instance };
}

/** `module.a["x"].module.b.cloudflare_ruleset.r` → `module.a.module.b`; "" at the root. */
function modulePath(configAddress: string): string {
  const parts = configAddress.split(".");
  const out: string[] = [];
  for (let i = 0; i + 1 < parts.length && parts[i] === "module"; i += 2) out.push(`module.${parts[i + 1]}`);
  return out.join(".");
}

function joinNames(names: string[]): string {
  return names.length <= 2 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
