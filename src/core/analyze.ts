// Groups the domain inventory by zone and evaluates each zone: compatibility, limits, plan tier, the
// replacement ruleset, its import, the state removals, and the findings of DESIGN.md section 4.
import { unknownZoneHint, zoneIdForText } from "./zone-placeholder.js";
import { classifyGroup, classifyRule, type ClassifyContext } from "./classify.js";
import {
  exceedsExpressionLimit,
  exceedsRuleLimit,
  expressionBytes,
  isWafBypass,
  MAX_EXPRESSION_BYTES,
  MAX_FIREWALL_RULES_TO_MIGRATE,
  migrationModeFor,
  pageRuleBecomesSkip,
  pageRuleTouchesWaf,
  phase1Eligibility,
  phase2Compatible,
  validationAvailable,
} from "./compat.js";
import { finding, sortFindings } from "./findings.js";
import { rulesetImportId, RULESET_ID_PLACEHOLDER } from "./import-id.js";
import { MANAGED_PHASE } from "./mappings.js";
import type {
  ExistingRuleset,
  Finding,
  FirewallRule,
  LegacyWafGroup,
  LegacyWafOverride,
  LegacyWafPackage,
  LegacyWafRule,
  PageRule,
  ResourceRef,
  Ruleset,
  ZonePlan,
  ZoneReport,
  ZoneResource,
  ZoneWafSetting,
} from "./model.js";
import { workspaceResourceName } from "./workspace-ruleset.js";
import { rulesetResourceName } from "./naming.js";
import { untranslatableTargetFinding } from "./page-rule-target-check.js";
import { buildRuleset } from "./ruleset-builder.js";
import { otherProductsFindings } from "./bypass-products.js";
import { declaredEntryPoint, duplicateEntryPointFindings } from "./entry-point.js";
import { serviceSkipAfterExecuteFindings, skipAfterExecuteFindings } from "./ruleset-order.js";
import { applyZoneWafSwitch, zoneWafFindings, zoneWafSwitch } from "./zone-waf.js";
import { inputRecord, ownValue } from "./null-proto.js";
import { zoneLegacy } from "./zone-legacy.js";
import { phaseUnknownItems, unknownZoneEntryPointFindings } from "./possible-entry-points.js";
import { instancesUnresolved, mayBypassWaf, pageRuleMayTouchWaf, unresolvedFindings, zoneUnresolved } from "./unresolved.js";
import { compareText } from "./text-order.js";

/** Everything the Terraform layer (or the API layer) found, flat; `analyze` groups it by zone. */
export interface DomainInventory {
  packages: LegacyWafPackage[];
  groups: LegacyWafGroup[];
  rules: LegacyWafRule[];
  overrides: LegacyWafOverride[];
  firewallRules: FirewallRule[];
  pageRules: PageRule[];
  rulesets: ExistingRuleset[];
  zones: ZoneResource[];
  /** Legacy data sources (`data.cloudflare_waf_*`): removed in provider 4.0 as well. */
  legacyDataSources: ResourceRef[];
  /** The previous WAF's zone-wide switch, where zone settings set it. */
  zoneWafSettings?: ZoneWafSetting[];
  /** Addresses `removed { lifecycle { destroy = false } }` blocks forget (a resource, or a module). */
  forgotten?: string[];
}

