// The rehearsal's throwaway copy of the root module: the configuration (and the local modules it calls) in a
// temporary directory, the `state pull` output as its local state, and an override file that points the
// backend at that local state. The user's directory, state and backend are never touched: every later
// command runs in the copy, with its own data directory.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_WORKSPACE, localStatePath, REHEARSAL_WORKSPACE_DIR } from "./rehearsal-workspace.js";

export const REHEARSAL_OVERRIDE = "zz_cf_waf_migrate_rehearsal_override.tf";
// terraform.tfstate.d: the user's local workspace states (the copy gets the pulled state only).
const SKIP = new Set([".terraform", ".git", "node_modules", "terraform.tfstate.d"]);

export interface RehearsalCopy {
  /** The temporary directory holding everything (removed afterwards). */
  dir: string;
  /** The root module inside the copy. */
  root: string;
  /** The copy's terraform data directory (TF_DATA_DIR), never the user's. */
  dataDir: string;
  /** Maps a path of the user's tree to the same path in the copy. */
  map(original: string): string;
}

/** Local module sources (`source = "../modules/x"`) of the root's own .tf files. */
function localSources(root: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(root)) {
    if (!f.endsWith(".tf")) continue;
    const text = readFileSync(path.join(root, f), "utf8");
    for (const m of text.matchAll(/^\s*source\s*=\s*"(\.\.?\/[^"]*)"/gm)) out.push(path.resolve(root, m[1]!));
  }
  return out;
}

/** The deepest directory containing every given path. */
function commonAncestor(paths: string[]): string {
  let base = path.resolve(paths[0]!);
  for (const p of paths.slice(1)) {
    while (path.relative(base, p).startsWith("..")) base = path.dirname(base);
  }
  return base;
}

/**
 * Copies the root (and whatever it reaches: local modules, the files the plan edits) into a temporary
 * directory, writes `stateText` as the local state of `workspace` (the user's selected one) and the backend
 * override.
 */
export function makeRehearsalCopy(chdir: string, stateText: string, extraFiles: string[], workspace: string = DEFAULT_WORKSPACE): RehearsalCopy {
  const base = commonAncestor([chdir, ...localSources(chdir), ...extraFiles.map((f) => path.dirname(f))]);
  const dir = mkdtempSync(path.join(os.tmpdir(), "cf-waf-migrate-rehearsal-"));
  const tree = path.join(dir, "tree");
  cpSync(base, tree, {
    recursive: true,
    filter: (src) => !SKIP.has(path.basename(src)) && !/\.tfstate(\.backup)?$/.test(src),
  });
  const map = (original: string) => path.join(tree, path.relative(base, path.resolve(original)));
  const root = map(chdir);
  const statePath = path.join(root, localStatePath(workspace));
  mkdirSync(path.dirname(statePath), { recursive: true });
  writeFileSync(statePath, stateText);
  // `state rm` writes its backup under terraform.tfstate.d/NAME/ whatever the backend's workspace_dir is;
  // an empty directory there holds no state, so `init` has nothing to offer to migrate.
  if (workspace !== DEFAULT_WORKSPACE) mkdirSync(path.join(root, "terraform.tfstate.d", workspace), { recursive: true });
  // An override file replaces the backend of the terraform block (remote, s3, …) with this local state; a
  // backend in an override file also replaces a `cloud {}` block (Terraform's configs/module_merge.go).
  writeFileSync(path.join(root, REHEARSAL_OVERRIDE), `terraform {\n  backend "local" {\n    path          = "terraform.tfstate"\n    workspace_dir = "${REHEARSAL_WORKSPACE_DIR}"\n  }\n}\n`);
  return { dir, root, dataDir: path.join(dir, "tf-data"), map };
}
