// `cf-waf-migrate scan`: find every previous-WAF resource and every setting the migration touches, in HCL
// and state, and check each zone against the service's rules.
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { buildReport } from "../../core/report.js";
import { loadCliWorkspace } from "../workspace.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parseZonePlans, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";
import { analyzeOnline } from "../../online/enrich.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html", "checkstyle", "compact"] as const;

export const scanCommand: CommandModule<object, CommonArgs & OnlineArgs> = {
  command: "scan [paths..]",
  describe: "Find legacy WAF resources and the settings the migration touches, in config and state",
  builder: (y: Argv) =>
    withExamples(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "never")), [
      ["$0 scan . --state terraform.tfstate", "scan the root module in this directory and its state"],
      ["$0 scan infra --state infra.tfstate --format sarif=scan.sarif --format junit=scan.xml", "write SARIF and JUnit for CI from one run"],
      ["$0 scan -chdir=infra -no-color --format compact", "terraform's and TFLint's spellings: run in infra, one line per finding"],
    ]) as unknown as Argv<CommonArgs & OnlineArgs>,
  handler: async (argv: ArgumentsCamelCase<CommonArgs & OnlineArgs>) => {
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const session = onlineSessionFromArgs(argv);
    const ws = await loadCliWorkspace(argv);
    const { analysis, decorate } = await analyzeOnline(
      ws.domain,
      { zonePlans, stateKnown: ws.stateKnown, unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path) },
      session,
    );
    const report = buildReport({ version: toolVersion(), root: relativeRoot(ws.base), resources: ws.resources, analysis, extraFindings: ws.findings, errors: ws.errors });
    decorate(report);
    await emitReport(report, { formats: argv.format, output: argv.output, title: "scan", allowed: FORMATS });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "never"));
  },
};