export interface AnalyzeOptions {
  /** `--zone-plan ZONE_ID=PLAN`: wins over the `cloudflare_zone` plan attribute. */
  zonePlans?: Record<string, ZonePlan>;
  /** `--ruleset-id ZONE_ID=RULESET_ID`. */
  rulesetIds?: Record<string, string>;
  providerMajor?: 4 | 5;
  /** Whether any state was read: drift between config and state is only meaningful then. */
  stateKnown?: boolean;
  /** Addresses under modules that were not followed (remote sources): no drift is claimed for them. */
  unfollowedModulePrefixes?: string[];
  /**
   * `--config-json ZONE_ID=FILE`: the service's own equivalent configuration for a zone
   * (`GET /zones/{id}/waf_migration/config`). The ruleset is then exactly that, and managed rule modes
   * are no longer "unmapped".
   */
  configRulesets?: Record<string, Ruleset>;
  /** Resource names to import into instead of the generated ones (`--from-cf-terraforming`). */
  rulesetResourceNames?: Record<string, string>;
  /**
   * The workspace this root's generated ruleset is limited to (a root several workspaces share,
   * core/workspace-ruleset.ts): generated names get the workspace, and the import goes to `x[0]`.
   */
  rulesetWorkspace?: string;
  /**
   * Per zone, the instance suffix of the resource named by `rulesetResourceNames` when it has count or
   * for_each (`[0]`, `["us"]`; "" for none): the import goes there, not to `x[0]` (core/extracted-instance.ts).
   */
  rulesetInstanceSuffixes?: Record<string, string>;
  /** The domain inventory's `forgotten` addresses (set by `analyze`). */
  forgotten?: string[];
}

export interface ZoneAnalysis {
  zone: ZoneReport;
  findings: Finding[];
  /** The inputs of this zone, for the plan and the renderers. */
  inventory: ZoneInventory;
  /** Lines a person must read about the generated ruleset (placeholders, approximations). */
  rulesetNotes: string[];
  /** `# TODO` lines inside the generated ruleset's rules, by rule index (values unknown offline). */
  rulesetTodos: Record<number, string[]>;
  /** Resource name of the generated `cloudflare_ruleset` in the root module. */
  rulesetResourceName: string;
  /** The ruleset id when known (`--ruleset-id`), else null. */
  rulesetId: string | null;
}

/** One zone's share of the domain inventory, with its `cloudflare_zone` resource when known. */
export type ZoneInventory = Omit<DomainInventory, "zones" | "legacyDataSources" | "forgotten"> & {
  zoneId: string;
  zone: ZoneResource | null;
};

export const UNKNOWN_ZONE = "(unknown zone)";

export interface AnalysisResult {
  zones: ZoneAnalysis[];
  findings: Finding[];
}

/**
 * The zone's ruleset resource name: the one given (`--from-cf-terraforming`), else the entry point the root
 * module already declares (core/entry-point.ts), else the generated one, with the workspace when limited to one.
 */
function wantedRulesetName(z: ZoneInventory, opts: AnalyzeOptions): string {
  const given = ownValue(opts.rulesetResourceNames, z.zoneId);
  if (given !== undefined) return given;
  const generated = rulesetResourceName(z.zoneId, z.zone?.name ?? null);
  if (opts.rulesetWorkspace !== undefined) return workspaceResourceName(generated, opts.rulesetWorkspace);
  return declaredEntryPoint(z.rulesets)?.name ?? generated;
}

