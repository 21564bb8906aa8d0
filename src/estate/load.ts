// Loads an estate: the configuration tree once (a module directory shared by a thousand roots is parsed
// once: modules.ts keeps every directory it read, by absolute path), every state once, then one
// Workspace per (root, workspace) instance: the root's own subtree and that instance's states joined into
// its own inventory and domain. Identical addresses in two instances never meet.
import { selectedWorkspaceOf } from "../terraform/runner/data-dir.js";
import { localWorkspaces } from "../terraform/state/local-backend.js";
import { rootRulesetSyntaxMajor } from "../terraform/versions/providers.js";
import { workspacesNotReadFindings, type WorkspacesNotRead } from "./workspaces-not-read.js";
import type { InputError } from "../core/model.js";
import { displayPath } from "../terraform/config/load.js";
import { discover, reportBase } from "../terraform/config/discover.js";
import { locateAttributeErrors } from "../terraform/hcl/attribute-position.js";
import { buildInventory } from "../terraform/inventory/inventory.js";
import { forgottenAddresses } from "../terraform/inventory/forgotten.js";
import { buildConfigTree, type ConfigTree, type DeferredDir } from "../terraform/config/modules.js";
import { DeferredReader } from "../terraform/config/deferred.js";
import { createJudge } from "../terraform/parse-pool/pool.js";
import { readDomain } from "../terraform/readers/index.js";
import { EvaluationContext } from "../terraform/config/resolve.js";
import type { StateRead } from "../terraform/state/read.js";
import { loadRootVariables } from "../terraform/config/tfvars.js";
import { oneLineError, readConfiguration, readStates, remoteModuleFindings, type Workspace, type WorkspaceOptions } from "../terraform/inventory/workspace.js";
import { comparePaths, DEFAULT_WORKSPACE, estateRoots, subtrees, type EstateRoot } from "./instances.js";
import { parseStateArg, rootNamed, stateOwner } from "./state-owner.js";
import { workspaceOrder } from "./order.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { mapBatched } from "../core/map-limit.js";

/** A state read elsewhere (`--pull-state`) whose root and workspace are already known. */
export interface OwnedState {
  /** Root path as `EstateRoot.path` spells it. */
  root: string;
  workspace: string;
  /** How the report names it (`live/prod (state pull, workspace eu)`). */
  label: string;
  state: StateRead;
}

export interface EstateOptions extends WorkspaceOptions {
  /** States whose owner is already known (read by the caller, e.g. through `terraform state pull`). */
  ownedStates?: OwnedState[];
  /** Keep only these roots (by path); the others are not analysed (`--shard`). */
  rootFilter?: (rootPath: string) => boolean;
  /**
   * `streamEstate` reads a big tree's directories that matter at their roots' turn (`always`: whatever the
   * tree's size, as root workers need: they are sent the directories still to read).
   */
  deferReads?: "always";
  /**
   * Reads states of the kept roots once they are known (`--pull-state`: `terraform state pull` per root and
   * workspace); what cannot be read comes back as input errors, and the other roots go on.
   */
  pullStates?: (roots: { path: string; dir: string }[]) => Promise<{ states: OwnedState[]; errors: InputError[] }>;
}

/** One (root, workspace) pair: the unit everything is computed for. */
export interface EstateInstance {
  root: string;
  workspace: string;
  /** Absolute directory of the root. */
  dir: string;
  /** The state files (as given) that make up this instance; empty for configuration only. */
  stateFiles: string[];
  /**
   * Its states say which workspace they are: kept where the local backend keeps that workspace's state
   * (`ROOT/terraform.tfstate`, `ROOT/terraform.tfstate.d/<ws>/terraform.tfstate`) or pulled by the tool
   * itself. False for a state saved anywhere else (`state pull > prod.tfstate`, standard input), whose
   * workspace is only assumed, and for an instance without state.
   */
  workspaceKnown: boolean;
  /** Its own workspace: tree, states, inventory, domain; `errors` is empty (the estate holds them all). */
  ws: Workspace;
  /** The provider major its root's lock file or constraints say (versions/providers.ts rootRulesetSyntaxMajor). */
  rulesetMajor?: 4 | 5;
  /**
   * How many workspaces of its root this run reads (1 when absent): with its workspace, what limits the
   * root's ruleset to one workspace (core/workspace-ruleset.ts), for scan as for plan.
   */
  workspacesOfRoot?: number;
}

