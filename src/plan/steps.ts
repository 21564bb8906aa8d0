// The migration plan: step 0 (preconditions) and the seven steps of spec section 9, with exact commands.
// Pure: every fact it needs (addresses, ids, strategy) comes in through PlanInput.
//
// The order is the point of this file. Legacy state entries are removed (step 5) before the legacy blocks
// are deleted (step 6): deleting a block first makes the provider "destroy" it, which resets the live
// previous WAF to its defaults instead of deleting anything.
import { UNKNOWN_ZONE, type ZoneAnalysis } from "../core/analyze.js";
import { isLiteralZoneId, RULESET_ID_PLACEHOLDER } from "../core/import-id.js";
import { MANAGED_PHASE } from "../core/mappings.js";
import type { PlanStep } from "../core/model.js";
import { shellQuote } from "../core/shell-quote.js";
import { importIdForText, unknownZoneHint } from "../core/zone-placeholder.js";
import { countRemovals, removalCountText } from "../core/removal-count.js";
import { isLegacyDataAddress } from "../core/legacy-types.js";

export type RemovalStrategy = "state-rm" | "removed-blocks";

export interface PlanInput {
  zones: ZoneAnalysis[];
  /** Every legacy instance address to drop from state (resources and legacy data sources), sorted. */
  stateRemovals: string[];
  /** URI-based overrides that must really be deleted before the zone can migrate. */
  overrides: { address: string; configAddress: string; zoneId: string | null; inConfig: boolean }[];
  /** Files and blocks the step-6 patch removes. */
  legacyBlockFiles: string[];
  /** The directory the patches apply from, relative to the root module ("." for the root itself). */
  patchDir: string;
  /** Legacy resources (instance keys dropped) whose every instance in state step 5 removes. */
  legacyResources: string[];
  /** Outputs and locals the patch removes with the legacy blocks (they only expose them), one line each. */
  exposingRemovals?: string[];
  /** LEGACY_REFERENCE findings, one line each: references to edit by hand before step 6. */
  legacyReferences?: string[];
  providerMajor: 4 | 5;
  /** `removed {}` blocks are offered only while the lock pins a provider with the legacy schema and TF >= 1.7. */
  removedBlocksOffered: boolean;
  /** The generated ruleset's artifact (ruleset.tf). */
  rulesetFile: string;
  /** The file step 2 copies it to in the root module (`cf-waf-migrate-ruleset.tf`, or one per workspace). */
  rulesetCopy?: string;
  /** The workspace the ruleset is limited to (count on terraform.workspace), or null/absent. */
  rulesetWorkspace?: string | null;
  /** Resources of ruleset.tf a file of the root module already declares (not the copy's file), relative to the root. */
  rulesetDeclared?: { address: string; file: string; line: number }[];
  /** The kept cf-terraforming resource has count/for_each of its own: copied as written, without a workspace count. */
  rulesetKeptRepeated?: boolean;
  /** The --out-dir the artifacts are written to, as given; null when none. */
  outDir: string | null;
  /** With `--from-cf-terraforming`: the file it came from and its resource names per zone. */
  fromCfTerraforming: { file: string } | null;
  /** Whether any state was read (else step 5 lists nothing and says how to find the addresses). */
  stateKnown: boolean;
  /** Artifact names, for commands that refer to them. */
  artifacts: { patch: string; imports: string; removed: string; script: string };
  /** Whether imports.tf is offered (required_version admits only Terraform >= 1.5), and why; offered when absent. */
  importBlocks?: { offered: boolean; reason: string };
  /**
   * Zones whose one ruleset another root or workspace of the estate holds (ZONE_SPLIT_ACROSS_ROOTS), with
   * where: this instance only feeds them, so steps 1 and 2 have nothing to do for them.
   */
  fedZones?: { zoneId: string; rulesetIn: string }[];
}

/** The binary in commands a person copies; migrate.sh substitutes `$TF` so `TF=tofu` works. */
export const TF = "terraform";

/**
 * Where step 5 offers the `removed {}` blocks: its step and the index of that note in its notes, so that the
 * offer can be withdrawn (other-callers.ts) by position, never by comparing the note's text.
 */
export interface RemovedBlocksOffer {
  step: PlanStep;
  note: number;
}

