// Before the first step: read-only work only. Detect terraform or tofu, pull the live state (kept in
// memory: it becomes the backup), read the configuration with that state (or --state FILE), analyse,
// list the live state, and compute this root module's migration: the imports, the state removals and
// the block edits. Every precondition is checked here, so a refusal leaves everything as it was.
import { withLine } from "../core/report-paths.js";
import { collectProviderInfo, rulesetSyntaxMajor } from "../terraform/versions/providers.js";
import { importRefusals } from "./version-check.js";
import { rootVersionFits } from "../terraform/versions/root-versions.js";
import { stat } from "node:fs/promises";
import path from "node:path";
import { configAddressOf, parseAddress } from "../core/address.js";
import { analyze, type AnalysisResult, type AnalyzeOptions, type DomainInventory } from "../core/analyze.js";
import { isLiteralZoneId, RULESET_ID_PLACEHOLDER, rulesetImportId } from "../core/import-id.js";
import { rootModuleEntryPoints } from "../core/entry-point.js";
import { MANAGED_PHASE } from "../core/mappings.js";
import type { Finding, Ruleset, ZonePlan } from "../core/model.js";
import { LEGACY_DATA_SOURCES, URI_OVERRIDE_TYPE } from "../core/legacy-types.js";
import { buildRemoval, patchBaseFor, renderPatch } from "../terraform/edit/legacy-removal.js";
import { legacyRemovalSet, referenceLine } from "../terraform/references/removal-set.js";
import { instancesOfResources, legacyResourceSet } from "../core/resource-match.js";
import { detectVersion, stateList, statePull, type TerraformCli, type TerraformVersionInfo } from "../terraform/runner/index.js";
import { readServiceConfig } from "../terraform/config/service-config.js";
import type { VariableArgs } from "../terraform/config/tfvars.js";
import { loadWorkspace, type Workspace } from "../terraform/inventory/workspace.js";
import { displayPath } from "../terraform/config/load.js";
import { ApplyRefusedError } from "./errors.js";
import type { RepositoryTree } from "../estate/repository-tree.js";
import { callersOf } from "../estate/module-callers.js";
import { callerReferenceFindings } from "../terraform/references/caller-references.js";
import { display } from "./backup.js";
import { emptyLocalState, emptyStateMessage } from "./interrupted-state.js";
import { DEFAULT_WORKSPACE } from "./rehearsal-workspace.js";
import { stateIdentity } from "../terraform/state/v4.js";
import type { ImportTask, Migration } from "./types.js";
import { unplannedRulesetInstances } from "./unplanned-instances.js";
import { inputRecord, ownValue } from "../core/null-proto.js";
import { otherRootRefusals } from "./other-roots.js";

export interface PreflightInput {
  cli: TerraformCli;
  /** Paths to scan (already defaulted). */
  paths: string[];
  /** --state FILE for the inventory; absent: the pulled state. */
  stateFile?: string;
  cwd: string;
  readStdin: () => Promise<Buffer>;
  rulesetIds: Record<string, string>;
  zonePlans: Record<string, ZonePlan>;
  /** --config-json ZONE_ID=FILE, files as given (resolved against cwd). */
  configJson: Record<string, string>;
  providerMajor?: 4 | 5;
  /** `--var-file` / `--var`. */
  variables?: VariableArgs;
  /** The workspace every terraform command runs in: `terraform.workspace` when the state is pulled from it. */
  workspace?: string;
  /** The repository's structure, read once for this run's searches (other roots here, other callers later). */
  repositoryTree?: RepositoryTree;
  /** `--online`: completes the analysis options with the service's rulesets and entry point ids. */
  completeOptions?: (domain: DomainInventory, options: AnalyzeOptions) => Promise<AnalyzeOptions>;
  /** `--accept-missing-skip-rules`: go on although other roots bypass the WAF for a zone this root migrates. */
  acceptMissingSkipRules?: boolean;
  /** --accept-other-root-legacy-waf: another root's legacy WAF whose zone is not known offline does not stop it. */
  acceptOtherRootLegacyWaf?: boolean;
}

export interface Preflight {
  terraform: TerraformVersionInfo;
  stateText: string;
  stateList: string[];
  workspace: Workspace;
  analysis: AnalysisResult;
  providerMajor: 4 | 5;
  migration: Migration;
}