export interface Estate {
  base: string;
  /** The whole tree (every root), for what is read per root directory (provider constraints, lock files). */
  tree: ConfigTree;
  /** The roots analysed (this shard's, with `rootFilter`). */
  roots: EstateRoot[];
  /** Every root's path under the paths read, this shard's or not. */
  allRootPaths: string[];
  /** In root path order, then `default` first, then workspace name. */
  instances: EstateInstance[];
  errors: InputError[];
}

/** Roots whose small per-root files (workspaces, lock file) are read at once. */
const ROOT_READS_AT_ONCE = 16;

export async function loadEstate(opts: EstateOptions): Promise<Estate> {
  const errors: InputError[] = [];
  const opened = await openEstate(opts, errors);
  const instances = opened.specs.map((spec) => buildInstance(opened, spec, errors));
  const { base, tree, roots, allRootPaths } = opened;
  return { base, tree, roots, allRootPaths, instances, errors: await finishErrors(errors, base) };
}

/** An estate whose instances were handed over one at a time: what the callback kept of each, in their order. */
export interface StreamedEstate<T> extends Omit<Estate, "instances" | "tree" | "roots"> {
  /** The roots analysed, by path and directory (their configuration is not kept). */
  roots: Pick<EstateRoot, "path" | "dir">[];
  instances: T[];
}

/**
 * Loads the estate one instance at a time, in the order `loadEstate` lists them: each is built (inventory,
 * domain), handed to `each`, and only what `each` returns is kept, so a caller that keeps a summary of each
 * instance never holds every instance's inventory at once. A root's configuration (its directory and its
 * module nodes; a module directory other roots call stays until their turn) is let go after its last
 * instance: the whole parsed tree is not held to the end either. The input errors are those `loadEstate` reports.
 */
export async function streamEstate<T>(opts: EstateOptions, each: (instance: EstateInstance) => T, offload?: OffloadFactory<T>): Promise<StreamedEstate<T>> {
  const errors: InputError[] = [];
  // Awaited here: the opened estate without the tree (the value a continuation resumes with stays alive while it runs).
  const { base, roots, allRootPaths, pending } = await openForStream(opts, errors);
  const elsewhere = offload && pending.deferred ? offload({ base, deferred: pending.deferred, subtrees: offloadable(pending) }) : null;
  try {
    // Each instance's share and the input errors its build added, in instance order (built here or elsewhere).
    const slots: (Built<T> | Promise<Built<T>>)[] = [];
    for (let spec = pending.specs.shift(); spec !== undefined; spec = pending.specs.shift()) {
      const slot = await slotOf(pending, spec, each, elsewhere);
      slots.push("later" in slot ? slot.later : slot);
      releaseIfLast(pending, spec);
    }
    const built = await Promise.all(slots);
    const kept: T[] = [];
    for (const b of built) {
      kept.push(b.kept);
      errors.push(...b.errors);
      pending.reader?.noteRead(b.read);
    }
    await pending.reader?.finish(errors);
    return { base, roots, allRootPaths, instances: kept, errors: await finishErrors(errors, base) };
  } finally {
    await elsewhere?.close();
    await pending.judge?.close();
  }
}

/**
 * One instance: built here, or handed to `elsewhere` (its share comes later). Its own function: what a
 * build here reads (the root's configuration) must not stay in the loop's frame while later roots are built.
 */
async function slotOf<T>(pending: Pending, spec: InstanceSpec, each: (instance: EstateInstance) => T, elsewhere: Offload<T> | null): Promise<Built<T> | { later: Promise<Built<T>> }> {
  const sub = pending.perRoot.get(spec.root)!;
  const taken = elsewhere && spec.states.length === 0 ? elsewhere.build(offloadJob(spec, sub)) : null;
  // What the worker could not send back (a value without an exact copy) is built here, as it would have been.
  if (taken) {
    const later = taken.then((r) => r ?? buildAlone(pending, spec, sub, each));
    // It may fail while the loop still hands out roots: its rejection is awaited with the others there, and
    // is marked handled now, or the process would die of an unhandled rejection (a stack trace, exit 1)
    // instead of ending with the error's one line.
    later.catch(() => undefined);
    return { later };
  }
  // The workers' answers wait in the event loop's queue, which a build here (its reads are synchronous)
  // never reaches: let them in first, so the workers get their next jobs.
  if (elsewhere) await new Promise((resolve) => setImmediate(resolve));
  const own: InputError[] = [];
  await readRootIfFirst(pending, spec, own);
  return { kept: each(buildInstance(pending, spec, own)), errors: own, read: [] };
}

