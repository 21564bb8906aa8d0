// What a state read yields, and the reading of one v4 `resources[]` entry: shared by the whole-document
// reader (state.ts) and the streaming reader (state-stream.ts), which state.ts loads on demand. Kept apart
// so that neither reader imports the other for it.
import { configAddressOf, formatAddress, formatIndexKey, parseModulePath, type IndexKey, type ParsedAddress } from "../../core/address.js";
import type { InputError } from "../../core/model.js";

export interface StateInstance {
  address: string;
  configAddress: string;
  /** Module instance path (`module.waf["shop"]`), "" at the root. */
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  indexKey?: IndexKey;
  attributes: Record<string, unknown>;
  schemaVersion: number | null;
  provider: string | null;
}

export interface StateRead {
  /** Display name of the source (`-` shows as `<stdin>`). */
  source: string;
  instances: StateInstance[];
  terraformVersion: string | null;
  /**
   * The state's `lineage` and `serial` (what `terraform state pull` prints at its top): which state this is,
   * and which write of it. null when absent (`terraform show -json` output carries neither).
   */
  lineage: string | null;
  serial: number | null;
}

export type StateOutcome = { ok: true; state: StateRead } | { ok: false; error: InputError };

const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}_-]*$/u;
/** The ASCII names nearly every state has: a subset of IDENTIFIER, tested first because it is much cheaper. */
const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function isIdentifier(s: string): boolean {
  return ASCII_IDENTIFIER.test(s) || IDENTIFIER.test(s);
}

/** Adds one `resources[]` entry of a v4 state; returns an error message when it is malformed. */
export function addV4Resource(r: Record<string, unknown>, out: StateInstance[]): string | null {
  if (!r || typeof r !== "object") return "malformed resource entry in state";
  const { type, name } = r as { type?: unknown; name?: unknown };
  if (typeof type !== "string" || typeof name !== "string") return "resource entry without type or name in state";
  // A name that is not an identifier could never be addressed by a command: the state is corrupt.
  if (!isIdentifier(type) || !isIdentifier(name)) return `malformed resource ${JSON.stringify(`${type}.${name}`)} in state (not a Terraform identifier)`;
  const mode = r.mode === "data" ? "data" : "managed";
  const module = typeof r.module === "string" ? r.module : "";
  let modules;
  try {
    modules = parseModulePath(module);
  } catch {
    return `malformed module path ${JSON.stringify(module)} in state`;
  }
  const provider = typeof r.provider === "string" ? r.provider : null;
  // The same for every instance of the resource: its address without a key (an instance's key comes last,
  // so its address is this one and the key), and the config address (every instance key dropped).
  const resource: ParsedAddress = { modules, mode, type, name };
  let unkeyed: string | null = null;
  let configAddress: string | null = null;
  for (const inst of (Array.isArray(r.instances) ? r.instances : []) as Record<string, unknown>[]) {
    if (inst?.deposed) continue; // a deposed object is not an instance of its own in `state list`
    const key = inst?.index_key;
    // count keys are whole numbers; anything else cannot be a Terraform instance key.
    if (typeof key === "number" && !(Number.isSafeInteger(key) && key >= 0)) return `malformed index_key ${key} of ${type}.${name} in state`;
    unkeyed ??= formatAddress(resource);
    configAddress ??= configAddressOf(resource);
    const attributes = attributesOf(inst);
    const schemaVersion = typeof inst?.schema_version === "number" ? inst.schema_version : null;
    // Two literals rather than a spread of the optional key: same properties in the same order, built
    // without copying (this runs once per instance of a state that may hold hundreds of thousands).
    if (typeof key === "number" || typeof key === "string") {
      out.push({ address: unkeyed + formatIndexKey(key), configAddress, module, mode, type, name, indexKey: key, attributes, schemaVersion, provider });
    } else {
      out.push({ address: unkeyed, configAddress, module, mode, type, name, attributes, schemaVersion, provider });
    }
  }
  return null;
}

function attributesOf(inst: Record<string, unknown> | undefined): Record<string, unknown> {
  if (inst?.attributes && typeof inst.attributes === "object") return inst.attributes as Record<string, unknown>;
  // Pre-0.12 `attributes_flat` (flatmap strings): only the top-level scalars are usable.
  if (inst?.attributes_flat && typeof inst.attributes_flat === "object") return { ...(inst.attributes_flat as Record<string, unknown>) };
  return {};
}

/** The `lineage` and `serial` of a state document's top level, each null when absent or malformed. */
export function stateIdentity(top: { lineage?: unknown; serial?: unknown }): { lineage: string | null; serial: number | null } {
  return {
    lineage: typeof top.lineage === "string" && top.lineage !== "" ? top.lineage : null,
    serial: typeof top.serial === "number" && Number.isSafeInteger(top.serial) && top.serial >= 0 ? top.serial : null,
  };
}