/** Runs `version`, `state pull` and `state list` (nothing else), reads the configuration, checks preconditions. */
export async function preflight(input: PreflightInput): Promise<Preflight> {
  const { cli, cwd } = input;
  const terraform = await detectVersion(cli);
  const pulled = await statePull(cli);
  if (pulled.state === null) {
    const empty = await emptyLocalState(cli.cwd, input.workspace ?? DEFAULT_WORKSPACE);
    if (empty) throw new ApplyRefusedError([emptyStateMessage(empty, (f) => display({ cwd }, f))]);
    throw new ApplyRefusedError([
      `\`${cli.bin} state pull\` in ${cli.cwd} returned no state: run apply in the initialized root module that manages the legacy WAF resources (--chdir DIR)`,
    ]);
  }

  const fromPull = input.stateFile === undefined;
  const ws = await loadWorkspace({
    paths: input.paths,
    statePaths: [fromPull ? "-" : input.stateFile!],
    cwd,
    readStdin: fromPull ? async () => Buffer.from(pulled.text, "utf8") : input.readStdin,
    ...(input.variables ? { variables: input.variables } : {}),
    // The pulled state is that workspace's, and terraform plans the configuration in it.
    ...(fromPull && input.workspace !== undefined ? { workspace: input.workspace } : {}),
    // What terraform reads in the root: its own files and the modules it calls. A root in a directory below
    // it is another root (the other-root checks below find it), not part of this one.
    rootModuleOnly: true,
  });
  // --state FILE feeds the inventory, and the pulled state is the one that changes: they must be one state
  // (migrate.sh checks the same, planned-state.ts). A copy of another workspace's state would plan its zones'
  // imports and removals here.
  if (!fromPull) {
    const refused = stateFileMismatch(ws.states, stateIdentity(pulled.state), input.stateFile!, cli, input.workspace);
    if (refused) throw new ApplyRefusedError([refused]);
  }
  // apply changes one root's state: over several roots (an estate) it refuses before any change.
  if (ws.tree.roots.length > 1) {
    const roots = ws.tree.roots.map((r) => displayPath(r.dir.dir, ws.base));
    throw new ApplyRefusedError([
      `apply migrates one root module, and the paths read hold ${roots.length}: ${roots.join(", ")}: run it in one of them (--chdir ROOT), once per root and workspace (TF_WORKSPACE)`,
    ]);
  }
  const reasons = ws.errors.map((e) => {
    const file = fromPull && e.file === "<stdin>" ? `${cli.bin} state pull` : e.file;
    return `${withLine(file, e.line, e.column)}: ${e.message}`;
  });

  const configRulesets = inputRecord<Ruleset>();
  for (const [zone, file] of Object.entries(input.configJson)) {
    const res = await readServiceConfig(path.resolve(cwd, file), file);
    if (res.ok) configRulesets[zone] = res.ruleset;
    else reasons.push(`${res.error.file}: ${res.error.message}`);
  }
  if (reasons.length) throw new ApplyRefusedError(reasons.map((r) => `cannot read the input: ${r}`));

  const providerInfo = await collectProviderInfo(ws.tree, ws.base);
  const providerMajor = input.providerMajor ?? rulesetSyntaxMajor(providerInfo);
  // Step 3 imports the ruleset: a provider that cannot import it must stop the run before the first change.
  const cannotImport = importRefusals(rootVersionFits(ws, providerInfo));
  if (cannotImport.length) throw new ApplyRefusedError(cannotImport);
  const options: AnalyzeOptions = {
    zonePlans: input.zonePlans,
    rulesetIds: input.rulesetIds,
    configRulesets,
    providerMajor,
    stateKnown: true,
    unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path),
  };
  const completed = input.completeOptions ? await input.completeOptions(ws.domain, options) : options;
  const first = analyze(ws.domain, completed);
  // A zone whose root module already has one entry point ruleset resource (copied from `plan --out-dir`'s
  // ruleset.tf, or cf-terraforming's) imports into that resource, whatever its name.
  // A resource with count or for_each (`count = terraform.workspace == "prod" ? 1 : 0`, one ruleset per
  // workspace's zone) is imported into its instance (`cloudflare_ruleset.x[0]`): terraform refuses the bare
  // address ("Configuration for import target does not exist").
  // (One whose count gives it no instance in this workspace is not in the inventory at all: refused below
  // as not in the configuration.)
  // One whose count/for_each is not known offline has no instance address: refused here, never imported
  // into the bare resource address (terraform refuses it) or a guessed instance.
  const names = inputRecord<string>();
  const instances = inputRecord<string>();
  const unkeyed: string[] = [];
  for (const z of first.zones) {
    const own = rootModuleEntryPoints(z.inventory.rulesets);
    if (own.length !== 1) continue;
    const ref = own[0]!.ref;
    names[z.zone.zoneId] = ref.configAddress.slice("cloudflare_ruleset.".length);
    if (ref.address !== ref.configAddress) instances[z.zone.zoneId] = ref.address;
    else if (repeated(ws, ref.address)) {
      unkeyed.push(
        `${withLine(ref.file ?? "?", ref.line)}: ${ref.configAddress} (zone ${z.zone.zoneId}) has count or for_each whose instances are not known offline, so the instance to import into is not known: give its variables (--var-file, --var) or write the resource without count/for_each, then run apply again`,
      );
    }
  }
  if (unkeyed.length) throw new ApplyRefusedError(unkeyed);
  const analysis = first.zones.some((z) => names[z.zone.zoneId] !== undefined && names[z.zone.zoneId] !== z.rulesetResourceName)
    ? analyze(ws.domain, { ...completed, rulesetResourceNames: names })
    : first;

  // Other roots of the repository whose Page Rules or firewall rules need skip rules in this ruleset.
  // Other roots configuring the legacy WAF of its zones: their ruleset belongs there (no flag for a known zone).
  const refused = await otherRootRefusals(cli.cwd, cwd, analysis, { missingSkipRules: input.acceptMissingSkipRules === true, unknownLegacyWaf: input.acceptOtherRootLegacyWaf === true }, input.repositoryTree);
  if (refused.length) throw new ApplyRefusedError(refused);
  const list = await stateList(cli);
  const migration = await planMigration(ws, analysis, list, instances);
  // Other roots calling a module whose legacy blocks (and the outputs exposing them) step 5 deletes: an
  // expression of theirs reading such an output would dangle, whether the blocks go now or on a later run.
  const dangling = await callerReferences(cli.cwd, migration.edits, ws.base, input.repositoryTree);
  if (dangling.length) throw new ApplyRefusedError(dangling.map((f) => `${referenceLine(f)} (LEGACY_REFERENCE: apply refuses while an expression of another root refers to what the legacy blocks' deletion removes; edit it, then run apply again)`));
  migration.imports.push(...leftoverImports(ws, analysis, list, input.rulesetIds, providerMajor));
  // Nor may the resource imported into have instances this run leaves to be created.
  const unplanned = unplannedRulesetInstances(ws.domain.rulesets, migration.imports, list);
  if (unplanned.length) throw new ApplyRefusedError(unplanned);
  return { terraform, stateText: pulled.text, stateList: list, workspace: ws, analysis, providerMajor, migration };
}