/** One instance's share, the input errors its build added, and the deferred directories it read (elsewhere). */
export interface Built<T> {
  kept: T;
  errors: InputError[];
  read: string[];
}

/**
 * Builds instances somewhere else (worker threads, estate/parallel/): given what the estate's directories
 * were deferred as and every subtree that may be sent, it builds an instance without state from its root,
 * workspace and subtree, or returns null (that instance is built here).
 */
export type OffloadFactory<T> = (ctx: { base: string; deferred: Map<string, DeferredDir>; subtrees: ConfigTree[] }) => Offload<T> | null;

export interface Offload<T> {
  /** Null: not taken (built here). Resolves to null when the result cannot come back exactly (built here then). */
  build(job: OffloadJob): Promise<Built<T> | null> | null;
  close(): Promise<void>;
}

/** What an instance without state is built from (no state, no variable value: those are read where it is built). */
/**
 * One instance to build in a root worker: its spec as the main thread made it (every field but the root's
 * module node and the states, which an offloaded instance does not have), so whatever a spec says of its
 * instance reaches the worker without being listed again here.
 */
export interface OffloadJob extends Omit<InstanceSpec, "root" | "files" | "states"> {
  root: Pick<EstateRoot, "path" | "dir">;
  stateFiles: string[];
  /** The root's subtree, its deferred directories not read yet. */
  sub: ConfigTree;
}

function offloadJob(spec: InstanceSpec, whole: ConfigTree): OffloadJob {
  // A lone root's subtree is the whole tree: what was deferred goes to the workers once, not with each job.
  const { deferred: _, ...sub } = whole;
  const { root, files, states: _states, ...rest } = spec;
  return { ...rest, root: { path: root.path, dir: root.dir }, stateFiles: files, sub };
}

function offloadable(pending: Pending): ConfigTree[] {
  const roots = new Set(pending.specs.filter((s) => s.states.length === 0).map((s) => s.root));
  return [...roots].map((r) => pending.perRoot.get(r)!);
}

/** An instance built on this thread on its own: its deferred directories read afresh (their errors reported again: deduplicated). */
async function buildAlone<T>(pending: Pending, spec: InstanceSpec, sub: ConfigTree, each: (instance: EstateInstance) => T): Promise<Built<T>> {
  const own: InputError[] = [];
  const reader = pending.readAlone();
  const expanded = reader ? await reader.expand(sub, own) : sub;
  const instance = buildInstance({ ...pending, perRoot: new Map([[spec.root, expanded]]) }, spec, own);
  return { kept: each(instance), errors: own, read: reader?.dirsRead() ?? [] };
}

/**
 * One instance built from an offloaded job (in a worker): its deferred directories read by `reader`,
 * its root variables given. The input errors its build adds go to `errors`.
 */
export async function buildOffloaded(job: OffloadJob, base: string, reader: DeferredReader, rootVariables: Awaited<ReturnType<typeof loadRootVariables>>, errors: InputError[]): Promise<EstateInstance> {
  const root: EstateRoot = { path: job.root.path, dir: job.root.dir, node: null };
  const expanded = await reader.expand(job.sub, errors);
  const { root: _root, stateFiles, sub: _sub, ...rest } = job;
  const spec: InstanceSpec = { ...rest, root, files: stateFiles, states: [] };
  return buildInstance({ base, perRoot: new Map([[root, expanded]]), rootVariables }, spec, errors);
}

/**
 * What streamEstate holds of an opened estate: no reference to the whole tree, each root's subtree until its
 * turn is over. The directories that matter are read when their roots' turn comes (config/deferred.ts), so
 * the whole tree's configuration is never in memory at once.
 */
