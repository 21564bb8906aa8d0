// A plan made for one root module alone may delete blocks of a module other roots call too (live/prod and
// live/dev both calling modules/waf): their states lose those blocks as well, and a legacy instance still in
// one of them would be destroyed at its next apply, resetting that zone's WAF. Find those roots, so that
// PLAN.md names them and migrate.sh reads their states before step 6 (as apply does).
import path from "node:path";
import { callersOf } from "../estate/module-callers.js";
import type { RepositoryTree } from "../estate/repository-tree.js";
import { callerReferenceFindings } from "../terraform/references/caller-references.js";
import { referenceLine } from "../terraform/references/removal-set.js";
import { ARTIFACTS, type AssembledPlan } from "./artifacts.js";

/** Other root modules calling a module whose file step 6 edits, relative to `rootDir`, sorted. */
export async function otherCallersOfPlan(rootDir: string, plan: Pick<AssembledPlan, "legacyPatchFiles" | "patchDir">, repositoryTree?: RepositoryTree): Promise<string[]> {
  const root = path.resolve(rootDir);
  const moduleDirs = [...new Set(plan.legacyPatchFiles.map((f) => path.dirname(path.resolve(root, plan.patchDir, f))))].filter((d) => d !== root);
  if (moduleDirs.length === 0) return [];
  const callers = await callersOf(root, moduleDirs, repositoryTree);
  return [...callers.keys()].map((d) => path.relative(root, d).split(path.sep).join("/")).sort();
}

/**
 * The other callers' expressions step 6 would leave dangling (LEGACY_REFERENCE), added to the plan as its own
 * are: findings, step 6's notes, and the lines migrate.sh refuses on. `callers` as otherCallersOfPlan gives them.
 */
export async function addOtherCallerReferences(rootDir: string, base: string, plan: Pick<AssembledPlan, "legacyPatchFiles" | "patchDir" | "findings" | "legacyReferences" | "steps">, callers: readonly string[]): Promise<void> {
  if (callers.length === 0) return;
  const root = path.resolve(rootDir);
  const found = await callerReferenceFindings({
    callers: callers.map((c) => path.resolve(root, c)),
    editedFiles: plan.legacyPatchFiles.map((f) => path.resolve(root, plan.patchDir, f)),
    base,
  });
  if (found.length === 0) return;
  const lines = found.map(referenceLine);
  plan.findings.push(...found);
  plan.legacyReferences.push(...lines);
  const step6 = plan.steps.find((s) => s.number === 6);
  if (step6) step6.notes = [...(step6.notes ?? []), ...lines.map((r) => `LEGACY_REFERENCE (edit by hand before step 6; apply and migrate.sh refuse until then): ${r}`)];
}

/** Step 6's note naming them. */
export function otherCallersNote(callers: readonly string[]): string {
  return `the module whose legacy blocks this step deletes is also called by other root module(s): ${callers.join(", ")} (relative to this root). Deleting the blocks removes them there too: migrate.sh reads their states first and keeps the blocks while one still holds a legacy instance or cannot be read (run \`terraform init\` there). Plan those roots together (cf-waf-migrate plan over the repository, ESTATE.md) to get the order`;
}

/**
 * No `removed.tf` when other roots call the module: a `removed {}` block is refused while its resource block is
 * still configured, so applying one means deleting the shared module's legacy blocks at the same time, which
 * takes them from the other roots too (their next apply would destroy their legacy instances, resetting those
 * zones' WAF). Step 5 then says why, and the state rm commands (and migrate.sh, which keeps the blocks until
 * the others have migrated) are the way.
 */
export function withdrawRemovedBlocks(plan: Pick<AssembledPlan, "removedTf" | "artifactList" | "removedOffer">, callers: readonly string[]): void {
  if (plan.removedTf === null || callers.length === 0) return;
  plan.removedTf = null;
  plan.artifactList = plan.artifactList.filter((a) => a.file !== ARTIFACTS.removed);
  const offer = plan.removedOffer;
  plan.removedOffer = null;
  if (!offer) return;
  // The offer's note, found by where step 5 put it, gives way to why there is none.
  const notes = offer.step.notes ?? [];
  offer.step.notes = [
    ...notes.filter((_, i) => i !== offer.note),
    `no ${ARTIFACTS.removed}: removed {} blocks only apply once the legacy blocks are gone from the module, which ${callers.join(", ")} also ${callers.length === 1 ? "uses" : "use"}: use the state rm commands above (migrate.sh keeps the blocks until ${callers.length === 1 ? "it has" : "they have"} migrated)`,
  ];
}

/**
 * For each instance of an estate plan, the other instances (by name) whose step-6 patch edits one of the same
 * files (a module several roots or workspaces use). `files` are absolute paths.
 */
export function instancesSharingFiles(instances: readonly { name: string; files: readonly string[] }[]): string[][] {
  const users = new Map<string, number[]>();
  instances.forEach((inst, i) => {
    for (const f of inst.files) users.set(f, [...(users.get(f) ?? []), i]);
  });
  return instances.map((inst, i) => {
    const others = new Set(inst.files.flatMap((f) => users.get(f)!.filter((j) => j !== i)));
    return [...others].sort((a, b) => a - b).map((j) => instances[j]!.name);
  });
}