/** The root-module resource at `address` is written with count or for_each. */
function repeated(ws: Workspace, address: string): boolean {
  const body = ws.resources.find((r) => r.inConfig && r.address === address)?.configAttributes;
  return !!body && (Object.hasOwn(body, "count") || Object.hasOwn(body, "for_each"));
}

/**
 * Why --state FILE is not the state terraform changes here (another lineage, or a later write of it than the
 * live state: the live state was rolled back, or FILE's write never landed), or null when nothing says so.
 */
function stateFileMismatch(
  states: readonly { lineage: string | null; serial: number | null }[],
  live: { lineage: string | null; serial: number | null },
  file: string,
  cli: TerraformCli,
  workspace: string | undefined,
): string | null {
  const read = states.find((s) => s.lineage !== null);
  if (!read || live.lineage === null) return null;
  const where = `\`${cli.bin} state pull\` in ${cli.cwd}${workspace !== undefined ? ` (workspace ${workspace})` : ""}`;
  if (read.lineage === live.lineage) {
    // A higher live serial is the same state written since (migrate.sh accepts it too); a lower one is not.
    if (read.serial === null || live.serial === null || live.serial >= read.serial) return null;
    return (
      `--state ${file} (serial ${read.serial}) is a later write of this state than ${where} (serial ${live.serial}): the live state was rolled back, or that write never landed. ` +
      `Pull the state again (\`${cli.bin} state pull > FILE\`) or leave out --state to read the live state`
    );
  }
  return (
    `--state ${file} is not the state this run would change: it has lineage ${read.lineage}${read.serial !== null ? ` (serial ${read.serial})` : ""}, and ${where} has lineage ${live.lineage}${live.serial !== null ? ` (serial ${live.serial})` : ""}. ` +
    `Select the workspace ${file} belongs to (\`${cli.bin} workspace select NAME\`, TF_WORKSPACE=NAME or --workspace NAME), or leave out --state to read the live state`
  );
}

/**
 * A zone whose legacy state entries and blocks are already gone has no zone analysis left, yet its
 * ruleset may still wait for its import: a run that deferred the import (deferred-import.ts) and stopped
 * before it. Its one root-module entry point ruleset, in the configuration and not in state, for a zone
 * --ruleset-id names, is imported all the same.
 */
