// The previous WAF's zone-wide switch (`waf = "off" | "on"` in the zone settings). Migrating a zone whose
// previous WAF is off must not quietly turn protection on: the new WAF's execute rules are generated
// disabled, and a person decides when to enable them. Pure.
import { finding } from "./findings.js";
import type { Finding, Ruleset, ZoneWafSetting } from "./model.js";

/** What the zone's settings say about the previous WAF, all settings of the zone taken together. */
export type ZoneWafSwitch =
  | { state: "absent" }
  | { state: "on"; settings: ZoneWafSetting[] }
  | { state: "off"; settings: ZoneWafSetting[] }
  /** At least one setting is an expression not known offline, and none says `off`. */
  | { state: "unknown"; settings: ZoneWafSetting[] };

export function zoneWafSwitch(settings: ZoneWafSetting[]): ZoneWafSwitch {
  if (settings.length === 0) return { state: "absent" };
  // Any `off` wins: the narrower reading never turns protection on by mistake.
  const off = settings.filter((s) => s.value === "off");
  if (off.length) return { state: "off", settings: off };
  const unknown = settings.filter((s) => s.value !== "on");
  if (unknown.length) return { state: "unknown", settings: unknown };
  return { state: "on", settings };
}

/**
 * With the previous WAF off, every execute rule of the generated ruleset is disabled (skip rules stay as
 * they are: they only narrow what an enabled execute rule would do). Other states leave the ruleset alone.
 */
export function applyZoneWafSwitch(ruleset: Ruleset, sw: ZoneWafSwitch): { ruleset: Ruleset; notes: string[] } {
  if (sw.state === "off") {
    return {
      ruleset: { ...ruleset, rules: ruleset.rules.map((r) => (r.action === "execute" ? { ...r, enabled: false } : r)) },
      notes: [
        `the zone's previous WAF is off (${where(sw.settings)}): the execute rules are generated with enabled = false so the migration does not turn protection on; set enabled = true when the zone should be protected`,
      ],
    };
  }
  if (sw.state === "unknown") {
    return {
      ruleset,
      notes: [
        `whether the zone's previous WAF is on is not known offline (${where(sw.settings)}): the execute rules are generated enabled; if the setting is "off", set enabled = false on them before applying`,
      ],
    };
  }
  return { ruleset, notes: [] };
}

/**
 * `ZONE_WAF_SETTING` for `off` and for a value not known offline. `on` needs nothing: the migration turns
 * the new WAF on exactly as the previous one was, and providers 4 and 5 still accept the setting, so it
 * neither blocks the upgrade nor changes the generated ruleset.
 */
export function zoneWafFindings(sw: ZoneWafSwitch, zoneId: string, fromServiceConfig: boolean): Finding[] {
  if (sw.state === "off") {
    return sw.settings.map((s) =>
      finding(
        "ZONE_WAF_SETTING",
        fromServiceConfig
          ? `${s.ref.address} switches the zone's previous WAF off: the ruleset from --config-json is kept as the service gave it; check that its execute rules are disabled (enabled = false), or the migration turns protection on`
          : `${s.ref.address} switches the zone's previous WAF off: the generated execute rules are disabled (enabled = false) so the migration does not turn protection on. ` +
            `In step 0, check the service's configuration (\`cf-waf-migrate api config --zone ${zoneId}\`) before migrating: \`api migrate\` sends it as it is, so pass --config-json with its execute rules disabled to keep the zone as it was. ` +
            `Enable the rules when the zone should be protected; the waf setting only controls the previous WAF, so remove it after migrating`,
        { ref: s.ref, zoneId },
        { value: "off", setting: "waf" },
      ),
    );
  }
  if (sw.state === "unknown") {
    return sw.settings.map((s) =>
      finding(
        "ZONE_WAF_SETTING",
        `${s.ref.address}: the zone's previous-WAF switch is \`${s.expression ?? "not a literal"}\`, not known offline: the generated execute rules are enabled; if it is "off", set enabled = false on them before applying, or the migration turns protection on`,
        { ref: s.ref, zoneId },
        { value: null, expression: s.expression, setting: "waf" },
      ),
    );
  }
  return [];
}

function where(settings: ZoneWafSetting[]): string {
  return settings.map((s) => (s.value === null && s.expression ? `${s.ref.address}: waf = ${s.expression}` : `${s.ref.address}`)).join(", ");
}
