// The package's library entry point (`import … from "cf-waf-migrate"`): what a CI script or a bot calls to
// do what the CLI's commands do: read a workspace, analyse it, build the report, render it, assemble the
// migration plan, evaluate the provider-upgrade gate, and run the migration through terraform.
// Deliberately small: internals (readers, HCL editing, the API client's pieces) stay unexported so they
// can change without breaking callers. The JSON report (docs/report-format.md) is the stable contract.
export * from "./core/index.js";

// Reading Terraform configuration and state.
export { loadWorkspace, type Workspace, type WorkspaceOptions } from "./terraform/workspace.js";
export { collectProviderInfo, type ProviderInfo } from "./terraform/providers.js";

// Rendering a report in each format the CLI prints.
export { renderText, type TextOptions } from "./render/text.js";
export { renderJson } from "./render/json.js";
export { renderHtml, type HtmlOptions } from "./render/html/index.js";
export { renderMarkdown, type MarkdownOptions } from "./render/markdown.js";
export { renderSarif } from "./render/sarif.js";
export { renderJunit, type JunitOptions } from "./render/junit.js";
export { renderCertsText, type CertsReport } from "./render/certs-text.js";

// The migration plan (what `plan --out-dir` writes) and the CI gate (what `gate` decides).
export { assemblePlan, ARTIFACTS, type AssembledPlan } from "./cli/plan-artifacts.js";
export { renderPlanMarkdown, type PlanMarkdownInput } from "./plan/plan-markdown.js";
export { renderMigrateScript, type ScriptInput } from "./plan/migrate-script.js";
export { evaluateProviderGate, type ProviderGateOutcome } from "./terraform/provider-gate.js";

// Applying the plan through terraform (dry run unless `yes`).
export { runApply, renderApplyText, renderApplyJson, type ApplyOptions, type ApplyReport } from "./apply/index.js";
