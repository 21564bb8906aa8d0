// Which instance of a ruleset resource kept from cf-terraforming's output (`--from-cf-terraforming`) the
// import goes to, when that resource already has `count` or `for_each`. Copied into the root as written,
// the resource expands there: the import must name the instance of this zone (`x[0]`, `x["us"]`), never a
// guessed one. Known offline only from literals, `terraform.workspace` (the workspace planned) and
// `each`/`count.index`; anything else is not known, and the plan refuses with the reason.
import { evaluateConfigValue } from "./tf-expr/body.js";
import type { Scope } from "./tf-expr/evaluate.js";
import { isKnown, isObject, isSetValue, Unknown, type Value } from "./tf-expr/values.js";

export interface RepeatedResource {
  /** The hcl2json values of `count` and `for_each` (undefined when not set), and of `zone_id`. */
  count: unknown;
  forEach: unknown;
  zoneId: unknown;
}

/** Whether the resource has `count` or `for_each` (then it expands, and an import names one instance). */
export function isRepeated(r: RepeatedResource): boolean {
  return r.count !== undefined || r.forEach !== undefined;
}

export type ExtractedInstance = { ok: true; suffix: string } | { ok: false; reason: string };

type Binding = { each?: { key: string; value: Value }; count?: number };

function scopeOf(workspace: string | null, binding: Binding): Scope {
  return {
    reference: (parts) => {
      const [root, name] = parts as [string, string];
      if (root === "terraform" && name === "workspace" && workspace !== null) return workspace;
      if (root === "each" && binding.each && (name === "key" || name === "value")) return binding.each[name];
      if (root === "count" && name === "index" && binding.count !== undefined) return binding.count;
      if (root === "terraform" && name === "workspace") return new Unknown("terraform.workspace is not known offline: pass the workspace's state from ROOT/terraform.tfstate.d/<workspace>/ (ROOT/terraform.tfstate for default)");
      return new Unknown(`${parts.join(".")} is not known in cf-terraforming's file offline`);
    },
    readFile: () => new Unknown("file() is not read in cf-terraforming's file"),
  };
}

function reasonOf(v: Value): string {
  return v instanceof Unknown ? v.reason : "it is known only after apply";
}

type Instances = { ok: true; what: string; instances: { suffix: string; binding: Binding }[] } | { ok: false; reason: string };

/** The instances of a resource with count or for_each, as known offline, or why they are not known. */
function instancesOf(r: RepeatedResource, workspace: string | null): Instances {
  const what = r.forEach !== undefined ? "for_each" : "count";
  let instances: { suffix: string; binding: Binding }[];
  if (r.forEach !== undefined) {
    const v = evaluateConfigValue(r.forEach, scopeOf(workspace, {}));
    if (isObject(v)) instances = Object.keys(v).sort().map((k) => ({ suffix: `[${JSON.stringify(k)}]`, binding: { each: { key: k, value: v[k]! } } }));
    else if (Array.isArray(v) && isSetValue(v) && v.every((x): x is string => typeof x === "string")) {
      instances = [...new Set(v)].sort().map((k) => ({ suffix: `[${JSON.stringify(k)}]`, binding: { each: { key: k, value: k } } }));
    } else if (!isKnown(v)) return { ok: false, reason: `its for_each is not known offline (${reasonOf(v)})` };
    else return { ok: false, reason: "its for_each is not a map or a set of strings" };
  } else {
    const v = evaluateConfigValue(r.count, scopeOf(workspace, {}));
    if (!isKnown(v)) return { ok: false, reason: `its count is not known offline (${reasonOf(v)})` };
    const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 0) return { ok: false, reason: `its count is ${JSON.stringify(v)}, not a whole number` };
    instances = Array.from({ length: n }, (_, i) => ({ suffix: `[${i}]`, binding: { count: i } }));
  }
  return { ok: true, what, instances };
}

/**
 * Every instance of a resource with count or for_each, as known offline: its suffix (`["shop"]`, `[0]`) and
 * its zone_id when that is known offline (else null). Null when the instances themselves are not known
 * (then extractedInstance says why), or the resource has neither count nor for_each.
 */
export function extractedInstances(r: RepeatedResource, workspace: string | null): { suffix: string; zone: string | null }[] | null {
  if (r.count === undefined && r.forEach === undefined) return null;
  const known = instancesOf(r, workspace);
  if (!known.ok) return null;
  return known.instances.map((i) => {
    const zone = evaluateConfigValue(r.zoneId, scopeOf(workspace, i.binding));
    return { suffix: i.suffix, zone: typeof zone === "string" ? zone : null };
  });
}

/**
 * The zone ids a resource with count or for_each serves, one per instance whose zone_id is known offline
 * (`for_each = { shop = "<id>" }` with `zone_id = each.value`); empty when none is (or they are not known).
 */
export function extractedInstanceZones(r: RepeatedResource, workspace: string | null): string[] {
  return (extractedInstances(r, workspace) ?? []).map((i) => i.zone).filter((z): z is string => z !== null);
}

/**
 * The instance suffix (`""`, `[0]`, `["us"]`) of `zone` in the resource, or why it cannot be known offline.
 * `workspace`: the workspace the plan is for (what `terraform.workspace` is), null when not known.
 */
export function extractedInstance(r: RepeatedResource, zone: string, workspace: string | null): ExtractedInstance {
  if (r.count === undefined && r.forEach === undefined) return { ok: true, suffix: "" };
  const known = instancesOf(r, workspace);
  if (!known.ok) return known;
  const { what, instances } = known;
  if (instances.length === 0) return { ok: false, reason: `its ${what} gives it no instance${workspace !== null ? ` in workspace ${workspace}` : ""}` };
  // One instance: the resource serves this zone (that is how it was matched), so that instance is the one.
  if (instances.length === 1) return { ok: true, suffix: instances[0]!.suffix };
  const matching = instances.filter((i) => evaluateConfigValue(r.zoneId, scopeOf(workspace, i.binding)) === zone);
  if (matching.length === 1) return { ok: true, suffix: matching[0]!.suffix };
  return {
    ok: false,
    reason:
      matching.length === 0
        ? `its ${what} gives ${instances.length} instances (${instances.map((i) => i.suffix).join(", ")}) and none has a zone_id known offline to be ${zone}`
        : `its ${what} gives ${matching.length} instances with zone_id ${zone} (${matching.map((i) => i.suffix).join(", ")})`,
  };
}
