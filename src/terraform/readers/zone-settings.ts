// The previous WAF's zone-wide switch, from config and from state, in both provider syntaxes:
//   provider 3/4: cloudflare_zone_settings_override { settings { waf = "off" } }   (state: settings[0].waf)
//   provider 5:   cloudflare_zone_setting { setting_id = "waf"  value = "off" }     (state: value is a dynamic
//                 value, stored as {"value": "off", "type": "string"} in a state file, plain in show -json)
import { refOf, type InventoryResource, type ZoneWafSetting } from "../../core/model.js";
import { expressionText, firstBlock, literalString } from "../config/values.js";
import { INSTANCE_ATTRIBUTES, unresolvedSettings, withUnresolved } from "./unresolved.js";

export const ZONE_SETTING_TYPES = new Set(["cloudflare_zone_settings_override", "cloudflare_zone_setting"]);

/** The `waf` switch of a zone settings resource; null when the resource does not set it. */
export function readZoneWafSetting(r: InventoryResource): ZoneWafSetting | null {
  const raw = r.type === "cloudflare_zone_settings_override" ? settingsOverrideWaf(r.attributes) : zoneSettingWaf(r.attributes);
  if (raw === undefined || raw === null) return null;
  const literal = literalString(raw);
  // Whether the switch exists (count/for_each) and what it says: a value not known offline is VALUE_UNRESOLVED.
  const unresolved = withUnresolved(unresolvedSettings(r, ["settings.waf", "value", ...INSTANCE_ATTRIBUTES]));
  if (literal !== null) return { ref: refOf(r), value: literal.trim().toLowerCase(), expression: null, ...unresolved };
  return { ref: refOf(r), value: null, expression: expressionText(raw) ?? (typeof raw === "string" ? raw : JSON.stringify(raw)), ...unresolved };
}

function settingsOverrideWaf(a: Record<string, unknown>): unknown {
  // `initial_settings` holds what the zone had before Terraform managed it; only `settings` is the intent.
  return firstBlock(a.settings)?.waf;
}

function zoneSettingWaf(a: Record<string, unknown>): unknown {
  // A setting_id from an expression (`each.key`) cannot be told to be "waf" offline: not claimed.
  if (literalString(a.setting_id) !== "waf") return undefined;
  const v = a.value;
  const wrapped = firstBlock(v);
  if (wrapped && "value" in wrapped) return wrapped.value;
  return v;
}
