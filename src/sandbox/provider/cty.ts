// Terraform values on the wire: cty's msgpack encoding, read and written through a schema so that every
// object carries exactly the schema's keys (Terraform rejects a missing or an extra one) and unknown
// values survive the round trip. Unknowns arrive as any msgpack extension (type 0, or 12 for refined
// unknowns) and leave as extension 0 with one zero byte, as Terraform writes them.

import { decode, encode, ExtData, ExtensionCodec } from "@msgpack/msgpack";
import type { AttributeSchema, BlockSchema, CtyType } from "../schemas/types.js";

/** The one value that stands for "known after apply". */
export const UNKNOWN: unique symbol = Symbol("unknown");
export type Value = null | string | number | boolean | typeof UNKNOWN | Value[] | { [key: string]: Value };
export type ObjectValue = { [key: string]: Value };

const codec = new ExtensionCodec();
codec.register({
  type: 0,
  encode: (input: unknown) => (input === UNKNOWN ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});

/** Decodes a DynamicValue (msgpack preferred, JSON as Terraform's fallback). */
export function decodeDynamic(dv: { msgpack?: Uint8Array; json?: Uint8Array } | null | undefined): Value {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) return fromWire(decode(dv.msgpack, { extensionCodec: codec }));
  if (dv.json && dv.json.length > 0) return JSON.parse(Buffer.from(dv.json).toString("utf8")) as Value;
  return null;
}

function fromWire(raw: unknown): Value {
  if (raw === undefined || raw === null) return null;
  if (raw === UNKNOWN || raw instanceof ExtData) return UNKNOWN;
  if (typeof raw === "bigint") return Number(raw);
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") return raw;
  if (Array.isArray(raw)) return raw.map(fromWire);
  if (raw instanceof Uint8Array) return Buffer.from(raw).toString("utf8");
  if (raw instanceof Map) {
    const out: ObjectValue = Object.create(null);
    for (const [k, v] of raw) out[String(k)] = fromWire(v);
    return out;
  }
  if (typeof raw === "object") {
    const out: ObjectValue = Object.create(null);
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k] = fromWire(v);
    return out;
  }
  return null;
}

/** Encodes a value as a DynamicValue (msgpack only). */
export function encodeDynamic(value: Value): { msgpack: Uint8Array } {
  return { msgpack: encode(toWire(value), { extensionCodec: codec }) };
}

function toWire(value: Value): unknown {
  if (value === UNKNOWN) return UNKNOWN;
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) out[k] = toWire(v);
    return out;
  }
  return value;
}

export function isObject(v: Value | undefined): v is ObjectValue {
  return v !== null && v !== undefined && v !== UNKNOWN && typeof v === "object" && !Array.isArray(v);
}

/**
 * Shapes a value to a block schema: exactly the schema's keys, nulls for what is missing, empty
 * collections for absent list/set blocks, numbers as numbers. Keys the schema does not have are dropped
 * (this is also how an older state is upgraded to the current schema).
 */
export function conformBlock(value: Value | undefined, block: BlockSchema): ObjectValue | null {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return value as never;
  const src = isObject(value) ? value : (Object.create(null) as ObjectValue);
  const out: ObjectValue = {};
  for (const [name, attr] of Object.entries(block.attributes)) out[name] = conformType(src[name], attr.type);
  for (const [name, bt] of Object.entries(block.blocks)) {
    const v = src[name];
    if (bt.nesting === "single" || bt.nesting === "group") {
      const one = Array.isArray(v) ? v[0] : v;
      out[name] = one === UNKNOWN ? UNKNOWN : conformBlock(one, bt.block);
    } else if (bt.nesting === "map") {
      const m: ObjectValue = Object.create(null);
      if (isObject(v)) for (const [k, e] of Object.entries(v)) m[k] = conformBlock(e, bt.block);
      out[name] = m;
    } else {
      if (v === UNKNOWN) out[name] = UNKNOWN;
      else {
        const items = Array.isArray(v) ? v : isObject(v) ? [v] : [];
        out[name] = items.map((e) => conformBlock(e, bt.block));
      }
    }
  }
  return out;
}

export function conformType(value: Value | undefined, type: CtyType): Value {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return UNKNOWN;
  if (typeof type === "string") {
    if (type === "string") return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
    if (type === "number") return typeof value === "number" ? value : Number(value);
    if (type === "bool") return typeof value === "boolean" ? value : value === "true";
    return value; // dynamic
  }
  const [kind, inner] = type;
  if (kind === "list" || kind === "set") {
    const items = Array.isArray(value) ? value : [value];
    return items.map((e) => conformType(e, inner as CtyType));
  }
  if (kind === "map") {
    const out: ObjectValue = Object.create(null);
    if (isObject(value)) for (const [k, e] of Object.entries(value)) out[k] = conformType(e, inner as CtyType);
    return out;
  }
  if (kind === "object") {
    const fields = inner as Record<string, CtyType>;
    const src = isObject(value) ? value : (Object.create(null) as ObjectValue);
    const out: ObjectValue = {};
    for (const [k, t] of Object.entries(fields)) out[k] = conformType(src[k], t);
    return out;
  }
  return value;
}

/** The cty type of a whole block, as Terraform would derive it (used for computed nested attributes). */
export function impliedType(block: BlockSchema): CtyType {
  const fields: Record<string, CtyType> = {};
  for (const [name, attr] of Object.entries(block.attributes)) fields[name] = attr.type;
  for (const [name, bt] of Object.entries(block.blocks)) {
    const inner = impliedType(bt.block);
    fields[name] = bt.nesting === "single" || bt.nesting === "group" ? inner : [bt.nesting === "set" ? "set" : bt.nesting === "map" ? "map" : "list", inner];
  }
  return ["object", fields];
}


/** Deep equality of two values (sets compared as lists: the double keeps their order stable). */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return (a ?? null) === (b ?? null);
  if (a === UNKNOWN || b === UNKNOWN) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((e, i) => sameValue(e, b[i]));
  }
  if (typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!sameValue(a[k], b[k])) return false;
    return true;
  }
  return false;
}

export function containsUnknown(v: Value | undefined): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isObject(v)) return Object.values(v).some(containsUnknown);
  return false;
}