function leftoverImports(ws: Workspace, analysis: AnalysisResult, liveState: readonly string[], rulesetIds: Record<string, string>, providerMajor: 4 | 5): ImportTask[] {
  const analysed = new Set(analysis.zones.map((z) => z.zone.zoneId));
  const byZone = new Map<string, string[]>();
  for (const r of ws.domain.rulesets) {
    const zoneId = r.ref.zoneId;
    if (r.phase !== MANAGED_PHASE || !r.ref.inConfig || r.ref.noInstances || r.ref.configAddress.startsWith("module.")) continue;
    if (zoneId === null || !isLiteralZoneId(zoneId) || analysed.has(zoneId)) continue;
    byZone.set(zoneId, [...(byZone.get(zoneId) ?? []), r.ref.address]);
  }
  const inState = new Set(liveState);
  const out: ImportTask[] = [];
  for (const [zoneId, addresses] of byZone) {
    const rulesetId = ownValue(rulesetIds, zoneId);
    if (addresses.length !== 1 || rulesetId === undefined || inState.has(addresses[0]!)) continue;
    out.push({ zoneId, to: addresses[0]!, id: rulesetImportId(zoneId, rulesetId, providerMajor) });
  }
  return out;
}

function safeParse(address: string): ReturnType<typeof parseAddress> | null {
  try {
    return parseAddress(address);
  } catch {
    return null;
  }
}

/** The imports, removals and edits of this root module, and every refusal that applies. */
export async function planMigration(
  ws: Workspace,
  analysis: AnalysisResult,
  liveState: readonly string[],
  /** Per zone, the instance address to import into when the ruleset resource has count or for_each. */
  importInstances: Record<string, string> = {},
): Promise<Migration> {
  const reasons: string[] = [];
  const inState = new Set(liveState);

  // Step 0 of the plan: URI-based overrides must be deleted (really, through terraform apply) first.
  const overrides = liveState.filter((a) => {
    const p = safeParse(a);
    return p !== null && p.mode === "managed" && p.type === URI_OVERRIDE_TYPE;
  });
  for (const a of overrides) {
    reasons.push(
      `${a} is a URI-based WAF override still in state: do step 0 of the plan first (delete its block and \`terraform apply\`, which deletes it; then migrate the zone in Cloudflare)`,
    );
  }

  // Imports: every zone with legacy resources in state, and every zone whose id is known. A zone known
  // only by an expression and with nothing in state is what a finished (or never applied) part leaves.
  const imports: ImportTask[] = [];
  const importNotes: string[] = [];
  const configAddresses = new Set(ws.resources.filter((r) => r.inConfig).map((r) => r.configAddress));
  for (const z of analysis.zones) {
    const zoneId = z.zone.zoneId;
    const legacy = [...z.inventory.packages, ...z.inventory.groups, ...z.inventory.rules, ...z.inventory.overrides];
    if (!legacy.some((x) => x.ref.inState) && !isLiteralZoneId(zoneId)) {
      importNotes.push(`zone ${zoneId}: nothing to import (its legacy blocks have no state entries, already removed or never applied, and its id is only an expression)`);
      continue;
    }
    for (const imp of z.zone.imports) {
      const to = ownValue(importInstances, zoneId) ?? imp.to;
      imports.push({ zoneId, to, id: imp.id });
      if (inState.has(to)) continue;
      if (imp.id.includes(RULESET_ID_PLACEHOLDER)) {
        reasons.push(
          `${imp.to}: the entry point ruleset id of zone ${zoneId} is unknown (import id ${imp.id}): pass --ruleset-id ${isLiteralZoneId(zoneId) ? zoneId : "ZONE_ID"}=RULESET_ID; \`cf-waf-migrate api entrypoint --zone ${isLiteralZoneId(zoneId) ? zoneId : "ZONE_ID"}\` prints it`,
        );
      } else if (!isLiteralZoneId(zoneId) || imp.id.includes("${")) {
        reasons.push(`${imp.to}: the zone id is the expression ${zoneId}, not an id (import id ${imp.id}): pass the state that holds the zone (or --state FILE), or run \`cf-waf-migrate api entrypoint\` for the zone`);
      }
      // Into an instance (`x[0]`, `x["shop"]`) of a resource written with count or for_each: its block is the resource's.
      const parsed = safeParse(imp.to);
      if (!configAddresses.has(parsed ? configAddressOf(parsed) : imp.to)) {
        reasons.push(
          `${imp.to} is not in the configuration: add the generated ruleset first (\`cf-waf-migrate plan --out-dir DIR\`, then copy DIR/ruleset.tf into the root module, steps 1 and 2; for one workspace of a root that has several, DIR/<root>/<workspace>/ruleset.tf as cf-waf-migrate-ruleset-<workspace>.tf, one file per workspace); a root-module cloudflare_ruleset of phase ${MANAGED_PHASE} for the zone is used whatever its name`,
        );
      }
    }
  }

  // State removals: the plan's (every legacy instance, legacy data sources included).
  const dataInState = ws.resources.filter((r) => r.inState && LEGACY_DATA_SOURCES.has(r.type)).map((r) => r.address);
  const stateRemovals = [...new Set([...analysis.zones.flatMap((z) => z.zone.stateRemovals), ...dataInState])].sort();

  // Block edits, checked now: a refused edit stops the run before any state changes. The same set as the
  // plan's step-6 patch: legacy blocks, and the outputs and locals that only expose them. A block may live
  // outside the root module (a module called with source = "../../"): its file is edited where it is.
  // State is matched on the legacy resources only (blockConfigAddresses): outputs and locals have no entries.
  const removalSet = await legacyRemovalSet(ws);
  const blockConfigAddresses = removalSet.blockConfigAddresses;
  for (const f of removalSet.findings) {
    reasons.push(`${referenceLine(f)} (LEGACY_REFERENCE: apply refuses while a kept expression refers to a legacy WAF block; edit it, then run apply again)`);
  }
  for (const e of removalSet.errors) reasons.push(`cannot read the input: ${withLine(e.file, e.line)}: ${e.message}`);
  const removal = await buildRemoval(ws.base, removalSet.targets);
  for (const r of removal.refused) reasons.push(`${r.file}: its legacy blocks cannot be removed safely (${r.reason}). Rewrite or delete those blocks by hand (and run no \`terraform apply\` meanwhile), then run apply again`);

  if (reasons.length) throw new ApplyRefusedError(reasons);
  return {
    imports,
    importNotes,
    stateRemovals,
    blockConfigAddresses,
    edits: removal.edits,
    // Shown as plan --out-dir writes it: paths from the directory that holds the root and every edited file.
    patch: renderPatch(removal.edits, patchBaseFor(ws.base, removal.edits)),
  };
}

