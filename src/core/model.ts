// The domain model every layer speaks. The Terraform layer (HCL + state) and the API layer both produce
// these shapes; core evaluates them; plan and render consume them. Nothing here does I/O.
import type { UnresolvedAttribute } from "./tf-expr/body.js";

export type { UnresolvedAttribute } from "./tf-expr/body.js";

export type Severity = "error" | "warning" | "info";
export type FailOn = Severity | "never";
export type ZonePlan = "enterprise" | "business" | "pro" | "free" | "unknown";
export type MigrationMode = "pending" | "validation";

/** Where a finding or resource comes from in the user's files. `file` is relative to the working directory. */
export interface SourceLocation {
  file: string;
  line: number;
}

/**
 * One entry of the inventory: a resource instance when state knows it (address with index keys, exactly
 * as `terraform state list` prints it), or a configuration resource when only config knows it.
 */
export interface InventoryResource {
  address: string;
  /** Address without any instance keys (`module.waf.cloudflare_waf_group.off`): the join key of config and state. */
  configAddress: string;
  type: string;
  name: string;
  /** Module instance path, e.g. `module.waf["shop"]`; "" in the root module. */
  module: string;
  file: string | null;
  line: number | null;
  /** The zone id from state; the literal from config; else the zone_id expression text; null if none. */
  zoneId: string | null;
  /** The zone_id expression as written in config (`cloudflare_zone.shop.id`), when config has one. */
  zoneIdExpression: string | null;
  inConfig: boolean;
  inState: boolean;
  /**
   * Config only, inside a module called with count or for_each: the instance addresses (`module.waf["a"]…`)
   * cannot be named without state, so no removal command can be built for it.
   */
  instancesUnknown?: boolean;
  /**
   * Config only, with count or for_each on the resource or an enclosing module: zero instances is a
   * legitimate state (`count = var.enabled ? 1 : 0`), so its absence from state is not drift.
   */
  mayHaveNoInstances?: boolean;
  /**
   * Attribute values: state values when in state, else the config values (expressions kept as `${…}` text).
   * Blocks are arrays of objects (provider 3/4), nested attributes objects (provider 5).
   */
  attributes: Record<string, unknown>;
  /** The attributes as written in config, when config has the resource (`${…}` text for expressions). */
  configAttributes: Record<string, unknown> | null;
  /**
   * Config only: the attributes whose expressions could not be evaluated offline (their `${…}` text is kept
   * in `attributes`), with the reason. Absent when everything was known, and for state instances.
   */
  unresolved?: UnresolvedAttribute[];
  /** Config only: attributes that evaluate to a resource reference, with its address (`cloudflare_filter.f["a"].id`). */
  references?: Record<string, string>;
  /** Config only: count/for_each evaluated to zero instances (a legacy block that exists only as code). */
  noInstances?: boolean;
  /**
   * State only, of a resource whose block is still in config: why the configuration no longer gives this
   * instance (`count gives 0 instances here`, a key that left the for_each); the next plan would destroy it.
   */
  unconfigured?: string;
  /**
   * On the first state instance of a resource whose block is still in config: the instances the configuration
   * gives that state lacks (a key added to the tfvars, not applied yet); the next plan would create them.
   */
  unapplied?: string[];
}

/**
 * A setting the migration needs whose expression could not be evaluated offline (config only; state values
 * are always known): the attribute, the expression as written, and why.
 */
export interface UnresolvedSetting {
  attribute: string;
  expression: string;
  reason: string;
}

/** A minimal reference to an inventory resource, used by domain objects and findings. */
export interface ResourceRef {
  address: string;
  configAddress: string;
  type: string;
  file: string | null;
  line: number | null;
  zoneId: string | null;
  inConfig: boolean;
  inState: boolean;
  instancesUnknown?: boolean;
  mayHaveNoInstances?: boolean;
  /** Config only: count/for_each is known to give no instance, so nothing of it is in state. */
  noInstances?: boolean;
  /** In state, block in config, but count/for_each no longer gives this instance: why (see InventoryResource). */
  unconfigured?: string;
  /** Configured instances of this resource that state lacks (see InventoryResource). */
  unapplied?: string[];
}

// ---- Legacy WAF -------------------------------------------------------------------------------------

/** Which legacy package a group, rule or package belongs to, as far as it can be told offline. */
export type LegacyPackageKind = "owasp" | "cloudflare" | "unknown";