export function analyze(inv: DomainInventory, opts: AnalyzeOptions = {}): AnalysisResult {
  const zones = groupByZone(inv);
  // Two zones must never share a resource name (two unresolved `var.zone_id` zones, or look-alike names).
  const names = inputRecord<string>();
  const taken = new Set<string>();
  // The instance of a root-module entry point written with count or for_each that serves a zone (when no
  // name is given and the ruleset is not limited to a workspace: wantedRulesetName then takes it).
  const suffixes = inputRecord<string>();
  if (opts.rulesetWorkspace === undefined) {
    for (const z of zones) {
      const declared = ownValue(opts.rulesetResourceNames, z.zoneId) === undefined ? declaredEntryPoint(z.rulesets) : null;
      if (declared && declared.instance !== "") suffixes[z.zoneId] = declared.instance;
    }
  }
  const instanceSuffixes = { ...suffixes, ...opts.rulesetInstanceSuffixes };
  // A given (or declared) resource with for_each serves each zone from its own instance (`x["shop"]`,
  // `x["blog"]`): the same name is then shared, never an instance.
  const instanceOf = (zoneId: string) => (ownValue(opts.rulesetResourceNames, zoneId) !== undefined || Object.hasOwn(suffixes, zoneId) ? (ownValue(instanceSuffixes, zoneId) ?? "") : "");
  for (const z of zones) {
    const wanted = wantedRulesetName(z, opts);
    const suffix = instanceOf(z.zoneId);
    let name = wanted;
    for (let i = 2; taken.has(name + suffix) || (suffix === "" && [...taken].some((t) => t.startsWith(`${name}[`))) || (suffix !== "" && taken.has(name)); i++) name = `${wanted}_${i}`;
    taken.add(name + suffix);
    names[z.zoneId] = name;
  }
  const analyses = zones.map((z) => analyzeZone(z, { ...opts, rulesetResourceNames: names, ...(Object.keys(instanceSuffixes).length ? { rulesetInstanceSuffixes: instanceSuffixes } : {}), forgotten: inv.forgotten ?? [] }));
  const findings: Finding[] = analyses.flatMap((a) => a.findings);
  // Blocks left out of every zone (no instance): still blocks to delete.
  const zoned = new Set(zones.flatMap((z) => [...z.packages, ...z.groups, ...z.rules, ...z.overrides].map((x) => x.ref)));
  for (const x of [...inv.packages, ...inv.groups, ...inv.rules, ...inv.overrides]) if (!zoned.has(x.ref)) findings.push(legacyResourceFinding(x.ref, null));
  // A hand-migrated managed-phase ruleset is checked whether or not its zone still has legacy resources.
  for (const rs of inv.rulesets) findings.push(...invalidActionFindings(rs), ...skipAfterExecuteFindings(rs));
  findings.push(...duplicateEntryPointFindings(inv.rulesets, inv.zones));
  // One whose zone is not known and joined no zone of the run may be any zone's entry point.
  const placed = new Set(zones.flatMap((z) => z.rulesets));
  findings.push(...unknownZoneEntryPointFindings(inv.rulesets.filter((rs) => !placed.has(rs)), analyses.map((a) => a.zone.zoneId)));
  for (const ds of inv.legacyDataSources) findings.push(legacyDataSourceFinding(ds));
  return { zones: analyses, findings: sortFindings(findings) };
}

/** Zones that the migration touches: any legacy WAF resource, WAF-bypassing firewall rule or WAF Page Rule. */
export function groupByZone(inv: DomainInventory): ZoneInventory[] {
  const byZone = new Map<string, ZoneInventory>();
  const get = (zoneId: string | null): ZoneInventory => {
    const key = zoneId ?? UNKNOWN_ZONE;
    let z = byZone.get(key);
    if (!z) {
      z = { zoneId: key, zone: null, packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets: [], zoneWafSettings: [] };
      byZone.set(key, z);
    }
    return z;
  };
  for (const p of inv.packages) get(p.ref.zoneId).packages.push(p);
  for (const g of inv.groups) get(g.ref.zoneId).groups.push(g);
  for (const r of inv.rules) get(r.ref.zoneId).rules.push(r);
  for (const o of inv.overrides) get(o.ref.zoneId).overrides.push(o);
  // Rules whose settings are unknown offline but may bypass the WAF join their zone too: never treated as absent.
  for (const f of inv.firewallRules) if (isWafBypass(f) || mayBypassWaf(f)) get(f.ref.zoneId).firewallRules.push(f);
  for (const p of inv.pageRules) if (pageRuleTouchesWaf(p) || pageRuleMayTouchWaf(p)) get(p.ref.zoneId).pageRules.push(p);

  // Rulesets and zone resources only join zones that are already in the migration's scope.
  for (const rs of inv.rulesets) byZone.get(rs.ref.zoneId ?? UNKNOWN_ZONE)?.rulesets.push(rs);
  for (const ws of inv.zoneWafSettings ?? []) byZone.get(ws.ref.zoneId ?? UNKNOWN_ZONE)?.zoneWafSettings?.push(ws);
  for (const zr of inv.zones) {
    // By id (state), by the reference config uses, or by domain name (old `zone = "example.com"` resources).
    for (const key of [zr.id, zr.ref.zoneId, zr.name]) {
      const z = key ? byZone.get(key) : undefined;
      if (z && !z.zone) z.zone = zr;
    }
  }
  // A zone known both by its id and by the expression naming its resource (config only) is one zone.
  // The same zone reached by its domain name (old `zone = "…"` resources) is merged the same way; without
  // state, into the zone known by its resource's reference (`cloudflare_zone.example.id`), so one zone
  // never gets two entry point rulesets.
  for (const zr of inv.zones) {
    const canonical = zr.id ?? zr.ref.zoneId;
    if (!canonical) continue;
    for (const alias of zr.id ? [`${zr.ref.configAddress}.id`, zr.name] : [zr.name]) {
      if (!alias || alias === canonical) continue;
      const byAlias = byZone.get(alias);
      const byCanonical = byZone.get(canonical);
      if (!byAlias || byAlias === byCanonical) continue;
      byZone.delete(alias);
      if (byCanonical) mergeInto(byCanonical, byAlias);
      else {
        byAlias.zoneId = canonical;
        byAlias.zone = zr;
        byZone.set(canonical, byAlias);
      }
    }
  }
  // Legacy blocks whose count/for_each gives no instance configure nothing: alone they put no zone in scope
  // (no ruleset, no import); analyze lists them as blocks of no zone.
  return [...byZone.values()].filter(hasInstances).sort((a, b) => compareText(a.zoneId, b.zoneId));
}