/**
 * The resources whose every instance leaves state before any block is deleted: each legacy block's
 * resource (module path, keys dropped) and the resource of each planned removal.
 */
export function legacyResourcesOf(migration: Migration): string[] {
  return legacyResourceSet(migration.blockConfigAddresses, migration.stateRemovals);
}

/**
 * Live state entries of a legacy resource: any instance, whatever its key or module instance, including
 * instances the plan did not know (created since, or counted differently).
 */
export function legacyLeftInState(liveState: readonly string[], migration: Migration): string[] {
  return instancesOfResources(liveState, legacyResourcesOf(migration));
}

/** --chdir, or the single scanned directory. */
export async function resolveChdir(chdir: string | undefined, paths: string[], cwd: string): Promise<string> {
  const candidate = chdir ?? (paths.length === 1 ? paths[0]! : undefined);
  if (candidate === undefined) {
    throw new ApplyRefusedError(["several paths are scanned: name the root module terraform runs in with --chdir DIR"]);
  }
  const abs = path.resolve(cwd, candidate);
  let isDir = false;
  try {
    isDir = (await stat(abs)).isDirectory();
  } catch {
    throw new ApplyRefusedError([`${candidate}: no such directory${chdir === undefined ? " (the root module terraform runs in; set it with --chdir DIR)" : ""}`]);
  }
  if (!isDir) {
    throw new ApplyRefusedError([`${candidate} is not a directory: name the root module terraform runs in with --chdir DIR`]);
  }
  return abs;
}

/** LEGACY_REFERENCE findings for the other roots calling a module `edits` change (see terraform/references/caller-references.ts). */
async function callerReferences(chdir: string, edits: readonly { absolute: string }[], base: string, repositoryTree: RepositoryTree | undefined): Promise<Finding[]> {
  const moduleDirs = [...new Set(edits.map((e) => path.dirname(path.resolve(e.absolute))))].filter((d) => d !== path.resolve(chdir));
  if (moduleDirs.length === 0) return [];
  const callers = await callersOf(chdir, moduleDirs, repositoryTree);
  return callerReferenceFindings({ callers: [...callers.keys()], editedFiles: edits.map((e) => e.absolute), base });
}
