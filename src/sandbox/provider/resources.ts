// What each resource type does to the simulated account. The schema decides the shape of every value
// (conformBlock); these handlers decide only where a value lives in the account and what the service
// does on create, read, update, delete and import: the legacy WAF types change settings in place and
// reset them to their defaults on destroy (the trap), and their reads fail once the zone is migrated.

import { newId, RetiredApiError, type Account, type Obj, type Zone } from "../account/account.js";
import type { ResourceSchema } from "../schemas/types.js";
import { conformBlock, isObject, type ObjectValue, type Value } from "./cty.js";
import { resolveUnknowns, toStored } from "./planning.js";

export interface ResourceContext {
  account: Account;
  schema: ResourceSchema;
  typeName: string;
}

export interface ResourceHandler {
  create(ctx: ResourceContext, planned: ObjectValue): ObjectValue;
  update(ctx: ResourceContext, prior: ObjectValue, planned: ObjectValue): ObjectValue;
  /** The object as the service has it now, or null when it is gone. */
  read(ctx: ResourceContext, state: ObjectValue): ObjectValue | null;
  delete(ctx: ResourceContext, prior: ObjectValue): void;
  /** The partial state an import id stands for (ReadResource completes it). */
  importState?(ctx: ResourceContext, id: string): ObjectValue;
}

export class UserError extends Error {}

function str(v: Value | undefined): string {
  return typeof v === "string" ? v : "";
}

function zoneOf(ctx: ResourceContext, zoneId: string): Zone {
  const zone = ctx.account.zones[zoneId];
  if (!zone) throw new UserError(`zone ${zoneId} not found in the account (HTTP status 404: Invalid zone identifier)`);
  return zone;
}

function shaped(ctx: ResourceContext, value: Value): ObjectValue {
  return conformBlock(value, ctx.schema.block) as ObjectValue;
}

/** Values the service chooses: ids, rule versions and refs; everything else unknown becomes null. */
function serverChosen(name: string, obj: ObjectValue): Value | undefined {
  if (name === "id") return newId();
  if (name === "version") return "1";
  if (name === "ref") return typeof obj.id === "string" ? obj.id : newId();
  return undefined;
}

// ---- legacy WAF (retired once the zone is migrated) -------------------------------------------------

function legacyZone(ctx: ResourceContext, zoneId: string, what: string): Zone {
  const zone = zoneOf(ctx, zoneId);
  if (zone.migrated) throw new RetiredApiError(zoneId, what);
  zone.waf ??= {};
  return zone;
}

const wafPackage: ResourceHandler = {
  create(ctx, planned) {
    return this.update(ctx, planned, planned);
  },
  update(ctx, _prior, planned) {
    const zoneId = str(planned.zone_id);
    const pkg = (legacyZone(ctx, zoneId, "WAF package").waf!.packages ?? []).find((p) => p.id === planned.package_id);
    if (!pkg) throw new UserError(`unable to find WAF package ${str(planned.package_id)} in zone ${zoneId}`);
    if (typeof planned.sensitivity === "string") pkg.sensitivity = planned.sensitivity;
    if (typeof planned.action_mode === "string") pkg.action_mode = planned.action_mode;
    return resolveUnknowns(ctx.schema.block, { ...planned, id: pkg.id }, () => undefined);
  },
  read(ctx, state) {
    const zoneId = str(state.zone_id);
    const pkg = (legacyZone(ctx, zoneId, "WAF package").waf!.packages ?? []).find((p) => p.id === state.package_id);
    if (!pkg) return null;
    return shaped(ctx, { ...state, id: pkg.id, sensitivity: pkg.sensitivity, action_mode: pkg.action_mode });
  },
  delete(ctx, prior) {
    // Destroying the resource does not remove the package: the service puts its defaults back.
    const pkg = (legacyZone(ctx, str(prior.zone_id), "WAF package").waf!.packages ?? []).find((p) => p.id === prior.package_id);
    if (pkg) {
      pkg.sensitivity = pkg.default_sensitivity;
      pkg.action_mode = pkg.default_action_mode;
    }
  },
  importState(ctx, id) {
    const [zoneId, packageId] = id.split("/");
    if (!zoneId || !packageId) throw new UserError(`invalid id ("${id}") specified, should be in format "zoneID/packageID"`);
    return shaped(ctx, { zone_id: zoneId, package_id: packageId, id: packageId });
  },
};

