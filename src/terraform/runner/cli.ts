// The one way this tool runs `terraform` or `tofu`: an argv array (never a shell, so an address such as
// `module.waf["a"].cloudflare_waf_group.g["x"]` is one argument whatever it contains), a working
// directory, the caller's environment passed through, and stdout/stderr/exit code captured.
//
// `run` resolves for every exit code: each subcommand module (state-rm.ts, plan.ts, …) decides what its
// exit codes mean. It rejects only when the binary cannot be started. Tests and other callers can
// implement `TerraformCli` themselves.
import { createSecretRedactor } from "../../core/secret-redaction.js";
import { TerraformCommandError, TerraformNotFoundError } from "./errors.js";

export interface RunOptions {
  /** Extra environment for this call (on top of the CLI's own and the process environment). */
  env?: Record<string, string>;
  /** Text written to the process's standard input (otherwise stdin is closed). */
  input?: string;
  /** Kill the process after this many milliseconds. */
  timeoutMs?: number;
}

export interface CliResult {
  /** The arguments after the binary, exactly as passed. */
  args: string[];
  /** The command line for display, shell-quoted. */
  command: string;
  /** null when the process was killed (signal or timeout). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Masks secret-looking environment values in a text (for error messages); identity when absent. */
  redact?: (text: string) => string;
}

export interface TerraformCli {
  /** `terraform`, `tofu`, or a path. */
  readonly bin: string;
  readonly cwd: string;
  run(args: readonly string[], options?: RunOptions): Promise<CliResult>;
}

export interface TerraformCliOptions {
  /** Binary name or path; default `terraform`. */
  bin?: string;
  /** Working directory; default the process's. */
  cwd?: string;
  /** Environment added to the process environment for every call. */
  env?: Record<string, string>;
  /** Default timeout per call, in milliseconds; none by default. */
  timeoutMs?: number;
  /** Called with the display command line before each call (progress output). */
  onCommand?: (command: string) => void;
}

const SAFE_ARG = /^[A-Za-z0-9_\-.,:/=@%+]+$/;

/** POSIX shell quoting for display: `'module.waf["a"].x'`, `'it'\''s'`. */
export function quoteArg(arg: string): string {
  if (arg !== "" && SAFE_ARG.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function formatCommandLine(bin: string, args: readonly string[]): string {
  return [bin, ...args].map(quoteArg).join(" ");
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)/i;

/**
 * A function that masks the values of secret-looking variables (names with TOKEN, SECRET, API_KEY, …) in
 * terraform's output, in the same transformed forms as the API layer (src/core/secret-redaction.ts).
 */
export function secretRedactor(env: Record<string, string | undefined>): (text: string) => string {
  const values = Object.entries(env)
    .filter(([name, value]) => (SECRET_NAME.test(name) || name.startsWith("TF_TOKEN_")) && value)
    .map(([, value]) => value as string);
  return createSecretRedactor({ secrets: values, marker: "***" });
}

/** Builds the typed error for a failed call: command line, exit code, cleaned stderr/stdout; no environment. */
export function commandError(result: CliResult, detail?: string): TerraformCommandError {
  const clean = (t: string) => stripAnsi(result.redact ? result.redact(t) : t);
  return new TerraformCommandError(
    result.command,
    result.args,
    result.exitCode,
    clean(result.stderr),
    clean(result.stdout),
    detail === undefined ? undefined : clean(detail),
  );
}

/**
 * `cli` with each command line appended, before it runs, to the list `into()` returns at that moment (the
 * current step's record: callers move it from step to step).
 */
export function recordingCli(cli: TerraformCli, into: () => string[]): TerraformCli {
  return {
    bin: cli.bin,
    cwd: cli.cwd,
    run(args, runOptions) {
      into().push(formatCommandLine(cli.bin, args));
      return cli.run(args, runOptions);
    },
  };
}

/** The execa implementation of TerraformCli. */
export function createTerraformCli(options: TerraformCliOptions = {}): TerraformCli {
  const bin = options.bin ?? "terraform";
  const cwd = options.cwd ?? process.cwd();
  return {
    bin,
    cwd,
    async run(args, runOptions = {}) {
      const argv = [...args];
      const command = formatCommandLine(bin, argv);
      const env: Record<string, string> = {
        // `terraform version` and others call HashiCorp's checkpoint service; keep them offline and quick.
        ...(process.env["CHECKPOINT_DISABLE"] === undefined ? { CHECKPOINT_DISABLE: "1" } : {}),
        ...options.env,
        ...runOptions.env,
      };
      const redact = secretRedactor({ ...process.env, ...env });
      options.onCommand?.(command);
      const timeout = runOptions.timeoutMs ?? options.timeoutMs;
      // Loaded on the first command (~150 ms of CPU): commands that never run terraform do not pay for it.
      const { execa } = await import("execa");
      const result = await execa(bin, argv, {
        cwd,
        env,
        extendEnv: true,
        reject: false,
        shell: false,
        stripFinalNewline: false,
        maxBuffer: 512 * 1024 * 1024,
        windowsHide: true,
        ...(runOptions.input !== undefined ? { input: runOptions.input } : { stdin: "ignore" as const }),
        ...(timeout !== undefined ? { timeout } : {}),
      });
      const cause = result.cause as NodeJS.ErrnoException | undefined;
      if (result.exitCode === undefined && !result.timedOut && !result.isTerminated) {
        const code = cause?.code;
        const detail =
          code === "ENOENT"
            ? `${bin} was not found${bin.includes("/") ? "" : " on PATH"} (or the working directory ${cwd} does not exist)`
            : code === "EACCES"
              ? `${bin} is not executable`
              : (cause?.message ?? result.shortMessage ?? "the process could not be started");
        throw new TerraformNotFoundError(bin, command, detail);
      }
      return {
        args: argv,
        command,
        exitCode: result.exitCode ?? null,
        stdout: typeof result.stdout === "string" ? result.stdout : "",
        stderr: typeof result.stderr === "string" ? result.stderr : "",
        timedOut: result.timedOut,
        redact,
      };
    },
  };
}

/** Runs and requires exit code 0 (or one of `okCodes`); otherwise throws TerraformCommandError. */
export async function runChecked(
  cli: TerraformCli,
  args: readonly string[],
  okCodes: readonly number[] = [0],
  options?: RunOptions,
): Promise<CliResult> {
  const result = await cli.run(args, options);
  if (result.exitCode === null || !okCodes.includes(result.exitCode)) {
    throw commandError(result, result.timedOut ? "timed out" : undefined);
  }
  return result;
}

/** Terraform's flag parser stops at the first non-flag; an address starting with `-` would be read as a flag. */
export function assertAddress(address: string): void {
  if (address === "" || address.startsWith("-")) {
    throw new TypeError(`not a resource address: ${JSON.stringify(address)}`);
  }
}
