// Where a root's local backend keeps a workspace's state, as terraform decides it: the backend `init`
// recorded in the data directory (`.terraform/terraform.tfstate`: `{"backend": {"type": "local", "config":
// {"path": …, "workspace_dir": …}}}`), else the implicit local backend (`terraform.tfstate`,
// `terraform.tfstate.d/<ws>/terraform.tfstate`). Any other backend (s3, remote, cloud…) keeps no local file:
// a `terraform.tfstate` lying in the directory is then not the state terraform uses.
import { DEFAULT_WORKSPACE } from "../../core/workspace-ruleset.js";
import { dataDirOf } from "../runner/data-dir.js";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";


interface LocalBackend {
  /** The default workspace's state file, relative to the root. */
  file: string;
  /** The directory holding one directory per other workspace, relative to the root. */
  dir: string;
}

/** The root's local backend (implicit or configured), or null when `init` recorded another backend. */
async function localBackendOf(rootDir: string, env: Record<string, string | undefined>): Promise<LocalBackend | null> {
  const dataDir = dataDirOf(rootDir, env);
  let backend: { type?: unknown; config?: { path?: unknown; workspace_dir?: unknown } } | undefined;
  try {
    backend = (JSON.parse(await readFile(path.join(dataDir, "terraform.tfstate"), "utf8")) as { backend?: typeof backend }).backend;
  } catch {
    backend = undefined;
  }
  if (backend !== undefined && backend !== null && backend.type !== "local") return null;
  const config = backend?.config ?? {};
  const file = typeof config.path === "string" && config.path !== "" ? config.path : "terraform.tfstate";
  const dir = typeof config.workspace_dir === "string" && config.workspace_dir !== "" ? config.workspace_dir : "terraform.tfstate.d";
  return { file, dir };
}

/**
 * The workspaces a root's local backend has, as `terraform workspace list` finds them (`default`, and one per
 * directory of its workspace directory: `terraform workspace new` makes it), each with its state file. null
 * when the backend is not local: its workspaces are known only by asking it.
 */
export async function localWorkspaces(rootDir: string, env: Record<string, string | undefined> = process.env): Promise<{ name: string; stateFile: string }[] | null> {
  const backend = await localBackendOf(rootDir, env);
  if (backend === null) return null;
  const entries = await readdir(path.resolve(rootDir, backend.dir), { withFileTypes: true }).catch(() => []);
  const names = [DEFAULT_WORKSPACE, ...entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()];
  return names.map((name) => ({ name, stateFile: stateFileOf(rootDir, backend, name) }));
}

function stateFileOf(rootDir: string, backend: LocalBackend, workspace: string): string {
  // A workspace other than default is always workspace_dir/<ws>/terraform.tfstate, whatever the path (measured
  // with terraform 1.11: path = "state/prod.tfstate", workspace_dir = "envs" keeps workspace x in envs/x/terraform.tfstate).
  return workspace === DEFAULT_WORKSPACE ? path.resolve(rootDir, backend.file) : path.resolve(rootDir, backend.dir, workspace, "terraform.tfstate");
}

/** The absolute path of the workspace's local state file, or null when the root's backend is not local. */
export async function localStateFile(rootDir: string, workspace: string, env: Record<string, string | undefined> = process.env): Promise<string | null> {
  const backend = await localBackendOf(rootDir, env);
  if (backend === null) return null;
  return stateFileOf(rootDir, backend, workspace);
}
