// Settings that decide a zone's migration but are not known offline: which resources they make possibly
// relevant (a firewall rule that may bypass the WAF), the VALUE_UNRESOLVED findings that name them, and
// their severities. Nothing here assumes a value: an unknown setting is reported, and the ruleset builder
// writes a `# TODO` where it would go.
//
// Severities (VALUE_UNRESOLVED is `info` by default, for instance keys only state can name):
// - a possible WAF bypass (firewall rule action/products/filter, Page Rule disable_security/waf/target)
//   whose value is unknown: `warning` — the gate counts it, never treats it as absent;
// - a setting the generated ruleset depends on (core rule set sensitivity and action mode, group and rule
//   modes and ids, package id) or the zone id: `warning` — the zone is not ready (ZoneReport.unresolved).
import { finding } from "./findings.js";
import type { Finding, FirewallRule, PageRule, ResourceRef, UnresolvedSetting, ZoneUnresolved } from "./model.js";

interface WithUnresolved {
  ref: ResourceRef;
  unresolved?: UnresolvedSetting[];
}

/** A block's own `count`/`for_each`: unknown offline, it leaves unknown whether the block configures anything. */
export const INSTANCE_ATTRIBUTES = ["count", "for_each"];

/** Where a resource names its zone (`zone` is provider 1.x/2.x's domain name): unknown, so is its zone. */
export const ZONE_ATTRIBUTES = ["zone_id", "zone"];

/** The unresolved count/for_each of a block, if its instances are not known offline. */
export function instancesUnresolved(x: { unresolved?: UnresolvedSetting[] }): UnresolvedSetting | undefined {
  return x.unresolved?.find((u) => INSTANCE_ATTRIBUTES.includes(u.attribute));
}

function has(x: WithUnresolved, attribute: string): boolean {
  return (x.unresolved ?? []).some((u) => u.attribute === attribute || attribute.startsWith(`${u.attribute}.`) || u.attribute.startsWith(`${attribute}.`));
}

/**
 * A firewall rule that is not known to bypass the WAF but may: its action or products are unknown, and
 * what is known does not rule a bypass out.
 */
export function mayBypassWaf(rule: FirewallRule): boolean {
  const actionUnknown = has(rule, "action");
  const productsUnknown = has(rule, "products");
  if (!actionUnknown && !productsUnknown) return false;
  if (!actionUnknown && rule.action !== "bypass") return false;
  if (!productsUnknown && !rule.products.includes("waf")) return false;
  return true;
}

/** A Page Rule whose Disable Security or WAF setting is unknown (and not already known to be on/off). */
export function pageRuleMayTouchWaf(rule: PageRule): boolean {
  return (has(rule, "actions.disable_security") && !rule.disableSecurity) || (has(rule, "actions.waf") && rule.waf === null);
}

/** What the zone report lists: one entry per unresolved setting of a resource the zone's migration uses. */
export function zoneUnresolved(items: WithUnresolved[]): ZoneUnresolved[] {
  const out: ZoneUnresolved[] = [];
  for (const x of items) {
    for (const u of x.unresolved ?? []) out.push({ address: x.ref.address, attribute: u.attribute, expression: u.expression, reason: u.reason, file: x.ref.file, line: x.ref.line });
  }
  return out;
}

const SUPPLY = "supply it with --var-file FILE or --var NAME=VALUE, or pass --state (state values win)";
/** A data source's result: no variable sets it (resolve.ts's reason for a `data.*` reference). */
const DATA_SOURCE = /^data\.\S+ is read from the provider when terraform plans/;
const SUPPLY_DATA = "no --var-file/--var sets what a data source reads: pass --state (`terraform state pull > state.json`; state values win)";
/** A module's output (resolve.ts's reason): the tool does not evaluate outputs, so no variable of the root sets it. */
const MODULE_OUTPUT = /^module\.\S+'s outputs are not evaluated offline/;
const SUPPLY_MODULE = "no --var-file/--var sets a module's output here (outputs are not evaluated offline): pass --state (`terraform state pull > state.json`; state values win)";
/** A value terraform rejects (`products = set("waf")`): the reader's reason, also an input error at the value. */
const REJECTED = /^terraform rejects it: /;
const FIX_REJECTED = "fix the expression (the input error at it says what terraform rejects), then run again";
const BYPASS_ATTRIBUTES = /^(action|products|paused|filter|actions|target|status)/;