export function buildPlanSteps(input: PlanInput): { steps: PlanStep[]; removedOffer: RemovedBlocksOffer | null } {
  const step5 = step5StateRemoval(input);
  return {
    steps: [
      step0Preconditions(input),
      step1Generate(input),
      step2KeepManagedPhase(input),
      step3Import(input),
      step4Plan(),
      step5.step,
      step6DeleteBlocks(input),
      step7Verify(input),
    ],
    removedOffer: step5.offer === null ? null : { step: step5.step, note: step5.offer },
  };
}

function step0Preconditions(input: PlanInput): PlanStep {
  const commands: string[] = [];
  const notes: string[] = [];
  if (input.overrides.length) {
    notes.push(
      "URI-based WAF overrides block the migration. Deleting them in Terraform means removing their blocks and applying, which really deletes them (unlike packages, groups and rules, whose destroy only resets settings).",
    );
    for (const o of input.overrides) {
      notes.push(`delete the block of ${o.configAddress}${o.inConfig ? "" : " (not in config: destroy it from state as below)"}`);
      commands.push(`${TF} apply -target=${shellQuote(o.address)}`);
    }
  }
  for (const z of input.zones) {
    const zone = displayZone(z);
    const label = zoneLabel(z);
    commands.push(withZoneComment(`cf-waf-migrate api check --zone ${zone}`, z));
    if (z.zone.migrationMode === "validation") {
      commands.push(withZoneComment(`cf-waf-migrate api migrate --zone ${zone} --mode validation --yes`, z));
      notes.push(`${label} (Enterprise): validation runs both WAFs side by side; review Security > Events, then finish with: cf-waf-migrate api migrate --zone ${zone} --mode pending --yes`);
    } else {
      commands.push(withZoneComment(`cf-waf-migrate api migrate --zone ${zone} --mode pending --yes`, z));
      notes.push(`${label} (plan ${z.zone.plan}): the pending path turns the new WAF on and the previous WAF off at once (or Security > WAF > Managed rules > Review configuration > Deploy in the dashboard)`);
    }
    if (!z.zone.compatible) notes.push(`${label} is not compatible until its URI-based overrides are deleted: run the check again after deleting them`);
  }
  notes.push("Migration is irreversible: after it the previous WAF's APIs stop working for the zone.");
  return { number: 0, title: "Preconditions: delete URI-based overrides, then migrate each zone in the service", commands, notes };
}

/** Step 1 or 2 of an instance that plans no ruleset: nothing to generate or copy, and why (null when it plans one). */
function nothingToCopy(input: PlanInput): string[] | null {
  if (input.zones.length > 0) return null;
  const fed = input.fedZones ?? [];
  return fed.length
    ? fed.map((f) => `${f.zoneId}: its one ${MANAGED_PHASE} ruleset is planned in ${f.rulesetIn} (ZONE_SPLIT_ACROSS_ROOTS): nothing to generate or copy here, and ${input.rulesetFile} holds no resource`)
    : [`no zone of this root gets an entry point ruleset here: nothing to generate or copy, and ${input.rulesetFile} holds no resource`];
}

function step1Generate(input: PlanInput): PlanStep {
  const nothing = nothingToCopy(input);
  if (nothing) return { number: 1, title: "Generate the zone's ruleset configuration", commands: [], notes: nothing };
  const commands = input.zones.map((z) => withZoneComment(`cf-terraforming generate --resource-type cloudflare_ruleset --zone ${displayZone(z)} > cf-terraforming-${zoneSlug(z, input.zones)}.tf`, z));
  return {
    number: 1,
    title: "Generate the zone's ruleset configuration",
    commands,
    notes: [
      `or use the generated ${input.rulesetFile}, built from your Terraform (exact with --config-json from \`cf-waf-migrate api config\`)`,
      ...input.zones.flatMap((z) => z.rulesetNotes.map((n) => `${zoneLabel(z)}: ${n}`)),
    ],
  };
}

