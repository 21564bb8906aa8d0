// The workspace the user's root has selected, found the way terraform finds it (command/meta.go Workspace):
// TF_WORKSPACE when set, else the name in the data directory's `environment` file, else "default". The
// rehearsal's copy must plan in that same workspace: its state is that workspace's, and the configuration
// may branch on `terraform.workspace` (a count, a zone id picked from a map), so planning the copy in
// "default" would rehearse a different plan than the real run makes.
import path from "node:path";
import { DEFAULT_WORKSPACE } from "../core/workspace-ruleset.js";
import { selectedWorkspaceOf } from "../terraform/runner/data-dir.js";

export { DEFAULT_WORKSPACE };

/** The workspace terraform selects in the root; an uninitialised root runs in `default`. */
export function selectedWorkspace(chdir: string, env: NodeJS.ProcessEnv = process.env): string {
  return selectedWorkspaceOf(chdir, env) ?? DEFAULT_WORKSPACE;
}

/**
 * The copy's local backend keeps other workspaces' states in its own workspace_dir, not the implicit
 * `terraform.tfstate.d`: `init` compares the implicit local backend with the configured one and, when both
 * hold several workspaces, asks whether to migrate them all (which fails under -input=false).
 */
export const REHEARSAL_WORKSPACE_DIR = "cf-waf-migrate-rehearsal.tfstate.d";

/** Where the copy's local backend keeps a workspace's state: the default one at its path, any other under workspace_dir/NAME/. */
export function localStatePath(workspace: string): string {
  return workspace === DEFAULT_WORKSPACE ? "terraform.tfstate" : path.join(REHEARSAL_WORKSPACE_DIR, workspace, "terraform.tfstate");
}