const wafGroup: ResourceHandler = {
  create(ctx, planned) {
    return this.update(ctx, planned, planned);
  },
  update(ctx, _prior, planned) {
    const zoneId = str(planned.zone_id);
    const group = (legacyZone(ctx, zoneId, "WAF group").waf!.groups ?? []).find((g) => g.id === planned.group_id);
    if (!group) throw new UserError(`unable to find WAF group ${str(planned.group_id)} in zone ${zoneId}`);
    if (planned.mode === "on" || planned.mode === "off") group.mode = planned.mode;
    return resolveUnknowns(ctx.schema.block, { ...planned, id: group.id, package_id: group.package_id }, () => undefined);
  },
  read(ctx, state) {
    const group = (legacyZone(ctx, str(state.zone_id), "WAF group").waf!.groups ?? []).find((g) => g.id === state.group_id);
    if (!group) return null;
    return shaped(ctx, { ...state, id: group.id, package_id: group.package_id, mode: group.mode });
  },
  delete(ctx, prior) {
    const group = (legacyZone(ctx, str(prior.zone_id), "WAF group").waf!.groups ?? []).find((g) => g.id === prior.group_id);
    if (group) group.mode = group.default_mode;
  },
  importState(ctx, id) {
    const [zoneId, groupId] = id.split("/");
    if (!zoneId || !groupId) throw new UserError(`invalid id ("${id}") specified, should be in format "zoneID/groupID"`);
    return shaped(ctx, { zone_id: zoneId, group_id: groupId, id: groupId });
  },
};

const wafRule: ResourceHandler = {
  create(ctx, planned) {
    return this.update(ctx, planned, planned);
  },
  update(ctx, _prior, planned) {
    const zoneId = str(planned.zone_id);
    const rule = (legacyZone(ctx, zoneId, "WAF rule").waf!.rules ?? []).find((r) => r.id === planned.rule_id);
    if (!rule) throw new UserError(`unable to find WAF rule ${str(planned.rule_id)} in zone ${zoneId}`);
    if (typeof planned.mode === "string") {
      if (!rule.allowed_modes.includes(planned.mode)) throw new UserError(`mode ${planned.mode} is not allowed for WAF rule ${rule.id} (allowed: ${rule.allowed_modes.join(", ")})`);
      rule.mode = planned.mode;
    }
    return resolveUnknowns(ctx.schema.block, { ...planned, id: rule.id, package_id: rule.package_id, group_id: rule.group_id }, () => undefined);
  },
  read(ctx, state) {
    const rule = (legacyZone(ctx, str(state.zone_id), "WAF rule").waf!.rules ?? []).find((r) => r.id === state.rule_id);
    if (!rule) return null;
    return shaped(ctx, { ...state, id: rule.id, package_id: rule.package_id, group_id: rule.group_id, mode: rule.mode });
  },
  delete(ctx, prior) {
    const rule = (legacyZone(ctx, str(prior.zone_id), "WAF rule").waf!.rules ?? []).find((r) => r.id === prior.rule_id);
    if (rule) rule.mode = rule.default_mode;
  },
  importState(ctx, id) {
    const [zoneId, ruleId] = id.split("/");
    if (!zoneId || !ruleId) throw new UserError(`invalid id ("${id}") specified, should be in format "zoneID/ruleID"`);
    return shaped(ctx, { zone_id: zoneId, rule_id: ruleId, id: ruleId });
  },
};

const wafOverride: ResourceHandler = {
  create(ctx, planned) {
    const zone = legacyZone(ctx, str(planned.zone_id), "WAF override");
    const state = resolveUnknowns(ctx.schema.block, { ...planned }, (name) => (name === "id" || name === "override_id" ? newId() : undefined));
    if (typeof state.override_id === "string") state.id = state.override_id;
    (zone.waf!.overrides ??= {})[str(state.id)] = toStored(ctx.schema.block, state);
    return state;
  },
  update(ctx, prior, planned) {
    const zone = legacyZone(ctx, str(planned.zone_id), "WAF override");
    const state = resolveUnknowns(ctx.schema.block, { ...planned, id: prior.id }, () => undefined);
    (zone.waf!.overrides ??= {})[str(prior.id)] = toStored(ctx.schema.block, state);
    return state;
  },
  read(ctx, state) {
    const stored = legacyZone(ctx, str(state.zone_id), "WAF override").waf!.overrides?.[str(state.id)];
    return stored ? shaped(ctx, stored as Value) : null;
  },
  delete(ctx, prior) {
    delete legacyZone(ctx, str(prior.zone_id), "WAF override").waf!.overrides?.[str(prior.id)];
  },
};