export interface LegacyWafPackage {
  ref: ResourceRef;
  packageId: string | null;
  /** `high` | `medium` | `low` | `off`; provider default `high`. */
  sensitivity: string | null;
  /** `simulate` | `block` | `challenge`; provider default `challenge`. */
  actionMode: string | null;
  kind: LegacyPackageKind;
  /** Settings of this resource not known offline (absent when all are known). */
  unresolved?: UnresolvedSetting[];
}

export interface LegacyWafGroup {
  ref: ResourceRef;
  groupId: string | null;
  packageId: string | null;
  mode: string | null;
  kind: LegacyPackageKind;
  /** Settings of this resource not known offline (absent when all are known). */
  unresolved?: UnresolvedSetting[];
}

export interface LegacyWafRule {
  ref: ResourceRef;
  ruleId: string | null;
  packageId: string | null;
  groupId: string | null;
  mode: string | null;
  kind: LegacyPackageKind;
  /** Settings of this resource not known offline (absent when all are known). */
  unresolved?: UnresolvedSetting[];
}

export interface LegacyWafOverride {
  ref: ResourceRef;
  urls: string[];
  rules: Record<string, string>;
  groups: Record<string, string>;
  rewriteAction: Record<string, string>;
  paused: boolean | null;
  description: string | null;
  /** Its zone or its own count/for_each when not known offline (absent when both are known). */
  unresolved?: UnresolvedSetting[];
}

// ---- Settings the migration touches ------------------------------------------------------------------

export interface FirewallRule {
  ref: ResourceRef;
  action: string | null;
  products: string[];
  /** The filter expression, when its `cloudflare_filter` is known; null otherwise. */
  expression: string | null;
  /** Address of the filter resource the rule points at, when known. */
  filterAddress: string | null;
  description: string | null;
  paused: boolean | null;
  priority: number | null;
  /** Settings of this resource not known offline (absent when all are known). */
  unresolved?: UnresolvedSetting[];
}

export interface PageRule {
  ref: ResourceRef;
  target: string | null;
  disableSecurity: boolean;
  /** `on` | `off` | null when the page rule does not set it. */
  waf: string | null;
  status: string | null;
  priority: number | null;
  /** Settings of this resource not known offline (absent when all are known). */
  unresolved?: UnresolvedSetting[];
}

/** A `cloudflare_ruleset` already in config or state (only the parts the migration cares about). */
export interface ExistingRuleset {
  ref: ResourceRef;
  kind: string | null;
  phase: string | null;
  name: string | null;
  rules: ExistingRulesetRule[];
  /** Its phase or zone when not known offline (absent when both are known): it may be a zone's entry point. */
  unresolved?: UnresolvedSetting[];
}

/** One rule of an existing ruleset, in the order the Ruleset Engine evaluates them. */
export interface ExistingRulesetRule {
  action: string | null;
  expression: string | null;
  description: string | null;
  /** An execute rule: the id of the ruleset it deploys (null when not a literal). */
  executes?: string | null;
  /**
   * A skip rule: what it skips. `current` (`ruleset = "current"`): the rest of this ruleset; `rulesets`: the
   * managed rulesets it names (from `rulesets` or the keys of `rules`); null: not known offline.
   */
  skips?: { current: boolean; rulesets: string[] } | null;
}

/**
 * The previous WAF's zone-wide switch: `cloudflare_zone_settings_override { settings { waf = … } }`
 * (provider 3/4) or `cloudflare_zone_setting` with `setting_id = "waf"` (provider 5).
 */
export interface ZoneWafSetting {
  ref: ResourceRef;
  /** `on` | `off`; null when the value is an expression not known offline. */
  value: string | null;
  /** The expression as written, when `value` is null. */
  expression: string | null;
  /** The value, or whether the resource has any instance, not known offline (VALUE_UNRESOLVED). */
  unresolved?: UnresolvedSetting[];
}

export interface ZoneResource {
  ref: ResourceRef;
  /** The zone's own id (state `id`), when known. */
  id: string | null;
  /** The zone's domain name (`zone` attribute). */
  name: string | null;
  plan: ZonePlan | null;
}

// ---- The new WAF: ruleset in the API shape of spec part 2 -------------------------------------------

export interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
}

export interface CategoryOverride {
  category: string;
  action?: string;
  enabled?: boolean;
}

export interface RuleActionParameters {
  /** Managed ruleset to execute (execute rules). */
  id?: string;
  overrides?: { rules?: RuleOverride[]; categories?: CategoryOverride[]; action?: string; enabled?: boolean };
  /** Skip rules: `current` skips the rest of the current ruleset. */
  ruleset?: string;
}