function hasInstances(z: ZoneInventory): boolean {
  const live = withInstances(z);
  return live.packages.length + live.groups.length + live.rules.length + live.overrides.length + z.firewallRules.length + z.pageRules.length > 0;
}

function mergeInto(target: ZoneInventory, src: ZoneInventory): void {
  target.packages.push(...src.packages);
  target.groups.push(...src.groups);
  target.rules.push(...src.rules);
  target.overrides.push(...src.overrides);
  target.firewallRules.push(...src.firewallRules);
  target.pageRules.push(...src.pageRules);
  target.rulesets.push(...src.rulesets);
  (target.zoneWafSettings ??= []).push(...(src.zoneWafSettings ?? []));
}

export function analyzeZone(z: ZoneInventory, opts: AnalyzeOptions): ZoneAnalysis {
  const findings: Finding[] = [];
  const zoneId = z.zoneId;
  const anchor = zoneAnchor(z);
  const at = { zoneId, file: anchor?.file ?? null, line: anchor?.line ?? null };

  const plan: ZonePlan = ownValue(opts.zonePlans, zoneId) ?? z.zone?.plan ?? "unknown";
  // What the zone really has: a legacy block whose count/for_each gives no instance here (count = 0 in
  // production) configures nothing live, so it neither blocks the zone nor shapes its ruleset. It is still
  // a block to delete, so LEGACY_WAF_RESOURCE and the plan (which reads `z`) keep it.
  const live = withInstances(z);
  const compatible = phase2Compatible(live.overrides);
  const migrationMode = migrationModeFor(plan);
  const ctx: ClassifyContext = { owaspPackageIds: new Set(live.packages.map((p) => p.packageId).filter((x): x is string => !!x)) };

  // Legacy resources.
  const legacy: ResourceRef[] = [...z.packages, ...z.groups, ...z.rules, ...z.overrides].map((x) => x.ref);
  for (const ref of legacy) {
    findings.push(legacyResourceFinding(ref, zoneId));
    const zeroInstances = !ref.inState && ref.mayHaveNoInstances === true;
    // A removed block with destroy = false makes the next apply forget the instance: nothing is reset.
    const forgotten = ref.inState && !ref.inConfig && isForgotten(ref.configAddress, opts.forgotten ?? []);
    if (opts.stateKnown && ref.inConfig !== ref.inState && !zeroInstances && !forgotten && !underUnfollowedModule(ref, opts)) {
      findings.push(
        finding(
          "STATE_CONFIG_DRIFT",
          ref.inState
            ? `${ref.address} is in state but not in config: \`terraform plan\` would reset that live WAF setting; remove it from state, do not apply`
            : `${ref.address} is in config but not in state: it is not managed yet, delete the block instead of importing it`,
          { ref, zoneId },
        ),
      );
    } else if (ref.inState && ref.inConfig && ref.unconfigured) {
      // The block is still there, so config and state join on the resource; this instance is not configured.
      findings.push(
        finding(
          "STATE_CONFIG_DRIFT",
          `${ref.address} is in state but its block no longer configures that instance (${ref.unconfigured}): \`terraform plan\` would destroy it, which resets that live WAF setting instead of deleting anything; do not apply, remove it from state (step 5) before its block goes. This is with the variable values read here (tfvars, --var-file, --var): if this workspace runs with others, pass them with --var-file`,
          { ref, zoneId },
          { instance: ref.address, terraformWould: "destroy", reason: ref.unconfigured },
        ),
      );
    }
    // The reverse: instances the configuration gives that state lacks. The ruleset follows state (what the zone
    // really has), so the configured setting is not carried over; say so rather than drop it silently.
    for (const address of opts.stateKnown ? (ref.unapplied ?? []) : []) {
      findings.push(
        finding(
          "STATE_CONFIG_DRIFT",
          `${address} is configured but not in state: it was never applied (\`terraform plan\` would create it), so the zone does not have that setting and the generated ruleset does not carry it; apply it before migrating if it is wanted, else drop it from the configuration. This is with the variable values read here (tfvars, --var-file, --var): if this workspace runs with others, pass them with --var-file`,
          { ref: { ...ref, address }, zoneId },
          { instance: address, terraformWould: "create" },
        ),
      );
    }
  }
  for (const o of live.overrides) {
    // Whether it has instances may be unknown offline (VALUE_UNRESOLVED says why): it still fails the zone's
    // check, since the zone cannot migrate wherever it exists, and deleting the block is right either way.
    const instances = instancesUnresolved(o);
    findings.push(
      finding(
        "URI_WAF_OVERRIDE",
        `${o.ref.address} is a URI-based WAF override (${o.urls.join(", ") || "urls unknown"})${instances ? ` whose ${instances.attribute} is not known offline: wherever it has an instance,` : ":"} the zone cannot migrate until it is deleted (remove the block and apply, which deletes it)`,
        { ref: o.ref, zoneId },
        { urls: o.urls, rules: o.rules, groups: o.groups, rewriteAction: o.rewriteAction },
      ),
    );
  }

  // Legacy group and rule modes. With the service's configuration, managed modes are mapped exactly.
  const serviceConfig = ownValue(opts.configRulesets, zoneId) ?? null;
  // The reader's kind already weighs the Terraform around the resource (readers/package-kind.ts).
  for (const g of live.groups) {
    const kind = g.kind !== "unknown" ? g.kind : classifyGroup(g, ctx);
    if (!(serviceConfig && kind !== "owasp")) pushModeFinding(findings, kind, g.ref, zoneId, "group", g.groupId, g.mode);
  }
  for (const r of live.rules) {
    const kind = r.kind !== "unknown" ? r.kind : classifyRule(r, ctx);
    if (!(serviceConfig && kind !== "owasp")) pushModeFinding(findings, kind, r.ref, zoneId, "rule", r.ruleId, r.mode);
  }

  // Firewall rules that bypass the WAF, and their limits.
  for (const fw of z.firewallRules.filter(isWafBypass)) {
    findings.push(
      finding(
        "FIREWALL_RULE_BYPASS_WAF",
        `${fw.ref.address} bypasses the WAF: it becomes a skip rule in the new managed ruleset`,
        { ref: fw.ref, zoneId },
        fw.expression !== null ? { expressionBytes: expressionBytes(fw.expression) } : undefined,
      ),
    );
    findings.push(...otherProductsFindings(fw, zoneId));
    if (fw.expression !== null && exceedsExpressionLimit(fw.expression)) {
      findings.push(
        finding(
          "FIREWALL_EXPRESSION_TOO_LONG",
          `${fw.ref.address}: its filter expression is ${expressionBytes(fw.expression)} bytes, over the ${MAX_EXPRESSION_BYTES}-byte limit: the owner cannot migrate this zone, Cloudflare Support must`,
          { ref: fw.ref, zoneId },
          { bytes: expressionBytes(fw.expression), limit: MAX_EXPRESSION_BYTES },
        ),
      );
    }
  }
  const unresolvedItems = [...live.packages, ...live.groups, ...live.rules, ...live.overrides, ...z.firewallRules, ...z.pageRules, ...(z.zoneWafSettings ?? []), ...phaseUnknownItems(z.rulesets)];
  findings.push(...unresolvedFindings(unresolvedItems, zoneId));
  const knownBypasses = z.firewallRules.filter(isWafBypass).length;
  if (exceedsRuleLimit(knownBypasses)) {
    findings.push(
      finding(
        "FIREWALL_RULES_OVER_LIMIT",
        `${knownBypasses} firewall rules bypass the WAF in this zone, over the limit of ${MAX_FIREWALL_RULES_TO_MIGRATE}: the owner cannot migrate this zone, Cloudflare Support must`,
        at,
        { count: knownBypasses, limit: MAX_FIREWALL_RULES_TO_MIGRATE },
      ),
    );
  }

  // Page Rules.
  for (const pr of z.pageRules) {
    const untranslatable = pageRuleBecomesSkip(pr) ? untranslatableTargetFinding(pr, zoneId, z.zone?.name ?? null) : null;
    if (untranslatable) findings.push(untranslatable);
    if (pr.disableSecurity) {
      findings.push(
        finding(
          "PAGE_RULE_DISABLE_SECURITY",
          `${pr.ref.address} disables security for ${pr.target ?? "its target"}: it becomes a skip rule in the new managed ruleset`,
          { ref: pr.ref, zoneId },
        ),
      );
    }
    if (pr.waf === "off" || pr.waf === "on") {
      findings.push(
        finding(
          "PAGE_RULE_WAF_SETTING",
          pr.waf === "off"
            ? `${pr.ref.address} sets WAF Off for ${pr.target ?? "its target"}: it does not disable the new WAF; only the generated skip rule does`
            : `${pr.ref.address} sets WAF On for ${pr.target ?? "its target"}: the setting has no effect on the new WAF; remove it after migrating`,
          { ref: pr.ref, zoneId },
        ),
      );
    }
  }

  // Existing managed-phase rulesets.
  for (const rs of z.rulesets.filter((r) => r.phase === MANAGED_PHASE)) {
    findings.push(
      finding(
        "MANAGED_RULESET_EXISTS",
        `${rs.ref.address} already manages this zone's ${MANAGED_PHASE} entry point: merge the generated rules into it instead of adding a second resource`,
        { ref: rs.ref, zoneId },
      ),
    );
  }

  if (!validationAvailable(plan)) {
    findings.push(
      finding(
        "VALIDATION_MODE_UNAVAILABLE",
        plan === "unknown"
          ? `the zone's plan is unknown (no cloudflare_zone plan, no --zone-plan): assuming only the pending path (new WAF on, previous WAF off at once)`
          : `the zone is on the ${plan} plan: validation mode is Enterprise-only, so the migration turns the new WAF on and the previous WAF off at once (pending path)`,
        at,
        { plan },
      ),
    );
  }

  const generated = serviceConfig
    ? { ruleset: serviceConfig, notes: ["the ruleset is the service's own configuration (--config-json)"], ruleTodos: {} }
    : buildRuleset(live);
  if (serviceConfig) findings.push(...serviceSkipAfterExecuteFindings(serviceConfig, at));
  // The previous WAF's zone switch: with it off, the migration must not turn protection on.
  const wafSwitch = zoneWafSwitch(z.zoneWafSettings ?? []);
  findings.push(...zoneWafFindings(wafSwitch, zoneId, serviceConfig !== null));
  const switched = serviceConfig ? { ruleset: generated.ruleset, notes: [] } : applyZoneWafSwitch(generated.ruleset, wafSwitch);
  // The switch only toggles `enabled`: rule indices, and so the TODOs placed by index, stay as generated.
  const built = { ruleset: switched.ruleset, notes: [...generated.notes, ...switched.notes], ruleTodos: generated.ruleTodos };
  const name = wantedRulesetName(z, opts);
  const rulesetId = ownValue(opts.rulesetIds, zoneId) ?? null;
  const providerMajor = opts.providerMajor ?? 4;
  const importId = rulesetImportId(zoneId, rulesetId ?? RULESET_ID_PLACEHOLDER, providerMajor);
  if (!rulesetId) {
    // An expression is not a zone id: commands get the <ZONE_ID> placeholder and the text says how to learn it.
    const zoneText = zoneIdForText(zoneId);
    const hint = unknownZoneHint(zoneId);
    findings.push(
      finding(
        "RULESET_ID_UNKNOWN",
        `the id of the zone's ${MANAGED_PHASE} entry point ruleset is not known: after migrating, get it with \`cf-waf-migrate api entrypoint --zone ${zoneText}\` (or GET /zones/${zoneText}/rulesets/phases/${MANAGED_PHASE}/entrypoint) and pass --ruleset-id ${zoneText}=<id>${hint ? `; ${hint}` : ""}`,
        at,
        {
          command: `cf-waf-migrate api entrypoint --zone ${zoneText}`,
          curl: `curl -s -H "Authorization: Bearer $CLOUDFLARE_API_TOKEN" https://api.cloudflare.com/client/v4/zones/${zoneText}/rulesets/phases/${MANAGED_PHASE}/entrypoint`,
        },
      ),
    );
  }

  const legacyRefs = [...z.packages, ...z.groups, ...z.rules].map((x) => x.ref);
  const stateRemovals = legacyRefs.filter((r) => r.inState || (!opts.stateKnown && !r.instancesUnknown && !r.noInstances)).map((r) => r.address);
  const unnamed = [...new Set(legacyRefs.filter((r) => !r.inState && r.instancesUnknown).map((r) => r.configAddress))];
  if (unnamed.length) {
    findings.push(
      finding(
        "VALUE_UNRESOLVED",
        `${unnamed.join(", ")}: the enclosing module uses count or for_each, so the instance addresses to remove from state need the state: pass --state, or list them with \`terraform state list\``,
        at,
        { configAddresses: unnamed },
      ),
    );
  }

  const zone: ZoneReport = {
    zoneId,
    zoneName: z.zone?.name ?? null,
    plan,
    compatible,
    migrationMode,
    phase1: phase1Eligibility(live),
    ruleset: built.ruleset,
    // Limited to one workspace, the resource has count: terraform imports into its instance.
    imports: [{ to: `cloudflare_ruleset.${name}${ownValue(opts.rulesetInstanceSuffixes, zoneId) ?? (opts.rulesetWorkspace !== undefined ? "[0]" : "")}`, id: importId }],
    stateRemovals: [...new Set(stateRemovals)].sort(),
  };
  const unresolved = zoneUnresolved(unresolvedItems);
  if (unresolved.length) zone.unresolved = unresolved;
  zone.legacy = zoneLegacy(live, ctx);
  // A resource that only state knows has no block: point at the zone's anchor so CI can show it on a line.
  for (const f of findings) {
    if (f.file === null && anchor) {
      f.file = anchor.file;
      f.line = anchor.line;
    }
  }
  return { zone, findings, inventory: z, rulesetNotes: built.notes, rulesetTodos: built.ruleTodos, rulesetResourceName: name, rulesetId };
}

