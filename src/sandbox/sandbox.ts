// `sandbox up DIR` / `sandbox down DIR`: a directory that holds everything a person needs to run the real
// terraform and this tool against the simulated Cloudflare: the provider mirror and CLI config (for
// `terraform init` offline), the simulated account, and the simulated API running in the background
// (pid file and log file in DIR). `up` returns the environment to export; `down` stops the API.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { shellQuote } from "../core/shell-quote.js";
import { ACCOUNT_DIR_ENV, ACCOUNT_FILE, writeAccount } from "./account/account.js";
import { TOKEN_ENV } from "./api/main-env.js";
import { writeFileAtomicSync } from "./fs-sync.js";
import { buildMirror, servedVersions } from "./mirror.js";
import { sampleAccount } from "./sample-account.js";

export const SANDBOX_FILES = {
  pid: "api.pid",
  log: "api.log",
  ready: "api.json",
  token: "api.token",
  env: "env.sh",
  account: "account",
} as const;

export interface SandboxEnv {
  TF_CLI_CONFIG_FILE: string;
  CLOUDFLARE_API_TOKEN: string;
  CLOUDFLARE_BASE_URL: string;
  CF_DOUBLE_ACCOUNT_DIR: string;
  CHECKPOINT_DISABLE: string;
}

export interface SandboxUp {
  dir: string;
  pid: number;
  env: SandboxEnv;
  /** The API was already running from an earlier `up`; nothing was started. */
  alreadyRunning: boolean;
}

export interface UpOptions {
  versions?: string[];
  /** How long to wait for the API to listen (default 30 s: the machine may be busy). */
  startTimeoutMs?: number;
}

const API_MAIN = fileURLToPath(new URL("./api/main.js", import.meta.url));

export async function sandboxUp(dirArg: string, options: UpOptions = {}): Promise<SandboxUp> {
  const dir = resolve(dirArg);
  mkdirSync(dir, { recursive: true });
  const mirror = buildMirror(dir, options.versions ?? servedVersions());
  const accountDir = join(dir, SANDBOX_FILES.account);
  // An existing account is kept: `up` after `down` resumes where the sandbox was.
  if (!existsSync(join(accountDir, ACCOUNT_FILE))) writeAccount(accountDir, sampleAccount());
  const token = readOrCreateToken(dir);

  const running = runningApi(dir);
  if (running) return { dir, pid: running.pid, env: envOf(mirror.cliConfigFile, token, running.baseUrl, accountDir), alreadyRunning: true };

  if (!existsSync(API_MAIN)) throw new Error(`simulated API entry point missing: ${API_MAIN} (run npm run build)`);
  const readyFile = join(dir, SANDBOX_FILES.ready);
  rmSync(readyFile, { force: true });
  const log = openSync(join(dir, SANDBOX_FILES.log), "a");
  let exited: number | null | undefined;
  try {
    const child = spawn(process.execPath, [API_MAIN, readyFile], {
      // Its own session: it outlives this command and a Ctrl-C in the shell that ran `up`.
      detached: true,
      stdio: ["ignore", log, log],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [ACCOUNT_DIR_ENV]: accountDir, [TOKEN_ENV]: token },
    });
    child.on("exit", (code) => (exited = code));
    child.unref();
    const ready = await waitForReady(readyFile, () => exited, options.startTimeoutMs ?? 30_000, dir);
    writeFileAtomicSync(join(dir, SANDBOX_FILES.pid), `${ready.pid}\n`);
    const env = envOf(mirror.cliConfigFile, token, ready.baseUrl, accountDir);
    writeFileAtomicSync(join(dir, SANDBOX_FILES.env), exportLines(env), 0o600);
    return { dir, pid: ready.pid, env, alreadyRunning: false };
  } finally {
    closeSync(log);
  }
}

export interface SandboxDown {
  /** The pid that was stopped, or null when nothing was running. */
  stopped: number | null;
}

export async function sandboxDown(dirArg: string, timeoutMs = 10_000): Promise<SandboxDown> {
  const dir = resolve(dirArg);
  const running = runningApi(dir);
  rmSync(join(dir, SANDBOX_FILES.ready), { force: true });
  if (!running) {
    rmSync(join(dir, SANDBOX_FILES.pid), { force: true });
    return { stopped: null };
  }
  process.kill(running.pid, "SIGTERM");
  const until = Date.now() + timeoutMs;
  while (alive(running.pid) && Date.now() < until) await sleep(50);
  if (alive(running.pid)) process.kill(running.pid, "SIGKILL");
  rmSync(join(dir, SANDBOX_FILES.pid), { force: true });
  return { stopped: running.pid };
}

/** `export NAME='value'` lines, for `eval "$(npm run --silent sandbox -- up DIR)"`. */
export function exportLines(env: SandboxEnv): string {
  return Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join("");
}

function envOf(cliConfigFile: string, token: string, baseUrl: string, accountDir: string): SandboxEnv {
  return { TF_CLI_CONFIG_FILE: cliConfigFile, CLOUDFLARE_API_TOKEN: token, CLOUDFLARE_BASE_URL: baseUrl, CF_DOUBLE_ACCOUNT_DIR: accountDir, CHECKPOINT_DISABLE: "1" };
}

/** The sandbox's API token: made up per sandbox (it opens nothing but this local simulation). */
function readOrCreateToken(dir: string): string {
  const file = join(dir, SANDBOX_FILES.token);
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token !== "") return token;
  }
  const token = `sandbox-${randomBytes(16).toString("hex")}`;
  writeFileAtomicSync(file, `${token}\n`, 0o600);
  return token;
}

/** The API started by an earlier `up`, if its process is still the one that wrote the ready file. */
function runningApi(dir: string): { pid: number; baseUrl: string } | null {
  const readyFile = join(dir, SANDBOX_FILES.ready);
  let ready: { pid?: unknown; baseUrl?: unknown };
  try {
    ready = JSON.parse(readFileSync(readyFile, "utf8")) as typeof ready;
  } catch {
    return null;
  }
  if (typeof ready.pid !== "number" || typeof ready.baseUrl !== "string" || !alive(ready.pid)) return null;
  // A pid can be reused after a reboot: only a process running our API with this ready file counts.
  if (existsSync("/proc")) {
    try {
      const cmdline = readFileSync(`/proc/${ready.pid}/cmdline`, "utf8").split("\0");
      if (!cmdline.includes(API_MAIN) || !cmdline.includes(readyFile)) return null;
    } catch {
      return null;
    }
  }
  return { pid: ready.pid, baseUrl: ready.baseUrl };
}

async function waitForReady(readyFile: string, exited: () => number | null | undefined, timeoutMs: number, dir: string): Promise<{ pid: number; baseUrl: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(readyFile)) {
      try {
        const ready = JSON.parse(readFileSync(readyFile, "utf8")) as { pid: number; baseUrl: string };
        if (typeof ready.pid === "number" && typeof ready.baseUrl === "string") return ready;
      } catch {
        // Written atomically, so a parse failure means another writer; keep waiting.
      }
    }
    const code = exited();
    if (code !== undefined) throw new Error(`the simulated API exited (code ${code}) before listening; see ${join(dir, SANDBOX_FILES.log)}`);
    if (Date.now() > until) throw new Error(`the simulated API did not start within ${Math.round(timeoutMs / 1000)} s; see ${join(dir, SANDBOX_FILES.log)}`);
    await sleep(50);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
