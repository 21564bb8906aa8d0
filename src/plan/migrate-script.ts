// migrate.sh: steps 3 to 7 of the plan as a bash script that a person (or `cf-waf-migrate apply`'s users
// who prefer a script) runs in the root module. Dry run before the real `state rm`; it asks before
// changing state unless --yes; TF=tofu runs OpenTofu; a second run skips what the first one finished.
//
// What keeps it safe, in order:
// - it changes the state the plan read: before any change, `state pull` must show that state's lineage
//   (planned-state.ts; a plan made without state has nothing to compare);
// - while an expression still refers to a legacy block (LEGACY_REFERENCE) it refuses at the very start;
// - everything it could refuse is checked before step 3 changes anything: each file of each patch must
//   apply (or, on a resumed run, be applied already), and no URI-based override may be left in state;
// - step 5 works on resources, not instance strings: every line of a fresh `state list` whose resource
//   (instance keys dropped) is a legacy resource is removed, so `x[0]`, `x["k"]` and every module instance
//   are found even when the plan was made without state;
// - step 6 deletes a block only after a fresh `state list` shows no instance of any legacy resource;
// - each file of a patch is applied or not (git checks every hunk before it writes), so a run killed at
//   any point resumes: applied files are skipped, the rest are applied.
import { PLAN_OUTPUT_MARK } from "../core/artifacts.js";
import { shellQuote } from "../core/shell-quote.js";
import { OTHER_ROOT_ENTRY_POINT_REFUSAL, OTHER_ROOT_ENTRY_POINT_REMEDY } from "../core/other-root-entry-points.js";
import type { ZoneAnalysis } from "../core/analyze.js";
import { RULESET_ID_PLACEHOLDER } from "../core/import-id.js";
import { displayZone, zoneLabel } from "./steps.js";
import { isLegacyDataAddress } from "../core/legacy-types.js";
import { importIdForText } from "../core/zone-placeholder.js";
import { lineageText, scriptWorkspace, type PlannedState } from "./planned-state.js";
import { rulesetCopyFile } from "../core/workspace-ruleset.js";

export interface ScriptPatch {
  /** File name of the patch next to the script. */
  file: string;
  /** The paths it touches, relative to the patch directory. */
  paths: string[];
}

export interface ScriptInput {
  version: string;
  zones: ZoneAnalysis[];
  /** Legacy resources (config addresses, instance keys dropped) whose every instance step 5 removes. */
  legacyResources: string[];
  /** The directory the patches' paths start at, relative to the root module ("." for the root). */
  patchDir: string;
  /** The step-6 patch, or null when there is nothing to delete. */
  legacyPatch: ScriptPatch | null;
  /** The step-0 patch (URI-based overrides), which must already be applied; null when there is none. */
  overridesPatch: ScriptPatch | null;
  /**
   * LEGACY_REFERENCE findings, one line each: expressions that would dangle after step 6. While one
   * remains the script refuses at the start, before step 3 changes anything.
   */
  legacyReferences?: string[];
  /**
   * Rules of roots this plan left out whose skip rules the ruleset lacks or may lack (BYPASS_IN_OTHER_ROOT,
   * VALUE_UNRESOLVED with details.otherRoot), one line each: the script refuses to start unless
   * ACCEPT_MISSING_SKIP_RULES=1 (apply's --accept-missing-skip-rules).
   */
  otherRootBypasses?: string[];
  /**
   * Roots this plan left out that configure the legacy WAF of a zone whose ruleset step 3 imports
   * (LEGACY_WAF_IN_OTHER_ROOT: the script always refuses to start, the ruleset belongs there) or maybe (zone
   * not known offline: it refuses unless ACCEPT_OTHER_ROOT_LEGACY_WAF=1), one line each.
   */
  otherRootLegacyWaf?: { known: string[]; unknown: string[] };
  /** Roots this plan left out that already declare the entry point ruleset step 3 would import (always refused), one line each. */
  otherRootEntryPoints?: string[];
  /**
   * The workspace the plan was made for: the script exports it as TF_WORKSPACE before any terraform command,
   * so it changes that workspace's state whichever one is selected where it runs. Absent or `default`: none
   * (a state saved anywhere is labelled `default` without being known to be it).
   */
  workspace?: string;
  /**
   * The ruleset is limited to this workspace (count on terraform.workspace, core/workspace-ruleset.ts) and
   * step 2 copies it to `copy`: before any change the script checks that the root declares each resource
   * it imports (a copy of another workspace's file over this one would have removed it).
   */
  rulesetGate?: { workspace: string; copy: string } | null;
  /**
   * The state the plan was made from (planned-state.ts): before any change the script checks that the
   * live state (`state pull`, in the workspace it runs in) has its lineage. Absent or null: the plan read
   * no state, and there is nothing to compare.
   */
  plannedState?: PlannedState | null;
  /**
   * Other root modules that call a module whose blocks step 6 deletes, relative to the root module (where
   * the script runs), for a plan made for this root alone: before step 6 the script reads their states too
   * and keeps the blocks while one still holds a legacy instance or cannot be read.
   */
  otherCallers?: string[];
  /**
   * The removed {} blocks file the plan offers as step 5's alternative (removed.tf), or absent/null. Its
   * blocks go with the legacy blocks of every workspace of this root and of every root calling its module:
   * `--check-removed` reads their states (workspace list, state list; nothing else) and says whether it may
   * be used.
   */
  removedBlocks?: string | null;
  /**
   * One migration of an estate: the root module's directory relative to the script's own (the script cds
   * there first, so it runs in its root wherever it is started from).
   */
  root?: {
    fromScript: string;
    /**
     * Files step 6 edits that other roots of the estate also use (a shared module): deleting their legacy
     * blocks before those roots have removed the resources from their state would make their next apply
     * reset the live WAF. With KEEP_BLOCKS=1 the script stops before step 6 (ESTATE.md runs it twice).
     */
    sharedFiles?: string[];
  };
}