function step2KeepManagedPhase(input: PlanInput): PlanStep {
  const from = input.fromCfTerraforming;
  const copy = input.rulesetCopy ?? `cf-waf-migrate-${input.rulesetFile}`;
  const commands = [`cp ${shellQuote(`${input.outDir ?? "<out-dir>"}/${input.rulesetFile}`)} ./${copy}`];
  const ws = input.rulesetWorkspace ?? null;
  const nothing = nothingToCopy(input);
  if (nothing) return { number: 2, title: `Keep only the ${MANAGED_PHASE} ruleset resource in the root module`, commands: [], notes: nothing };
  const declared = input.rulesetDeclared ?? [];
  const declaredNames = new Set(declared.map((d) => d.address));
  const undeclared = [...new Set(input.zones.map((z) => `cloudflare_ruleset.${z.rulesetResourceName}`))].filter((a) => !declaredNames.has(a));
  return {
    number: 2,
    title: `Keep only the ${MANAGED_PHASE} ruleset resource in the root module`,
    // Copying a resource the root already declares makes terraform refuse the root (duplicate resource).
    commands: declared.length ? [] : commands,
    notes: [
      ...declared.map(
        (d) =>
          `${d.address} is already declared in the root module (./${d.file}:${d.line}): nothing to copy for it (a second copy would declare it twice, which terraform refuses); check that it is the resource ${input.rulesetFile} shows`,
      ),
      ...(declared.length && undeclared.length ? [`copy the block${undeclared.length === 1 ? "" : "s"} of ${undeclared.join(", ")} from ${input.rulesetFile} into the root module by hand (not the whole file)`] : []),
      from
        ? `${input.rulesetFile} holds only the ${MANAGED_PHASE} resource kept from ${from.file}; the zone's other rulesets stay out of this migration`
        : `${input.rulesetFile} holds only the ${MANAGED_PHASE} resource; with cf-terraforming's output, pass it as --from-cf-terraforming FILE to keep just that resource`,
      `a zone has one ${MANAGED_PHASE} entry point: keep exactly one cloudflare_ruleset for it, and note its resource address for the import`,
      // The address step 3 imports into (an instance of a kept resource with count or for_each included).
      ...input.zones.map((z) => `${zoneLabel(z)}: ${z.zone.imports[0]?.to ?? `cloudflare_ruleset.${z.rulesetResourceName}${ws === null ? "" : "[0]"}`}`),
      ...(ws === null || declared.length
        ? []
        : input.rulesetKeptRepeated
          ? [
              `the root has other workspaces: the resource kept from ${from?.file ?? "cf-terraforming's output"} has count/for_each of its own and is copied as written (no workspace count is added): in every workspace it gives only the instances its expression gives there, so declare it once in the root (${copy}), not once per workspace`,
            ]
          : [
            `the root has other workspaces: each resource has \`count = terraform.workspace == "${ws}" ? 1 : 0\`, so it exists in workspace ${ws} only and the others plan nothing for it; keep ${copy} next to the other workspaces' files (one per workspace, never one over another)`,
          ]),
    ],
  };
}

function step3Import(input: PlanInput): PlanStep {
  const commands: string[] = [];
  const notes: string[] = [];
  for (const z of input.zones) {
    for (const imp of z.zone.imports) commands.push(`${TF} import ${shellQuote(imp.to)} ${shellQuote(importIdForText(imp.id, z.zone.zoneId))}`);
    if (!z.rulesetId) {
      notes.push(`${zoneLabel(z)}: replace ${RULESET_ID_PLACEHOLDER} with the entry point ruleset id from \`cf-waf-migrate api entrypoint --zone ${displayZone(z)}\``);
    }
    if (!isLiteralZoneId(z.zone.zoneId)) notes.push(`cloudflare_ruleset.${z.rulesetResourceName}: ${unknownZoneHint(z.zone.zoneId)}`);
  }
  if (commands.length === 0) notes.push("nothing to import here: no zone of this plan has its entry point ruleset imported in this root");
  else if (input.importBlocks && !input.importBlocks.offered) notes.push(`no import {} blocks: ${input.importBlocks.reason}`);
  else notes.push(`or, with Terraform 1.5+, the import {} blocks in ${input.artifacts.imports} (root module only: an import {} block cannot target a resource inside a module)`);
  if (commands.length > 0 && input.rulesetWorkspace && !(input.importBlocks && !input.importBlocks.offered)) {
    notes.push(
      `${input.artifacts.imports} targets the instances of workspace ${input.rulesetWorkspace}, which the root's other workspaces do not have (count 0): in the root it makes their plans fail ("Configuration for import target does not exist"), so use it in workspace ${input.rulesetWorkspace} only and delete it after the import, or run the terraform import commands above`,
    );
  }
  // `terraform import` and an untargeted plan read every data source; the retired API refuses the legacy ones.
  const legacyData = input.legacyBlockFiles.length > 0 ? input.legacyResources.filter(isLegacyDataAddress) : [];
  if (legacyData.length > 0) {
    notes.push(
      `the configuration reads legacy data sources (${legacyData.join(", ")}): terraform import and the plan of step 4 read every data source, and the previous WAF's API refuses these once the zone is migrated, so do steps 5 and 6 first, then 3, 4 and 7 (migrate.sh and cf-waf-migrate apply do); state entries still leave before their blocks`,
    );
  }
  return { number: 3, title: "Import the entry point ruleset into state", commands, notes };
}

