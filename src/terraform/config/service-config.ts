// `--config-json ZONE_ID=FILE`: a saved response of `GET /zones/{id}/waf_migration/config?phase_two=1`
// (the whole envelope, or just its `result`), read into the core's Ruleset exactly as the service gave it.
import { readFile } from "node:fs/promises";
import type { InputError, Ruleset } from "../../core/model.js";
import { parseJsonWithPositions } from "../hcl/json-positions.js";

export type ConfigJsonOutcome = { ok: true; ruleset: Ruleset } | { ok: false; error: InputError };

export async function readServiceConfig(file: string, display: string = file): Promise<ConfigJsonOutcome> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    return fail(display, `cannot read: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) return { ok: false, error: { file: display, line: parsed.line, column: parsed.column, message: parsed.message } };
  return serviceConfigFromDocument(parsed.value, display);
}

export function serviceConfigFromDocument(doc: unknown, display: string): ConfigJsonOutcome {
  let v = doc as Record<string, unknown> | null;
  if (v && typeof v === "object" && "result" in v) {
    if (v.success === false) return fail(display, "the saved response is an error envelope (success: false)");
    v = v.result as Record<string, unknown> | null;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return fail(display, "expected the configuration object { name, rules[] }");
  if (!Array.isArray(v.rules)) return fail(display, "the configuration has no rules[] array");
  for (const [i, r] of (v.rules as unknown[]).entries()) {
    const rule = r as Record<string, unknown>;
    if (!rule || typeof rule !== "object") return fail(display, `rules[${i}] is not an object`);
    if (typeof rule.action !== "string" || typeof rule.expression !== "string") return fail(display, `rules[${i}] needs a string action and expression`);
  }
  return { ok: true, ruleset: v as unknown as Ruleset };
}

function fail(file: string, message: string): ConfigJsonOutcome {
  return { ok: false, error: { file, line: null, column: null, message } };
}