export interface RulesetRule {
  id?: string;
  version?: string;
  ref?: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: RuleActionParameters;
  logging?: { enabled: boolean };
}

export interface Ruleset {
  name: string;
  description?: string;
  rules: RulesetRule[];
}

// ---- Findings, errors, the report -------------------------------------------------------------------

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  zoneId: string | null;
  address: string | null;
  file: string | null;
  line: number | null;
  /** Extra machine-readable data (legacy ids, limits, commands). Optional, extends the contract compatibly. */
  details?: Record<string, unknown>;
  /** The root module (path relative to the report's `root`) and workspace the finding is about. */
  root?: string;
  workspace?: string;
}

/** Input that could not be read or parsed: its presence makes the exit code 2. */
export interface InputError {
  file: string;
  line: number | null;
  column: number | null;
  message: string;
  /**
   * The estate instance the input belongs to, when it is one workspace's own (its state file, its
   * `state pull`): that instance fails, the root's other workspaces do not. Absent: decided by the file.
   */
  root?: string;
  workspace?: string;
}

export interface ImportEntry {
  to: string;
  id: string;
}

export interface Phase1Eligibility {
  eligible: boolean;
  reasons: string[];
}

export interface ZoneReport {
  zoneId: string;
  /** The zone's domain name, when a `cloudflare_zone` resource names it. */
  zoneName: string | null;
  plan: ZonePlan;
  compatible: boolean;
  migrationMode: MigrationMode;
  phase1: Phase1Eligibility;
  ruleset: Ruleset;
  imports: ImportEntry[];
  stateRemovals: string[];
  /**
   * Settings that decide this zone's migration (ruleset settings, possible WAF bypasses, the zone id) whose
   * value is not known offline. Present only when non-empty: the generated ruleset then holds `# TODO`s
   * in their place and the zone is not ready to migrate until they are supplied (--var-file, --var, --state).
   */
  unresolved?: ZoneUnresolved[];
  /** The root module (relative to the report's `root`) and workspace this entry is for. */
  root?: string;
  workspace?: string;
  /**
   * A zone whose settings live in several roots has one entry point ruleset, in one root: the other roots'
   * entries have no rules and no import, and say here where the ruleset is.
   */
  rulesetIn?: { root: string; workspace: string };
  /** The previous WAF as configured for this zone, item by item with file:line (for reviewers; see zone-legacy.ts). */
  legacy?: ZoneLegacy;
  /** `--online` only: what the Cloudflare API said about the zone, and when (see docs/report-format.md). */
  service?: ZoneService;
}

/** Where one legacy item is: its address and its block's file:line (null when only state knows it). */
export interface ZoneLegacyItem {
  address: string;
  file: string | null;
  line: number | null;
}

/** `ZoneReport.legacy`: every list is present (empty when the zone has none); null values are not known offline. */
export interface ZoneLegacy {
  packages: (ZoneLegacyItem & { packageId: string | null; sensitivity: string | null; actionMode: string | null; kind: LegacyPackageKind })[];
  groups: (ZoneLegacyItem & { groupId: string | null; mode: string | null; kind: LegacyPackageKind })[];
  rules: (ZoneLegacyItem & { ruleId: string | null; groupId: string | null; mode: string | null; kind: LegacyPackageKind })[];
  overrides: (ZoneLegacyItem & { urls: string[]; description: string | null; paused: boolean | null })[];
  /** Firewall rules that bypass the WAF (or may: a setting unknown offline). */
  firewallRules: (ZoneLegacyItem & {
    action: string | null;
    products: string[];
    expression: string | null;
    description: string | null;
    paused: boolean | null;
  })[];
  /** Page Rules that disable security or set WAF On/Off (or may). */
  pageRules: (ZoneLegacyItem & { target: string | null; disableSecurity: boolean; waf: string | null; status: string | null })[];
  /** The zone-wide switch of the previous WAF (`waf = "on" | "off"`), where zone settings set it. */
  zoneWafSettings: (ZoneLegacyItem & { value: string | null; expression: string | null })[];
}

/** One answer of the service that a zone's entry used. */
export interface ServiceCall {
  operation: "check" | "status" | "config" | "entrypoint" | "zone";
  /** When the service gave the answer (ISO 8601); older than the run when it came from the cache. */
  fetchedAt: string;
  fromCache: boolean;
}

