// Reads Terraform state: the v4 state file (`terraform.tfstate`, `terraform state pull`) and the
// `terraform show -json` representation, from a file or standard input. Produces resource instances with
// their addresses exactly as `terraform state list` prints them.
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { configAddressOf, formatAddress, formatModulePath, parseAddress, type ParsedAddress } from "../../core/address.js";
import { fsError } from "../config/discover.js";
import { parseJsonWithPositions } from "../hcl/json-positions.js";
import { readStateStream } from "./read-stream.js";
import { addV4Resource, stateIdentity, type StateInstance, type StateOutcome } from "./v4.js";

export { addV4Resource } from "./v4.js";
export type { StateInstance, StateOutcome, StateRead } from "./v4.js";

/**
 * V8 cannot hold a string longer than ~512 MiB, and JSON.parse needs the whole text: a `terraform show
 * -json` document larger than this cannot be read (v4 state files of any size are streamed).
 */
export const MAX_JSON_STATE_BYTES = 500 * 1024 * 1024;

/**
 * States from this size on are streamed (state-stream.ts): linear time, memory bounded by what is kept,
 * no string limit. Smaller ones are read with one JSON.parse, which also checks every byte of the syntax.
 */
export const STREAM_STATE_BYTES = 32 * 1024 * 1024;

export interface ReadStateOptions {
  /**
   * For a streamed state (STREAM_STATE_BYTES and larger): keep only these resources (by mode and type),
   * e.g. inventory.ts `isRelevant`; the others are not even parsed, which is most of the time and memory a
   * big state costs. A smaller state is read whole and keeps every resource. Default: every resource.
   */
  keepWhenStreaming?: (mode: "managed" | "data", type: string) => boolean;
}

/** `source` is a path (resolved against `cwd`) or `-` for standard input; errors name it as given. */
export async function readStateSource(source: string, stdin: () => Promise<Buffer>, cwd: string = process.cwd(), opts: ReadStateOptions = {}): Promise<StateOutcome> {
  const display = source === "-" ? "<stdin>" : source;
  const file = path.resolve(cwd, source);
  let buf: Buffer;
  try {
    if (source === "-") {
      buf = await stdin();
      if (buf.length >= STREAM_STATE_BYTES) {
        const { readStateBuffer } = await import("./stream.js");
        const streamed = readStateBuffer(buf, display, { keep: opts.keepWhenStreaming });
        if (!("showJson" in streamed)) return streamed;
        if (buf.length > MAX_JSON_STATE_BYTES) return tooLargeShowJson(display);
      }
    } else {
      const st = await stat(file);
      if (st.isDirectory()) return { ok: false, error: { file: display, line: null, column: null, message: "is a directory, not a state file" } };
      if (st.size >= STREAM_STATE_BYTES) {
        const { readLargeState } = await import("./stream.js");
        const streamed = await readLargeState(file, display, { keep: opts.keepWhenStreaming });
        if (!("showJson" in streamed)) return streamed;
        if (st.size > MAX_JSON_STATE_BYTES) return tooLargeShowJson(display);
      }
      // A pipe or a device has no size and may never end: read until it clearly is not a state.
      buf = st.isFile() ? await readFile(file) : await readStateStream(createReadStream(file));
    }
  } catch (e) {
    return { ok: false, error: fsError(display, e) };
  }
  return parseStateText(buf.toString("utf8"), display);
}

function tooLargeShowJson(display: string): StateOutcome {
  return {
    ok: false,
    error: {
      file: display,
      line: null,
      column: null,
      message: `terraform show -json output over ${MAX_JSON_STATE_BYTES / 1024 / 1024} MiB cannot be read in one piece; pass the state itself (\`terraform state pull > state.json\`), which is streamed`,
    },
  };
}

