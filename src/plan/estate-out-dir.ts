// `plan --out-dir DIR` over an estate: one complete migration per (root, workspace) instance that has one
// to run, in DIR/<root>/ (default workspace) or DIR/<root>/<workspace>/, each with its own report.json,
// PLAN.md and a migrate.sh that changes to its root and selects its workspace; and DIR/ESTATE.md with the
// order to run them. Nothing is written when any file already exists (unless --force).
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Finding, InputError } from "../core/model.js";
import { sortFindings } from "../core/findings.js";
import type { InstanceAnalysis } from "../estate/analyze.js";
import type { EstateInstance } from "../estate/load.js";
import { hasMigration, instanceOutDir, renderEstateMarkdown, type PlannedInstance } from "../estate/plan-order.js";
import { buildEstateReport } from "../estate/report.js";
import { renderMigrateScript } from "./migrate-script.js";
import { renderPlanMarkdown } from "./plan-markdown.js";
import { plannedStateNote, plannedStateOf, scriptWorkspace } from "./planned-state.js";
import { isSystemError, writeNewFile } from "../terraform/edit/fs-atomic.js";
import { UserInputError } from "../core/user-input-error.js";
import { artifactNames, existingFiles, PlanWriteError, scriptInput, writeArtifacts, type AssembledPlan } from "./artifacts.js";
import { someFiles } from "./written-notice.js";

export const ESTATE_MD = "ESTATE.md";

interface InstancePlan {
  instance: EstateInstance;
  /** Findings of the estate as a whole that are about this instance. */
  estateFindings: Finding[];
  analysis: InstanceAnalysis;
  plan: AssembledPlan;
  providerMajor: 4 | 5;
}

/** Where the instance's artifacts are, as PLAN.md's commands (run in the root) name them. */
export function instanceOutDirFromRoot(cwd: string, outDir: string, inst: Pick<EstateInstance, "root" | "workspace" | "dir">): string {
  const rel = path.relative(inst.dir, path.resolve(cwd, outDir, instanceOutDir(inst.root, inst.workspace))).split(path.sep).join("/");
  return rel === "" ? "." : rel;
}

/** Writes every migration and ESTATE.md; returns the paths written (as the user would type them). */
export async function writeEstatePlans(input: {
  cwd: string;
  outDir: string;
  force: boolean;
  version: string;
  root: string;
  errors: InputError[];
  instances: InstancePlan[];
}): Promise<string[]> {
  const top = path.resolve(input.cwd, input.outDir);
  const shared = sharedPatchFiles(input.instances);
  const planned = input.instances.map((p) => plannedOf(p, shared.get(p) ?? []));
  const runs = input.instances.filter((_p, i) => hasMigration(planned[i]!));
  // Each root's files are made when its turn to be written comes. Before, every root's report, PLAN.md
  // and migrate.sh were built before the first was written, and every report.json rendered once more only
  // to learn the files' names (the 200-root bench tree's report.json files are 456 MB).
  const contents = runs.map((p) => ({ p, dir: path.join(top, instanceOutDir(p.instance.root, p.instance.workspace)) }));

  // Refuse before the first write: one existing file anywhere leaves everything as it was.
  if (!input.force) {
    const existing: string[] = [];
    for (const name of await existingFiles(top, [ESTATE_MD])) existing.push(path.join(input.outDir, name));
    for (const c of contents) {
      for (const name of await existingFiles(c.dir, artifactNames(c.p.plan))) existing.push(path.join(input.outDir, path.relative(top, c.dir), name));
    }
    if (existing.length) throw new UserInputError(`${input.outDir} already has ${someFiles(existing)}: nothing was written (use --force to overwrite)`);
  }
  const written: string[] = [];
  const done: { dir: string; names: string[] }[] = [];
  try {
    for (const c of contents) {
      const names = await writeArtifacts(c.dir, contentOf(c.p, input, shared.get(c.p) ?? []), input.force);
      done.push({ dir: c.dir, names });
      for (const name of names) written.push(path.join(input.outDir, path.relative(top, c.dir), name));
    }
    await mkdir(top, { recursive: true });
    await writeNewFile(path.join(top, ESTATE_MD), renderEstateMarkdown({ outDir: input.outDir, version: input.version, instances: planned }), { force: input.force });
  } catch (e) {
    // A root's plan or ESTATE.md the disk would not take (writeArtifacts removed that root's own files):
    // without --force the roots written before it go too, so no half of the estate's plan is left.
    if (!(e instanceof UserInputError) && !isSystemError(e)) throw e;
    // Without --force the root's own outcome ("nothing … left") is replaced by the estate's; with it, the root's
    // account of what it had replaced is kept.
    const why = e instanceof PlanWriteError && !input.force ? e.what : e instanceof UserInputError ? e.message : `cannot write the estate's plan to ${input.outDir}: ${(e as Error).message}`;
    if (input.force) throw new UserInputError(`${why}; the estate's plan in ${input.outDir} is incomplete: rerun once there is room`);
    await Promise.all(done.flatMap((d) => d.names.map((name) => rm(path.join(d.dir, name), { force: true }))));
    throw new UserInputError(`${why}; nothing of the estate's plan was left in ${input.outDir}`);
  }
  written.push(path.join(input.outDir, ESTATE_MD));
  return written;
}

