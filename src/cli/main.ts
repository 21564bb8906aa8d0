#!/usr/bin/env node
// The cf-waf-migrate command line. Commands live in ./commands, one file each; this file wires them,
// and turns every failure into one line on stderr with the contract's exit code.
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { apiCommand } from "./commands/api.js";
import { applyCommand } from "./commands/apply.js";
import { certsCommand } from "./commands/certs.js";
import { gateCommand } from "./commands/gate.js";
import { planCommand } from "./commands/plan.js";
import { scanCommand } from "./commands/scan.js";
import { CliError, EXIT_INPUT } from "./errors.js";
import { toolVersion } from "./io.js";

/**
 * yargs reads a lone `-` after an option as a positional; `--state -` (stdin) must stay the option's value,
 * so it is rewritten to `--state=-` before parsing.
 */
export function normalizeArgv(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("--") && !a.includes("=") && argv[i + 1] === "-") {
      out.push(`${a}=-`);
      i++;
    } else out.push(a);
  }
  return out;
}

export async function main(rawArgv: string[]): Promise<void> {
  const argv = normalizeArgv(rawArgv);
  const debug = argv.includes("--debug");
  try {
    await yargs(argv)
      .scriptName("cf-waf-migrate")
      .usage("$0 <command> [options]\n\nFind, plan and gate the move from Cloudflare's previous WAF to cloudflare_ruleset.")
      .command(scanCommand)
      .command(planCommand)
      .command(gateCommand)
      .command(certsCommand)
      .command(applyCommand)
      .command(apiCommand)
      .option("debug", { type: "boolean", default: false, describe: "print stack traces of internal errors" })
      .demandCommand(1, "Name a command: scan, plan, gate, apply, certs or api.")
      .strict()
      .version(toolVersion())
      .help()
      .wrap(Math.min(110, process.stdout.columns ?? 110))
      .fail((msg, err, y) => {
        if (err) throw err;
        throw new CliError(`${msg}\nRun 'cf-waf-migrate --help' for usage.`);
      })
      .parseAsync();
  } catch (e) {
    process.exitCode = reportFailure(e, debug);
  }
}

function reportFailure(e: unknown, debug: boolean): number {
  if (e instanceof CliError) {
    process.stderr.write(`cf-waf-migrate: ${e.message}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  process.stderr.write(`cf-waf-migrate: internal error: ${err?.message ?? String(e)}${debug ? "" : " (run with --debug for details)"}\n`);
  if (debug && err?.stack) process.stderr.write(err.stack + "\n");
  return EXIT_INPUT;
}

await main(hideBin(process.argv));
