// Schema-driven planning, the part every resource type shares: keep the configuration's values, apply
// source defaults, mark server-chosen values unknown where an object (or a nested element) is new,
// and ask for replacement where the real schema has ForceNew / RequiresReplace.

import type { BlockSchema, ResourceSchema } from "../schemas/types.js";
import { isObject, sameValue, UNKNOWN, type ObjectValue, type Value } from "./cty.js";

export interface PlanResult {
  planned: ObjectValue | null;
  requiresReplace: string[][];
}

export function planChange(schema: ResourceSchema, prior: Value, proposed: Value, config: Value): PlanResult {
  if (!isObject(proposed)) return { planned: null, requiresReplace: [] };
  const planned = clone(proposed) as ObjectValue;
  fillPlan(schema, schema.block, planned, isObject(config) ? config : null, isObject(prior) ? prior : null);
  const requiresReplace: string[][] = [];
  if (isObject(prior)) {
    for (const [name, attr] of Object.entries(schema.block.attributes)) {
      if (attr.forceNew && !sameValue(prior[name], planned[name])) requiresReplace.push([name]);
    }
    for (const [name, bt] of Object.entries(schema.block.blocks)) {
      if (bt.forceNew && !sameValue(prior[name], planned[name])) requiresReplace.push([name]);
    }
  }
  return { planned, requiresReplace };
}

function fillPlan(schema: ResourceSchema, block: BlockSchema, planned: ObjectValue, config: ObjectValue | null, prior: ObjectValue | null): void {
  for (const [name, attr] of Object.entries(block.attributes)) {
    const configured = config ? config[name] : null;
    if (configured !== null && configured !== undefined) continue;
    if (attr.default !== undefined && (planned[name] === null || planned[name] === undefined)) {
      // SDKv2 plans a Default for an unset optional argument; the framework does it for computed ones.
      if (!attr.computed || schema.sdk === "framework") {
        planned[name] = attr.default as Value;
        continue;
      }
    }
    if (attr.computed && (planned[name] === null || planned[name] === undefined) && prior === null) planned[name] = UNKNOWN;
  }
  for (const [name, bt] of Object.entries(block.blocks)) {
    const p = planned[name];
    const c = config ? config[name] : null;
    const pr = prior ? prior[name] : null;
    if (bt.nesting === "single" || bt.nesting === "group") {
      if (isObject(p)) fillPlan(schema, bt.block, p, isObject(c) ? c : null, isObject(pr) ? pr : null);
    } else if (bt.nesting === "list" && Array.isArray(p)) {
      p.forEach((e, i) => {
        const ce = Array.isArray(c) ? c[i] : null;
        const pe = Array.isArray(pr) ? pr[i] : null;
        if (isObject(e)) fillPlan(schema, bt.block, e, isObject(ce) ? ce : null, isObject(pe) ? pe : null);
      });
    } else if (bt.nesting === "set" && Array.isArray(p)) {
      // Set elements are matched by value, so an element whose configuration is new is a new element.
      const priorElems = Array.isArray(pr) ? pr : [];
      for (const e of p) {
        if (!isObject(e)) continue;
        const twin = priorElems.find((q) => isObject(q) && sameConfigured(bt.block, e, q));
        fillPlan(schema, bt.block, e, e, isObject(twin) ? twin : null);
      }
    } else if (bt.nesting === "map" && isObject(p)) {
      for (const [k, e] of Object.entries(p)) {
        const ce = isObject(c) ? c[k] : null;
        const pe = isObject(pr) ? pr[k] : null;
        if (isObject(e)) fillPlan(schema, bt.block, e, isObject(ce) ? ce : null, isObject(pe) ? pe : null);
      }
    }
  }
}

function sameConfigured(block: BlockSchema, a: ObjectValue, b: ObjectValue): boolean {
  for (const [name, attr] of Object.entries(block.attributes)) {
    if (attr.computed && !attr.optional) continue;
    if (!sameValue(a[name], b[name])) return false;
  }
  return true;
}

/**
 * Replaces what is still unknown after apply: `pick` may supply a server-chosen value for an attribute
 * (an id, a version); everything else becomes null, since Terraform refuses unknowns in a new state.
 */
export function resolveUnknowns(block: BlockSchema, value: ObjectValue, pick: (name: string, obj: ObjectValue) => Value | undefined): ObjectValue {
  for (const name of Object.keys(block.attributes)) {
    if (value[name] === UNKNOWN) value[name] = pick(name, value) ?? null;
    else value[name] = stripUnknown(value[name]);
  }
  for (const [name, bt] of Object.entries(block.blocks)) {
    const v = value[name];
    if (v === UNKNOWN) value[name] = bt.nesting === "single" || bt.nesting === "group" ? null : bt.nesting === "map" ? {} : [];
    else if (Array.isArray(v)) v.forEach((e) => isObject(e) && resolveUnknowns(bt.block, e, pick));
    else if (isObject(v)) {
      if (bt.nesting === "map") for (const e of Object.values(v)) isObject(e) && resolveUnknowns(bt.block, e, pick);
      else resolveUnknowns(bt.block, v, pick);
    }
  }
  return value;
}

