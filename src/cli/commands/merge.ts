// `cf-waf-migrate merge REPORT.json...`: joins the JSON reports of `--shard K/N` runs into the report one
// run of the whole estate gives, renders it in any report format, and exits as that run would have.
import { readFile } from "node:fs/promises";
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { mergeReports, MergeError, type MergeInput } from "../../estate/merge.js";
import { parseJsonWithPositions } from "../../terraform/hcl/json-positions.js";
import { CliError } from "../errors.js";
import { parseFailOn, withOutputOptions } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html"] as const;

export interface MergeArgs {
  reports: string[];
  format: string[];
  output?: string;
  "fail-on"?: string;
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: "merge <reports..>",
  describe: "Join the JSON reports of --shard K/N runs into one report (any --format), exit code as if scanned at once",
  builder: (y: Argv) =>
    withOutputOptions(
      y.positional("reports", { type: "string", array: true, describe: "JSON reports of the shards (--format json output of scan, gate or plan)" }),
      FORMATS,
      "error",
    ) as unknown as Argv<MergeArgs>,
  handler: async (argv: ArgumentsCamelCase<MergeArgs>) => {
    const inputs = await Promise.all(argv.reports.map(readReportJson));
    let report;
    try {
      report = mergeReports(inputs);
    } catch (e) {
      if (e instanceof MergeError) throw new CliError(`merge: ${e.message}`);
      throw e;
    }
    await emitReport(report, { formats: argv.format, output: argv.output, title: "merge", allowed: FORMATS });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "error"));
  },
};

/** A report file, parsed; an unreadable or invalid one is a one-line `file:line:column: …` usage error. */
export async function readReportJson(file: string): Promise<MergeInput> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`merge: ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory, not a report" : (e as Error).message}`);
  }
  try {
    return { name: file, doc: JSON.parse(text) as unknown };
  } catch {
    const pos = parseJsonWithPositions(text);
    const where = pos.ok ? file : `${file}:${pos.line}:${pos.column}`;
    throw new CliError(`merge: ${where}: not valid JSON${pos.ok ? "" : ` (${pos.message})`}; merge reads the output of --format json`);
  }
}