async function openForStream(opts: EstateOptions, errors: InputError[]) {
  const { base, tree, roots, allRootPaths, specs, perRoot, rootVariables } = await openEstate(opts, errors, opts.deferReads ?? "big");
  const judge = tree.deferred ? createJudge() : null;
  const deferred = tree.deferred ?? null;
  const reader = deferred && judge ? new DeferredReader(deferred, base, judge, perRoot.values()) : null;
  const readAlone = () => (deferred && judge ? new DeferredReader(deferred, base, judge, [], true) : null);
  return {
    base,
    roots: roots.map((r) => ({ path: r.path, dir: r.dir })),
    allRootPaths,
    pending: { base, specs, perRoot, rootVariables, reader, judge, deferred, readAlone, expanded: new Set<EstateRoot>() },
  };
}

type Pending = Pick<OpenedEstate, "base" | "rootVariables"> & {
  specs: InstanceSpec[];
  perRoot: Map<EstateRoot, ConfigTree>;
  reader: DeferredReader | null;
  deferred: Map<string, DeferredDir> | null;
  /** A reader of the deferred directories that keeps nothing and reports every directory's errors. */
  readAlone: () => DeferredReader | null;
  expanded: Set<EstateRoot>;
};

/** A root's first instance: its deferred directories are read (its other workspaces share them). */
async function readRootIfFirst(pending: Pending, spec: InstanceSpec, errors: InputError[]): Promise<void> {
  if (!pending.reader || pending.expanded.has(spec.root)) return;
  pending.expanded.add(spec.root);
  pending.perRoot.set(spec.root, await pending.reader.expand(pending.perRoot.get(spec.root)!, errors));
}

/**
 * After a root's last instance, its subtree goes. Its own function: a value read here (the root, and
 * through it the root's configuration) must not linger in the loop's frame while the next roots are built.
 */
function releaseIfLast(pending: Pending, spec: InstanceSpec): void {
  if (pending.specs[0]?.root === spec.root) return;
  const sub = pending.perRoot.get(spec.root);
  if (sub) pending.reader?.release(sub);
  pending.perRoot.delete(spec.root);
  // The root (and through its node, its configuration) is not held by the set of roots read either.
  pending.expanded.delete(spec.root);
}

/** The input errors as reported: positioned, a module two roots share reporting once, each on one line. */
async function finishErrors(errors: InputError[], base: string): Promise<InputError[]> {
  await locateAttributeErrors(errors, base);
  return dedupeErrors(errors).map(oneLineError);
}

/** One instance to build: its root, workspace and states. */
export interface InstanceSpec {
  root: EstateRoot;
  workspace: string;
  files: string[];
  states: StateRead[];
  workspaceCertain: boolean;
  configOnly: string | null;
  /**
   * On the root's first instance only: the root's workspaces this run reads, and those it reads neither
   * configuration nor state for. Absent on the others, and when every workspace is read (states pulled or
   * handed over for the root, or the local backend has no other).
   */
  notRead?: WorkspacesNotRead;
  /** Its root's provider major, for the import ids of a root without legacy resources (5: `zones/…`). */
  rulesetMajor?: 4 | 5;
  /** How many instances (workspaces) of its root the run has. */
  workspacesOfRoot?: number;
}

interface OpenedEstate {
  base: string;
  tree: ConfigTree;
  roots: EstateRoot[];
  allRootPaths: string[];
  /** In the order of `Estate.instances`. */
  specs: InstanceSpec[];
  perRoot: Map<EstateRoot, ConfigTree>;
  rootVariables: Awaited<ReturnType<typeof loadRootVariables>>;
}

