// The online estate workflow through the built CLI against the simulated API over HTTP: scan --online,
// a cached rerun that sends nothing, a migration wave killed with SIGKILL and resumed (no zone sent
// twice), plan --online --out-dir with every migrated zone's import complete, and no credential in any
// output, cache file, ledger or written file.
import { execa } from "execa";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedactor } from "../../src/api/redact.js";
import { readAccount } from "../../src/sandbox/account/account.js";
import { startApiServer, type ApiServer } from "../../src/sandbox/api/server.js";
import { BIN, runCli, type CliResult } from "../support/cli.js";
import { estateTerraform } from "../../src/sandbox/api/estate.js";
import { fakeTerraformBin } from "../support/workdir.js";
import { estateOnDisk, estateZoneState, TOKEN, type EstateDirs } from "./helpers.js";

const ZONES = 14;
let dirs: EstateDirs;
let server: ApiServer;
let env: Record<string, string>;
const outputs: CliResult[] = [];
// The server holds the answer to every PUT after the first until the wave test has killed its client.
let afterKill!: () => void;
const killed = new Promise<void>((resolve) => (afterKill = resolve));

async function cli(args: string[]): Promise<CliResult> {
  const r = await runCli(args, { cwd: dirs.tfDir, env });
  outputs.push(r);
  return r;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

beforeAll(async () => {
  dirs = estateOnDisk(ZONES, 1);
  server = await startApiServer({ accountDir: dirs.accountDir, credentials: { token: TOKEN }, faults: dirs.estate.faults, putDelayMs: 600, holdPut: (n) => (n >= 2 ? killed : undefined) });
  env = { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: server.baseUrl };
}, 30_000);
afterAll(async () => {
  afterKill();
  await server?.close();
  rmSync(dirs.root, { recursive: true, force: true });
});

describe("the online estate workflow", () => {
  it("scan --online reports the service's view; a second scan sends nothing", async () => {
    const first = await cli(["scan", ".", "--online", "--format", "json", "--output", "../report.json", "--cache-dir", "../cache"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const sent = server.requests().length;
    expect(sent).toBeGreaterThanOrEqual(ZONES * 4);
    const report = JSON.parse(readFileSync(path.join(dirs.root, "report.json"), "utf8")) as { zones: { service?: { fromCache: boolean } }[] };
    expect(report.zones.every((z) => z.service?.fromCache === false)).toBe(true);

    const second = await cli(["scan", ".", "--online", "--format", "json", "--cache-dir", "../cache"]);
    expect(second.exitCode).toBe(0);
    expect(server.requests().length).toBe(sent);
    expect(second.stderr).toMatch(/0 requests sent, \d+ answers from the cache/);
    const again = JSON.parse(second.stdout) as { zones: { service?: { fromCache: boolean } }[] };
    expect(again.zones.every((z) => z.service?.fromCache === true)).toBe(true);
  }, 60_000);

  it("a wave killed with SIGKILL and run again sends no zone twice", async () => {
    const ledger = path.join(dirs.root, "waves.jsonl");
    const args = [BIN, "api", "migrate", "--from", "../report.json", "--ledger", ledger, "--wave-size", "50", "--cache-dir", "../cache", "--yes"];
    const child = execa("node", args, { cwd: dirs.tfDir, env: { ...env, NO_COLOR: "1" }, reject: false });
    // Wait (no wall-clock deadline: the test's own timeout is the backstop) for the second PUT, whose answer the
    // server holds until the kill: the client is killed between a PUT the server applied and its answer.
    let exited = false;
    void child.finally(() => (exited = true));
    while (!exited && server.requests().filter((r) => r.method === "PUT").length < 2) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGKILL");
    const stopped = await child;
    afterKill();
    outputs.push({ stdout: String(stopped.stdout), stderr: String(stopped.stderr), exitCode: stopped.exitCode ?? -1 });
    expect(stopped.signal).toBe("SIGKILL");
    const putsBefore = server.requests().filter((r) => r.method === "PUT").length;
    expect(putsBefore).toBeGreaterThanOrEqual(2);
    const lastLine = JSON.parse(readFileSync(ledger, "utf8").trim().split("\n").at(-1)!) as { type: string };
    expect(lastLine.type).toBe("request");

    // Reruns until the wave and the --finish wave have nothing left.
    for (const extra of [[], ["--finish"]]) {
      const r = await cli(["api", "migrate", "--from", "../report.json", "--ledger", ledger, "--wave-size", "50", "--cache-dir", "../cache", "--yes", "--format", "json", "--summary-json", "../summary.json", ...extra]);
      expect(r.exitCode, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { zones: { outcome: string }[]; stoppedBy: string | null };
      expect(summary.stoppedBy).toBeNull();
      expect(summary.zones.filter((z) => z.outcome === "not-reached")).toEqual([]);
    }
    const puts = server.requests().filter((r) => r.method === "PUT");
    const keys = puts.map((p) => `${p.zoneId} ${p.query}`);
    expect(new Set(keys).size).toBe(keys.length);
    const account = readAccount(dirs.accountDir);
    for (const z of dirs.estate.zones) {
      const expected = z.kind === "incompatible" ? undefined : "finished";
      expect([z.id, account.zones[z.id]!.migration_state]).toEqual([z.id, expected]);
    }
    expect(JSON.parse(readFileSync(path.join(dirs.root, "summary.json"), "utf8"))).toHaveProperty("zones");
  }, 90_000);

  it("plan --online --out-dir: every migrated zone's import is complete, no <RULESET_ID> left for it", async () => {
    const r = await cli(["plan", ".", "--online", "--out-dir", "../out", "--cache-dir", "../cache", "--format", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { zones: { zoneId: string; imports: { id: string }[]; service: { status: string; rulesetId: string | null } }[]; findings: { code: string; zoneId: string }[] };
    const imports = readFileSync(path.join(dirs.root, "out/imports.tf"), "utf8");
    for (const z of report.zones) {
      if (z.service.status !== "finished") continue;
      expect(z.service.rulesetId).toMatch(/^[0-9a-f]{32}$/);
      expect(z.imports[0]!.id).toBe(`zone/${z.zoneId}/${z.service.rulesetId}`);
      expect(imports).toContain(`"zone/${z.zoneId}/${z.service.rulesetId}"`);
      expect(report.findings.filter((f) => f.zoneId === z.zoneId).map((f) => f.code)).not.toContain("RULESET_ID_UNKNOWN");
    }
    const finished = report.zones.filter((z) => z.service.status === "finished").length;
    expect(finished).toBe(dirs.estate.zones.filter((z) => z.kind !== "incompatible").length);
    // Only the incompatible zones keep the placeholder.
    expect((imports.match(/ id = "zone\/[0-9a-f]{32}\/<RULESET_ID>"/g) ?? []).length).toBe(dirs.estate.zones.filter((z) => z.kind === "incompatible").length);
  }, 60_000);

  it("apply --online imports a migrated zone's entry point with no --ruleset-id (dry run, fake terraform)", async () => {
    const zone = dirs.estate.zones.find((z) => z.kind === "migrated")!;
    const key = zone.name.split(".")[0]!;
    const root = path.join(dirs.root, "apply-root");
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "main.tf"), estateTerraform({ ...dirs.estate, zones: [zone] }));
    writeFileSync(path.join(root, "terraform.tfstate"), estateZoneState(zone.id, key));
    const plan = await runCli(["plan", ".", "--state", "terraform.tfstate", "--online", "--cache-dir", "../cache", "--out-dir", "../apply-out", "--format", "json"], { cwd: root, env });
    expect(plan.exitCode, plan.stderr).toBe(0);
    outputs.push(plan);
    copyFileSync(path.join(dirs.root, "apply-out/ruleset.tf"), path.join(root, "ruleset.tf"));
    const bin = fakeTerraformBin();
    const apply = await runCli(["apply", ".", "--online", "--cache-dir", "../cache"], { cwd: root, env: { ...env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` } });
    outputs.push(apply);
    expect(apply.exitCode, apply.stderr + apply.stdout).toBe(0);
    const rulesetId = Object.keys(readAccount(dirs.accountDir).zones[zone.id]!.rulesets!)[0]!;
    expect(apply.stdout).toContain(`would run: terraform import -input=false -no-color cloudflare_ruleset.`);
    expect(apply.stdout).toContain(`zone/${zone.id}/${rulesetId}`);
    expect(apply.stdout).not.toContain("<RULESET_ID>");
  }, 60_000);

  it("refuses bad online settings in one line before sending anything (exit 2)", async () => {
    const before = server.requests().length;
    const noCreds = await runCli(["scan", ".", "--online"], { cwd: dirs.tfDir, env: { CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_BASE_URL: server.baseUrl } });
    expect([noCreds.exitCode, noCreds.stderr.trim()]).toEqual([2, "cf-waf-migrate: --online: no Cloudflare API credentials: set CLOUDFLARE_API_TOKEN, or both CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY"]);
    const badAge = await cli(["plan", ".", "--online", "--max-age", "soon"]);
    expect([badAge.exitCode, badAge.stderr.trim().split("\n")]).toEqual([2, ['cf-waf-migrate: --online: --max-age "soon": expected a duration such as 15m, 2h, 90s or 0']]);
    const stray = await cli(["gate", ".", "--max-age", "1h"]);
    expect(stray.exitCode).toBe(2);
    const noLedger = await cli(["api", "migrate", "--from", "../report.json"]);
    expect([noLedger.exitCode, noLedger.stderr]).toEqual([2, expect.stringMatching(/--from needs --ledger FILE/)]);
    expect(server.requests().length).toBe(before);
  }, 60_000);

  it("no credential in any output, cache file, ledger or written file, in any form", () => {
    const redact = createRedactor([TOKEN]);
    const texts: [string, string][] = outputs.flatMap((o, i) => [[`run ${i} stdout`, o.stdout], [`run ${i} stderr`, o.stderr]] as [string, string][]);
    for (const f of allFiles(dirs.root)) if (!f.startsWith(dirs.accountDir)) texts.push([f, readFileSync(f, "latin1")]);
    expect(texts.some(([name]) => name.includes(`${path.sep}cache${path.sep}`))).toBe(true);
    expect(texts.some(([name]) => name.endsWith("waves.jsonl"))).toBe(true);
    for (const [name, text] of texts) {
      expect(text.includes(TOKEN), name).toBe(false);
      // The redactor finds nothing to replace: no fragment, case change, spacing, hex or base64 form.
      expect(redact(text) === text, name).toBe(true);
    }
  });
});
