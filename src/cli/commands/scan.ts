// `cf-waf-migrate scan`: find every previous-WAF resource and every setting the migration touches, in HCL
// and state, and check each zone against the service's rules.
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { analyzeEstateOnline } from "../../estate/online.js";
import { buildEstateReport, instanceInputs } from "../../estate/report.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parseZonePlans, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html"] as const;

export const scanCommand: CommandModule<object, CommonArgs & OnlineArgs & EstateRunArgs> = {
  command: "scan [paths..]",
  describe: "Find legacy WAF resources and the settings the migration touches, in config and state",
  builder: (y: Argv) => withEstateOptions(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "never"))) as unknown as Argv<CommonArgs & OnlineArgs & EstateRunArgs>,
  handler: async (argv: ArgumentsCamelCase<CommonArgs & OnlineArgs & EstateRunArgs>) => {
    const run = parseEstateRun(argv);
    const failOn = parseFailOn(argv["fail-on"], "never");
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const session = onlineSessionFromArgs(argv);
    const estate = await loadCliEstate(argv, process.cwd(), run);
    const { analysis, decorate } = await analyzeEstateOnline(instanceInputs(estate.instances), { zonePlans, rulesetRoots: rulesetRootsOf(argv, estate) }, session);
    const report = buildEstateReport({ version: toolVersion(), root: relativeRoot(estate.base), instances: estate.instances, analysis, errors: estate.errors });
    decorate(report);
    const shown = recordShard(run, report);
    await emitReport(shown, { formats: argv.format, output: argv.output, title: "scan", allowed: FORMATS });
    process.exitCode = exitCodeFor(shown, failOn);
    await writeSummaryFile(run, shown, failOn, estate.allRootPaths);
  },
};