/** Everything read before the instances are built: the configuration, the states and who owns them, root variables. */
async function openEstate(opts: EstateOptions, errors: InputError[], defer?: "big" | "always"): Promise<OpenedEstate> {
  const { base, tree } = await readConfiguration(opts, errors, defer);
  const allRoots = estateRoots(tree, base);
  const roots = opts.rootFilter ? allRoots.filter((r) => opts.rootFilter!(r.path)) : allRoots;
  const kept = new Set(roots);

  // Who owns each state is decided before anything is read, so `ROOT=FILE` and stdin are checked first.
  const args = opts.statePaths.map((a) => parseStateArg(a, (name) => rootNamed(name, allRoots, opts.cwd, base) !== null));
  const ownerOf = (index: number) => {
    const arg = args[index]!;
    const explicit = arg.root !== null ? rootNamed(arg.root, allRoots, opts.cwd, base) : null;
    const abs = arg.file === "-" ? null : path.resolve(opts.cwd, arg.file);
    return { arg, abs, owned: stateOwner(arg, abs, allRoots, explicit) };
  };
  // An unreadable state is its workspace's error: the root's other workspaces are still reported.
  const read = await readStates(
    args.map((a) => a.file),
    opts.readStdin,
    opts.cwd,
    errors,
    (index, e) => {
      const { owned } = ownerOf(index);
      return owned.ok ? { ...e, root: owned.owner.root.path, workspace: owned.owner.workspace } : e;
    },
  );
  const byInstance = new Map<EstateRoot, Map<string, { files: string[]; states: StateRead[]; workspaceCertain: boolean }>>();
  /** `certain`: the state says which workspace it is (where the local backend keeps it, or pulled with TF_WORKSPACE). */
  const add = (root: EstateRoot, workspace: string, file: string, state: StateRead, certain: boolean) => {
    let perRoot = byInstance.get(root);
    if (!perRoot) byInstance.set(root, (perRoot = new Map()));
    let inst = perRoot.get(workspace);
    if (!inst) perRoot.set(workspace, (inst = { files: [], states: [], workspaceCertain: true }));
    inst.files.push(file);
    inst.states.push(state);
    inst.workspaceCertain &&= certain;
  };
  for (const r of read) {
    const { arg, abs, owned } = ownerOf(r.index);
    if (!owned.ok) {
      errors.push(owned.error);
      continue;
    }
    if (!kept.has(owned.owner.root)) continue; // another shard's root
    add(owned.owner.root, owned.owner.workspace, arg.file === "-" ? "-" : displayPath(abs!, base), r.state, abs !== null && isLocalBackendState(abs, owned.owner.root.dir));
  }
  const owned = [...(opts.ownedStates ?? [])];
  if (opts.pullStates) {
    const pulled = await opts.pullStates(roots.filter((r) => r.node).map((r) => ({ path: r.path, dir: r.dir })));
    owned.push(...pulled.states);
    errors.push(...pulled.errors);
  }
  const byPath = new Map(roots.map((r) => [r.path, r]));
  // Pulled (or handed over) states are every workspace the root's backend lists.
  const everyWorkspace = new Set<EstateRoot>();
  for (const s of owned) {
    const root = byPath.get(s.root);
    if (root) add(root, s.workspace, s.label, s.state, true);
    if (root) everyWorkspace.add(root);
  }

  const rootVariables = await loadRootVariables(
    roots.filter((r) => r.node).map((r) => r.dir),
    opts.variables ?? { varFiles: [], vars: [] },
    opts.cwd,
    base,
    errors,
  );
  // Each root's other workspaces and lock file are a few small reads: many roots' at once, so that a big
  // estate does not wait on them one after the other (on a 1,000-root monorepo they were ~0.3 s of idle).
  const found = roots.map((root) => ({ root, withStates: byInstance.get(root), everyWorkspace: everyWorkspace.has(root) }));
  const specs = (await mapBatched(found, ROOT_READS_AT_ONCE, (f) => rootSpecs(f.root, f.withStates, f.everyWorkspace, opts.cwd))).flat();
  // Roots come in path order already: this keeps the instances (and the input errors they add) in that order.
  specs.sort((a, b) => comparePaths(a.root.path, b.root.path) || workspaceOrder(a.workspace, b.workspace));
  const ofRoot = new Map<EstateRoot, number>();
  for (const s of specs) ofRoot.set(s.root, (ofRoot.get(s.root) ?? 0) + 1);
  for (const s of specs) if (ofRoot.get(s.root)! > 1) s.workspacesOfRoot = ofRoot.get(s.root)!;
  return { base, tree, roots, allRootPaths: allRoots.map((r) => r.path), specs, perRoot: subtrees(tree, roots), rootVariables };
}

/**
 * A root's instances: its workspaces with states (`withStates`), else the one terraform would run in here;
 * `everyWorkspace`: its states are every workspace its backend lists (pulled).
 */
