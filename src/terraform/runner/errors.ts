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

/** The lines of terraform's output without the diagnostic box drawing (`╷`, `│`, `╵`) at their start. */
function unboxedLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.replace(/^[│╷╵]\s?/, "").trimEnd());
}

/** The `with ADDRESS,` line of each `Error:` diagnostic terraform printed (null where one has none). */
export function errorSubjects(stderr: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const l of unboxedLines(stderr)) {
    if (/^Error[: ]/.test(l)) out.push(null);
    else if (out.length > 0 && out[out.length - 1] === null) {
      const m = /^\s*with (\S+),$/.exec(l);
      if (m) out[out.length - 1] = m[1]!;
    }
  }
  return out;
}

/**
 * The first diagnostic (`Error: …` plus its detail paragraph) or else the first paragraph that is not a
 * warning (with the paragraph after it when it ends with `:`, as `Failed to refresh state: 2 problems:` does).
 * Warnings are never the summary: a CLI configuration warning printed before the error used to be.
 */
export function summarize(stderr: string, stdout = ""): string {
  const text = stderr.trim() !== "" ? stderr : stdout;
  const lines = unboxedLines(text);
  const at = lines.findIndex((l) => l.startsWith("Error: ") || l.startsWith("Error parsing"));
  if (at >= 0) {
    const summary = lines[at]!;
    const detail: string[] = [];
    let i = at + 1;
    while (i < lines.length && lines[i] === "") i++;
    for (; i < lines.length && lines[i] !== ""; i++) detail.push(lines[i]!.trim());
    return detail.length > 0 ? `${summary} (${detail.join(" ")})` : summary;
  }
  const paragraphs = withoutWarnings(text);
  const first = paragraphs[0];
  if (first === undefined) return lines.find((l) => l.trim() !== "")?.trim() ?? "no output";
  const next = paragraphs[1];
  return first.endsWith(":") && next !== undefined ? `${first} ${next}` : first;
}

/** Paragraphs (one line each) outside `Warning:` diagnostic boxes and the CLI configuration preamble. */
function withoutWarnings(text: string): string[] {
  const out: string[] = [];
  let box: string[] | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    const p = paragraph.join(" ").trim();
    if (p !== "" && !/^There are some problems with the CLI configuration:$/.test(p)) out.push(p);
    paragraph = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line.startsWith("╷")) {
      flush();
      box = [];
      continue;
    }
    if (box !== null) {
      if (line.startsWith("╵")) {
        const body = box.map((l) => l.replace(/^│\s?/, "")).filter((l) => l.trim() !== "");
        if (body.length > 0 && !body[0]!.startsWith("Warning:")) out.push(body.join(" "));
        box = null;
      } else box.push(line);
      continue;
    }
    if (line.trim() === "") flush();
    else paragraph.push(line.trim());
  }
  flush();
  return out;
}