/** `zones[].service`: the service's view of a zone (`--online`). */
export interface ZoneService {
  /** `check?phase_two=1` → `compatible`; null when not known. */
  compatible: boolean | null;
  /** `check` → `migration_state` as the service spells it; null when not known. */
  migrationState: string | null;
  /** Where the migration stands, read from check and status: `start` (previous WAF only), `validation` (both on), `finished` (new WAF only), `unknown`. */
  status: "start" | "validation" | "finished" | "unknown";
  /** The entry point ruleset id once the zone has one (validation or finished): it fills the import. */
  rulesetId: string | null;
  /** The zone's plan from `GET /zones/{id}`, asked only when Terraform does not say it; null otherwise. */
  plan?: ZonePlan | null;
  /** Where `ruleset` came from: the service's equivalent configuration, the live entry point, or the offline rules. */
  rulesetSource: "service-config" | "entrypoint" | "offline";
  /** The oldest answer used (ISO 8601); null when nothing was fetched. */
  fetchedAt: string | null;
  /** True when every answer used came from the cache. */
  fromCache: boolean;
  calls: ServiceCall[];
  /** Why the service could not tell (the call that failed and its reason); the entry is then offline only. */
  error?: string;
}

/** One entry of `ZoneReport.unresolved`. */
export interface ZoneUnresolved extends UnresolvedSetting {
  address: string;
  file: string | null;
  line: number | null;
}

export interface PlanStep {
  number: number;
  title: string;
  commands: string[];
  notes?: string[];
  /** The root module and workspace the step runs in (several roots: each has its own steps). */
  root?: string;
  workspace?: string;
}

/** One (root, workspace) instance the report covers, with the states that made it (none: config only). */
export interface ReportRoot {
  path: string;
  workspace: string;
  states: string[];
  /** Zones this instance already manages with an entry point ruleset and no legacy WAF (absent when none). */
  migratedZones?: string[];
}

export interface Report {
  schemaVersion: 1;
  tool: { name: string; version: string };
  /** The directory `file` paths are relative to, itself relative to the working directory ("." or "infra/prod"). */
  root?: string;
  /** Every (root, workspace) instance read, in path order. */
  roots?: ReportRoot[];
  resources: ReportResource[];
  zones: ZoneReport[];
  findings: Finding[];
  plan?: { steps: PlanStep[] };
  errors: InputError[];
  /** plan only: the provider and Terraform versions of each root and what the generated code was fitted to. */
  versions?: unknown[];
  /** `--shard K/N` runs only: which shard of the estate's roots this report covers (`merge` joins them). */
  shard?: { index: number; count: number };
}

/** One of a report's lists as a writer walks it: an array, or items read back one at a time (estate/spill). */
export interface ReportList<T> extends Iterable<T> {
  readonly length: number;
  /**
   * The items as the JSON report prints them (render/json.ts reportItemJson), in the same order: a
   * list read back from disk keeps its items in that text, and the JSON report copies it.
   */
  jsonTexts?(): Iterable<string>;
  /**
   * What the JSON report prints between the list's brackets (render/json.ts jsonListBody of its jsonTexts),
   * in pieces of any size: a list whose text is put together elsewhere (a worker) hands it over whole.
   */
  jsonBody?(): Iterable<string>;
}

/** A report whose big lists may be read back item by item when written (a large estate's scan): same JSON. */
export type StreamedReport = Omit<Report, "resources" | "zones" | "findings"> & {
  resources: ReportList<ReportResource>;
  zones: ReportList<ZoneReport>;
  findings: ReportList<Finding>;
};

/** A resource as the report lists it: the inventory entry without its attribute values. */
export type ReportResource = Pick<InventoryResource, "address" | "type" | "file" | "line" | "zoneId" | "inConfig" | "inState"> & {
  /** The block's count/for_each gives no instance: listed, nothing of it evaluated. */
  noInstances?: true;
  root?: string;
  workspace?: string;
};

export function refOf(r: InventoryResource): ResourceRef {
  return {
    address: r.address,
    configAddress: r.configAddress,
    type: r.type,
    file: r.file,
    line: r.line,
    zoneId: r.zoneId,
    inConfig: r.inConfig,
    inState: r.inState,
    ...(r.instancesUnknown ? { instancesUnknown: true } : {}),
    ...(r.mayHaveNoInstances ? { mayHaveNoInstances: true } : {}),
    ...(r.noInstances ? { noInstances: true } : {}),
    ...(r.unconfigured ? { unconfigured: r.unconfigured } : {}),
    ...(r.unapplied?.length ? { unapplied: r.unapplied } : {}),
  };
}