async function rootSpecs(root: EstateRoot, withStates: Map<string, Omit<InstanceSpec, "root" | "workspace" | "configOnly" | "rulesetMajor">> | undefined, everyWorkspace: boolean, cwd: string): Promise<InstanceSpec[]> {
  // Without a state, the instance is the workspace terraform would run in here (the one selected in
  // .terraform/environment, or TF_WORKSPACE), so reports, plan directories and migrate.sh name that one;
  // `default` when that is not known offline, as before.
  // configOnly stays null for an uninitialised checkout (its workspaces may live in a remote backend): what
  // terraform.workspace is stays unknown rather than assumed default.
  const configOnly = selectedWorkspaceOf(root.dir);
  const workspaces = withStates ?? new Map([[configOnly ?? DEFAULT_WORKSPACE, { files: [], states: [], workspaceCertain: false }]]);
  const notRead = everyWorkspace || !root.node ? undefined : await workspacesNotRead(root.dir, workspaces.keys(), cwd);
  const rulesetMajor = root.node ? await rootRulesetSyntaxMajor(root.dir, root.node.dir.terraformBlocks) : 4;
  return [...workspaces.keys()].sort(workspaceOrder).map((workspace, i) => ({ root, workspace, ...workspaces.get(workspace)!, configOnly, rulesetMajor, ...(i === 0 && notRead !== undefined ? { notRead } : {}) }));
}

/** One (root, workspace) instance: its own evaluation context, inventory and domain. */
function buildInstance(opened: Pick<OpenedEstate, "base" | "perRoot" | "rootVariables">, spec: InstanceSpec, errors: InputError[]): EstateInstance {
  const { root, workspace, files, states, workspaceCertain, configOnly } = spec;
  const { base } = opened;
  const sub = opened.perRoot.get(root)!;
  // A fresh context per instance: module instances and values are per root, files are cached per context.
  // A state saved anywhere (`state pull > prod.tfstate`) may come from any workspace: unknown then.
  const terraformWorkspace = states.length > 0 ? (workspaceCertain ? workspace : null) : configOnly;
  const evaluation = new EvaluationContext(sub.roots, sub.nodes, opened.rootVariables, (abs: string) => displayPath(abs, base), terraformWorkspace);
  const resources = buildInventory(sub, states, evaluation);
  errors.push(...evaluation.inputErrors);
  const domain = readDomain(resources, errors, forgottenAddresses(sub));
  const ws: Workspace = {
    base,
    tree: sub,
    states,
    resources,
    domain,
    findings: [...remoteModuleFindings(sub.remoteModules), ...(terraformWorkspace !== null ? workspacesNotReadFindings(root.path, spec.notRead, sub, resources) : [])],
    errors: [],
    stateKnown: states.length > 0,
    remoteModules: sub.remoteModules,
  };
  return {
    root: root.path,
    workspace,
    dir: root.dir,
    stateFiles: files,
    workspaceKnown: states.length > 0 && workspaceCertain,
    ws,
    ...(spec.rulesetMajor === 5 ? { rulesetMajor: 5 as const } : {}),
    ...(spec.workspacesOfRoot !== undefined ? { workspacesOfRoot: spec.workspacesOfRoot } : {}),
  };
}

/** A module two roots share reports a bad value once, not once per root. */
export function dedupeErrors(errors: InputError[]): InputError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.file}\u0000${e.line}\u0000${e.column}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}


/**
 * Where the local backend keeps a workspace's state: `ROOT/terraform.tfstate` (default) or
 * `ROOT/terraform.tfstate.d/<ws>/terraform.tfstate`. A file anywhere else (a saved `state pull`) may come
 * from any workspace.
 */
function isLocalBackendState(abs: string, rootDir: string): boolean {
  const rel = path.relative(rootDir, abs).split(path.sep);
  return (rel.length === 1 && rel[0] === "terraform.tfstate") || (rel.length === 3 && rel[0] === "terraform.tfstate.d" && rel[2] === "terraform.tfstate");
}

/** The root's workspaces other than `read` (its local backend's others; null when its backend is not local), or undefined when there are none. */
async function workspacesNotRead(rootDir: string, read: Iterable<string>, cwd: string): Promise<WorkspacesNotRead | undefined> {
  const seen = [...read].sort(workspaceOrder);
  const all = await localWorkspaces(rootDir);
  if (all === null) return { read: seen, others: null };
  // A local workspace without a state file has nothing deployed (never applied, or emptied by `workspace new`).
  const others = all.filter((w) => !seen.includes(w.name) && existsSync(w.stateFile)).map((w) => ({ name: w.name, stateFile: displayPath(w.stateFile, cwd) }));
  return others.length ? { read: seen, others } : undefined;
}