// ---- zones and zone settings --------------------------------------------------------------------

const zoneResource: ResourceHandler = {
  create(ctx, planned) {
    const state = resolveUnknowns(ctx.schema.block, { ...planned }, (name) => {
      if (name === "id") return newId();
      if (name === "plan") return "free";
      if (name === "status") return "pending";
      if (name === "type") return "full";
      if (name === "paused") return false;
      return undefined;
    });
    const zone: Zone = { id: str(state.id), name: str(state.zone), plan: (str(state.plan) || "free") as Zone["plan"], status: str(state.status) || "pending", type: str(state.type) || "full" };
    zone.resource = toStored(ctx.schema.block, state);
    ctx.account.zones[zone.id] = zone;
    return state;
  },
  update(ctx, prior, planned) {
    const zone = zoneOf(ctx, str(prior.id));
    const state = resolveUnknowns(ctx.schema.block, { ...planned }, () => undefined);
    if (typeof state.plan === "string") zone.plan = state.plan as Zone["plan"];
    if (typeof state.paused === "boolean") zone.paused = state.paused;
    zone.resource = toStored(ctx.schema.block, state);
    return state;
  },
  read(ctx, state) {
    const zone = ctx.account.zones[str(state.id)];
    if (!zone) return null;
    return shaped(ctx, { ...state, ...(zone.resource ?? {}), id: zone.id, zone: zone.name, plan: zone.plan, ...(zone.status ? { status: zone.status } : {}) } as Value);
  },
  delete(ctx, prior) {
    delete ctx.account.zones[str(prior.id)];
  },
  importState(ctx, id) {
    return shaped(ctx, { id });
  },
};

function settingsBlock(ctx: ResourceContext) {
  const bt = ctx.schema.block.blocks.settings;
  if (!bt) throw new UserError("cloudflare_zone_settings_override: schema has no settings block");
  return bt.block;
}

const zoneSettingsOverride: ResourceHandler = {
  create(ctx, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    zone.settings ??= {};
    zone.settingsBeforeOverride = { ...zone.settings };
    const initial = conformBlock(zone.settings as Value, settingsBlock(ctx));
    const state = this.update(ctx, planned, planned);
    state.initial_settings = initial ? [initial] : [];
    state.initial_settings_read_at = new Date().toISOString();
    return state;
  },
  update(ctx, _prior, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    const block = settingsBlock(ctx);
    const wanted = Array.isArray(planned.settings) && isObject(planned.settings[0]) ? toStored(block, planned.settings[0]) : {};
    zone.settings = { ...(zone.settings ?? {}), ...wanted };
    const merged = conformBlock(zone.settings as Value, block) as ObjectValue;
    const state = resolveUnknowns(ctx.schema.block, { ...planned, id: zone.id, settings: [merged] }, (name) => (name === "zone_status" ? zone.status ?? "active" : name === "zone_type" ? zone.type ?? "full" : undefined));
    return state;
  },
  read(ctx, state) {
    const zone = ctx.account.zones[str(state.zone_id)];
    if (!zone) return null;
    const current = conformBlock((zone.settings ?? {}) as Value, settingsBlock(ctx));
    return shaped(ctx, { ...state, settings: current ? [current] : [] });
  },
  delete(ctx, prior) {
    const zone = ctx.account.zones[str(prior.zone_id)];
    if (zone && zone.settingsBeforeOverride) {
      zone.settings = zone.settingsBeforeOverride;
      delete zone.settingsBeforeOverride;
    }
  },
  importState(ctx, id) {
    return shaped(ctx, { id, zone_id: id });
  },
};

// ---- rulesets -----------------------------------------------------------------------------------

