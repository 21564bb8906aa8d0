// The apply report as text (steps with ✓ done or skipped, → would run, ✗ failed) or JSON. The text form
// is also produced piece by piece (header, each step, summary) so the CLI can print steps as they finish.
import { makeStyle, type Style } from "../render/style.js";
import { APPLY_STEPS } from "./run.js";
import type { ApplyReport, StepRecord } from "./types.js";

/** The JSON document (schemaVersion 1). */
export function applyJson(report: ApplyReport): Record<string, unknown> {
  return {
    schemaVersion: report.schemaVersion,
    dryRun: report.dryRun,
    terraform: report.terraform,
    chdir: report.chdir,
    preflight: report.preflight,
    steps: report.steps.map((s) => ({ number: s.number, name: s.name, title: s.title, status: s.status, commands: s.commands, detail: s.detail })),
    backup: report.backup,
    error: report.error,
    rehearsal: report.rehearsal
      ? {
          status: report.rehearsal.status,
          detail: report.rehearsal.detail,
          setup: report.rehearsal.setup,
          steps: report.rehearsal.steps.map((s) => ({ number: s.number, name: s.name, title: s.title, status: s.status, commands: s.commands, detail: s.detail })),
          ...(report.rehearsal.importWaits ? { importWaits: true } : {}),
        }
      : null,
    ...(report.keptBlocks ? { keptBlocks: report.keptBlocks } : {}),
    exitCode: report.exitCode,
  };
}

/** The rehearsal's section of the text report (dry run). */
export function renderRehearsal(report: ApplyReport, style: Style = makeStyle(false)): string {
  const r = report.rehearsal;
  if (!r) return "";
  const head = r.status === "passed" ? style.ok("✓ Rehearsal passed") : r.status === "failed" ? style.severity("error", "✗ Rehearsal failed") : "Rehearsal skipped";
  const lines = ["", `${head}: steps 3-7 on a throwaway copy of the root (the real state and files are not touched)`];
  r.setup.forEach((c) => lines.push(indent(`$ ${c}`)));
  let out = lines.join("\n") + "\n";
  for (const step of r.steps) out += renderApplyStep(step, style);
  if (r.detail) out += indent(r.detail) + "\n";
  return out;
}

export function renderApplyJson(report: ApplyReport): string {
  return JSON.stringify(applyJson(report), null, 2) + "\n";
}

const PRODUCT = { terraform: "Terraform", tofu: "OpenTofu" } as const;

export function renderApplyHeader(report: ApplyReport, style: Style = makeStyle(false)): string {
  const lines = [
    style.bold(
      report.dryRun ? "cf-waf-migrate apply: dry run, nothing is changed (run it with --yes to apply)" : "cf-waf-migrate apply",
    ),
  ];
  if (report.terraform) lines.push(`${PRODUCT[report.terraform.flavor]} ${report.terraform.version} (${report.terraform.flavor}) in ${report.chdir}`);
  if (report.preflight.commands.length) lines.push(style.dim(`read: ${report.preflight.commands.join("; ")}`));
  return lines.join("\n") + "\n\n";
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => (l === "" ? "" : `     ${l}`))
    .join("\n");

export function renderApplyStep(step: StepRecord, style: Style = makeStyle(false)): string {
  const mark = step.status === "failed" ? style.severity("error", "✗") : step.status === "would-run" ? "→" : step.status === "deferred" ? "↷" : style.ok("✓");
  const suffix =
    step.status === "skipped" ? " (nothing to do)" : step.status === "would-run" ? " (would run)" : step.status === "failed" ? " (failed)" : step.status === "deferred" ? " (deferred)" : "";
  const lines = [`${mark} ${step.number}. ${step.title}${suffix}`];
  step.commands.forEach((c, i) => lines.push(indent(i < step.ran ? `$ ${c}` : `would run: ${c}`)));
  if (step.detail !== "") lines.push(indent(step.detail));
  return lines.join("\n") + "\n";
}

export function renderApplySummary(report: ApplyReport, style: Style = makeStyle(false)): string {
  const lines: string[] = [renderRehearsal(report, style).trimEnd()];
  const err = report.error;
  if (err === null && report.rehearsal?.importWaits) {
    lines.push(
      "",
      "Dry run: nothing was changed. With --yes this state's legacy entries leave its state, and the run stops there (exit 1): the import waits until the legacy blocks, kept for other states, are deleted. Run it in each state that shares them; the last deletes the blocks and imports, the others import when run again.",
    );
  } else if (err === null && report.rehearsal?.status === "failed") {
    lines.push("", style.severity("error", "Dry run: nothing was changed, but the rehearsal stopped: the same run with --yes would stop there. Fix that first."));
  } else if (err === null) {
    if (report.dryRun) lines.push("Dry run: nothing was changed. Run the same command with --yes to apply these steps.");
    else if (report.keptBlocks) {
      // No final plan ran: the kept blocks would show as to be created, so "no changes" would be untrue.
      lines.push(
        style.ok("Done for this state: the rulesets are imported and the legacy resources are out of its state."),
        `The legacy blocks are kept (other states still hold them: ${[...report.keptBlocks.holders, ...report.keptBlocks.unreadable].join("; ")}), so no final plan ran. Migrate those, then run the same command again to delete the blocks; do not \`${report.terraform?.flavor ?? "terraform"} apply\` this root meanwhile (its plan shows the kept blocks to be created).`,
      );
    } else lines.push(style.ok("Done: the legacy WAF resources are migrated and the plan shows no changes."));
  } else if (report.exitCode === 2) {
    lines.push(style.severity("error", `✗ Refused, nothing was changed: ${err.message}`));
  } else if (err.step === null) {
    lines.push(style.severity("error", `✗ Stopped before the first step: ${err.message}`));
    lines.push("Nothing was changed. Run the same command again once this is fixed.");
  } else {
    const failed = report.steps.find((s) => s.status === "failed");
    lines.push(style.severity("error", `✗ Stopped at ${failed ? `step ${failed.number} (${err.step})` : err.step}: ${err.message}`));
    const done = report.steps.filter((s) => s.status === "done" || s.status === "skipped");
    if (!report.dryRun) {
      lines.push(`Done: ${done.length ? done.map((s) => `${s.number}. ${s.name}${s.status === "skipped" ? " (already)" : ""}`).join(", ") : "nothing"}`);
    }
    const reached = new Set(report.steps.map((s) => s.name));
    const notRun = APPLY_STEPS.filter((s) => !reached.has(s.name));
    if (notRun.length) lines.push(`Not run: ${notRun.map((s) => `${s.number}. ${s.name}`).join(", ")}`);
    lines.push("Run the same command again to continue: finished steps are detected and skipped.");
  }
  if (report.backup) lines.push(`State backup (before this run): ${report.backup}`);
  return lines.join("\n") + "\n";
}

export function renderApplyText(report: ApplyReport, color = false): string {
  const style = makeStyle(color);
  return renderApplyHeader(report, style) + report.steps.map((s) => renderApplyStep(s, style)).join("") + renderApplySummary(report, style);
}
