import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import yargs from "yargs";
import { apiCommand } from "../../src/cli/commands/api.js";
import { HOSTNAME_ID, sampleConfig, sampleZones, startFakeCloudflare, ZONE_ENT, ZONE_INCOMPATIBLE, ZONE_PRO, type FakeCloudflare } from "../support/fake-cloudflare.js";
import { EMAIL, KEY, TOKEN, fakeClock, runApi } from "./helpers.js";

const EP = "/rulesets/phases/http_request_firewall_managed/entrypoint";
const env = { CLOUDFLARE_API_TOKEN: TOKEN };

let fake: FakeCloudflare;
let dir: string;
beforeEach(async () => {
  fake = await startFakeCloudflare({ zones: sampleZones(), credentials: { token: TOKEN, email: EMAIL, key: KEY } });
  dir = await mkdtemp(join(tmpdir(), "cf-waf-api-"));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[], deps: Parameters<typeof runApi>[1] = { env }) => runApi([...args, "--base-url", fake.baseUrl], deps);
const calls = () => fake.requests.map((r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ""}`);

describe("api check", () => {
  it("prints compatible and migration_state; exit 0", async () => {
    const res = await run(["check", "--zone", ZONE_PRO, "--format", "text"]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe(`zone ${ZONE_PRO}\ncompatible: true\nmigration_state: start\n`);
    expect(res.stderr).toBe("");
    expect(calls()).toEqual([`GET /zones/${ZONE_PRO}/waf_migration/check?phase_two=1`]);
  });

  it("exits 1 with an explanation when the zone is not compatible", async () => {
    const res = await run(["check", "--zone", ZONE_INCOMPATIBLE, "--format", "text"]);
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toContain("compatible: false");
    expect(res.stdout).toContain("URI-based WAF overrides");
  });

  it("prints the result object as JSON (the default when stdout is not a terminal)", async () => {
    const res = await run(["check", "--zone", ZONE_PRO]);
    expect(JSON.parse(res.stdout)).toEqual({ compatible: true, migration_state: "start" });
  });

  it("validates --zone before sending anything", async () => {
    for (const zone of ["shop.example", "0da42c8d2132a9ddaf714f9e7c92071", "0da42c8d2132a9ddaf714f9e7c92071g"]) {
      const res = await run(["check", "--zone", zone]);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toBe(`error: --zone must be a zone ID of 32 hexadecimal characters (the ID, not the domain name), got ${JSON.stringify(zone)}\n`);
    }
    const missing = await run(["check"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("--zone ZONE_ID is required");
    expect(fake.requests).toHaveLength(0);
  });

  it("accepts an upper-case zone id and sends it in lower case", async () => {
    const res = await run(["check", "--zone", ZONE_PRO.toUpperCase()]);
    expect(res.exitCode).toBe(0);
    expect(fake.requests[0].path).toBe(`/zones/${ZONE_PRO}/waf_migration/check`);
  });

  it("names the credential variables when none are set", async () => {
    const res = await run(["check", "--zone", ZONE_PRO], { env: {} });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe("error: no Cloudflare API credentials: set CLOUDFLARE_API_TOKEN, or both CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY\n");
    expect(fake.requests).toHaveLength(0);
  });

  it("reports an API error envelope in one line with exit 2", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "error", status: 403, errors: [{ code: 9109, message: "Unauthorized to access requested resource" }] });
    const res = await run(["check", "--zone", ZONE_PRO]);
    expect(res.exitCode).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toContain("HTTP 403: [9109] Unauthorized to access requested resource");
    expect(res.thrown).toBeUndefined();
  });

  it("retries a 429 with Retry-After and shows why on stderr", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "rate-limit", retryAfter: "7" });
    const clock = fakeClock();
    const res = await run(["check", "--zone", ZONE_PRO], { env, sleep: clock.sleep, now: clock.now });
    expect(res.exitCode).toBe(0);
    expect(clock.sleeps).toEqual([7000]);
    expect(res.stderr).toContain("the service is rate limiting (HTTP 429); retrying in 7 s as Retry-After asks");
  });

  it("fails with the rate limit named when 429s do not stop", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "rate-limit", retryAfter: "30" }, 10);
    const clock = fakeClock();
    const res = await run(["check", "--zone", ZONE_PRO], { env, sleep: clock.sleep, now: clock.now });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("error: GET /zones/");
    expect(res.stderr).toContain("the Cloudflare API is rate limiting this client (HTTP 429)");
    expect(fake.requests.length).toBeLessThanOrEqual(3); // 30 s waits: the 60 s budget allows two
  });

  it("times out per --timeout", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "delay", ms: 3000 });
    const res = await run(["check", "--zone", ZONE_PRO, "--timeout", "0.1"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("within 0.1 s (request timed out)");
    const bad = await run(["check", "--zone", ZONE_PRO, "--timeout", "0"]);
    expect(bad.stderr).toBe("error: --timeout must be a positive number of seconds\n");
  });

  it("reports malformed JSON with exit 2", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "malformed" });
    const res = await run(["check", "--zone", ZONE_PRO]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("HTTP 200 with a body that is not valid JSON (41 characters, not shown)");
    expect(res.stderr).not.toContain("Bad Gateway");
  });

  it("refuses a plain-http base URL that is not loopback", async () => {
    const res = await runApi(["check", "--zone", ZONE_PRO, "--base-url", "http://api.example.com/client/v4"], { env });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("base URL must use https");
  });

  it("rejects --format hcl outside config", async () => {
    const res = await run(["check", "--zone", ZONE_PRO, "--format", "hcl"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toBe('error: --format hcl is only available for "api config"\n');
  });
});

describe("api config", () => {
  it("--format json prints exactly the result object", async () => {
    const res = await run(["config", "--zone", ZONE_PRO, "--format", "json"]);
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(sampleConfig());
    expect(calls()).toEqual([`GET /zones/${ZONE_PRO}/waf_migration/config?phase_two=1`]);
  });

  it("--output writes the JSON file that plan --config-json reads", async () => {
    const file = join(dir, "zone.json");
    const res = await run(["config", "--zone", ZONE_PRO, "--output", file]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr).toBe(`wrote ${file}\n`);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(sampleConfig());
  });

  it("text describes the rules", async () => {
    const res = await run(["config", "--zone", ZONE_PRO, "--format", "text"]);
    expect(res.stdout).toContain('ruleset "default": 1 rule\n');
    expect(res.stdout).toContain("1. execute efb7b8c949ac4650a09736fc376e9aee (Cloudflare Managed Ruleset), enabled, expression: true");
    expect(res.stdout).toContain("override rule 23ee7cebe6e8443e99ecf932ab579455: action=log enabled=false");
    expect(res.stdout).toContain(`--config-json ${ZONE_PRO}=${ZONE_PRO}.json`);
  });

  it("--format hcl calls the HCL emitter hook", async () => {
    const seen: unknown[] = [];
    const res = await run(["config", "--zone", ZONE_PRO, "--format", "hcl", "--provider-major", "5"], {
      env,
      loadHclEmitter: async () => ({
        emit: (opts) => {
          seen.push(opts);
          return 'resource "cloudflare_ruleset" "x" {}\n';
        },
      }),
    });
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('resource "cloudflare_ruleset" "x" {}\n');
    expect(seen).toEqual([{ resourceName: `waf_managed_${ZONE_PRO.slice(0, 8)}`, zoneIdExpression: JSON.stringify(ZONE_PRO), ruleset: { name: "default", rules: [{ action: "execute", expression: "true", description: "", enabled: true, action_parameters: sampleConfig().rules[0].action_parameters }] }, providerMajor: 5 }]);
  });

});

describe("api status and entrypoint", () => {
  it("status prints every field, whatever its name", async () => {
    fake.zones.get(ZONE_PRO)!.status = { old_waf_status: "enabled", new_waf_status: "disabled", migration_state: "start", source: "api", created: "2025-01-01T00:00:00Z" };
    const res = await run(["status", "--zone", ZONE_PRO, "--format", "text"]);
    expect(res.stdout).toBe(
      `zone ${ZONE_PRO}\nold_waf_status: enabled\nnew_waf_status: disabled\nmigration_state: start\nsource: api\ncreated: 2025-01-01T00:00:00Z\n`,
    );
    const json = await run(["status", "--zone", ZONE_PRO]);
    expect(JSON.parse(json.stdout)).toMatchObject({ source: "api" });
    expect(calls()[0]).toBe(`GET /zones/${ZONE_PRO}/waf_migration/status`);
  });

  it("entrypoint says when there is none yet", async () => {
    const res = await run(["entrypoint", "--zone", ZONE_ENT]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(`zone ${ZONE_ENT} has no http_request_firewall_managed entry point ruleset yet`);
    expect(res.stderr).toContain("[10003]");
  });

  it("entrypoint prints the ruleset id and the import id", async () => {
    fake.zones.get(ZONE_ENT)!.entrypoint = { id: "4814384a9e5d4991b9815dcfc25d2f1f", name: "default", version: "3", phase: "http_request_firewall_managed", rules: [] };
    const text = await run(["entrypoint", "--zone", ZONE_ENT, "--format", "text"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain("entry point ruleset id: 4814384a9e5d4991b9815dcfc25d2f1f");
    expect(text.stdout).toContain(`import id (provider 3/4): zone/${ZONE_ENT}/4814384a9e5d4991b9815dcfc25d2f1f`);
    expect(text.stdout).toContain(`import id (provider 5):   zones/${ZONE_ENT}/4814384a9e5d4991b9815dcfc25d2f1f`);
    const json = await run(["entrypoint", "--zone", ZONE_ENT, "--format", "json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      zoneId: ZONE_ENT,
      rulesetId: "4814384a9e5d4991b9815dcfc25d2f1f",
      name: "default",
      version: "3",
      phase: "http_request_firewall_managed",
      rules: 0,
      importId: `zone/${ZONE_ENT}/4814384a9e5d4991b9815dcfc25d2f1f`,
      importIdProvider5: `zones/${ZONE_ENT}/4814384a9e5d4991b9815dcfc25d2f1f`,
      planOption: `--ruleset-id ${ZONE_ENT}=4814384a9e5d4991b9815dcfc25d2f1f`,
    });
    expect(fake.requests.every((r) => r.method === "GET" && r.path === `/zones/${ZONE_ENT}${EP}`)).toBe(true);
  });
});

describe("api migrate", () => {
  it("needs --mode", async () => {
    const res = await run(["migrate", "--zone", ZONE_PRO]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("migrate needs --mode pending|validation");
    expect(fake.requests).toHaveLength(0);
  });

  it("dry run: prints the exact request and sends no PUT", async () => {
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--format", "text"]);
    expect(res.exitCode).toBe(0);
    expect(calls()).toEqual([`GET /zones/${ZONE_PRO}/waf_migration/check?phase_two=1`, `GET /zones/${ZONE_PRO}/waf_migration/config?phase_two=1`]);
    expect(res.stdout).toContain("Dry run: nothing was sent.");
    expect(res.stdout).toContain(`PUT ${fake.baseUrl}/zones/${ZONE_PRO}${EP}?waf_migration=pending&phase_two=1\n`);
    expect(res.stdout).toContain("Content-Type: application/json");
    expect(res.stdout).toContain("Authorization: Bearer <CLOUDFLARE_API_TOKEN>");
    expect(res.stdout).toContain(JSON.stringify(sampleConfig(), null, 2));
  });

  it("dry run as JSON carries method, URL, headers and body", async () => {
    const res = await run(["migrate", "--zone", ZONE_ENT, "--mode", "validation", "--zone-plan", "enterprise", "--format", "json"]);
    expect(res.exitCode).toBe(0);
    const out = JSON.parse(res.stdout);
    const { id: _i, version: _v, ref: _r, ...rule } = sampleConfig().rules[0];
    expect(out).toEqual({
      dryRun: true,
      mode: "validation",
      request: {
        method: "PUT",
        url: `${fake.baseUrl}/zones/${ZONE_ENT}${EP}?waf_migration=validation&phase_two=1`,
        headers: { Accept: "application/json", "User-Agent": "cf-waf-migrate", "Content-Type": "application/json" },
        body: { name: "default", rules: [rule] },
      },
    });
    expect(fake.requests.some((r) => r.method !== "GET")).toBe(false);
  });

  it("refuses an incompatible zone with exit 1 before reading its configuration", async () => {
    const res = await run(["migrate", "--zone", ZONE_INCOMPATIBLE, "--mode", "pending", "--yes"]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain(`error: refusing to migrate zone ${ZONE_INCOMPATIBLE}: the check says compatible=false`);
    expect(calls()).toEqual([`GET /zones/${ZONE_INCOMPATIBLE}/waf_migration/check?phase_two=1`]);
  });

  it("refuses validation mode for a Pro zone (plan read from GET /zones/{id})", async () => {
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "validation", "--yes"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(`validation mode is for Enterprise zones only, and zone ${ZONE_PRO} is on the pro plan; use --mode pending`);
    expect(calls()).toEqual([`GET /zones/${ZONE_PRO}/waf_migration/check?phase_two=1`, `GET /zones/${ZONE_PRO}`]);
  });

  it("refuses validation mode for --zone-plan business without asking for the zone", async () => {
    const res = await run(["migrate", "--zone", ZONE_ENT, "--mode", "validation", "--zone-plan", "business"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("is on the business plan");
    expect(calls()).toEqual([`GET /zones/${ZONE_ENT}/waf_migration/check?phase_two=1`]);
  });

  it("--yes on Enterprise validation: PUT without rule ids, then polls status until the new WAF is on", async () => {
    fake.zones.get(ZONE_ENT)!.statusLag = 1;
    const clock = fakeClock();
    const res = await run(["migrate", "--zone", ZONE_ENT, "--mode", "validation", "--yes", "--format", "text", "--poll-interval", "2"], { env, sleep: clock.sleep, now: clock.now });
    expect(res.exitCode).toBe(0);
    expect(calls()).toEqual([
      `GET /zones/${ZONE_ENT}/waf_migration/check?phase_two=1`,
      `GET /zones/${ZONE_ENT}`,
      `GET /zones/${ZONE_ENT}/waf_migration/config?phase_two=1`,
      `PUT /zones/${ZONE_ENT}${EP}?waf_migration=validation&phase_two=1`,
      `GET /zones/${ZONE_ENT}/waf_migration/status`,
      `GET /zones/${ZONE_ENT}/waf_migration/status`,
    ]);
    const put = fake.requests[3];
    expect(put.headers["content-type"]).toBe("application/json");
    expect(put.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const { id: _i, version: _v, ref: _r, ...rule } = sampleConfig().rules[0];
    expect(put.json).toEqual({ name: "default", rules: [rule] });
    expect(clock.sleeps).toEqual([2000]);
    expect(res.stderr).toContain("status (poll 1, 0 s): old_waf_status=enabled new_waf_status=disabled migration_state=start\n");
    expect(res.stderr).toContain("status (poll 2, 2 s): old_waf_status=enabled new_waf_status=enabled migration_state=validation - done\n");
    expect(res.stdout).toContain("entry point ruleset id 4814384a9e5d4991b9815dcfc25d2f1f");
    expect(res.stdout).toContain("finish with --mode pending");
  });

  it("--yes pending on a Pro zone sends the configuration with ids and waits for the finish", async () => {
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--yes", "--format", "json"]);
    expect(res.exitCode).toBe(0);
    const put = fake.requests.find((r) => r.method === "PUT")!;
    expect(put.query).toEqual({ waf_migration: "pending", phase_two: "1" });
    expect(put.json).toEqual(sampleConfig());
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ dryRun: false, mode: "pending", done: true, status: { new_waf_status: "enabled", old_waf_status: "disabled" } });
    expect(out.response.id).toBe("e".repeat(32));
  });

  it("exits 1 when status does not show the change within --poll-timeout", async () => {
    fake.zones.get(ZONE_PRO)!.statusLag = 100;
    const clock = fakeClock();
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--yes", "--poll-timeout", "10", "--poll-interval", "3"], { env, sleep: clock.sleep, now: clock.now });
    expect(res.exitCode).toBe(1);
    expect(fake.requests.filter((r) => r.path.endsWith("/status"))).toHaveLength(4);
    expect(res.stderr).toContain("status did not show the migration finished within 10 s");
    expect(JSON.parse(res.stdout).done).toBe(false);
  });

  it("does not repeat the PUT after a 500 and says the outcome is unknown", async () => {
    fake.inject({ method: "PUT" }, { type: "http", status: 500, body: "" });
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--yes"]);
    expect(res.exitCode).toBe(2);
    expect(fake.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
    expect(res.stderr).toContain("It is not known whether the service applied the change");
  });

  it("--config-json sends a saved configuration instead of fetching one", async () => {
    const file = join(dir, "edited.json");
    const edited = sampleConfig();
    edited.rules[0].description = "reviewed";
    await writeFile(file, JSON.stringify({ result: edited, success: true, errors: [], messages: [] }));
    const res = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--config-json", file, "--format", "json"]);
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout).request.body).toEqual(edited);
    expect(calls()).toEqual([`GET /zones/${ZONE_PRO}/waf_migration/check?phase_two=1`]);

    await writeFile(file, "{ nope");
    const bad = await run(["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--config-json", file]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("is not valid JSON");
  });
});

describe("api custom-hostname-ca", () => {
  it("dry run by default; --yes sends the PATCH with e-mail + key", async () => {
    const allEnv = { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY };
    const dry = await run(["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", HOSTNAME_ID, "--ca", "default", "--format", "text"], { env: allEnv });
    expect(dry.exitCode).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(dry.stdout).toContain(`PATCH ${fake.baseUrl}/zones/${ZONE_PRO}/custom_hostnames/${HOSTNAME_ID}`);
    expect(dry.stdout).toContain('"certificate_authority": ""');
    expect(dry.stdout).toContain("X-Auth-Email: <CLOUDFLARE_EMAIL>");

    const sent = await run(["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", HOSTNAME_ID, "--ca", "google", "--yes", "--format", "text"], { env: allEnv });
    expect(sent.exitCode).toBe(0);
    expect(sent.stdout).toBe(`custom hostname ${HOSTNAME_ID} (zone ${ZONE_PRO}): certificate authority set to google\ncertificate status: pending_validation\n`);
    const r = fake.requests[0];
    expect([r.method, r.path]).toEqual(["PATCH", `/zones/${ZONE_PRO}/custom_hostnames/${HOSTNAME_ID}`]);
    expect(r.json).toEqual({ ssl: { method: "txt", type: "dv", certificate_authority: "google" } });
    expect(r.headers["x-auth-email"]).toBe(EMAIL);
    expect(r.headers.authorization).toBeUndefined();
  });

  it("needs --hostname-id and --ca", async () => {
    expect((await run(["custom-hostname-ca", "--zone", ZONE_PRO, "--ca", "google"])).stderr).toContain("needs --hostname-id");
    expect((await run(["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", HOSTNAME_ID])).stderr).toContain("needs --ca default|google|ssl_com");
    expect((await run(["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", "../x", "--ca", "google"])).stderr).toContain("--hostname-id must be");
  });
});

describe("apiCommand with the real dependencies", () => {
  it("reads process.env and writes to process.stdout", async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    vi.stubEnv("CLOUDFLARE_API_TOKEN", TOKEN);
    const previous = process.exitCode;
    try {
      await yargs().command(apiCommand).exitProcess(false).parseAsync(["api", "check", "--zone", ZONE_PRO, "--base-url", fake.baseUrl, "--format", "json"]);
      expect(process.exitCode).toBe(0);
    } finally {
      process.exitCode = previous;
      spy.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(JSON.parse(writes.join(""))).toEqual({ compatible: true, migration_state: "start" });
  });
});

describe("api config --format hcl with the real hook", () => {
  it("writes the ruleset with src/terraform/hcl/emit.ts", async () => {
    const res = await run(["config", "--zone", ZONE_PRO, "--format", "hcl"]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('resource "cloudflare_ruleset"');
    expect(res.stdout).toMatch(new RegExp(`zone_id\\s*=\\s*"${ZONE_PRO}"`));
    expect(res.stdout).toContain("efb7b8c949ac4650a09736fc376e9aee");
    expect(res.thrown).toBeUndefined();
  });
});
