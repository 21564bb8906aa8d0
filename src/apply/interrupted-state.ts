// A local state file that is empty. Terraform's local backend empties the file before it writes the new
// state (statemgr.Filesystem: truncate, then write) and keeps the state it replaces in a backup beside it
// (`terraform.tfstate.backup` from import and apply, `terraform.tfstate.<unix time>.backup` from the `state`
// commands). A terraform command killed in that moment (a CI job cancelled, a laptop closed) leaves 0 bytes,
// and `state pull` then prints nothing: apply must say what happened and where the state went, not ask for
// another directory. Which file that is follows the backend `init` recorded (terraform/state/local-backend.ts).
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { BACKUP_DIR } from "./backup.js";
import { localStateFile } from "../terraform/state/local-backend.js";

export interface EmptyLocalState {
  /** The empty state file. */
  file: string;
  /** terraform's backups beside it that hold a state, newest first. */
  terraformBackups: string[];
  /** The newest state this tool backed up before a run of apply (step 1), if any. */
  applyBackup: string | null;
}

/** The workspace's local state file when it exists and is empty (0 bytes or only white space); else null. */
export async function emptyLocalState(chdir: string, workspace: string, env: Record<string, string | undefined> = process.env): Promise<EmptyLocalState | null> {
  // Only the file terraform uses: with an s3 or remote backend, a terraform.tfstate lying here is not it.
  const file = await localStateFile(chdir, workspace, env);
  if (file === null) return null;
  const size = await sizeOf(file);
  // A state holds at least `{"version":4,...}`; a few bytes of white space are as empty as 0.
  if (size === null || size > 16 || !(await isBlank(file))) return null;
  const base = path.basename(file);
  return {
    file,
    terraformBackups: await newestFirst(path.dirname(file), (name) => name.startsWith(`${base}.`) && /^(\.\d+)?\.backup$/.test(name.slice(base.length))),
    applyBackup: (await newestFirst(path.join(chdir, BACKUP_DIR), (name) => /^state-.*\.json$/.test(name)))[0] ?? null,
  };
}

/** The refusal's one line: what happened and how to put the state back (the caller says nothing changed). */
export function emptyStateMessage(empty: EmptyLocalState, shown: (file: string) => string): string {
  const file = shown(empty.file);
  const parts = [`${file} is empty (0 bytes): a terraform command was stopped while it wrote the state (terraform empties the file before writing the new one)`];
  const newest = empty.terraformBackups[0];
  if (newest !== undefined) {
    parts.push(`the state it replaced is in ${shown(newest)}, the newest of terraform's backups beside it: \`cp ${shown(newest)} ${file}\`, check it with \`terraform state list\`, and run apply again`);
  }
  if (empty.applyBackup !== null) {
    parts.push(
      newest !== undefined
        ? `${shown(empty.applyBackup)} holds the state as the last run of apply found it, before its first change`
        : `${shown(empty.applyBackup)} holds the state as the last run of apply found it, before its first change: restore it, check it with \`terraform state list\`, and run apply again (it redoes what that run had done)`,
    );
  }
  if (newest === undefined && empty.applyBackup === null) parts.push(`no backup was found beside it: restore ${file} from wherever your state is kept before running apply again`);
  return parts.join("; ");
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

async function isBlank(file: string): Promise<boolean> {
  return (await readFile(file, "utf8")).trim() === "";
}

/** Files of dir whose name passes `keep` and that hold something, newest first (then by name, for ties). */
async function newestFirst(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(keep);
  } catch {
    return [];
  }
  const found: { file: string; mtime: number }[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const s = await stat(file);
      if (s.isFile() && s.size > 0) found.push({ file, mtime: s.mtimeMs });
    } catch {
      // gone since the listing
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : a.file > b.file ? -1 : 0)).map((f) => f.file);
}