function legacyResourceFinding(ref: ResourceRef, zoneId: string | null): Finding {
  return finding(
    "LEGACY_WAF_RESOURCE",
    ref.noInstances
      ? `${ref.address} is a previous-WAF resource whose count/for_each gives no instance here: it configures nothing, but its block goes with the others`
      : `${ref.address} is a previous-WAF resource: it only works up to provider 3.35 and stops working once the zone migrates`,
    { ref, zoneId },
  );
}

/** The zone without the legacy blocks that are known to have no instance (see `noInstances`). */
function withInstances(z: ZoneInventory): ZoneInventory {
  const has = (x: { ref: ResourceRef }) => !x.ref.noInstances;
  return { ...z, packages: z.packages.filter(has), groups: z.groups.filter(has), rules: z.rules.filter(has), overrides: z.overrides.filter(has) };
}

function legacyDataSourceFinding(ds: ResourceRef): Finding {
  const what = "reads the previous WAF; the data source was removed in provider 4.0 and its API was retired: delete it with the legacy resources";
  if (!ds.inState && ds.instancesUnknown) {
    // Inside a module called with count or for_each, the address `terraform state list` prints carries the
    // module's instance keys, which only state knows: no address is claimed rather than a wrong one.
    const f = finding(
      "LEGACY_WAF_DATA_SOURCE",
      `${ds.configAddress} (in every instance of its module: the instance addresses need the state; pass --state or list them with \`terraform state list\`) ${what}`,
      { ref: ds },
      { configAddress: ds.configAddress, instancesUnknown: true },
    );
    f.address = null;
    return f;
  }
  return finding("LEGACY_WAF_DATA_SOURCE", `${ds.address} ${what}`, { ref: ds });
}