/** Rulesets are kept in the API's shape in the account; the state adds the zone or account id. */
const ruleset: ResourceHandler = {
  create(ctx, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    const state = resolveUnknowns(ctx.schema.block, planned, serverChosen);
    if (str(planned.kind) === "zone") {
      const clash = Object.values(zone.rulesets ?? {}).find((r) => r.kind === "zone" && r.phase === planned.phase);
      if (clash) throw new UserError(`error creating ruleset ${str(planned.name)}: A similar configuration with rules already exists and overwriting will have unintended consequences. If you are migrating from the Dashboard, you will need to first remove the existing rules otherwise you can remove the existing phase yourself using the API (https://developers.cloudflare.com/ruleset-engine/rulesets-api/delete/).`);
    }
    (zone.rulesets ??= {})[str(state.id)] = storedRuleset(ctx, state);
    return state;
  },
  update(ctx, prior, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    const state = resolveUnknowns(ctx.schema.block, { ...planned, id: prior.id }, serverChosen);
    (zone.rulesets ??= {})[str(prior.id)] = storedRuleset(ctx, state);
    return state;
  },
  read(ctx, state) {
    const zone = ctx.account.zones[str(state.zone_id)];
    const stored = zone?.rulesets?.[str(state.id)];
    if (!stored) return null;
    return shaped(ctx, { ...stored, id: state.id, zone_id: state.zone_id, account_id: state.account_id } as Value);
  },
  delete(ctx, prior) {
    const zone = ctx.account.zones[str(prior.zone_id)];
    if (zone?.rulesets) delete zone.rulesets[str(prior.id)];
  },
  importState(ctx, id) {
    const parts = id.split("/");
    // 5.x (nested attributes): `<{accounts|zones}/{account_id|zone_id}>/<ruleset_id>`, in its importpath's words.
    if (ctx.schema.block.attributes.rules?.nested) {
      const format = "<{accounts|zones}/{account_id|zone_id}>/<ruleset_id>";
      if (parts.length !== 3) throw new UserError(`invalid ID: expected urlencoded segments ${JSON.stringify(format)}, got ${JSON.stringify(id)}`);
      if (parts[0] !== "zones" && parts[0] !== "accounts") throw new UserError("invalid discriminator segment - <{accounts|zones}/{account_id|zone_id}>: expected discriminator to be one of {accounts|zones}");
      const [kind, owner, rulesetId] = parts as [string, string, string];
      return shaped(ctx, kind === "zones" ? { id: rulesetId, zone_id: owner } : { id: rulesetId, account_id: owner });
    }
    if (parts.length !== 3 || !["zone", "account"].includes(parts[0]!) || !parts[1] || !parts[2]) {
      throw new UserError(`invalid ID ("${id}") specified, should be in format "account/<account_id>/<ruleset_id>" or "zone/<zone_id>/<ruleset_id>"`);
    }
    const [kind, owner, rulesetId] = parts as [string, string, string];
    return shaped(ctx, kind === "zone" ? { id: rulesetId, zone_id: owner } : { id: rulesetId, account_id: owner });
  },
};

function storedRuleset(ctx: ResourceContext, state: ObjectValue): Obj {
  const stored = toStored(ctx.schema.block, state);
  delete stored.zone_id;
  delete stored.account_id;
  return stored;
}

// ---- everything else: objects kept as given, per zone -------------------------------------------

const zoneObject: ResourceHandler = {
  create(ctx, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    const state = resolveUnknowns(ctx.schema.block, planned, serverChosen);
    ((zone.objects ??= {})[ctx.typeName] ??= {})[str(state.id)] = toStored(ctx.schema.block, state);
    return state;
  },
  update(ctx, prior, planned) {
    const zone = zoneOf(ctx, str(planned.zone_id));
    const state = resolveUnknowns(ctx.schema.block, { ...planned, id: prior.id }, serverChosen);
    ((zone.objects ??= {})[ctx.typeName] ??= {})[str(prior.id)] = toStored(ctx.schema.block, state);
    return state;
  },
  read(ctx, state) {
    const stored = ctx.account.zones[str(state.zone_id)]?.objects?.[ctx.typeName]?.[str(state.id)];
    return stored ? shaped(ctx, stored as Value) : null;
  },
  delete(ctx, prior) {
    delete ctx.account.zones[str(prior.zone_id)]?.objects?.[ctx.typeName]?.[str(prior.id)];
  },
  importState(ctx, id) {
    const [zoneId, objectId] = id.split("/");
    if (!zoneId || !objectId) throw new UserError(`invalid id ("${id}") specified, should be in format "zoneID/objectID"`);
    return shaped(ctx, { zone_id: zoneId, id: objectId });
  },
};

const handlers: Record<string, ResourceHandler> = {
  cloudflare_waf_package: wafPackage,
  cloudflare_waf_group: wafGroup,
  cloudflare_waf_rule: wafRule,
  cloudflare_waf_override: wafOverride,
  cloudflare_zone: zoneResource,
  cloudflare_zone_settings_override: zoneSettingsOverride,
  cloudflare_ruleset: ruleset,
};

export function handlerFor(typeName: string): ResourceHandler {
  return handlers[typeName] ?? zoneObject;
}
