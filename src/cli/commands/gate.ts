// `cf-waf-migrate gate`: scan's findings plus the provider-upgrade check, as a CI gate. Exits 1 when a
// finding is at or above --fail-on (default `error`), 2 when input could not be read, else 0. The text
// report ends with the blocking findings and one verdict line (`GATE FAILED: …` / `gate passed: …`).
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import type { Report } from "../../core/model.js";
import { formatVersion, InvalidVersionError, parseVersion } from "../../core/provider-version.js";
import { renderText } from "../../render/text.js";
import { renderHtml } from "../../render/html/index.js";
import { gateTextTail, gateVerdict } from "../../render/gate-verdict.js";
import { gateEstate } from "../../estate/gate-report.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { CliError } from "../errors.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parseZonePlans, resolveOutputs, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor, exitCodeOf } from "../report-output.js";
import { scanCliReport } from "../scan-estate.js";
import { GateStream } from "../../estate/gate-stream.js";
import { wholeReport } from "../../core/report.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
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

    // The text report ends with the blocking findings and the verdict; every other format is the shared one.
    const renderers = (summaries: string[]) => ({
      text: (r: Report, ctx: { color: boolean; title: string }) => renderText(r, ctx) + gateTextTail(r, failOn, summaries, ctx.color),
      html: (r: Report, ctx: { title: string }) => renderHtml(r, { title: ctx.title, verdict: gateVerdict(r, failOn, summaries) }),
    });

    if (session !== null) {
      // Online, the service's answers need every instance's domain: the whole estate is loaded first.
      const estate = await loadCliEstate(argv, process.cwd(), run);
      const { report, summaries } = await gateEstate(estate, { version: toolVersion(), root: relativeRoot(estate.base), target, zonePlans, rulesetRoots: rulesetRootsOf(argv, estate), session });
      const shown = recordShard(run, report);
      await emitReport(shown, { formats: argv.format, output: argv.output, title: "gate", allowed: FORMATS, renderers: renderers(summaries) });
      process.exitCode = exitCodeFor(shown, failOn);
      await writeSummaryFile(run, shown, failOn, estate.allRootPaths);
      return;
    }
    // Offline, as scan: each instance analysed as it is read, the report's lists on disk; the gate keeps what it checks of each.
    const gate = new GateStream(target);
    const outcome = await scanCliReport(argv, process.cwd(), run, { zonePlans }, null, gate.add);
    try {
      const gated = await gate.finish(outcome.report, outcome.severities);
      const shown = recordShard(run, gated.report);
      // JSON is written item by item; another format or the summary file reads the report whole, once.
      let held: Report | undefined;
      const whole = () => (held ??= wholeReport(shown));
      await emitReport(shown, { formats: argv.format, output: argv.output, title: "gate", allowed: FORMATS, renderers: renderers(gated.summaries), whole });
      process.exitCode = exitCodeOf(shown.errors.length, gated.severities, failOn);
      if (run.summaryFile !== null) await writeSummaryFile(run, whole(), failOn, outcome.allRootPaths);
    } finally {
      outcome.dispose();
    }
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

