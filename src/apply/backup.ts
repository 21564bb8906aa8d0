// Step 1: back up the state before anything changes. The text is `terraform state pull`'s output as the
// preflight read it (byte for byte), written atomically to `<chdir>/.cf-waf-migrate/state-<UTC>.json`.
// Every real run writes a fresh one (a resumed run backs up the state it starts from); a dry run writes
// nothing.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { FileExistsError, writeNewFile } from "../terraform/edit/fs-atomic.js";
import type { ApplyContext, ApplyStep } from "./types.js";

export const BACKUP_DIR = ".cf-waf-migrate";

/** `20250614T101503Z`: sorts by time, no characters a file system objects to. */
export function utcStamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

/** Writes `text` to the first free `state-<stamp>[-N].json` in `dir`; never overwrites a file. */
export async function writeStateBackup(dir: string, text: string, now: Date): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = utcStamp(now);
  for (let n = 0; ; n++) {
    const file = path.join(dir, `state-${stamp}${n === 0 ? "" : `-${n}`}.json`);
    try {
      await writeNewFile(file, text);
      return file;
    } catch (e) {
      if (!(e instanceof FileExistsError)) throw e;
    }
  }
}

export const backupStep: ApplyStep = {
  number: 1,
  name: "backup",
  title: "Back up the state",
  async done() {
    return null;
  },
  async run(ctx: ApplyContext) {
    const dir = path.join(ctx.chdir, BACKUP_DIR);
    const size = Buffer.byteLength(ctx.stateText, "utf8");
    if (ctx.dryRun) {
      return {
        status: "would-run",
        detail: `would write ${display(ctx, path.join(dir, "state-<UTC timestamp>.json"))} (${size} bytes: the \`state pull\` output read above)`,
      };
    }
    const file = await writeStateBackup(dir, ctx.stateText, ctx.now());
    ctx.backupPath = file;
    return { status: "done", detail: `wrote ${display(ctx, file)} (${size} bytes, the state before this run)` };
  },
};

/** A path relative to the working directory when it lies below it, else absolute. */
export function display(ctx: { cwd: string }, file: string): string {
  const rel = path.relative(ctx.cwd, file);
  return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}
