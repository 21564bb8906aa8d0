// `--pull-state`: each root's live state, read through the terraform runner, for every workspace the root
// has. For each root: `<bin> -chdir=ROOT workspace list`, then for each workspace `<bin> -chdir=ROOT state
// pull` with `TF_WORKSPACE=<ws>` in its environment. TF_WORKSPACE selects the workspace for that one process
// only, where `workspace select` would rewrite `.terraform/environment` in the user's checkout.
//
// Terragrunt (`--terraform-bin terragrunt`) runs in the root's directory (it has no -chdir):
// `terragrunt run -- workspace list` (terragrunt 0.88 no longer forwards commands it has no shortcut for)
// and `terragrunt state pull` (a shortcut); it passes TF_WORKSPACE on to terraform/tofu.
//
// Roots are pulled `jobs` at a time (default 4). A root that fails does not stop the others: its error is
// classified (not initialised, locked, backend credentials, other) with the root, the command and a one-line
// fix, and every secret the environment holds, or that the message spells as `key=value` or in a URL, is
// masked (the environment's values through core/secret-redaction.ts, as the runner does). States stay in memory, tagged with their root and workspace: nothing is written to disk.
import { access } from "node:fs/promises";
import path from "node:path";
import { mapLimit } from "../core/map-limit.js";
import type { InputError } from "../core/model.js";
import { createTerraformCli, formatCommandLine, secretRedactor, stripAnsi, type CliResult, type TerraformCli } from "../terraform/runner/cli.js";
import { summarize, TerraformNotFoundError } from "../terraform/runner/errors.js";
import { parseStateText } from "../terraform/state/read.js";
import { DEFAULT_WORKSPACE } from "./instances.js";
import { workspaceOrder } from "./order.js";
import type { StateRead } from "../terraform/state/v4.js";

export const DEFAULT_PULL_JOBS = 4;

export type TerraformFlavor = "terraform" | "tofu" | "terragrunt";

export interface PullRoot {
  /** The root's path relative to the report's root, with `/` (`live/prod`; `.` for the report's root). */
  path: string;
  /** Absolute directory. */
  dir: string;
}

export interface PullStateOptions {
  roots: readonly PullRoot[];
  /** `terraform` (default), `tofu`, `terragrunt`, or a path to one of them. */
  bin?: string;
  /** How many roots are pulled at once; default 4. */
  jobs?: number;
  /** The working directory `-chdir` paths are relative to (default: the process's). */
  cwd?: string;
  /** Extra environment for every call. */
  env?: Record<string, string>;
  /** Per-call timeout in milliseconds (default: none). */
  timeoutMs?: number;
  /** Tests and callers with their own runner: the CLI for one directory. Default: the execa runner. */
  createCli?: (options: { bin: string; cwd: string; env: Record<string, string>; timeoutMs?: number }) => TerraformCli;
  /** Called once per command line before it runs (progress output). */
  onCommand?: (command: string) => void;
  /** Workspaces not to pull (a state the caller already holds): listed, but no `state pull`. */
  skipWorkspace?: (root: string, workspace: string) => boolean;
}

/** One workspace's state, as `--state ROOT=FILE` gives it to the estate loader, but read live. */
export interface PulledState {
  root: string;
  workspace: string;
  /** The command that produced it, for the report's `roots[].states` (`TF_WORKSPACE=eu terraform -chdir=live/staging state pull`). */
  source: string;
  /** null when the workspace has no state yet (`state pull` printed nothing). */
  state: StateRead | null;
}

export type PullErrorKind = "not-initialized" | "locked" | "auth" | "not-found" | "invalid-state" | "other";

export interface PullError {
  root: string;
  /** null when the failure came before any workspace (`workspace list`). */
  workspace: string | null;
  kind: PullErrorKind;
  command: string;
  /** One line: what went wrong (terraform's first diagnostic), secrets masked. */
  message: string;
  /** One line: what to do about it. */
  fix: string;
}

export interface PullOutcome {
  /** In root order (as given), each root's workspaces `default` first, then by name. */
  states: PulledState[];
  errors: PullError[];
}

/** The flavor a `--terraform-bin` value names: by the file's base name, else terraform. */
export function flavorOf(bin: string): TerraformFlavor {
  const base = path.basename(bin).toLowerCase().replace(/\.(exe|cmd|bat)$/, "");
  if (base.startsWith("terragrunt")) return "terragrunt";
  if (base.startsWith("tofu") || base.startsWith("opentofu")) return "tofu";
  return "terraform";
}