/**
 * For each instance, the files its step-6 patch edits that another instance's patch edits too (a module
 * several roots call), as paths relative to the report's base.
 */
function sharedPatchFiles(instances: InstancePlan[]): Map<InstancePlan, string[]> {
  const users = new Map<string, InstancePlan[]>();
  const filesOf = (p: InstancePlan) => p.plan.legacyPatchFiles.map((f) => path.resolve(p.instance.dir, p.plan.patchDir, f));
  for (const p of instances) for (const f of filesOf(p)) users.set(f, [...(users.get(f) ?? []), p]);
  const out = new Map<InstancePlan, string[]>();
  for (const p of instances) {
    const mine = filesOf(p).filter((f) => users.get(f)!.length > 1);
    if (mine.length) out.set(p, mine.map((f) => path.relative(p.instance.ws.base, f).split(path.sep).join("/")));
  }
  return out;
}

function plannedOf(p: InstancePlan, sharedFiles: string[]): PlannedInstance {
  const zones = p.analysis.analysis.zones;
  return {
    root: p.instance.root,
    workspace: p.instance.workspace,
    rulesetZones: zones.filter((z) => !z.zone.rulesetIn && z.zone.imports.length > 0).map((z) => z.zone.zoneId),
    feeds: zones.filter((z) => z.zone.rulesetIn).map((z) => ({ zoneId: z.zone.zoneId, ...z.zone.rulesetIn! })),
    removals: p.plan.stateRemovals.length,
    migratedZones: p.analysis.migratedZones,
    sharedFiles,
  };
}

/** One instance's files: its own report (its resources, zones, findings and steps), PLAN.md and migrate.sh. */
function contentOf(p: InstancePlan, input: { cwd: string; outDir: string; version: string; root: string; errors: InputError[] }, sharedFiles: string[]) {
  const { instance, plan } = p;
  const plannedState = plannedStateOf(instance);
  const zones = p.analysis.analysis.zones.filter((z) => !z.zone.rulesetIn);
  const report = buildEstateReport({
    version: input.version,
    root: input.root,
    instances: [instance],
    // Its own findings, and the estate's about it (ZONE_SPLIT_ACROSS_ROOTS where its ruleset is).
    analysis: { instances: [p.analysis], zones: p.analysis.analysis.zones, findings: sortFindings([...p.analysis.analysis.findings, ...p.estateFindings]) },
    extraFindings: plan.findings,
    errors: input.errors,
    planSteps: plan.steps,
  });
  report.versions = plan.versions;
  const markdown = renderPlanMarkdown({
    report,
    providerMajor: p.providerMajor,
    artifacts: plan.artifactList,
    stateRemovals: plan.stateRemovals,
    versions: plan.versionsMarkdown,
    ...(plan.constraintStep ? { first: `${plan.constraintStep} (see PROVIDER_FEATURE_MISSING)` } : {}),
    syntaxLabel: plan.syntaxLabel,
    stateNote: plannedStateNote(plannedState, scriptWorkspace(instance.workspace)),
  });
  const dir = path.resolve(input.cwd, input.outDir, instanceOutDir(instance.root, instance.workspace));
  const fromScript = path.relative(dir, instance.dir).split(path.sep).join("/") || ".";
  const script = renderMigrateScript({ ...scriptInput(input.version, zones, plan), workspace: instance.workspace, plannedState, root: { fromScript, sharedFiles } });
  return { plan, report, markdown, script };
}
