// `cf-waf-migrate gate`: scan's findings plus the provider-upgrade check, as a CI gate. Exits 1 when a
// finding is at or above --fail-on (default `error`), 2 when input could not be read, else 0. The text
// report ends with the blocking findings and one verdict line (`GATE FAILED: …` / `gate passed: …`).
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { severityRank, tripsFailOn } from "../../core/findings.js";
import type { FailOn, Finding, Report } from "../../core/model.js";
import { formatVersion, InvalidVersionError, parseVersion } from "../../core/provider-version.js";
import { reportPath, withLine } from "../../core/report-paths.js";
import { makeStyle } from "../../render/style.js";
import { renderText } from "../../render/text.js";
import { renderHtml } from "../../render/html/index.js";
import { collectProviderInfo } from "../../terraform/versions/providers.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { analyzeEstateOnline } from "../../estate/online.js";
import { estateProviderGate, oneFindingPerProviderCause, rootProviderInfo } from "../../estate/gate.js";
import { buildEstateReport, instanceInputs } from "../../estate/report.js";
import { CliError } from "../errors.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parseZonePlans, resolveOutputs, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
import { versionFindings } from "../../plan/versions.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html", "checkstyle", "compact"] as const;

export interface GateArgs extends CommonArgs, OnlineArgs, EstateRunArgs {
  "target-provider"?: string;
}

export const gateCommand: CommandModule<object, GateArgs> = {
  command: "gate [paths..]",
  describe: "CI gate: fail when findings reach --fail-on, including a provider upgrade that legacy WAF resources block",
  builder: (y: Argv) =>
    withExamples(
      withEstateOptions(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "error"))).option("target-provider", {
        type: "string",
        describe: "VERSION: would moving the Cloudflare provider to this version break? (e.g. 4.52.8)",
      }),
      [
        ["$0 gate . --state terraform.tfstate --target-provider 4.52.8", "fail the build while legacy WAF resources block provider 4.52.8"],
        ["$0 gate . --minimum-failure-severity warning --format checkstyle -o gate.xml", "TFLint's spellings: fail on warnings too, Checkstyle XML for the CI"],
        ["$0 gate --chdir infra --json --fail-on never", "report only (JSON on stdout), never fail"],
      ],
    ) as unknown as Argv<GateArgs>,
  handler: async (argv: ArgumentsCamelCase<GateArgs>) => {
    const failOn = parseFailOn(argv["fail-on"], "error");
    const target = parseTargetProvider(argv["target-provider"]);
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    // Bad --format/--output combinations are usage errors: report them before reading anything.
    resolveOutputs(argv.format, argv.output, FORMATS, process.stdout.isTTY === true);
    const session = onlineSessionFromArgs(argv);
    const run = parseEstateRun(argv);

    const estate = await loadCliEstate(argv, process.cwd(), run);
    const { analysis, decorate } = await analyzeEstateOnline(instanceInputs(estate.instances), { zonePlans, rulesetRoots: rulesetRootsOf(argv, estate) }, session);
    // Each instance is judged against its own root's provider constraints and lock file.
    const providers = await collectProviderInfo(estate.tree, estate.base);
    const gate = estateProviderGate(estate, providers, target);
    // What plan would refuse or warn about for the versions each root pins (issue 21), before anyone runs it.
    const versions = estate.instances.flatMap((inst, i) =>
      versionFindings(
        inst.ws,
        rootProviderInfo(providers, inst.dir),
        analysis.instances[i]!.analysis.zones.map((z) => z.zone.ruleset),
        // A split zone's ruleset is imported in the instance that holds it, not here.
        analysis.instances[i]!.analysis.zones.filter((z) => !z.zone.rulesetIn).length,
      ).map((f) => Object.assign(f, { root: inst.root, workspace: inst.workspace })),
    );
    const report = buildEstateReport({
      version: toolVersion(),
      root: relativeRoot(estate.base),
      instances: estate.instances,
      analysis,
      extraFindings: oneFindingPerProviderCause(gate.findings, versions),
      errors: [...estate.errors, ...providers.errors, ...gate.errors],
    });
    decorate(report);

    // The text report ends with the blocking findings and the verdict; every other format is the shared one.
    const text = (r: Report, ctx: { color: boolean; title: string }) => renderText(r, ctx) + gateTextTail(r, failOn, gate.summaries, ctx.color);
    const html = (r: Report, ctx: { title: string }) => renderHtml(r, { title: ctx.title, verdict: gateVerdict(r, failOn, gate.summaries) });
    const shown = recordShard(run, report);
    await emitReport(shown, { formats: argv.format, output: argv.output, title: "gate", allowed: FORMATS, renderers: { text, html } });
    process.exitCode = exitCodeFor(shown, failOn);
    await writeSummaryFile(run, shown, failOn, estate.allRootPaths);
  },
};