export async function pullStates(options: PullStateOptions): Promise<PullOutcome> {
  const bin = options.bin ?? "terraform";
  const flavor = flavorOf(bin);
  const cwd = options.cwd ?? process.cwd();
  const jobs = Math.max(1, Math.floor(options.jobs ?? DEFAULT_PULL_JOBS));
  const env: Record<string, string> = { TF_IN_AUTOMATION: "1", TF_INPUT: "0", ...(flavor === "terragrunt" ? { TG_NON_INTERACTIVE: "true" } : {}), ...options.env };
  const make =
    options.createCli ??
    ((o: { bin: string; cwd: string; env: Record<string, string>; timeoutMs?: number }) =>
      createTerraformCli({ bin: o.bin, cwd: o.cwd, env: o.env, ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}), ...(options.onCommand ? { onCommand: options.onCommand } : {}) }));
  const redactEnv = secretRedactor({ ...process.env, ...env });

  const perRoot = await mapLimit(options.roots, jobs, async (root) => {
    const runDir = flavor === "terragrunt" ? root.dir : cwd;
    const cli = make({ bin, cwd: runDir, env, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
    return pullRoot(cli, root, flavor, cwd, redactEnv, options.skipWorkspace);
  });
  return { states: perRoot.flatMap((r) => r.states), errors: perRoot.flatMap((r) => r.errors) };
}

/** The arguments for one root (terragrunt runs in the root's directory, the others get -chdir). */
export function pullArgs(flavor: TerraformFlavor, chdir: string, what: "workspace list" | "state pull"): string[] {
  if (flavor === "terragrunt") return what === "workspace list" ? ["run", "--", "workspace", "list"] : ["state", "pull"];
  return [`-chdir=${chdir}`, ...what.split(" ")];
}

async function pullRoot(
  cli: TerraformCli,
  root: PullRoot,
  flavor: TerraformFlavor,
  cwd: string,
  redactEnv: (t: string) => string,
  skipWorkspace: PullStateOptions["skipWorkspace"],
): Promise<PullOutcome> {
  const chdir = toSlash(path.relative(cwd, root.dir)) || ".";
  const fail = async (workspace: string | null, command: string, result: CliResult | null, error?: unknown): Promise<PullOutcome> => ({
    states: [],
    errors: [await classify(root, workspace, command, result, error, flavor, chdir, redactEnv)],
  });

  const listArgs = pullArgs(flavor, chdir, "workspace list");
  let list: CliResult;
  try {
    list = await cli.run(listArgs);
  } catch (e) {
    return fail(null, formatCommandLine(cli.bin, listArgs), null, e);
  }
  if (list.exitCode !== 0) return fail(null, list.command, list);
  const workspaces = parseWorkspaceList(list.stdout);
  if (workspaces.length === 0) workspaces.push(DEFAULT_WORKSPACE);

  const out: PullOutcome = { states: [], errors: [] };
  for (const workspace of workspaces) {
    if (skipWorkspace?.(root.path, workspace)) continue;
    const args = pullArgs(flavor, chdir, "state pull");
    const source = `TF_WORKSPACE=${workspace} ${formatCommandLine(cli.bin, args)}`;
    let result: CliResult;
    try {
      result = await cli.run(args, { env: { TF_WORKSPACE: workspace } });
    } catch (e) {
      out.errors.push(...(await fail(workspace, source, null, e)).errors);
      continue;
    }
    if (result.exitCode !== 0) {
      out.errors.push(...(await fail(workspace, source, result)).errors);
      continue;
    }
    if (result.stdout.trim() === "") {
      out.states.push({ root: root.path, workspace, source, state: null });
      continue;
    }
    const parsed = parseStateText(result.stdout, source);
    if (parsed.ok) out.states.push({ root: root.path, workspace, source, state: parsed.state });
    else {
      out.errors.push({
        root: root.path,
        workspace,
        kind: "invalid-state",
        command: source,
        message: oneLine(redactEnv(parsed.error.message)),
        fix: `check the state with \`${source}\`; it is not a Terraform state this tool can read`,
      });
    }
  }
  return out;
}

/** `terraform workspace list` output: one name a line, the selected one marked `*`. */
export function parseWorkspaceList(stdout: string): string[] {
  const names = stripAnsi(stdout)
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*\*?\s*/, "").trim())
    .filter((l) => l !== "" && /^[A-Za-z0-9_.-]+$/.test(l));
  return [...new Set(names)].sort(workspaceOrder);
}

// ---- Errors ---------------------------------------------------------------------------------------------

const NOT_INITIALIZED = [
  /Backend initialization required/i,
  /please run "?(terraform|tofu|terragrunt) init/i,
  /run "?(terraform|tofu) init"?/i,
  /Module not installed/i,
  /Required plugins are not installed/i,
  /Inconsistent dependency lock file/i,
  /backend.*(has|have) changed/i,
];
const UNREADABLE_STATE = [/Unsupported state file format/i, /state file could not be parsed/i, /Failed to (?:read|load) state.*(?:JSON|parse)/i];
const LOCKED = [/Error acquiring the state lock/i, /state (is )?locked/i, /ConditionalCheckFailedException/, /Lock Info:/];
const AUTH = [
  /no valid credential sources/i,
  /NoCredentialProviders/,
  /could not find default credentials/i,
  /InvalidAccessKeyId|InvalidClientTokenId|SignatureDoesNotMatch|ExpiredToken|UnrecognizedClientException/,
  /AccessDenied|Access Denied|AuthorizationFailed|AuthorizationPermissionMismatch/,
  /\b(401|403)\b.*\b(Unauthorized|Forbidden)\b|\b(Unauthorized|Forbidden)\b.*\b(401|403)\b/i,
  /Required token could not be found/i,
  /invalid_grant|oauth2: cannot fetch token/i,
  /Please run 'az login'|az login/i,
  /failed to (get|retrieve|refresh) credentials/i,
];

