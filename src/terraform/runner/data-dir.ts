// A root module's terraform data directory, where `init` keeps the selected workspace (`environment`), the
// backend it configured (`terraform.tfstate`), installed modules and providers: `$TF_DATA_DIR` (relative
// to the root, as terraform reads it from there) or `.terraform`.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_WORKSPACE } from "../../core/workspace-ruleset.js";

export function dataDirOf(rootDir: string, env: Record<string, string | undefined> = process.env): string {
  return env.TF_DATA_DIR ? path.resolve(rootDir, env.TF_DATA_DIR) : path.join(rootDir, ".terraform");
}

/**
 * The workspace terraform selects in a root, found the way terraform finds it (command/meta.go Workspace):
 * `TF_WORKSPACE` when set; else the name in the data directory's `environment` file; else `default` when the
 * root is initialised here (a data directory without that file selects default). null for an uninitialised
 * checkout: nothing here says which workspace it runs in (its workspaces may live in a remote backend).
 */
export function selectedWorkspaceOf(rootDir: string, env: Record<string, string | undefined> = process.env): string | null {
  const fromEnv = env.TF_WORKSPACE?.trim();
  if (fromEnv) return fromEnv;
  const dataDir = dataDirOf(rootDir, env);
  try {
    const selected = readFileSync(path.join(dataDir, "environment"), "utf8").trim();
    if (selected !== "") return selected;
  } catch {
    // no selection recorded: fall through
  }
  return existsSync(dataDir) ? DEFAULT_WORKSPACE : null;
}