/** `--target-provider`: a provider version (`4.52.8`, `5`, `4.0.0-rc1`), normalised to three parts. */
export function parseTargetProvider(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return formatVersion(parseVersion(value));
  } catch (e) {
    if (e instanceof InvalidVersionError) throw new CliError(`--target-provider ${JSON.stringify(value)}: not a provider version (expected e.g. 4.52.8)`);
    throw e;
  }
}

/**
 * What the text report of `gate` ends with: the provider upgrade's status, the blocking findings, and the
 * verdict line as the very last line.
 */
export function gateTextTail(report: Report, failOn: FailOn, summaries: string[], color = false): string {
  const st = makeStyle(color);
  const lines: string[] = ["", st.bold("Provider upgrade")];
  for (const s of summaries) lines.push(`  ${s}`);
  const blocking = report.findings.filter((f) => tripsFailOn(f.severity, failOn));
  if (blocking.length) {
    lines.push("");
    lines.push(st.bold(`Blocking findings (${blocking.length}, --fail-on ${failOn})`));
    for (const f of blocking) {
      const where = f.file ? withLine(reportPath(report, f.file), f.line) : (f.address ?? "");
      lines.push(`  ${st.severity(f.severity, f.severity.toUpperCase().padEnd(7))} ${f.code}  ${where}${f.address && f.file ? `  ${f.address}` : ""}`);
    }
  }
  lines.push("");
  lines.push(verdictLine(report, failOn, blocking, st));
  return lines.join("\n") + "\n";
}

/** The gate's verdict for the HTML report: the text report's last line, and the provider upgrade's status. */
export function gateVerdict(report: Report, failOn: FailOn, summaries: string[]): { failed: boolean; line: string; notes: string[] } {
  const blocking = report.findings.filter((f) => tripsFailOn(f.severity, failOn));
  return { failed: report.errors.length > 0 || blocking.length > 0, line: verdictLine(report, failOn, blocking, makeStyle(false)), notes: summaries };
}

function verdictLine(report: Report, failOn: FailOn, blocking: Finding[], st: ReturnType<typeof makeStyle>): string {
  const n = report.errors.length;
  if (n > 0) {
    return st.severity("error", `GATE FAILED: ${n} input${n === 1 ? "" : "s"} could not be read or parsed (exit 2); the result is incomplete`);
  }
  if (blocking.length > 0) {
    const counts = new Map<string, number>();
    for (const f of [...blocking].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    const codes = [...counts].map(([c, k]) => (k > 1 ? `${c} x${k}` : c)).join(", ");
    return st.severity("error", `GATE FAILED: ${blocking.length} finding${blocking.length === 1 ? "" : "s"} at or above --fail-on ${failOn} (${codes})`);
  }
  const total = report.findings.length;
  const below = total === 0 ? "no findings" : `${total} finding${total === 1 ? "" : "s"}, none at or above --fail-on ${failOn}`;
  return st.ok(failOn === "never" ? `gate passed: --fail-on never (${total} finding${total === 1 ? "" : "s"} reported)` : `gate passed: ${below}`);
}
