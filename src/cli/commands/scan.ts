// `cf-waf-migrate scan`: find every previous-WAF resource and every setting the migration touches, in HCL
// and state, and check each zone against the service's rules.
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { scanCliReport } from "../scan-estate.js";
import { parseFailOn, parseZonePlans, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeOf } from "../report-output.js";
import { wholeReport } from "../../core/report.js";
import type { Report } from "../../core/model.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html", "checkstyle", "compact"] as const;

export const scanCommand: CommandModule<object, CommonArgs & OnlineArgs & EstateRunArgs> = {
  command: "scan [paths..]",
  describe: "Find legacy WAF resources and the settings the migration touches, in config and state",
  builder: (y: Argv) =>
    withExamples(withEstateOptions(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "never"))), [
      ["$0 scan . --state terraform.tfstate", "scan the root module in this directory and its state"],
      ["$0 scan infra --state infra.tfstate --format sarif=scan.sarif --format junit=scan.xml", "write SARIF and JUnit for CI from one run"],
      ["$0 scan -chdir=infra -no-color --format compact", "terraform's and TFLint's spellings: run in infra, one line per finding"],
    ]) as unknown as Argv<CommonArgs & OnlineArgs & EstateRunArgs>,
  handler: async (argv: ArgumentsCamelCase<CommonArgs & OnlineArgs & EstateRunArgs>) => {
    const run = parseEstateRun(argv);
    const failOn = parseFailOn(argv["fail-on"], "never");
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const session = onlineSessionFromArgs(argv);
    const outcome = await scanCliReport(argv, process.cwd(), run, { zonePlans }, session);
    try {
      const shown = recordShard(run, outcome.report);
      // JSON is written item by item from the scan's spill; another format or the summary file reads it whole, once.
      let held: Report | undefined;
      const whole = () => (held ??= wholeReport(shown));
      await emitReport(shown, { formats: argv.format, output: argv.output, title: "scan", allowed: FORMATS, whole });
      process.exitCode = exitCodeOf(shown.errors.length, outcome.severities, failOn);
      if (run.summaryFile !== null) await writeSummaryFile(run, whole(), failOn, outcome.allRootPaths);
    } finally {
      outcome.dispose();
    }
  },
};