async function classify(
  root: PullRoot,
  workspace: string | null,
  command: string,
  result: CliResult | null,
  error: unknown,
  flavor: TerraformFlavor,
  chdir: string,
  redactEnv: (t: string) => string,
): Promise<PullError> {
  const base = { root: root.path, workspace, command };
  const binCmd = (args: string) => (flavor === "terragrunt" ? `cd ${chdir} && terragrunt ${args}` : `${flavor} -chdir=${chdir} ${args}`);
  if (error instanceof TerraformNotFoundError) {
    return { ...base, kind: "not-found", message: oneLine(redactEnv(error.message)), fix: `install ${flavor} or pass its path with --terraform-bin` };
  }
  if (error !== undefined || result === null) {
    return { ...base, kind: "other", message: oneLine(redactEnv(error instanceof Error ? error.message : String(error))), fix: `run \`${command}\` by hand to see why` };
  }
  const redact = (t: string) => maskInlineSecrets((result.redact ?? redactEnv)(stripAnsi(t)));
  const stderr = redact(result.stderr);
  const stdout = redact(result.stdout);
  const text = `${stderr}\n${stdout}`;
  const message = oneLine(result.timedOut ? "timed out" : summarize(stderr, stdout));
  if (LOCKED.some((re) => re.test(text))) {
    const id = /^\s*│?\s*ID:\s+(\S+)/m.exec(text)?.[1];
    return {
      ...base,
      kind: "locked",
      message,
      fix: `another run holds the state lock of ${root.path}${workspace && workspace !== DEFAULT_WORKSPACE ? ` (workspace ${workspace})` : ""}: wait for it to finish and retry, or, if that run died, \`${binCmd(`force-unlock ${id ?? "LOCK_ID"}`)}\``,
    };
  }
  if (NOT_INITIALIZED.some((re) => re.test(text)) || (flavor !== "terragrunt" && !(await exists(path.join(root.dir, ".terraform"))) && /init/i.test(text))) {
    return { ...base, kind: "not-initialized", message, fix: `run \`${binCmd("init")}\` (with the backend's credentials), then retry` };
  }
  // Terraform itself could not parse the workspace's state (truncated, malformed JSON): that state is unreadable.
  if (workspace && UNREADABLE_STATE.some((re) => re.test(text))) {
    const source = `TF_WORKSPACE=${workspace} ${binCmd("state pull")}`;
    return { ...base, kind: "invalid-state", message, fix: `the state itself is damaged (check it with \`${source}\`): restore it from a backup or the backend's versioning` };
  }
  if (AUTH.some((re) => re.test(text))) {
    return {
      ...base,
      kind: "auth",
      message,
      fix: "give this job the backend's credentials (s3: AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; gcs: GOOGLE_APPLICATION_CREDENTIALS; azurerm: ARM_* or az login; HCP Terraform: TF_TOKEN_app_terraform_io), then retry",
    };
  }
  return { ...base, kind: "other", message, fix: `run \`${binCmd(workspace ? "state pull" : "workspace list")}\`${workspace && workspace !== DEFAULT_WORKSPACE ? ` with TF_WORKSPACE=${workspace}` : ""} by hand to see the whole error` };
}

/**
 * Secrets a backend error can spell out whatever the environment holds: `access_key = "…"`, `token=…`,
 * `sas_token`, `password`, `client_secret`, and the user:password part of a URL.
 */
export function maskInlineSecrets(text: string): string {
  const named = /\b([A-Za-z_]*(?:access_key|secret_key|secret|token|password|passwd|client_secret|sas_token|api_key|private_key)[A-Za-z_]*)(\s*[=:]\s*)("?)([^\s",;&]+)\3/gi;
  const masked = text.replace(named, (_m, name: string, sep: string, quote: string) => `${name}${sep}${quote}***${quote}`);
  return masked.replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]+):([^\s/@]+)@/gi, "$1$2:***@");
}

function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s{2,}/g, " ").trim();
}

/** A pull error as the report lists unreadable input: the root as the file, exit code 2. */
export function pullErrorToInputError(e: PullError): InputError {
  const where = e.workspace && e.workspace !== DEFAULT_WORKSPACE ? ` (workspace ${e.workspace})` : "";
  const kind = { "not-initialized": "not initialised", locked: "state locked", auth: "backend credentials", "not-found": "binary not found", "invalid-state": "unreadable state", other: "failed" }[e.kind];
  return {
    file: e.root,
    line: null,
    column: null,
    message: `--pull-state${where}: ${kind}: ${e.message}; fix: ${e.fix}`,
    // A workspace's own `state pull` failed: that workspace fails; `workspace list` failing fails the root.
    ...(e.workspace ? { root: e.root, workspace: e.workspace } : {}),
  };
}

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

function toSlash(p: string): string {
  return p.split(path.sep).join("/");
}
