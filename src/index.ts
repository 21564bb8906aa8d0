// The package's library entry point (`import … from "cf-waf-migrate"`): what a CI script or a bot calls to
// do what the CLI's commands do: read a workspace, analyse it, build the report, render it, assemble the
// migration plan, evaluate the provider-upgrade gate, and run the migration through terraform.
// Deliberately small: internals (readers, HCL editing, the API client's pieces) stay unexported so they
// can change without breaking callers. The JSON report (docs/report-format.md) is the stable contract.
export * from "./core/index.js";

// Reading Terraform configuration and state.
export { loadWorkspace, type Workspace, type WorkspaceOptions } from "./terraform/inventory/workspace.js";
export { collectProviderInfo, type ProviderInfo } from "./terraform/versions/providers.js";

// Estates: many root modules and workspaces, one instance each (src/estate/).
export { loadEstate, type Estate, type EstateInstance, type EstateOptions, type OwnedState } from "./estate/load.js";
export { estateRoots, DEFAULT_WORKSPACE, type EstateRoot } from "./estate/instances.js";
export { parseStateArg, stateOwner, workspaceOf, type StateArg, type StateOwner } from "./estate/state-owner.js";
export { analyzeEstate, type EstateAnalysis, type EstateAnalyzeOptions, type InstanceAnalysis, type InstanceInput } from "./estate/analyze.js";
export { buildEstateReport, instanceInputs } from "./estate/report.js";
export { scanEstate, type EstateScanOptions } from "./estate/scan.js";
export { estateProviderGate } from "./estate/gate.js";
export { gateEstate, type GateInput, type GateResult } from "./estate/gate-report.js";
export { gateTextTail, gateVerdict } from "./render/gate-verdict.js";

// Rendering a report in each format the CLI prints.
export { renderText, type TextOptions } from "./render/text.js";
export { renderJson } from "./render/json.js";
export { renderHtml, type HtmlOptions } from "./render/html/index.js";
export { renderMarkdown, type MarkdownOptions } from "./render/markdown.js";
export { renderSarif } from "./render/sarif.js";
export { renderJunit, type JunitOptions } from "./render/junit.js";
export { renderCertsText, type CertsReport } from "./render/certs-text.js";

// Certificates and the CA chain change (what `certs` reports, and its `--fix` patch).
export { auditEstateCertificates, CERTIFICATE_RESOURCE_TYPES, type CertsAudit, type LocatedCertificate } from "./certs/audit.js";
export { buildCertificateFix, PatchWriteError, type CertificateFixOptions, type CertificateFixResult } from "./certs/fix.js";

// The migration plan (what `plan --out-dir` writes) and the CI gate (what `gate` decides).
export { assemblePlan, ARTIFACTS, type AssembledPlan } from "./plan/artifacts.js";
export { planEstate, type EstatePlan, type EstatePlanInput, type InstancePlan } from "./plan/estate-plan.js";
export { renderPlanMarkdown, type PlanMarkdownInput } from "./plan/plan-markdown.js";
export { renderMigrateScript, type ScriptInput } from "./plan/migrate-script.js";
export { evaluateProviderGate, type ProviderGateOutcome } from "./terraform/versions/provider-gate.js";

// Applying the plan through terraform (dry run unless `yes`).
export { runApply, renderApplyText, renderApplyJson, type ApplyOptions, type ApplyReport } from "./apply/index.js";

// The online half: the service's view of every zone (`--online`) and resumable migration waves.
export { openOnlineSession, type OnlineSession, type OnlineSettings, type OnlineDeps } from "./online/session.js";
export { analyzeOnline, collectServiceAnswers, type OnlineAnalysis } from "./online/enrich.js";
export { runWave, summaryLines, type WaveOptions, type WaveSummary, type ZoneSummary } from "./online/waves.js";

// Large estates: joining --shard reports, reading every root's live state, the per-root run summary.
export { mergeReports, MergeError, type MergeInput, type ShardReport } from "./estate/merge.js";
export { pullStates, type PullError, type PullOutcome, type PulledState, type PullStateOptions } from "./estate/pull-state.js";
export { buildRunSummary, type RunSummaryEntry } from "./estate/run-summary.js";
