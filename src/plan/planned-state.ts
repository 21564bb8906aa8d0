// Which state a plan was made from, so that migrate.sh changes that state and no other: its lineage (the
// id Terraform gives a state when it is created, kept by every later write), the serial the plan read,
// and whether its workspace is known from where the state was kept. A state pulled and saved anywhere
// (`TF_WORKSPACE=staging terraform state pull > /tmp/staging.tfstate`) says nothing of its workspace: the
// lineage is then what tells migrate.sh it is about to change the right one.
import type { StateRead } from "../terraform/state/v4.js";

export interface PlannedState {
  /** The state files as given (`-` for standard input). */
  files: string[];
  /** Each lineage the states read name, with the highest serial read of it; empty when none names one. */
  lineages: { lineage: string; serial: number | null }[];
  /** The workspace is known from where the state was kept (EstateInstance.workspaceKnown). */
  workspaceKnown: boolean;
}

/** null: the plan read no state (configuration only), so there is nothing to compare the live state with. */
export function plannedStateOf(instance: { stateFiles: string[]; workspaceKnown: boolean; ws: { states: StateRead[] } }): PlannedState | null {
  if (instance.ws.states.length === 0) return null;
  const serials = new Map<string, number | null>();
  for (const s of instance.ws.states) {
    if (s.lineage === null) continue;
    const before = serials.get(s.lineage);
    serials.set(s.lineage, before === undefined ? s.serial : before === null || s.serial === null ? (before ?? s.serial) : Math.max(before, s.serial));
  }
  return {
    files: instance.stateFiles,
    lineages: [...serials].map(([lineage, serial]) => ({ lineage, serial })),
    workspaceKnown: instance.workspaceKnown,
  };
}

/** `lineage L, serial N` of each lineage read. */
export function lineageText(p: PlannedState): string {
  return p.lineages.map((l) => `lineage ${l.lineage}${l.serial !== null ? `, serial ${l.serial}` : ""}`).join("; ");
}

/**
 * PLAN.md's line on the state: which one the plan read, which workspace it is (or that this is unknown)
 * and what migrate.sh checks before its first change. `workspace`: the one migrate.sh selects itself
 * (TF_WORKSPACE), undefined when it runs in whichever is selected.
 */
export function plannedStateNote(p: PlannedState | null, workspace: string | undefined): string {
  const where =
    workspace !== undefined
      ? `workspace \`${workspace}\` (migrate.sh sets TF_WORKSPACE=${workspace})`
      : p?.workspaceKnown
        ? "the workspace selected where it runs (`default`, whose state the plan read)"
        : "the workspace selected where it runs (or TF_WORKSPACE)";
  if (p === null) {
    return `State: the plan read no state (configuration only), so there is no lineage to check: migrate.sh changes the state of ${where}, and step 5 removes what \`terraform state list\` shows there. Make sure that is the workspace you mean.`;
  }
  const files = p.files.map((f) => (f === "-" ? "standard input" : `\`${f}\``)).join(", ");
  const unknownWs = p.workspaceKnown
    ? ""
    : ` **The workspace of this state is unknown**: ${files} ${p.files.length === 1 ? "is" : "are"} not where Terraform's local backend keeps a workspace's state (\`terraform.tfstate\`, \`terraform.tfstate.d/<workspace>/\`).`;
  if (p.lineages.length === 0) {
    return p.workspaceKnown
      ? `State: the plan read ${files}, which names no lineage (\`terraform show -json\` output): migrate.sh cannot check that the state it changes is that one; it runs in ${where}.`
      : `State: the plan read ${files}, which names no lineage (\`terraform show -json\` output).${unknownWs} Nothing identifies the state, so migrate.sh refuses to start unless TF_WORKSPACE names the workspace this state belongs to (\`TF_WORKSPACE=NAME bash migrate.sh\`); select that workspace before the manual steps too.`;
  }
  const several = p.lineages.length > 1 ? " (the states read have different lineages: either one is accepted)" : "";
  return (
    `State: the plan read ${files} (${lineageText(p)})${several}.${unknownWs} ` +
    `Before any change migrate.sh checks that \`terraform state pull\` in ${where} has this lineage (a higher serial is fine) and refuses otherwise, naming the workspace that has it; ` +
    `select that workspace (\`terraform workspace select NAME\` or \`TF_WORKSPACE=NAME\`) before the manual steps too.`
  );
}

/** The workspace migrate.sh exports as TF_WORKSPACE (migrate-script.ts): none for `default`. */
export function scriptWorkspace(workspace: string | undefined): string | undefined {
  return workspace !== undefined && workspace !== "default" ? workspace : undefined;
}
