// The two checks every surgical edit makes: the text must be written back byte for byte (valid UTF-8 that
// survives a round trip), and HashiCorp's parser must accept the file before and after the edit. Each
// editor reports a failure with its own error type, so the refusal is passed in.
import { loadHcl2Json } from "../parse-pool/pool.js";
import { readWholeFileFast } from "../hcl/whole-file.js";

export type GuardReason = "not-utf8" | "syntax-error" | "result-invalid";
export type Refuse = (reason: GuardReason, message: string) => Error;

export function decodeStrict(input: string | Uint8Array, refuse: Refuse): string {
  if (typeof input === "string") {
    if (Buffer.from(input, "utf8").toString("utf8") !== input) {
      throw refuse("not-utf8", "the text holds unpaired UTF-16 surrogates and cannot be written back unchanged");
    }
    return input;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    throw refuse("not-utf8", "the file is not valid UTF-8, so it cannot be edited without altering other bytes");
  }
  if (!Buffer.from(text, "utf8").equals(Buffer.from(input.buffer, input.byteOffset, input.byteLength))) {
    throw refuse("not-utf8", "the file does not survive a UTF-8 round trip unchanged");
  }
  return text;
}

/**
 * What HashiCorp's parser reads from the text, or a refusal with its message. A file the fast reader reads
 * whole is valid and read exactly as hcl2json would read it (../hcl/whole-file.ts), so hcl2json only starts for
 * the others.
 */
export async function hclParseOrRefuse(text: string, file: string, when: "before" | "after", refuse: Refuse): Promise<Record<string, unknown>> {
  const fast = readWholeFileFast(text);
  if (fast) return fast.body;
  try {
    return (await (await loadHcl2Json()).parse(file, text)) as Record<string, unknown>;
  } catch (e) {
    const msg = (e as Error).message;
    if (when === "before") throw refuse("syntax-error", `Terraform's parser rejects the file: ${msg}`);
    throw refuse("result-invalid", `the edited text would not parse: ${msg}`);
  }
}

/**
 * An editor refused to edit a file, which is left for the user (or a later run) to change by hand. Each
 * editor subclasses it with its own reasons, so callers can tell the editors apart with instanceof.
 */
export class RefusedEditError<R extends string> extends Error {
  readonly file: string;
  readonly reason: R;
  constructor(file: string, reason: R, detail: string) {
    super(`refusing to edit ${file}: ${detail}`);
    this.file = file;
    this.reason = reason;
  }
}
