// The cf-waf-migrate command line. Commands live in ./commands, one file each; this file wires them,
// and turns every failure into one line on stderr with the contract's exit code. The binary (./bin.ts) sets
// V8's flags and runs this file's bundle; the bundle is a classic script, so no top-level await here.
import yargs, { type CommandModule } from "yargs";
import { hideBin } from "yargs/helpers";
import { CliError, EXIT_CODES_EPILOGUE, EXIT_INPUT, UserInputError } from "./errors.js";
import { toolVersion } from "./io.js";

/**
 * Each command's module graph (API client, emitters, editors) is loaded only when that command runs, so
 * start-up pays for one command, not six. `--help` without a command loads them all.
 */
const COMMANDS: Record<string, () => Promise<CommandModule<any, any>>> = {
  scan: async () => (await import("./commands/scan.js")).scanCommand,
  plan: async () => (await import("./commands/plan.js")).planCommand,
  gate: async () => (await import("./commands/gate.js")).gateCommand,
  certs: async () => (await import("./commands/certs.js")).certsCommand,
  apply: async () => (await import("./commands/apply.js")).applyCommand,
  api: async () => (await import("./commands/api.js")).apiCommand,
  merge: async () => (await import("./commands/merge.js")).mergeCommand,
};

async function commandsFor(argv: string[]): Promise<CommandModule<any, any>[]> {
  const first = argv.find((a) => !a.startsWith("-"));
  // `--version` alone needs no command: loading all seven for it cost more than the answer.
  if (first === undefined && argv.includes("--version") && !argv.includes("--help")) return [];
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  return Promise.all(names.map((n) => COMMANDS[n]!()));
}

/**
 * yargs reads a lone `-` after an option as a positional; `--state -` (stdin) must stay the option's value,
 * so it is rewritten to `--state=-` before parsing.
 */
export function normalizeArgv(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    // Terraform spells its global options with one dash (`-no-color`, `-chdir=DIR`, `-json`); yargs would
    // read them as bundles of short flags.
    const single = /^-(no-color|chdir|json)(=.*)?$/.exec(a);
    if (single) a = `-${a}`;
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
    const cli = yargs(argv);
    skipHelpCache(cli);
    await cli
      .scriptName("cf-waf-migrate")
      .usage("$0 <command> [options]\n\nFind, plan and gate the move from Cloudflare's previous WAF to cloudflare_ruleset.")
      .command(await commandsFor(argv))
      .option("debug", { type: "boolean", default: false, describe: "print stack traces of internal errors" })
      .option("color", { type: "boolean", describe: "--no-color (or -no-color): no colours, as NO_COLOR=1 does" })
      .option("chdir", { type: "string", describe: "DIR: switch to DIR before anything else; every path is then relative to it (terraform's -chdir)" })
      .middleware(applyGlobalOptions, true)
      .epilogue(EXIT_CODES_EPILOGUE)
      .demandCommand(1, "Name a command: scan, plan, gate, apply, certs, api or merge.")
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

/**
 * yargs renders the whole help text before it runs a command (usage.cacheHelpMessage), only to print it
 * if the command fails later. Our `.fail()` prints one line instead, so that rendering (measured: about a
 * tenth of a short run's CPU, string-width over every help line) is skipped. An internal of yargs: when
 * it is not there (another major version), nothing changes.
 */
function skipHelpCache(cli: unknown): void {
  const usage = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => {};
}

/** `--chdir` first (terraform's meaning: every later path is relative to DIR), then `--no-color`. */
export function applyGlobalOptions(argv: { chdir?: unknown; color?: unknown }): void {
  if (typeof argv.chdir === "string") {
    try {
      process.chdir(argv.chdir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(`--chdir ${argv.chdir}: ${code === "ENOENT" ? "no such directory" : code === "ENOTDIR" ? "not a directory" : (e as Error).message}`);
    }
    // Every later path, apply's root module included, is now relative to DIR: DIR itself is ".".
    argv.chdir = ".";
  }
  if (argv.color === false) process.env.NO_COLOR = "1";
}

function reportFailure(e: unknown, debug: boolean): number {
  if (e instanceof UserInputError) {
    process.stderr.write(`cf-waf-migrate: ${e.message}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  process.stderr.write(`cf-waf-migrate: internal error: ${err?.message ?? String(e)}${debug ? "" : " (run with --debug for details)"}\n`);
  if (debug && err?.stack) process.stderr.write(err.stack + "\n");
  return EXIT_INPUT;
}

// A reader that stops early (`cf-waf-migrate scan | head`) closes the pipe: stop writing and exit with the
// run's code, as other command-line tools do, instead of an unhandled EPIPE with a stack trace.
// Any other failure to write stdout (a full disk behind a redirection, `> /dev/full`) is one line and exit 2,
// never an uncaught exception (whose exit code, 1, would read as "findings").
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`cf-waf-migrate: cannot write the report to standard output: ${e.message}\n`);
  process.exit(EXIT_INPUT);
});

// main() reports every failure itself (exit code and one line on stderr); it never rejects.
void main(hideBin(process.argv));
