// One workspace's entry point ruleset in a root module that several workspaces share. The generated
// `cloudflare_ruleset` is literal per zone: copied into the root as it is, every other workspace of the root
// would plan to create it for a zone that is not theirs. So in such a root it is written with
// `count = terraform.workspace == "<ws>" ? 1 : 0`, imported into its instance (`x[0]`), named with the
// workspace (the files of two workspaces never declare the same resource) and copied to a file of its own.
import { quoteHclString } from "./hcl-string.js";

/** The workspace every root has, and the one a state outside `terraform.tfstate.d/` belongs to. */
export const DEFAULT_WORKSPACE = "default";

/**
 * The workspace a root's ruleset is limited to, or null for a plain one. Limited when the workspace is not
 * `default` (a root with a non-default workspace has at least `default` besides it, in or out of this run)
 * or when the run has several workspaces of the root (`default` among them).
 */
export function rulesetWorkspaceGate(workspace: string, workspacesOfRoot: number): string | null {
  return workspace !== DEFAULT_WORKSPACE || workspacesOfRoot > 1 ? workspace : null;
}

/** `terraform.workspace == "eu" ? 1 : 0`. */
export function workspaceCountExpression(workspace: string): string {
  return `terraform.workspace == ${quoteHclString(workspace)} ? 1 : 0`;
}

/**
 * The workspace as part of a Terraform identifier or a file name: letters, digits, `_` and `-`. A name
 * with other characters (`eu.prod`) gets a hash of the whole name, so `eu.prod` and `eu_prod` stay apart.
 */
export function workspaceSlug(workspace: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(workspace)) return workspace;
  const s = workspace.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return `${s === "" ? "ws" : s}_${fnv1a(workspace)}`;
}

/** FNV-1a over the UTF-16 code units, 8 hex digits: stable and pure. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** `waf_managed_1b2c3d4e` → `waf_managed_1b2c3d4e_eu`. */
export function workspaceResourceName(name: string, workspace: string): string {
  return `${name}_${workspaceSlug(workspace)}`;
}

/** Where step 2 copies ruleset.tf in the root: one file per workspace when the ruleset is limited to one. */
export function rulesetCopyFile(workspace: string | null): string {
  return workspace === null ? "cf-waf-migrate-ruleset.tf" : `cf-waf-migrate-ruleset-${workspaceSlug(workspace)}.tf`;
}