function stripUnknown(v: Value): Value {
  if (v === UNKNOWN) return null;
  if (Array.isArray(v)) return v.filter((e) => e !== UNKNOWN).map(stripUnknown);
  if (isObject(v)) {
    const out: ObjectValue = Object.create(null);
    for (const [k, e] of Object.entries(v)) out[k] = stripUnknown(e);
    return out;
  }
  return v;
}

export function clone(v: Value): Value {
  if (Array.isArray(v)) return v.map(clone);
  if (isObject(v)) {
    const out: ObjectValue = Object.create(null);
    for (const [k, e] of Object.entries(v)) out[k] = clone(e);
    return out;
  }
  return v;
}

/**
 * The sparse, API-like form of a value kept in the account: nulls and empty collections dropped, and
 * blocks that hold at most one element stored as an object (as the API spells action_parameters).
 */
export function toStored(block: BlockSchema, value: ObjectValue): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(block.attributes)) {
    const v = value[name];
    if (v === null || v === undefined || v === UNKNOWN) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[name] = v;
  }
  for (const [name, bt] of Object.entries(block.blocks)) {
    const v = value[name];
    const one = bt.nesting === "single" || bt.nesting === "group" || bt.maxItems === 1 || bt.atMostOne;
    if (Array.isArray(v)) {
      const items = v.filter(isObject).map((e) => toStored(bt.block, e));
      if (items.length === 0) continue;
      out[name] = one ? items[0] : items;
    } else if (isObject(v)) {
      if (bt.nesting === "map") {
        const m: Record<string, unknown> = Object.create(null);
        for (const [k, e] of Object.entries(v)) if (isObject(e)) m[k] = toStored(bt.block, e);
        if (Object.keys(m).length > 0) out[name] = m;
      } else out[name] = toStored(bt.block, v);
    }
  }
  return out;
}

/**
 * Fills source defaults into null attributes, as the SDKv2 provider's state does after a read (its
 * reader answers the Default for a value the API left out); without it a refreshed state would differ
 * from every plan by null versus the default.
 */
export function withDefaults(block: BlockSchema, value: ObjectValue): ObjectValue {
  for (const [name, attr] of Object.entries(block.attributes)) {
    if ((value[name] === null || value[name] === undefined) && attr.default !== undefined) value[name] = attr.default as Value;
  }
  for (const [name, bt] of Object.entries(block.blocks)) {
    const v = value[name];
    if (Array.isArray(v)) v.forEach((e) => isObject(e) && withDefaults(bt.block, e));
    else if (isObject(v)) {
      if (bt.nesting === "map") for (const e of Object.values(v)) isObject(e) && withDefaults(bt.block, e);
      else withDefaults(bt.block, v);
    }
  }
  return value;
}

export interface ValidationProblem {
  /** The SDK's flat key (settings.0.waf) used in its messages. */
  key: string;
  /** The attribute path as Terraform's diagnostics want it. */
  path: (string | number)[];
  message: string;
  /** The diagnostic's detail, when the SDK gives one. */
  detail?: string;
}

/**
 * The provider-side checks the source declares (StringInSlice), in the SDK's wording; for an SDKv2 type also
 * the SDK's own refusal of a computed-only attribute set in configuration (helper/schema schemaMap.validate:
 * Terraform core leaves that check to the provider).
 */
export function validateConfig(block: BlockSchema, config: Value, prefix: (string | number)[] = [], sdk: "sdkv2" | "framework" = "framework"): ValidationProblem[] {
  if (!isObject(config)) return [];
  const problems: ValidationProblem[] = [];
  for (const [name, attr] of Object.entries(block.attributes)) {
    const v = config[name];
    if (sdk === "sdkv2" && attr.computed && !attr.optional && !attr.required && v !== null && v !== undefined) {
      const path = [...prefix, name];
      const key = path.join(".");
      problems.push({ key, path, message: "Value for unconfigurable attribute", detail: `Can't configure a value for ${JSON.stringify(key)}: its value will be decided automatically based on the result of applying this configuration.` });
    }
    if (attr.oneOf && typeof v === "string" && !attr.oneOf.includes(v)) {
      const path = [...prefix, name];
      const key = path.join(".");
      problems.push({ key, path, message: `expected ${key} to be one of [${attr.oneOf.map((o) => JSON.stringify(o)).join(" ")}], got ${v}` });
    }
  }
  for (const [name, bt] of Object.entries(block.blocks)) {
    const v = config[name];
    if (Array.isArray(v)) v.forEach((e, i) => problems.push(...validateConfig(bt.block, e, [...prefix, name, i], sdk)));
    else if (isObject(v)) {
      if (bt.nesting === "map") for (const [k, e] of Object.entries(v)) problems.push(...validateConfig(bt.block, e, [...prefix, name, k], sdk));
      else problems.push(...validateConfig(bt.block, v, [...prefix, name], sdk));
    }
  }
  return problems;
}
