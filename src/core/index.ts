// The pure core as a library (`cf-waf-migrate/core`): the domain model, the report's types, the analysis,
// the report builder and the finding codes. No I/O: a bot that already holds an inventory (from the API
// layer or its own reader) can evaluate it here without touching a file system.
export type {
  CategoryOverride,
  FailOn,
  Finding,
  ImportEntry,
  InputError,
  InventoryResource,
  MigrationMode,
  Phase1Eligibility,
  PlanStep,
  Report,
  ReportResource,
  ResourceRef,
  RuleActionParameters,
  RuleOverride,
  Ruleset,
  RulesetRule,
  Severity,
  SourceLocation,
  ZonePlan,
  ZoneLegacy,
  ZoneLegacyItem,
  ZoneReport,
  ZoneService,
  ServiceCall,
} from "./model.js";
export { analyze, type AnalysisResult, type AnalyzeOptions, type DomainInventory, type ZoneAnalysis } from "./analyze.js";
export { buildReport, TOOL_NAME } from "./report.js";
export { FINDING_CODES, highestSeverity, severityRank, sortFindings, tripsFailOn, type FindingCode } from "./findings.js";
export * from "./legacy-types.js";
export { UserInputError } from "./user-input-error.js";
export { providerFindings, type ProviderGateInput, type ProviderGateResult } from "./provider-gate.js";
export { auditCertificates, type Certificate } from "./certs.js";
export { decorateReport, migrationStage, serviceFindings, withServiceAnswers, type ServiceAnswers } from "./service-view.js";
export { fnv1a32, inShard, normalizeRootPath, parseShardSpec, selectShard, shardOfRoot, ShardSpecError, type ShardSpec } from "./shard.js";
