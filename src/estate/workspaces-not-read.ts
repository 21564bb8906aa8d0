// A root whose configuration reads `terraform.workspace` gives other zones and settings in each workspace. A
// run that reads one of them (the workspace selected here, or the states given) and not the others would
// report that one as if it were the root: the legacy WAF of the others would be missing from the report, with
// no word said. Pure: estate/load.ts finds the workspaces (the local backend's directories) and calls this.
import { finding } from "../core/findings.js";
import { LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import type { Finding, InventoryResource } from "../core/model.js";
import type { ConfigTree } from "../terraform/config/modules.js";
import { compareText } from "../core/text-order.js";

/** The workspaces of a root a run reads, and the others (null: the backend's, not known offline). */
export interface WorkspacesNotRead {
  read: string[];
  /** Each with its local state file as the user types it (from the working directory). */
  others: { name: string; stateFile: string }[] | null;
}

/**
 * One VALUE_UNRESOLVED (warning) for the root's first instance, when its configuration (`tree`, the root's)
 * reads `terraform.workspace` and the root has workspaces the run did not read (`notRead.others`: their names; null:
 * the backend's workspaces are not known offline). At the root's first legacy WAF resource, else its first
 * resource with a file.
 */
export function workspacesNotReadFindings(root: string, notRead: WorkspacesNotRead | undefined, tree: ConfigTree, resources: readonly InventoryResource[]): Finding[] {
  if (notRead === undefined || !readsWorkspace(tree)) return [];
  const first = (list: readonly InventoryResource[]) => [...list].sort((a, b) => compareText(a.file ?? "", b.file ?? "") || (a.line ?? 0) - (b.line ?? 0))[0];
  const withFile = resources.filter((r) => r.file !== null);
  const at = first(withFile.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type))) ?? first(withFile);
  const others = notRead.others === null ? "its backend's other workspaces (not known offline)" : `its workspace${notRead.others.length === 1 ? "" : "s"} ${notRead.others.map((w) => w.name).join(", ")}`;
  const how =
    notRead.others === null
      ? "use --pull-state (every workspace the backend lists), or pass each workspace's state (`TF_WORKSPACE=NAME terraform state pull > NAME.tfstate`, then --state ROOT=NAME.tfstate)"
      : `pass each workspace's state (${notRead.others.map((w) => `--state ${w.stateFile}`).slice(0, 2).join(" ")}${notRead.others.length > 2 ? " …" : ""}), or use --pull-state`;
  return [
    finding(
      "VALUE_UNRESOLVED",
      `${root === "." ? "this root" : `root ${root}`}'s configuration depends on terraform.workspace, and this run read it for workspace${notRead.read.length === 1 ? "" : "s"} ${notRead.read.join(", ")} only: ${others} ${notRead.others?.length === 1 ? "gives its" : "give their"} own zones and settings, and ${notRead.others?.length === 1 ? "its" : "their"} legacy WAF is not in this report; ${how}`,
      { zoneId: null, file: at?.file ?? null, line: at?.line ?? null },
      { terraformWorkspace: true, workspacesRead: notRead.read, workspacesNotRead: notRead.others?.map((w) => w.name) ?? null },
      "warning",
    ),
  ];
}

/**
 * Whether the configuration reads `terraform.workspace` where the tool reads it: locals, variable defaults,
 * the bodies of the resources it reads, module call arguments. Whether this run's evaluation happened to
 * need it does not say (a zone read from state never evaluates the configuration's zone_id).
 */
function readsWorkspace(tree: ConfigTree): boolean {
  for (const node of tree.nodes) {
    const d = node.dir;
    if (mentions(d.locals) || mentions(d.variables)) return true;
    if (d.resources.some((r) => !r.skipped && mentions(r.body))) return true;
    if (d.moduleCalls.some((c) => mentions(c.inputs) || mentions(c.count) || mentions(c.forEach))) return true;
  }
  return false;
}

const WORKSPACE = /\bterraform\.workspace\b/;

/** Some string in the value (an expression as the readers keep it, `${…}`) names `terraform.workspace`. */
function mentions(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (WORKSPACE.test(v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") stack.push(...Object.values(v));
  }
  return false;
}
