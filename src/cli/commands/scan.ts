// `cf-waf-migrate scan`: find every previous-WAF resource and every setting the migration touches, in HCL
// and state, and check each zone against the service's rules.
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { analyzeEstate } from "../../estate/analyze.js";
import { buildEstateReport, instanceInputs } from "../../estate/report.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parseZonePlans, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit"] as const;

export const scanCommand: CommandModule<object, CommonArgs> = {
  command: "scan [paths..]",
  describe: "Find legacy WAF resources and the settings the migration touches, in config and state",
  builder: (y: Argv) => withOutputOptions(withInputOptions(y), FORMATS, "never") as unknown as Argv<CommonArgs>,
  handler: async (argv: ArgumentsCamelCase<CommonArgs>) => {
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const estate = await loadCliEstate(argv);
    const analysis = analyzeEstate(instanceInputs(estate.instances), { zonePlans, rulesetRoots: rulesetRootsOf(argv, estate) });
    const report = buildEstateReport({ version: toolVersion(), root: relativeRoot(estate.base), instances: estate.instances, analysis, errors: estate.errors });
    await emitReport(report, { formats: argv.format, output: argv.output, title: "scan", allowed: FORMATS });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "never"));
  },
};
