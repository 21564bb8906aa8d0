// States too large for one JavaScript string (V8's limit is ~512 MiB) are read by streaming the
// `resources` array: each resource entry is parsed on its own, so memory stays bounded by the largest one.
import { createReadStream } from "node:fs";
import { JSONParser } from "@streamparser/json";
import type { StateInstance, StateOutcome } from "./state.js";
import { addV4Resource } from "./state.js";

export async function readLargeState(file: string, display: string): Promise<StateOutcome> {
  const instances: StateInstance[] = [];
  let version: unknown = undefined;
  let terraformVersion: string | null = null;
  let failure: string | null = null;
  const parser = new JSONParser({ paths: ["$.version", "$.terraform_version", "$.resources.*"], keepStack: false });
  parser.onValue = ({ value, key, parent, stack }) => {
    if (failure) return;
    if (stack.length === 1 && key === "version") version = value;
    else if (stack.length === 1 && key === "terraform_version" && typeof value === "string") terraformVersion = value;
    else if (stack.length === 2 && typeof key === "number") {
      const err = addV4Resource(value as Record<string, unknown>, instances);
      if (err) failure = err;
      // Free the parsed entry from the parent array the parser keeps.
      if (Array.isArray(parent)) parent.length = 0;
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const stream = createReadStream(file);
      stream.on("data", (chunk) => {
        try {
          parser.write(chunk as Buffer);
        } catch (e) {
          stream.destroy();
          reject(e);
        }
      });
      stream.on("error", reject);
      stream.on("end", () => {
        try {
          parser.end();
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
  } catch (e) {
    return { ok: false, error: { file: display, line: null, column: null, message: `state is not valid JSON: ${(e as Error).message}` } };
  }
  if (failure) return { ok: false, error: { file: display, line: null, column: null, message: failure } };
  if (version !== 4) {
    return { ok: false, error: { file: display, line: null, column: null, message: `state version ${JSON.stringify(version)} is not supported: only version 4` } };
  }
  return { ok: true, state: { source: display, instances, terraformVersion } };
}