/**
 * The sed expression that turns a `state list` line into its resource address: it drops every instance
 * key, numeric (`[0]`) or an HCL quoted string (`["a\"]b"]`, escapes included), in module steps too.
 */
export const STRIP_INSTANCE_KEYS_SED = String.raw`s/\[(-?[0-9]+|"([^"\\]|\\.)*")\]//g`;

/** A path as a literal `git apply --include` pattern (git matches it with wildmatch). */
export function includePattern(p: string): string {
  return p.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

export function renderMigrateScript(input: ScriptInput): string {
  const imports = input.zones.flatMap((z) => z.zone.imports);
  const zoneOf = (to: string) => input.zones.find((z) => z.zone.imports.some((i) => i.to === to))?.zone.zoneId ?? "";
  const lines: string[] = [];
  const w = (s = "") => lines.push(s);

  w("#!/usr/bin/env bash");
  w(`${PLAN_OUTPUT_MARK}${input.version}: steps 3 to 7 of PLAN.md, run in the Terraform root module.`);
  w("# Usage: bash migrate.sh [--yes]     TF=tofu bash migrate.sh   (OpenTofu)");
  w("# Without --yes it asks before changing state. Run it again after a failure: finished steps are skipped.");
  w("set -euo pipefail");
  w();
  w('TF="${TF:-terraform}"');
  w("YES=0");
  if (input.removedBlocks) w("CHECK_REMOVED=0");
  w('for arg in "$@"; do');
  w('  case "$arg" in');
  w("    --yes | -y) YES=1 ;;");
  const removedFile = input.removedBlocks ?? null;
  if (removedFile) w("    --check-removed) CHECK_REMOVED=1 ;;");
  w(`    -h | --help) echo ${shellQuote(`usage: bash migrate.sh [--yes]${removedFile ? ` | bash migrate.sh --check-removed (read-only: may ${removedFile} be used?)` : ""}`)}; exit 0 ;;`);
  w('    *) echo "migrate.sh: unknown argument: $arg" >&2; exit 2 ;;');
  w("  esac");
  w("done");
  w('HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"');
  if (input.root) {
    w("# One root module of an estate: run in it, whatever the current directory.");
    w(`cd "$HERE"/${shellQuote(input.root.fromScript)}`);
  }
  const exported = scriptWorkspace(input.workspace);
  if (exported) {
    w("# Its workspace: every terraform command below reads and changes this workspace's state.");
    w(`export TF_WORKSPACE=${shellQuote(exported)}`);
  }
  w("# The patches' paths start at this directory (relative to the root module, where this script runs).");
  w(`PATCH_DIR=${shellQuote(input.patchDir)}`);
  w();
  const refs = input.legacyReferences ?? [];
  if (refs.length) {
    // Refuse before anything changes: step 6 would leave these references dangling and step 7 could never pass.
    w(`echo ${shellQuote(`migrate.sh: refusing to start: ${refs.length} expression(s) refer to legacy WAF blocks that step 6 deletes (LEGACY_REFERENCE):`)} >&2`);
    for (const r of refs) w(`echo ${shellQuote(`  ${r}`)} >&2`);
    w(`echo ${shellQuote("edit these references, run cf-waf-migrate plan --out-dir again, and run the new migrate.sh; nothing was changed")} >&2`);
    w("exit 1");
    w();
  }
  const legacyElsewhere = input.otherRootLegacyWaf ?? { known: [], unknown: [] };
  if (legacyElsewhere.known.length) {
    // Step 3 would import an entry point that the legacy root's own migration imports too (apply refuses the same).
    w(`echo ${shellQuote(`migrate.sh: refusing to start: roots this plan left out configure the legacy WAF of a zone whose ruleset step 3 imports; that ruleset belongs with its legacy WAF:`)} >&2`);
    for (const r of legacyElsewhere.known) w(`echo ${shellQuote(`    ${r}`)} >&2`);
    w(`echo ${shellQuote("  plan the roots together (cf-waf-migrate plan over the repository --out-dir DIR) and run the migrate.sh it writes for each root, in ESTATE.md's order; nothing was changed")} >&2`);
    w("exit 1");
    w();
  }
  const entryPointsElsewhere = input.otherRootEntryPoints ?? [];
  if (entryPointsElsewhere.length) {
    // Step 3 would import an entry point another root already manages (apply refuses the same).
    w(`echo ${shellQuote(`migrate.sh: refusing to start: ${OTHER_ROOT_ENTRY_POINT_REFUSAL}:`)} >&2`);
    for (const r of entryPointsElsewhere) w(`echo ${shellQuote(`    ${r}`)} >&2`);
    w(`echo ${shellQuote(`  ${OTHER_ROOT_ENTRY_POINT_REMEDY}`)} >&2`);
    w("exit 1");
    w();
  }
  if (legacyElsewhere.unknown.length) {
    w('if [ "${ACCEPT_OTHER_ROOT_LEGACY_WAF:-}" != 1 ]; then');
    w(`  echo ${shellQuote(`migrate.sh: refusing to start: roots this plan left out configure legacy WAF resources whose zone, or this plan's, is not known offline; if it is a zone step 3 imports the ruleset of, that ruleset belongs with its legacy WAF:`)} >&2`);
    for (const r of legacyElsewhere.unknown) w(`  echo ${shellQuote(`    ${r}`)} >&2`);
    w(`  echo ${shellQuote("  plan the roots together (cf-waf-migrate plan over the repository), or run ACCEPT_OTHER_ROOT_LEGACY_WAF=1 bash migrate.sh once you know it is another zone; nothing was changed")} >&2`);
    w("  exit 1");
    w("fi");
    w();
  }
  const others = input.otherRootBypasses ?? [];
  if (others.length) {
    // The imported ruleset would lack these skip rules: after step 3 they exempt nothing (apply refuses the same).
    w('if [ "${ACCEPT_MISSING_SKIP_RULES:-}" != 1 ]; then');
    w(`  echo ${shellQuote(`migrate.sh: refusing to start: the ruleset step 3 imports lacks (or may lack) the skip rules of ${others.length} rule(s) in roots this plan left out:`)} >&2`);
    for (const r of others) w(`  echo ${shellQuote(`    ${r}`)} >&2`);
    w(`  echo ${shellQuote("  plan the roots together (cf-waf-migrate plan over the repository) and run that plan's migrate.sh, or run ACCEPT_MISSING_SKIP_RULES=1 bash migrate.sh to go on without them; nothing was changed")} >&2`);
    w("  exit 1");
    w("fi");
    w();
  }
  w("fail() { echo \"migrate.sh: $*\" >&2; exit 1; }");
  w("confirm() {");
  w('  if [ "$YES" = 1 ]; then return 0; fi');
  w('  if [ ! -t 0 ]; then echo "migrate.sh: $1 -- refusing without --yes (no terminal to ask)" >&2; exit 1; fi');
  w('  read -r -p "$1 [y/N] " answer');
  w('  case "$answer" in y | Y | yes) return 0 ;; *) echo "stopped: nothing more was changed" >&2; exit 1 ;; esac');
  w("}");
  w('step() { printf "\\n==> Step %s\\n" "$*"; }');
  w("# Here-strings, not pipes: grep -q exits at the first match, and a writer on a closed pipe fails under pipefail.");
  w("in_state() {");
  w("  local current");
  w('  current="$("$TF" state list)" || exit 1');
  w('  grep -qxF -- "$1" <<<"$current"');
  w("}");
  const declared = imports.filter((imp) => imp.to.startsWith("cloudflare_ruleset."));
  if (declared.length > 0) {
    w("# Whether a file of the root module declares resource \"cloudflare_ruleset\" NAME: HCL (./*.tf) or JSON (./*.tf.json).");
    w("declares_ruleset() {");
    w(String.raw`  grep -qsE "^[[:space:]]*resource[[:space:]]+\"cloudflare_ruleset\"[[:space:]]+\"$1\"" ./*.tf && return 0`);
    w("  local f");
    w("  for f in ./*.tf.json; do");
    w(String.raw`    [ -f "$f" ] && grep -qsF '"cloudflare_ruleset"' "$f" && grep -qsE "\"$1\"[[:space:]]*:" "$f" && return 0`);
    w("  done");
    w("  return 1");
    w("}");
  }
  w("# The resource of each `state list` line: every instance key dropped ([0], [\"k\"] with its escapes).");
  w(`resource_of() { sed -E ${shellQuote(STRIP_INSTANCE_KEYS_SED)}; }`);
  w("# The legacy resources: every block the patch deletes (with its module path) and every legacy resource");
  w("# state held when the plan was made. Each stands for all of its instances.");
  w("is_legacy_resource() {");
  if (input.legacyResources.length) {
    w('  case "$1" in');
    for (const r of input.legacyResources) w(`    ${shellQuote(r)}) return 0 ;;`);
    w("  esac");
  }
  w("  return 1");
  w("}");
  w("# Every instance a fresh `state list` prints of a legacy resource, into FOUND.");
  w("FOUND=()");
  w("find_legacy_in_state() {");
  w("  local current line res");
  w("  FOUND=()");
  w('  current="$("$TF" state list)" || fail "$TF state list failed: nothing more was changed"');
  w('  [ -n "$current" ] || return 0');
  w("  while IFS= read -r line <&3 && IFS= read -r res <&4; do");
  w('    if is_legacy_resource "$res"; then FOUND+=("$line"); fi');
  w('  done 3<<<"$current" 4< <(resource_of <<<"$current")');
  w("}");
  // Who else holds instances of the blocks step 6 (or removed.tf) deletes: read-only, used by the step-6
  // guard and by --check-removed.
  const callers = input.otherCallers ?? [];
  w("# The other workspaces of this root (HOLDERS) and of the other roots calling its module (CALLER_HOLDERS)");
  w("# whose state holds a legacy instance of the blocks step 6 deletes, or cannot be read. Read-only.");
  w("find_block_holders() {");
  w("  local line ws other why cws caller res");
  w("  HOLDERS=()");
  w("  CALLER_HOLDERS=()");
  w('  SELECTED="$("$TF" workspace show)" || fail "$TF workspace show failed: nothing more was changed"');
  w('  WORKSPACES="$("$TF" workspace list)" || fail "$TF workspace list failed: nothing more was changed"');
  w("  while IFS= read -r line; do");
  w("    # A workspace line is `* name` or `  name`; terraform adds a note when TF_WORKSPACE is set.");
  w('    [[ "$line" =~ ^[*\\ ]\\ ([A-Za-z0-9_-]+)$ ]] || continue');
  w('    ws="${BASH_REMATCH[1]}"');
  w('    [ "$ws" != "$SELECTED" ] || continue');
  w('    if ! other="$(TF_WORKSPACE="$ws" "$TF" state list 2>/dev/null)"; then');
  w("      # A workspace that was never applied has no state: it holds nothing.");
  w('      why="$(TF_WORKSPACE="$ws" "$TF" state list 2>&1 >/dev/null || true)"');
  w('      grep -q "No state file was found" <<<"$why" && continue');
  w('      HOLDERS+=("$ws (its state cannot be read)"); continue');
  w("    fi");
  w('    [ -n "$other" ] || continue');
  w('    while IFS= read -r res; do');
  w('      if is_legacy_resource "$res"; then HOLDERS+=("$ws"); break; fi');
  w('    done < <(resource_of <<<"$other")');
  w('  done <<<"$WORKSPACES"');
  if (callers.length) {
    w("  # Other root modules call a module whose blocks step 6 deletes: their states lose the blocks too, so a");
    w("  # legacy WAF instance in any of their workspaces (or a state that cannot be read) keeps the blocks.");
    w(`  for caller in ${callers.map(shellQuote).join(" ")}; do`);
    w('    if ! cws="$(env -u TF_WORKSPACE "$TF" -chdir="$caller" workspace list 2>/dev/null)"; then');
    w('      CALLER_HOLDERS+=("$caller (its workspaces cannot be read: run $TF init there)"); continue');
    w("    fi");
    w("    while IFS= read -r line; do");
    w('      [[ "$line" =~ ^[*\\ ]\\ ([A-Za-z0-9_-]+)$ ]] || continue');
    w('      ws="${BASH_REMATCH[1]}"');
    w('      if ! other="$(TF_WORKSPACE="$ws" "$TF" -chdir="$caller" state list 2>/dev/null)"; then');
    w('        why="$(TF_WORKSPACE="$ws" "$TF" -chdir="$caller" state list 2>&1 >/dev/null || true)"');
    w('        grep -q "No state file was found" <<<"$why" && continue');
    w('        CALLER_HOLDERS+=("$caller workspace $ws (its state cannot be read)"); continue');
    w("      fi");
    w("      if grep -qE '(^|\\.)cloudflare_waf_(package|group|rule|override)\\.' <<<\"$other\"; then CALLER_HOLDERS+=(\"$caller (workspace $ws)\"); fi");
    w('    done <<<"$cws"');
    w("  done");
  }
  w("}");
  w("# The patches' paths are relative to PATCH_DIR. git is run there and kept from looking above it for a");
  w("# repository: inside a repository's subdirectory git would prefix every path with that subdirectory,");
  w("# and an --include pattern would then silently match nothing.");
  w('patch_git() { (cd "$PATCH_DIR" && GIT_CEILING_DIRECTORIES="$(dirname "$(pwd -P)")" git apply "$@"); }');
  w("# Where one file of a patch stands: unapplied (it applies), applied (its reverse applies) or conflict.");
  w("patch_file_state() {");
  w('  if patch_git --check --include="$2" "$1" 2>/dev/null; then echo unapplied');
  w('  elif patch_git --reverse --check --include="$2" "$1" 2>/dev/null; then echo applied');
  w("  else echo conflict; fi");
  w("}");
  w();
  if (removedFile) {
    // removed.tf deletes the legacy blocks for every state that has them: known only here, at run time.
    w(`# --check-removed: may ${removedFile} (PLAN.md step 5's alternative) be used? Its removed {} blocks go in with the`);
    w("# legacy blocks deleted, for every workspace of this root (and every root calling its module) at once.");
    w('if [ "$CHECK_REMOVED" = 1 ]; then');
    w("  find_block_holders");
    w('  if [ "${#HOLDERS[@]}" -gt 0 ] || [ "${#CALLER_HOLDERS[@]}" -gt 0 ]; then');
    // `${A[@]+"${A[@]}"}`: an empty array under `set -u` (bash before 4.4 calls it unbound).
    w('    for h in ${HOLDERS[@]+"${HOLDERS[@]}"}; do echo "  workspace $h of this root"; done');
    w('    for h in ${CALLER_HOLDERS[@]+"${CALLER_HOLDERS[@]}"}; do echo "  $h"; done');
    w(`    echo ${shellQuote(`migrate.sh: do not use ${removedFile}: the state(s) above hold legacy instances of the same blocks (or cannot be read), and applying it deletes those blocks for them too, so their next apply would destroy those instances, resetting their live WAF. Use step 5's state rm (bash migrate.sh, which keeps the blocks until they have migrated). Nothing was changed`)} >&2`);
    w("    exit 1");
    w("  fi");
    w(`  echo ${shellQuote(`no other workspace of this root (nor another root calling its module) holds legacy instances of these blocks: ${removedFile} may be used (PLAN.md step 5). Nothing was changed`)}`);
    w("  exit 0");
    w("fi");
    w();
  }

  w('step "0: checks before any change"');
  w('command -v git >/dev/null 2>&1 || fail "git is not installed: it applies the patches. Nothing was changed"');
  w('[ -d "$PATCH_DIR" ] || fail "$PATCH_DIR does not exist: run migrate.sh in the Terraform root module the plan was made for. Nothing was changed"');
  emptyStateCheck(w);
  lineageCheck(w, input);
  w('CURRENT="$("$TF" state list)" || fail "$TF state list failed: nothing was changed"');
  w("if [ -n \"$CURRENT\" ] && grep -qE '(^|\\.)cloudflare_waf_override\\.[^.]+$' <<<\"$(resource_of <<<\"$CURRENT\")\"; then");
  w('  fail "a URI-based WAF override is still in state: do step 0 of PLAN.md first (delete its block and terraform apply, which deletes it; then migrate the zone). Nothing was changed"');
  w("fi");
  w("LEGACY_TODO=()");
  w("LEGACY_DONE=0");
  if (input.legacyPatch) {
    const patch = input.legacyPatch;
    w(`LEGACY_PATCH="$HERE"/${shellQuote(patch.file)}`);
    w('[ -f "$LEGACY_PATCH" ] || fail "$LEGACY_PATCH is missing: keep migrate.sh next to the plan\'s patches. Nothing was changed"');
    for (const p of patch.paths) {
      const glob = shellQuote(includePattern(p));
      w(`case "$(patch_file_state "$LEGACY_PATCH" ${glob})" in`);
      w(`  unapplied) LEGACY_TODO+=(${glob}) ;;`);
      w("  applied) LEGACY_DONE=$((LEGACY_DONE + 1)) ;;");
      w(`  *) patch_git --check --include=${glob} "$LEGACY_PATCH" || true`);
      w(`     fail ${shellQuote(`${patch.file} does not apply to ${joinDir(input.patchDir, p)} and is not applied either: the file changed since the plan. Run cf-waf-migrate plan again. Nothing was changed`)} ;;`);
      w("esac");
    }
  }
  if (input.overridesPatch) {
    const patch = input.overridesPatch;
    w(`OVERRIDES_PATCH="$HERE"/${shellQuote(patch.file)}`);
    w('[ -f "$OVERRIDES_PATCH" ] || fail "$OVERRIDES_PATCH is missing: keep migrate.sh next to the plan\'s patches. Nothing was changed"');
    w("# Step 0 applied it; once step 6 has edited the same file its reverse no longer applies, which is fine.");
    for (const p of patch.paths) {
      const glob = shellQuote(includePattern(p));
      w(`case "$(patch_file_state "$OVERRIDES_PATCH" ${glob})" in`);
      w("  applied) ;;");
      w(
        `  unapplied) fail ${shellQuote(`step 0 is not done: ${patch.file} is not applied to ${joinDir(input.patchDir, p)}. Apply it (see PLAN.md step 0) and terraform apply to delete the URI-based overrides, then run migrate.sh again. Nothing was changed`)} ;;`,
      );
      w(`  *) if [ "$LEGACY_DONE" -eq 0 ]; then fail ${shellQuote(`${patch.file} is neither applied nor applicable to ${joinDir(input.patchDir, p)}: the file changed since the plan. Run cf-waf-migrate plan again. Nothing was changed`)}; fi ;;`);
      w("esac");
    }
  }
  w();

  // `terraform import` of a resource the configuration does not declare fails ("resource address does not
  // exist in the configuration") after the steps before it: each import target must be declared (step 2's
  // copy of ruleset.tf) or already in state before anything changes.
  if (declared.length > 0) {
    const gate = input.rulesetGate;
    const copy = gate ? gate.copy : rulesetCopyFile(null);
    if (gate) w(`# Step 2 copies ruleset.tf to ${gate.copy}: one file per workspace of this root, each resource limited to its workspace.`);
    else w(`# Step 2 copies ruleset.tf to ${copy}: terraform import needs the resource declared.`);
    for (const imp of declared) {
      const name = imp.to.replace(/^cloudflare_ruleset\./, "").replace(/\[.*$/, "");
      w(`if ! in_state ${shellQuote(imp.to)} && ! declares_ruleset ${shellQuote(name)}; then`);
      if (gate) w(`  fail ${shellQuote(`the root module declares no cloudflare_ruleset.${name} (workspace ${gate.workspace}): copy ruleset.tf to ./${gate.copy} first (PLAN.md step 2; every workspace of this root has its own file, never one over another). Nothing was changed`)}`);
      else w(`  fail ${shellQuote(`the root module declares no cloudflare_ruleset.${name}, which step 3 imports: copy ruleset.tf to ./${copy} first (PLAN.md step 2). Nothing was changed`)}`);
      w("fi");
    }
  }
  w();
  w('step "0: preconditions (PLAN.md)"');
  w('echo "Each zone must already be migrated in Cloudflare, with its URI-based WAF overrides deleted:"');
  for (const z of input.zones) {
    const name = displayZone(z) === z.zone.zoneId && z.zone.zoneName ? ` (${z.zone.zoneName})` : "";
    w(`echo ${shellQuote(`  ${zoneLabel(z)}${name}: cf-waf-migrate api status --zone ${displayZone(z)}`)}`);
  }
  w('confirm "Are all of these zones migrated?"');
  w();

  // Steps 3 and 4. `terraform import` (and the untargeted plan) read every data source of the
  // configuration, and the previous WAF's API refuses the legacy ones once the zone is migrated: with such
  // a data source among the blocks step 6 deletes, they run after step 6 (state entries still leave before
  // blocks; only the import moves), as `cf-waf-migrate apply` does (src/apply/deferred-import.ts).
  const importAndCheck = () => {
    w('step "3: import the entry point ruleset"');
    if (imports.length === 0) w(`echo ${shellQuote("nothing to import here: this root module plans no entry point ruleset (PLAN.md step 2)")}`);
    for (const imp of imports) {
      if (imp.id.includes(RULESET_ID_PLACEHOLDER) || imp.id.includes("${")) {
        w(`echo ${shellQuote(`migrate.sh: the import id ${importIdForText(imp.id, zoneOf(imp.to))} is incomplete: re-run cf-waf-migrate plan with --ruleset-id (and --state, so the zone id is read from state)`)} >&2`);
        w("exit 1");
        continue;
      }
      w(`if in_state ${shellQuote(imp.to)}; then`);
      w(`  echo ${shellQuote(`${imp.to} is already in state: skipping the import`)}`);
      w("else");
      w(`  "$TF" import ${shellQuote(imp.to)} ${shellQuote(imp.id)}`);
      w("fi");
    }
    w();

    w('step "4: plan (the new ruleset is tracked; no refresh of retired legacy resources)"');
    w('"$TF" plan -refresh=false');
    w();
  };
  const legacyData = input.legacyPatch ? input.legacyResources.filter(isLegacyDataAddress) : [];
  if (legacyData.length === 0) importAndCheck();
  else {
    // An incomplete import id stops the script here, before step 5 changes anything.
    for (const imp of imports) {
      if (!imp.id.includes(RULESET_ID_PLACEHOLDER) && !imp.id.includes("${")) continue;
      w(`echo ${shellQuote(`migrate.sh: the import id ${importIdForText(imp.id, zoneOf(imp.to))} is incomplete: re-run cf-waf-migrate plan with --ruleset-id (and --state, so the zone id is read from state). Nothing was changed`)} >&2`);
      w("exit 1");
    }
    w(`echo ${shellQuote(`The configuration reads legacy data sources (${legacyData.join(", ")}): terraform import reads every data source, and the previous WAF's API refuses them once the zone is migrated, so the import (step 3) and its plan (step 4) run after step 6 here.`)}`);
    w();
  }

  w('step "5: remove every instance of the legacy resources from state"');
  w("find_legacy_in_state");
  w('if [ "${#FOUND[@]}" -eq 0 ]; then');
  w('  echo "no instance of a legacy resource in state: nothing to remove"');
  w("else");
  w('  "$TF" state rm -dry-run "${FOUND[@]}"');
  w('  confirm "Remove these ${#FOUND[@]} instance(s) from state (the live WAF is not touched)?"');
  w('  "$TF" state rm "${FOUND[@]}"');
  w("fi");
  w();

  const shared = input.root?.sharedFiles ?? [];
  if (shared.length) {
    w('if [ "${KEEP_BLOCKS:-0}" = 1 ]; then');
    w(`  echo ${shellQuote(`KEEP_BLOCKS=1: stopping before step 6. ${shared.join(", ")} ${shared.length === 1 ? "is" : "are"} shared with other roots, which must remove their legacy resources from state first; run this script again without KEEP_BLOCKS once they have (see ESTATE.md)`)}`);
    w("  exit 0");
    w("fi");
    w();
  }
  // The blocks are the same for every workspace of this root: one whose state still holds their instances
  // would destroy them at its next apply (resetting its live WAF) once they are deleted. Read-only check.
  w("# Other workspaces of this root instantiate the same blocks: deleting them while one still holds legacy");
  w("# instances would make that workspace's next apply destroy them, resetting its live WAF.");
  w('if [ "${REMOVE_SHARED_BLOCKS:-0}" != 1 ]; then');
  w("  find_block_holders");
  if (callers.length) {
    w('  if [ "${#CALLER_HOLDERS[@]}" -gt 0 ]; then');
    w('    printf "  %s\\n" "${CALLER_HOLDERS[@]}"');
    w('    echo "stopping before step 6: the root module(s) above call the module whose legacy blocks step 6 deletes and still hold legacy instances (or cannot be read); deleting the blocks now would make their next apply destroy them, resetting their live WAF. Migrate them first, then run this script again; REMOVE_SHARED_BLOCKS=1 deletes the blocks anyway. Do not apply this root meanwhile: its plan shows the kept blocks to be created"');
    w("    exit 0");
    w("  fi");
  }
  w('  if [ "${#HOLDERS[@]}" -gt 0 ]; then');
  w('    echo "stopping before step 6: workspace(s) ${HOLDERS[*]} of this root still hold legacy instances, and the blocks are theirs too. Migrate them (TF_WORKSPACE=NAME bash migrate.sh), then run this script again; REMOVE_SHARED_BLOCKS=1 deletes the blocks anyway. Do not apply this workspace meanwhile: its plan shows the kept blocks to be created"');
  w("    exit 0");
  w("  fi");
  w("fi");
  w();
  w('step "6: delete the legacy blocks (only once state holds no instance of them)"');
  w("find_legacy_in_state");
  w('if [ "${#FOUND[@]}" -gt 0 ]; then');
  w('  printf "  %s\\n" "${FOUND[@]}" >&2');
  w('  fail "the state still holds ${#FOUND[@]} instance(s) of legacy resources (above): their blocks are kept, since deleting a block before its state entry would reset the live WAF. No file was changed"');
  w("fi");
  if (input.legacyPatch) {
    w('if [ "${#LEGACY_TODO[@]}" -eq 0 ]; then');
    w('  echo "the legacy blocks are already deleted: skipping"');
    w("else");
    w("  INCLUDES=()");
    w('  for g in "${LEGACY_TODO[@]}"; do INCLUDES+=("--include=$g"); done');
    w('  patch_git --check "${INCLUDES[@]}" "$LEGACY_PATCH" || fail "the legacy blocks changed since this run started: no file was changed. Run migrate.sh again"');
    w('  patch_git "${INCLUDES[@]}" "$LEGACY_PATCH"');
    w("  # Proof that git changed every file (a path it skipped would otherwise pass in silence).");
    w('  for g in "${LEGACY_TODO[@]}"; do');
    w('    [ "$(patch_file_state "$LEGACY_PATCH" "$g")" = applied ] || fail "git apply left $g (in $PATCH_DIR) unchanged: delete its legacy blocks by hand (state no longer holds them)"');
    w("  done");
    w(`  echo ${shellQuote(`deleted the legacy blocks (${input.legacyPatch.file}, applied in ${input.patchDir})`)}`);
    w("fi");
  } else {
    w('echo "no legacy block in the configuration"');
  }
  w();

  if (legacyData.length > 0) importAndCheck();

  w('step "7: plan again, expecting no changes"');
  w("set +e");
  w('PLAN_OUT="$("$TF" plan -detailed-exitcode -refresh=false)"');
  w("rc=$?");
  w("set -e");
  w('printf "%s\\n" "$PLAN_OUT"');
  w("# Without colour codes (terraform colours its output unless -no-color), for the checks below.");
  w("PLAIN=\"$(sed -E 's/\\x1b\\[[0-9;]*m//g' <<<\"$PLAN_OUT\")\"");
  // Address moves only (`moved` blocks, terraform's implicit x -> x[0] once count is added), outputs or not:
  // the summary counts every resource action and is all zeros, and every action header is a move
  // (src/terraform/runner/plan.ts onlyAddressMoves).
  w('if [ "$rc" = 2 ]; then');
  w('  HEADERS="$(grep -E "^  # " <<<"$PLAIN" || true)"');
  w('  NOT_MOVES="$(grep -vE "^  # [^ ].* has moved to [^ ].*$" <<<"$HEADERS" || true)"');
  w('  if grep -qxF "Plan: 0 to add, 0 to change, 0 to destroy." <<<"$PLAIN" && [ -n "$HEADERS" ] && [ -z "$NOT_MOVES" ] && ! grep -qE " will be read during apply$" <<<"$HEADERS"; then');
  w('    echo "done: no resource changes; only resource addresses move in the state (moved blocks, or count added to a resource; root outputs may change too): $TF apply -refresh=false saves that to the state without changing anything in Cloudflare"');
  w("    exit 0");
  w("  fi");
  w("fi");
  // Outputs removed with the legacy blocks change the root outputs and nothing else (no `Plan:` line).
  w('if [ "$rc" = 2 ] && grep -qF "without changing any real infrastructure" <<<"$PLAIN" && ! grep -qE "^Plan: [0-9]+ to " <<<"$PLAIN"; then');
  w('  echo "done: no resource changes; only root outputs change (outputs that exposed legacy blocks were removed): $TF apply -refresh=false saves that to the state without changing anything in Cloudflare"');
  w("  exit 0");
  w("fi");
  w('case "$rc" in');
  w('  0) echo "done: no pending changes" ;;');
  w('  2) echo "migrate.sh: the plan still shows changes: review them before applying anything" >&2; exit 2 ;;');
  w('  *) echo "migrate.sh: terraform plan failed (exit $rc)" >&2; exit "$rc" ;;');
  w("esac");
  return lines.join("\n") + "\n";
}

/**
 * The check that the state about to change is the one the plan read: same lineage, a serial not lower
 * than the plan's. Found trialing a plan made from a pulled copy of staging's state (saved outside
 * terraform.tfstate.d/) whose migrate.sh, run with prod selected, changed prod.
 */
/**
 * terraform empties a local state file before it writes the new state: a terraform command killed in that
 * moment leaves 0 bytes, and the state it replaced in the newest `terraform.tfstate*.backup` beside it. Then
 * `state list` only says "No state file was found!": say what happened and which backup to restore.
 */
function emptyStateCheck(w: (s?: string) => void): void {
  w("# A local state file left empty by a terraform command stopped while it wrote it (terraform empties the file");
  w("# first): name the newest of terraform's backups beside it, which holds the state that write replaced.");
  w('WS_SELECTED="${TF_WORKSPACE:-$(cat "${TF_DATA_DIR:-.terraform}/environment" 2>/dev/null || true)}"');
  w('if [ -z "$WS_SELECTED" ] || [ "$WS_SELECTED" = default ]; then STATE_FILE=terraform.tfstate; else STATE_FILE="terraform.tfstate.d/$WS_SELECTED/terraform.tfstate"; fi');
  w("# Only the implicit local backend's file: with another backend (s3, remote) terraform never reads a terraform.tfstate");
  w("# lying here, and a local backend with a path of its own is checked by cf-waf-migrate apply, not here.");
  w('BACKEND_FILE="${TF_DATA_DIR:-.terraform}/terraform.tfstate"');
  w(String.raw`if [ -f "$BACKEND_FILE" ] && { ! grep -qE '"type"[[:space:]]*:[[:space:]]*"local"' "$BACKEND_FILE" || grep -qE '"(path|workspace_dir)"[[:space:]]*:' "$BACKEND_FILE"; }; then STATE_FILE=""; fi`);
  w(String.raw`if [ -n "$STATE_FILE" ] && [ -f "$STATE_FILE" ] && [ "$(wc -c <"$STATE_FILE")" -le 16 ] && [ -z "$(tr -d '[:space:]' <"$STATE_FILE")" ]; then`);
  w('  NEWEST_BACKUP="$(ls -t -- "$STATE_FILE".*backup 2>/dev/null | head -n 1 || true)"');
  w('  if [ -n "$NEWEST_BACKUP" ]; then');
  w(String.raw`    fail "$STATE_FILE is empty (0 bytes): a terraform command was stopped while it wrote the state (terraform empties the file before writing the new one). Nothing was changed. The state it replaced is in $NEWEST_BACKUP, the newest of terraform's backups beside it: cp $NEWEST_BACKUP $STATE_FILE, check it with $TF state list, and run migrate.sh again"`);
  w("  fi");
  w('  fail "$STATE_FILE is empty (0 bytes): a terraform command was stopped while it wrote the state. Nothing was changed. No backup was found beside it: restore $STATE_FILE from wherever your state is kept before running migrate.sh again"');
  w("fi");
}

function lineageCheck(w: (s?: string) => void, input: ScriptInput): void {
  const planned = input.plannedState;
  if (!planned) return;
  const exported = scriptWorkspace(input.workspace) !== undefined;
  const files = planned.files.map((f) => (f === "-" ? "standard input" : f)).join(", ");
  if (planned.lineages.length === 0) {
    if (planned.workspaceKnown || exported) return;
    w(`# The plan read ${files}, which names no lineage, outside terraform.tfstate.d/: the workspace it belongs to is`);
    w("# unknown and nothing identifies the state, so TF_WORKSPACE must name it.");
    w(`[ -n "\${TF_WORKSPACE:-}" ] || fail ${shellQuote(`the plan read ${files}, which names no lineage and is not where terraform keeps a workspace's state: the workspace it belongs to is unknown. Run TF_WORKSPACE=NAME bash migrate.sh with the workspace of that state. Nothing was changed`)}`);
    return;
  }
  w(`# Which state is about to change: the plan read ${files} (${lineageText(planned)}).`);
  if (!planned.workspaceKnown && !exported) {
    w("# Its workspace is unknown (the state was not where terraform keeps a workspace's state): the lineage check");
    w("# below is what makes sure the selected workspace (or TF_WORKSPACE) is that state's.");
  }
  w('WS_NOW="$("$TF" workspace show)" || fail "$TF workspace show failed: nothing was changed"');
  w('PULLED="$("$TF" state pull)" || fail "$TF state pull failed: nothing was changed"');
  w(`LINEAGE_RE='"lineage"[[:space:]]*:[[:space:]]*"([^"]*)"'`);
  w(`SERIAL_RE='"serial"[[:space:]]*:[[:space:]]*([0-9]+)'`);
  w("# The first match: terraform writes serial and lineage at the top of the state, before any resource.");
  w(`lineage_of() { if [[ $1 =~ $LINEAGE_RE ]]; then printf '%s' "\${BASH_REMATCH[1]}"; fi; }`);
  w('LIVE_LINEAGE="$(lineage_of "$PULLED")"');
  w('LIVE_SERIAL=""');
  w('if [[ $PULLED =~ $SERIAL_RE ]]; then LIVE_SERIAL="${BASH_REMATCH[1]}"; fi');
  w('PLAN_SERIAL=""');
  w('case "$LIVE_LINEAGE" in');
  for (const l of planned.lineages) w(`  ${shellQuote(l.lineage)}) PLAN_SERIAL=${l.serial ?? '""'} ;;`);
  w("  *)");
  w(`    echo ${shellQuote(`migrate.sh: refused: the state here is not the one the plan was made from. Nothing was changed.`)} >&2`);
  w(`    echo ${shellQuote(`  the plan read: ${files} (${lineageText(planned)}${planned.workspaceKnown && exported ? `, workspace ${input.workspace}` : planned.workspaceKnown ? "" : ", workspace unknown"})`)} >&2`);
  w('    if [ -n "$LIVE_LINEAGE" ]; then FOUND_DESC="lineage $LIVE_LINEAGE${LIVE_SERIAL:+, serial $LIVE_SERIAL}"; else FOUND_DESC="no state (or one without a lineage)"; fi');
  w('    echo "  $TF state pull in workspace $WS_NOW (the one this run would change): $FOUND_DESC" >&2');
  w("    # Name the workspace of this root whose state is the plan's, when there is one (read-only).");
  w('    if WORKSPACES="$(env -u TF_WORKSPACE "$TF" workspace list 2>/dev/null)"; then');
  w("      while IFS= read -r line; do");
  w('        [[ "$line" =~ ^[*\\ ]\\ ([A-Za-z0-9_-]+)$ ]] || continue');
  w('        ws="${BASH_REMATCH[1]}"');
  w('        [ "$ws" != "$WS_NOW" ] || continue');
  w('        other="$(TF_WORKSPACE="$ws" "$TF" state pull 2>/dev/null)" || continue');
  w('        case "$(lineage_of "$other")" in');
  w(`          ${planned.lineages.map((l) => shellQuote(l.lineage)).join(" | ")}) echo "  workspace $ws has the plan's state: run TF_WORKSPACE=$ws bash migrate.sh (or $TF workspace select $ws first)" >&2 ;;`);
  w("        esac");
  w('      done <<<"$WORKSPACES"');
  w("    fi");
  w(`    echo ${shellQuote("  select the workspace the plan was made for (terraform workspace select NAME, or TF_WORKSPACE=NAME bash migrate.sh), or run cf-waf-migrate plan again with this workspace's state")} >&2`);
  w("    exit 1 ;;");
  w("esac");
  w('if [ -n "$PLAN_SERIAL" ] && [ -n "$LIVE_SERIAL" ] && [ "$LIVE_SERIAL" -lt "$PLAN_SERIAL" ]; then');
  w('  fail "the state in workspace $WS_NOW (serial $LIVE_SERIAL) is older than the one the plan read (serial $PLAN_SERIAL): it was restored or rolled back since. Run cf-waf-migrate plan again with the current state. Nothing was changed"');
  w("fi");
  w('echo "state: workspace $WS_NOW, lineage $LIVE_LINEAGE, serial ${LIVE_SERIAL:-?} (the plan read serial ${PLAN_SERIAL:-?})"');
}

function joinDir(dir: string, p: string): string {
  return dir === "." ? p : `${dir}/${p}`;
}