function step4Plan(): PlanStep {
  return {
    number: 4,
    title: "Plan: the new ruleset is tracked and unchanged",
    commands: [`${TF} plan -refresh=false`],
    notes: [
      "expect no change to the imported cloudflare_ruleset; fix the generated rules until there is none",
      "the previous WAF's API was retired on 2025-06-15, so refreshing a legacy resource usually fails: -refresh=false skips that read",
    ],
  };
}

function step5StateRemoval(input: PlanInput): { step: PlanStep; offer: number | null } {
  const notes: string[] = [];
  const commands: string[] = [];
  if (input.stateRemovals.length) {
    const { dataSources } = countRemovals(input.stateRemovals);
    const n = input.stateRemovals.length;
    notes.push(
      `removes ${n} address${n === 1 ? "" : "es"}: ${removalCountText(input.stateRemovals)}` +
        (dataSources ? ` (legacy data sources belong to no one zone, so a zone's own removal list holds only its resources)` : ""),
    );
    const quoted = input.stateRemovals.map(shellQuote).join(" ");
    commands.push(`${TF} state list | grep -E ${shellQuote("(^|\\.)(data\\.)?cloudflare_waf_(package|group|rule)s?\\.")}`);
    commands.push(`${TF} state rm -dry-run ${quoted}`);
    commands.push(`${TF} state rm ${quoted}`);
  } else {
    commands.push(`${TF} state list | grep -E ${shellQuote("(^|\\.)(data\\.)?cloudflare_waf_(package|group|rule)s?\\.")}`);
    notes.push(
      input.stateKnown
        ? "state holds no legacy WAF package, group or rule: nothing to remove"
        : "no state was given: list the legacy addresses with the command above (module instance keys included), then run `terraform state rm -dry-run` and `terraform state rm` on them",
    );
  }
  notes.push("the grep matches legacy addresses anywhere in the module tree, not only at the root");
  if (input.legacyResources.length) {
    notes.push(
      `remove every instance state holds of these resources, whatever its key (x, x[0], x["k"], every module instance), which is what ${input.artifacts.script} does: ${input.legacyResources.join(", ")}`,
    );
  }
  notes.push("read the dry run's \"Would remove\" lines before running the real removal; terraform writes a backup of the state");
  const offer = input.removedBlocksOffered ? notes.push(removedBlocksNote(input.artifacts.removed)) - 1 : null;
  return { step: { number: 5, title: "Remove the legacy package, group and rule resources from state (dry run first)", commands, notes }, offer };
}

function step6DeleteBlocks(input: PlanInput): PlanStep {
  const notes = [
    input.legacyBlockFiles.length
      ? `the patch removes exactly the legacy blocks (and their leading comments) from: ${input.legacyBlockFiles.join(", ")}`
      : "no legacy block in the configuration",
    ...(input.exposingRemovals ?? []).map((e) => `also removed, since its only job is to expose a legacy block: ${e}`),
    ...(input.legacyReferences ?? []).map((r) => `LEGACY_REFERENCE (edit by hand before step 6; apply and migrate.sh refuse until then): ${r}`),
    "never before step 5: with the state entries still there, terraform would \"destroy\" the blocks, which resets the live previous WAF instead of deleting anything",
    "first check that `terraform state list` shows no instance of the resources listed in step 5",
  ];
  if (input.legacyBlockFiles.length && input.patchDir !== ".") {
    notes.push(`the patch edits files outside the root module: its paths start at ${input.patchDir} (relative to the root module), so git applies it from there`);
  }
  const ws = input.rulesetWorkspace ?? null;
  if (input.legacyBlockFiles.length && ws !== null) {
    // The blocks are the configuration of every workspace of the root, not of this one alone.
    notes.push(
      `the root has other workspaces than ${ws}, and the blocks are theirs too: deleting them while another workspace's state still holds a legacy instance makes its next apply "destroy" it, which resets the live previous WAF. Apply the patch only once \`${TF} state list\` shows no legacy instance in any workspace (\`${TF} workspace list\`, then \`TF_WORKSPACE=NAME ${TF} state list\` in each); migrate.sh checks this and stops before step 6 while one does`,
    );
  }
  return {
    number: 6,
    title: "Delete the legacy blocks from the configuration (only after step 5)",
    commands: input.legacyBlockFiles.length ? [gitApplyCommand(input.patchDir, input.artifacts.patch)] : [],
    notes,
  };
}