/** Actions the `http_request_firewall_managed` phase accepts: exceptions, managed rulesets, and log. */
const MANAGED_PHASE_ACTIONS = new Set(["execute", "skip", "log"]);

function invalidActionFindings(rs: ExistingRuleset): Finding[] {
  if (rs.phase !== MANAGED_PHASE) return [];
  return rs.rules
    .filter((rule) => rule.action && !MANAGED_PHASE_ACTIONS.has(rule.action))
    .map((rule) =>
      finding(
        "RULESET_INVALID_ACTION",
        `${rs.ref.address} has a rule with action "${rule.action}", which the ${MANAGED_PHASE} phase does not accept (use "skip" for exceptions, "execute" for managed rulesets)`,
        { ref: rs.ref },
        { action: rule.action, expression: rule.expression },
      ),
    );
}

function pushModeFinding(
  findings: Finding[],
  kind: string,
  ref: ResourceRef,
  zoneId: string,
  what: "group" | "rule",
  legacyId: string | null,
  mode: string | null,
): void {
  if (kind === "owasp") {
    findings.push(
      finding(
        "CRS_OVERRIDE_NOT_MIGRATED",
        `${ref.address} overrides core rule set ${what} ${legacyId ?? "(id not known offline)"} (${mode ? `mode ${mode}` : "mode not known offline"}): core rule set ${what} overrides are not migrated; recreate it as a tag or rule override of the OWASP Core Ruleset`,
        { ref, zoneId },
        { legacyId, mode, kind: what },
      ),
    );
  } else {
    findings.push(
      finding(
        "MANAGED_OVERRIDE_UNMAPPED",
        `${ref.address} sets managed ${what} ${legacyId ?? "(id not known offline)"} to ${mode ? `mode ${mode}` : "a mode not known offline"}: legacy rule ids do not map to the new Cloudflare Managed Ruleset offline; use --config-json with the service's configuration for an exact ruleset`,
        { ref, zoneId },
        { legacyId, mode, kind: what },
      ),
    );
  }
}

function isForgotten(configAddress: string, forgotten: string[]): boolean {
  return forgotten.some((a) => configAddress === a || configAddress.startsWith(`${a}.`));
}

function underUnfollowedModule(ref: ResourceRef, opts: AnalyzeOptions): boolean {
  return (opts.unfollowedModulePrefixes ?? []).some((p) => ref.configAddress.startsWith(p + "."));
}

/** A zone-level finding points at the zone's resource, or else its first legacy block. */
export function zoneAnchor(z: ZoneInventory): { file: string; line: number } | null {
  const candidates: (ResourceRef | undefined)[] = [
    z.zone?.ref,
    ...[...z.packages, ...z.groups, ...z.rules, ...z.overrides, ...z.firewallRules, ...z.pageRules].map((x) => x.ref),
  ];
  for (const c of candidates) if (c?.file && c.line) return { file: c.file, line: c.line };
  return null;
}