/**
 * How the value is given, for a reason that does not already say it (a root variable's reason names the
 * `--var` to give: null then). A value terraform rejects (an input error says where) is fixed in the
 * configuration, not supplied; a data source's result or a module's output is set by no variable.
 */
export function supplyAdvice(reason: string): string | null {
  if (/--var/.test(reason)) return null;
  if (REJECTED.test(reason)) return FIX_REJECTED;
  if (DATA_SOURCE.test(reason)) return SUPPLY_DATA;
  if (MODULE_OUTPUT.test(reason)) return SUPPLY_MODULE;
  return SUPPLY;
}

/** What not knowing `u` leaves unknown, and what the tool does meanwhile (the message after "not known offline (…)"). */
function consequence(type: string, u: UnresolvedSetting, bypass: boolean): string {
  if (ZONE_ATTRIBUTES.includes(u.attribute)) return ", so the zone it belongs to is not known";
  if (ZONE_SWITCH_TYPES.has(type)) return ", so whether the zone's previous WAF is off, and so whether the generated execute rules must be disabled, is not known (ZONE_WAF_SETTING; a TODO in the ruleset)";
  if (u.attribute === "phase" && type === "cloudflare_ruleset") {
    return ", so whether it already manages this zone's http_request_firewall_managed entry point is not known: if it does, merge the generated rules into it instead of adding a second resource for that entry point (MANAGED_RULESET_EXISTS)";
  }
  const instances = INSTANCE_ATTRIBUTES.includes(u.attribute);
  if (instances && type === "cloudflare_waf_override") return ", so whether it blocks the zone's migration is not known; it is counted as if it did (URI_WAF_OVERRIDE)";
  if (instances && !bypass) {
    return `, so whether it has any instance, and so configures anything, is not known${type === "cloudflare_waf_package" ? "; the generated ruleset does not take its core rule set settings as given (TODO)" : ""}`;
  }
  if (bypass) return ": it may bypass the WAF; the generated skip rule is disabled with a TODO until the value is known";
  return "; the generated ruleset has a TODO instead of a value";
}

/** One VALUE_UNRESOLVED finding per resource and attribute, with its severity (see the header). */
export function unresolvedFindings(items: WithUnresolved[], zoneId: string): Finding[] {
  const out: Finding[] = [];
  for (const x of items) {
    for (const u of x.unresolved ?? []) {
      const zone = ZONE_ATTRIBUTES.includes(u.attribute);
      const bypass = !zone && isBypassType(x.ref.type) && (INSTANCE_ATTRIBUTES.includes(u.attribute) || BYPASS_ATTRIBUTES.test(u.attribute));
      const supply = supplyAdvice(u.reason);
      // After the zone's sentence, a new clause; after the others, the advice follows a colon.
      const advice = supply === null ? "" : `${zone ? ";" : ":"} ${supply}`;
      const message = `${x.ref.address}: ${u.attribute} = ${u.expression} is not known offline (${u.reason})${consequence(x.ref.type, u, bypass)}${advice}`;
      out.push(
        finding("VALUE_UNRESOLVED", message, { ref: x.ref, zoneId }, { attribute: u.attribute, expression: u.expression, reason: u.reason, ...(bypass ? { possibleBypass: true } : {}) }, "warning"),
      );
    }
  }
  return out;
}

/** The resources that carry the previous WAF's zone switch (`waf = "off"`). */
const ZONE_SWITCH_TYPES: ReadonlySet<string> = new Set(["cloudflare_zone_settings_override", "cloudflare_zone_setting"]);

function isBypassType(type: string): boolean {
  return type === "cloudflare_firewall_rule" || type === "cloudflare_page_rule";
}