/**
 * `git apply` of a plan patch, run from the root module. The patch's paths start at `patchDir`; git
 * reads them from its working directory (`-C`), in or out of a repository.
 */
export function gitApplyCommand(patchDir: string, patchFile: string): string {
  return patchDir === "." ? `git apply ${patchFile}` : `git -C ${shellQuote(patchDir)} apply "$PWD"/${shellQuote(patchFile)}`;
}

function step7Verify(input: PlanInput): PlanStep {
  const notes = ["exit code 0 means no changes; 2 means something still differs: review it before applying anything"];
  if ((input.exposingRemovals ?? []).some((e) => e.includes(': output "'))) {
    notes.push(
      `step 6 removes outputs: where a root module output goes, the plan exits 2 with "Changes to Outputs" only and no "Plan:" line; that changes nothing in Cloudflare, and \`${TF} apply -refresh=false\` saves it to the state (migrate.sh and apply accept exactly that case)`,
    );
  }
  return {
    number: 7,
    title: "Plan again: no pending changes",
    commands: [`${TF} plan -detailed-exitcode -refresh=false`],
    notes,
  };
}

export function displayZone(z: ZoneAnalysis): string {
  return isLiteralZoneId(z.zone.zoneId) ? z.zone.zoneId : "<ZONE_ID>";
}

/**
 * A zone as the plan's notes name it: its id; else `<ZONE_ID>` with which zone that is (its name when known,
 * and the expression or resource address that gives its id), so that several zones of unknown id are
 * told apart.
 */
export function zoneLabel(z: ZoneAnalysis): string {
  if (isLiteralZoneId(z.zone.zoneId)) return z.zone.zoneId;
  return `<ZONE_ID> of ${whichZone(z)}`;
}

function whichZone(z: ZoneAnalysis): string {
  const what = z.zone.zoneId === UNKNOWN_ZONE ? "the resources that name no zone" : z.zone.zoneId.replace(/[\r\n]+/g, " ");
  return z.zone.zoneName ? `${z.zone.zoneName}, ${what}` : what;
}

/** A command for a zone of unknown id, with a shell comment saying which zone its `<ZONE_ID>` is. */
export function withZoneComment(command: string, z: ZoneAnalysis): string {
  if (isLiteralZoneId(z.zone.zoneId)) return command;
  return `${command}  # <ZONE_ID>: ${whichZone(z)}`;
}

/**
 * The name of a zone's cf-terraforming output file: its ruleset's resource name, and the zone id's first 8
 * characters when one resource serves several zones (a kept for_each), so one zone's output never
 * overwrites another's.
 */
function zoneSlug(z: ZoneAnalysis, zones: readonly ZoneAnalysis[]): string {
  const name = z.rulesetResourceName.replace(/^waf_managed_/, "");
  const sharing = zones.filter((o) => o.rulesetResourceName === z.rulesetResourceName);
  if (sharing.length < 2) return name;
  return `${name}-${isLiteralZoneId(z.zone.zoneId) ? z.zone.zoneId.slice(0, 8) : `zone${sharing.indexOf(z) + 1}`}`;
}

/** Step 5's note offering `removed {}` blocks instead of `state rm` (Terraform 1.7+, a lock <= 3.35). */
export function removedBlocksNote(file: string): string {
  return `alternative while the lock still pins a provider with the legacy schema (<= 3.35) and Terraform >= 1.7: apply the removed {} blocks in ${file} with \`terraform apply -refresh=false\` (it needs the provider to read the resources, which the retired API may refuse). A removed {} block is refused while its resource block is configured, so the legacy blocks go in the same change, and that deletes them for every workspace of this root: only when no other workspace still holds their instances, which only \`terraform workspace list\` and their states tell. Run \`bash migrate.sh --check-removed\` first (read-only; exit 0: ${file} may be used, 1: it names the workspaces that hold them); migrate.sh itself checks the same before step 6, this path does not`;
}
