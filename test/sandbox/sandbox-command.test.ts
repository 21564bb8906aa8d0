// `npm run --silent sandbox -- up DIR` / `down DIR` as a user runs them: the export lines, the API in the
// background answering the tool's `api` commands through CLOUDFLARE_BASE_URL, terraform installing the
// double offline through TF_CLI_CONFIG_FILE, and `down` stopping exactly that process.

import { execa } from "execa";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import { TERRAFORM } from "./harness.js";

/** Generous: real terraform and several node processes on a shared, busy machine. */
const SLOW = 300_000;
const base = mkdtempSync(path.join(tmpdir(), "cfwm-sandbox-"));
const started: number[] = [];
afterAll(() => {
  // Never leave a background server behind, whatever the assertions did.
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  rmSync(base, { recursive: true, force: true });
});

function sandbox(args: string[]) {
  // As `npm run` does: the script runs from the package root, INIT_CWD is where the user typed the command.
  return execa("node", [path.join(ROOT, "dist/sandbox/cli.js"), ...args], { cwd: ROOT, env: { INIT_CWD: base }, reject: false, timeout: 120_000 });
}

/** What `eval "$(… up DIR)"` would set, read back through a real shell. */
async function evalExports(stdout: string): Promise<Record<string, string>> {
  const names = [...stdout.matchAll(/^export ([A-Z_]+)=/gm)].map((m) => m[1]!);
  const script = `${stdout}\nfor n in ${names.join(" ")}; do printf '%s=%s\\0' "$n" "$(printenv "$n")"; done`;
  const { stdout: out } = await execa("sh", ["-c", script], { env: {}, extendEnv: false });
  return Object.fromEntries(out.split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("sandbox up / down", () => {
  it("up prints the environment to eval; the API, the tool and terraform work with it; down stops it", async () => {
    const up = await sandbox(["up", "box"]);
    expect(up.exitCode, up.stderr).toBe(0);
    const dir = path.join(base, "box");
    const pid = Number(readFileSync(path.join(dir, "api.pid"), "utf8"));
    started.push(pid);
    expect(alive(pid)).toBe(true);
    expect(up.stdout.split("\n").filter(Boolean).every((l) => l.startsWith("export "))).toBe(true);
    const env = await evalExports(up.stdout);
    expect(env.TF_CLI_CONFIG_FILE).toBe(path.join(dir, "terraform.rc"));
    expect(env.CF_DOUBLE_ACCOUNT_DIR).toBe(path.join(dir, "account"));
    expect(env.CLOUDFLARE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    expect(env.CLOUDFLARE_API_TOKEN).toMatch(/^sandbox-[0-9a-f]{32}$/);
    expect(up.stderr).toContain(`pid ${pid}`);
    expect(existsSync(path.join(dir, "api.log"))).toBe(true);

    // The tool's api commands find the simulated service through CLOUDFLARE_BASE_URL alone.
    const check = await runCli(["api", "check", "--zone", "0da42c8d2132a9ddaf714f9e7c920711", "--format", "json"], { env });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ compatible: true, migration_state: "start" });
    expect(readFileSync(path.join(dir, "api.log"), "utf8")).toContain("GET /client/v4/zones/0da42c8d2132a9ddaf714f9e7c920711/waf_migration/check?phase_two=1 200");
    // The token printed is the one the API wants, and no other.
    const wrong = await runCli(["api", "check", "--zone", "0da42c8d2132a9ddaf714f9e7c920711"], { env: { ...env, CLOUDFLARE_API_TOKEN: "sandbox-wrong" } });
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stderr).toContain("Authentication error");

    // terraform installs the double offline through the printed CLI config.
    const root = path.join(base, "root");
    mkdirSync(root);
    writeFileSync(path.join(root, "main.tf"), 'terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "3.35.0"\n    }\n  }\n}\n');
    const init = await execa(TERRAFORM, ["init", "-input=false", "-no-color"], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: base, ...env }, extendEnv: false, reject: false, timeout: 120_000 });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain("Installing cloudflare/cloudflare v3.35.0");

    // A second up finds it running and prints the same environment.
    const again = await sandbox(["up", "box"]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain("already running");
    expect(await evalExports(again.stdout)).toEqual(env);

    const down = await sandbox(["down", "box"]);
    expect(down.exitCode, down.stderr).toBe(0);
    expect(down.stderr).toContain(`stopped (pid ${pid})`);
    expect(alive(pid)).toBe(false);
    expect(existsSync(path.join(dir, "api.pid"))).toBe(false);
    const after = await runCli(["api", "check", "--zone", "0da42c8d2132a9ddaf714f9e7c920711"], { env });
    expect(after.exitCode).not.toBe(0);
    expect(after.stderr).toContain("could not reach 127.0.0.1");

    const twice = await sandbox(["down", "box"]);
    expect(twice.exitCode).toBe(0);
    expect(twice.stderr).toContain("no simulated API running");
  }, SLOW);

  it("up again after down keeps the account (a migrated zone stays migrated)", async () => {
    const first = await sandbox(["up", "resume"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const dir = path.join(base, "resume");
    started.push(Number(readFileSync(path.join(dir, "api.pid"), "utf8")));
    const env = await evalExports(first.stdout);
    const migrate = await runCli(["api", "migrate", "--zone", "0da42c8d2132a9ddaf714f9e7c920711", "--mode", "pending", "--yes", "--poll-interval", "1"], { env });
    expect(migrate.exitCode, migrate.stderr).toBe(0);
    expect((await sandbox(["down", "resume"])).exitCode).toBe(0);

    const second = await sandbox(["up", "resume"]);
    expect(second.exitCode, second.stderr).toBe(0);
    started.push(Number(readFileSync(path.join(dir, "api.pid"), "utf8")));
    const env2 = await evalExports(second.stdout);
    expect(env2.CLOUDFLARE_API_TOKEN).toBe(env.CLOUDFLARE_API_TOKEN);
    const status = await runCli(["api", "status", "--zone", "0da42c8d2132a9ddaf714f9e7c920711", "--format", "json"], { env: env2 });
    expect(JSON.parse(status.stdout)).toMatchObject({ migration_state: "finished" });
    expect((await sandbox(["down", "resume"])).exitCode).toBe(0);
  }, SLOW);

  it("a usage error exits 2 and starts nothing", async () => {
    for (const args of [[], ["up"], ["start", "x"], ["up", "a", "b"]]) {
      const res = await sandbox(args);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain("usage: npm run --silent sandbox -- up DIR | down DIR");
      expect(res.stdout).toBe("");
    }
  }, SLOW);
});
