// Errors of the terraform runner. They carry the command line (shell-quoted, for display) and what the
// process printed, with ANSI colour codes removed and secret-looking environment values masked; they
// never carry the environment itself.

export class TerraformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TerraformError";
  }
}

/** The binary could not be started (not installed, not executable, bad cwd). */
export class TerraformNotFoundError extends TerraformError {
  constructor(
    readonly bin: string,
    readonly command: string,
    readonly detail: string,
  ) {
    super(`cannot run ${bin}: ${detail}`);
    this.name = "TerraformNotFoundError";
  }
}

/** The command ran and failed (non-zero exit that the subcommand does not define as success, or a signal). */
export class TerraformCommandError extends TerraformError {
  constructor(
    /** The command line, shell-quoted: `terraform state rm -dry-run 'module.waf["a"].x.y'`. */
    readonly command: string,
    /** The arguments after the binary, exactly as passed. */
    readonly args: readonly string[],
    /** null when the process was killed by a signal or timed out. */
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly stdout: string,
    detail?: string,
  ) {
    super(`${command} failed${exitCode === null ? "" : ` with exit code ${exitCode}`}: ${detail ?? summarize(stderr, stdout)}`);
    this.name = "TerraformCommandError";
  }
}

/** The command succeeded but printed something the runner cannot read. */
export class TerraformOutputError extends TerraformError {
  constructor(
    readonly command: string,
    readonly detail: string,
    readonly stdout: string,
  ) {
    super(`${command}: ${detail}`);
    this.name = "TerraformOutputError";
  }
}

/** The first diagnostic (`Error: …` plus its detail paragraph) or else the first non-empty line. */
export function summarize(stderr: string, stdout = ""): string {
  const text = stderr.trim() !== "" ? stderr : stdout;
  const lines = text.split(/\r?\n/).map((l) => l.replace(/^[│╷╵]\s?/, "").trimEnd());
  const at = lines.findIndex((l) => l.startsWith("Error: ") || l.startsWith("Error parsing"));
  if (at >= 0) {
    const summary = lines[at]!;
    const detail: string[] = [];
    let i = at + 1;
    while (i < lines.length && lines[i] === "") i++;
    for (; i < lines.length && lines[i] !== ""; i++) detail.push(lines[i]!.trim());
    return detail.length > 0 ? `${summary} (${detail.join(" ")})` : summary;
  }
  const first = lines.find((l) => l.trim() !== "");
  return first?.trim() ?? "no output";
}