export function parseStateText(text: string, display: string): StateOutcome {
  if (text.trim() === "") return { ok: false, error: { file: display, line: null, column: null, message: "state is empty" } };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // V8's message does not always carry a position: re-read with the positional reader to get one.
    const pos = parseJsonWithPositions(text);
    const line = pos.ok ? null : pos.line;
    const column = pos.ok ? null : pos.column;
    const truncated = !pos.ok && pos.truncated;
    return {
      ok: false,
      error: { file: display, line, column, message: truncated ? "state is truncated (unexpected end of JSON)" : `state is not valid JSON: ${pos.ok ? "rejected by JSON.parse" : pos.message}` },
    };
  }
  return stateFromDocument(doc, display);
}

export function stateFromDocument(doc: unknown, display: string): StateOutcome {
  const fail = (message: string): StateOutcome => ({ ok: false, error: { file: display, line: null, column: null, message } });
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return fail("not a Terraform state: expected a JSON object");
  const d = doc as Record<string, unknown>;
  if ("format_version" in d) return fromShowJson(d, display);
  if (!("version" in d)) return fail("not a Terraform state: no \"version\" (state file) or \"format_version\" (terraform show -json)");
  if (d.version !== 4) {
    return fail(`state version ${d.version === null || typeof d.version !== "object" ? JSON.stringify(d.version) : Array.isArray(d.version) ? "[…]" : "{…}"} is not supported: only version 4 (Terraform 0.12 and later); run \`terraform state pull\` with a current Terraform`);
  }
  if (!Array.isArray(d.resources)) return fail("state version 4 without a \"resources\" array");
  const instances: StateInstance[] = [];
  for (const r of d.resources as Record<string, unknown>[]) {
    const err = addV4Resource(r, instances);
    if (err) return fail(err);
  }
  return { ok: true, state: { source: display, instances, terraformVersion: typeof d.terraform_version === "string" ? d.terraform_version : null, ...stateIdentity(d) } };
}

/** `terraform show -json`: `values.root_module` with `resources[]` and nested `child_modules[]`. */
function fromShowJson(d: Record<string, unknown>, display: string): StateOutcome {
  const instances: StateInstance[] = [];
  // `terraform show -json` of a state has `values`; of a saved plan, the state it was made from is `prior_state`.
  const prior = d.prior_state as Record<string, unknown> | null | undefined;
  const values = (d.values ?? prior?.values) as Record<string, unknown> | undefined;
  const walk = (mod: Record<string, unknown> | undefined): string | null => {
    if (!mod) return null;
    for (const r of (Array.isArray(mod.resources) ? mod.resources : []) as Record<string, unknown>[]) {
      if (typeof r?.address !== "string") return "resource without an address in terraform show -json output";
      let parsed: ParsedAddress;
      try {
        parsed = parseAddress(r.address);
      } catch (e) {
        return (e as Error).message;
      }
      instances.push({
        address: formatAddress(parsed),
        configAddress: configAddressOf(parsed),
        module: formatModulePath(parsed.modules),
        mode: parsed.mode,
        type: parsed.type,
        name: parsed.name,
        ...(parsed.key !== undefined ? { indexKey: parsed.key } : {}),
        attributes: (r.values as Record<string, unknown>) ?? {},
        schemaVersion: typeof r.schema_version === "number" ? r.schema_version : null,
        provider: typeof r.provider_name === "string" ? r.provider_name : null,
      });
    }
    for (const child of (Array.isArray(mod.child_modules) ? mod.child_modules : []) as Record<string, unknown>[]) {
      const err = walk(child);
      if (err) return err;
    }
    return null;
  };
  const err = walk(values?.root_module as Record<string, unknown> | undefined);
  if (err) return { ok: false, error: { file: display, line: null, column: null, message: err } };
  // `terraform show -json` names no lineage: which state it shows is not known.
  return { ok: true, state: { source: display, instances, terraformVersion: typeof d.terraform_version === "string" ? d.terraform_version : null, lineage: null, serial: null } };
}
