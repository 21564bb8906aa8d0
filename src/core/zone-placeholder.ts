// Remediation text names only values we know. A zone id that is still an expression offline
// (`cloudflare_zone.shop.id`, `var.zone_id`) is never written into a command as if it were the id: commands
// get the `<ZONE_ID>` placeholder the README documents, and the text says what is unknown and how to supply it.
import { isLiteralZoneId, isModuleInternalExpression, isZoneDomain, splitModulePrefix, zoneLookupOf, ZONE_ID_PLACEHOLDER } from "./import-id.js";

export { ZONE_ID_PLACEHOLDER };

/** The zone id for a command or message: the literal id, or `<ZONE_ID>`. */
export function zoneIdForText(zoneId: string): string {
  return isLiteralZoneId(zoneId) ? zoneId : ZONE_ID_PLACEHOLDER;
}

/** An import id for a command: an interpolated zone expression (`${cloudflare_zone.shop.id}`) becomes `<ZONE_ID>`. */
export function importIdForText(importId: string, zoneId: string): string {
  return isLiteralZoneId(zoneId) ? importId : importId.split("${" + zoneId + "}").join(ZONE_ID_PLACEHOLDER);
}

/**
 * A reference to one zone resource instance (`cloudflare_zone.shop.id`, `cloudflare_zone.z["shop"].id`): the
 * evaluator resolved which zone it is, only its id is assigned by the service and so is known to state alone.
 */
const ZONE_REFERENCE = /^(cloudflare_zone\.[\w-]+(?:\["[^"\\]*"\]|\[\d+\])?)\.id$/;

/** What is unknown and how to supply it, for a zone id that is an expression; "" for a literal id. */
export function unknownZoneHint(zoneId: string): string {
  if (isLiteralZoneId(zoneId)) return "";
  const state = `pass the root's state with --state (\`terraform state pull > state.json\`) so it is read from there, or put the zone's id where ${ZONE_ID_PLACEHOLDER} stands`;
  const ref = ZONE_REFERENCE.exec(zoneId);
  // A resolved reference is not an unknown expression: the zone is known, its id is what only state holds.
  if (ref) return `the zone is ${ref[1]}, whose id only state knows (the generated HCL refers to it as \`${zoneId}\`); for commands, ${state}`;
  if (isZoneDomain(zoneId)) return `the zone is named ${zoneId} (by its domain, as provider 1.x/2.x wrote it); its id is not in the files: ${state}, or look it up with GET /zones?name=${zoneId}`;
  // A data source reads the id when terraform plans: no variable sets it, state or the API has it.
  const lookup = zoneLookupOf(zoneId);
  if (lookup) {
    const where = lookup.module ? `${lookup.lookup} inside ${lookup.module}` : `${lookup.lookup} (\`${zoneId}\`)`;
    return `the zone id is looked up by ${where} when terraform plans, so it is not known offline and no --var-file/--var sets it: pass the root's state with --state (\`terraform state pull > state.json\`) so it is read from there, or look the id up (GET /zones?name=<the zone's domain>) and put it where ${ZONE_ID_PLACEHOLDER} stands`;
  }
  const inside = moduleInternal(zoneId);
  const expression = inside ? `the expression \`${inside.expression}\` inside ${inside.module}` : `the expression \`${zoneId}\``;
  return `the zone id is not known offline (it is ${expression}): set what it depends on with --var-file/--var, or ${state}`;
}

/** `module.shop.data.cloudflare_zone.this.id` → module.shop and `data.cloudflare_zone.this.id`. */
function moduleInternal(zoneId: string): { module: string; expression: string } | null {
  if (!isModuleInternalExpression(zoneId)) return null;
  const split = splitModulePrefix(zoneId);
  return split?.module ? { module: split.module, expression: split.expression } : null;
}
