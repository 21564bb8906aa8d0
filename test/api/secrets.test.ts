// Credentials must never reach stdout, stderr, files or error messages, even when the service (or a proxy)
// echoes them back.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REDACTED } from "../../src/api/index.js";
import { HOSTNAME_ID, sampleZones, startFakeCloudflare, ZONE_ENT, ZONE_INCOMPATIBLE, ZONE_PRO, type FakeCloudflare } from "../support/fake-cloudflare.js";
import { EMAIL, KEY, TOKEN, runApi, type RunResult } from "./helpers.js";

const SECRETS = [TOKEN, KEY, EMAIL];
const env = { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_API_KEY: KEY, CLOUDFLARE_EMAIL: EMAIL };

const INVOCATIONS: string[][] = [
  ["check", "--zone", ZONE_PRO, "--format", "text"],
  ["check", "--zone", ZONE_INCOMPATIBLE, "--format", "json"],
  ["config", "--zone", ZONE_PRO, "--format", "text"],
  ["config", "--zone", ZONE_PRO, "--format", "json"],
  ["status", "--zone", ZONE_PRO, "--format", "text"],
  ["status", "--zone", ZONE_PRO, "--format", "json"],
  ["entrypoint", "--zone", ZONE_ENT, "--format", "text"],
  ["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--format", "text"],
  ["migrate", "--zone", ZONE_ENT, "--mode", "validation", "--format", "json"],
  ["migrate", "--zone", ZONE_PRO, "--mode", "validation", "--yes"],
  ["migrate", "--zone", ZONE_INCOMPATIBLE, "--mode", "pending", "--yes"],
  ["migrate", "--zone", ZONE_ENT, "--mode", "validation", "--yes", "--format", "text"],
  ["migrate", "--zone", ZONE_PRO, "--mode", "pending", "--yes", "--format", "json"],
  ["entrypoint", "--zone", ZONE_PRO, "--format", "json"],
  ["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", HOSTNAME_ID, "--ca", "default", "--format", "text"],
  ["custom-hostname-ca", "--zone", ZONE_PRO, "--hostname-id", HOSTNAME_ID, "--ca", "ssl_com", "--yes", "--format", "json"],
];

let fake: FakeCloudflare;
let dir: string;
beforeEach(async () => {
  fake = await startFakeCloudflare({ zones: sampleZones(), credentials: { token: TOKEN, email: EMAIL, key: KEY } });
  dir = await mkdtemp(join(tmpdir(), "cf-waf-secrets-"));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

function assertClean(res: RunResult, what: string): void {
  const thrown = res.thrown instanceof Error ? `${res.thrown.message}\n${res.thrown.stack ?? ""}` : String(res.thrown ?? "");
  for (const secret of SECRETS) {
    for (const [name, text] of [
      ["stdout", res.stdout],
      ["stderr", res.stderr],
      ["thrown", thrown],
    ] as const) {
      expect(text.includes(secret), `${what}: ${name} contains a secret`).toBe(false);
      expect(text.includes(encodeURIComponent(secret)), `${what}: ${name} contains an encoded secret`).toBe(false);
      // Nor a piece of one (a quoted body cut in the middle of a secret).
      expect(text.includes(secret.slice(0, 10)), `${what}: ${name} contains the start of a secret`).toBe(false);
      expect(text.includes(secret.slice(-10)), `${what}: ${name} contains the end of a secret`).toBe(false);
    }
  }
}

describe("secrets never appear in output", () => {
  it("normal runs of every subcommand", async () => {
    for (const args of INVOCATIONS) {
      const res = await runApi([...args, "--base-url", fake.baseUrl], { env });
      expect(res.thrown, args.join(" ")).toBeUndefined();
      assertClean(res, args.join(" "));
    }
    expect(fake.requests.some((r) => r.method === "PUT")).toBe(true);
    expect(fake.requests.some((r) => r.method === "PATCH")).toBe(true);
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}` || r.headers["x-auth-key"] === KEY)).toBe(true);
  });

  it("every subcommand when the service echoes the credentials in its error messages", async () => {
    fake.inject({}, { type: "echo-credentials" }, 1_000);
    for (const args of INVOCATIONS) {
      const res = await runApi([...args, "--base-url", fake.baseUrl], { env });
      assertClean(res, args.join(" "));
      const wrote = res.stdout + res.stderr;
      // Commands that send something got the echo and show it redacted; dry-run custom-hostname-ca sends nothing.
      if (fake.requests.length > 0 && !(args[0] === "custom-hostname-ca" && !args.includes("--yes"))) {
        expect(wrote, args.join(" ")).toContain(REDACTED);
        expect(res.exitCode, args.join(" ")).toBe(2);
      }
    }
  });

  it("an echo inside a non-JSON body, in retry logs, and in a file written with --output", async () => {
    fake.inject({}, { type: "malformed", status: 502, body: `<pre>Authorization: Bearer ${TOKEN} X-Auth-Email: ${encodeURIComponent(EMAIL)}</pre>` }, 2);
    const file = join(dir, "out.json");
    const res = await runApi(["config", "--zone", ZONE_PRO, "--output", file, "--base-url", fake.baseUrl], { env });
    assertClean(res, "config after 502 echoes");
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain("HTTP 502 (server error); retrying");
    const written = await readFile(file, "utf8");
    for (const s of SECRETS) expect(written.includes(s)).toBe(false);

    // A body that is not an envelope is never quoted, not even redacted.
    fake.inject({}, { type: "malformed", status: 200, body: `token=${TOKEN}&key=${KEY}&more=${"x".repeat(100)}` });
    const bad = await runApi(["status", "--zone", ZONE_PRO, "--base-url", fake.baseUrl], { env });
    assertClean(bad, "malformed echo");
    expect(bad.stderr).toContain("not valid JSON (");
    expect(bad.stderr).not.toContain("token=");
  });

  it("credentials that cannot be sent are named, not printed", async () => {
    const res = await runApi(["check", "--zone", ZONE_PRO, "--base-url", fake.baseUrl], { env: { CLOUDFLARE_API_TOKEN: `${TOKEN}\nX-Injected: 1` } });
    assertClean(res, "bad token");
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("CLOUDFLARE_API_TOKEN contains characters that cannot be sent in an HTTP header");
    expect(fake.requests).toHaveLength(0);
  });

  it("wrong credentials: the 401 names the variables only", async () => {
    const res = await runApi(["check", "--zone", ZONE_PRO, "--base-url", fake.baseUrl], { env: { CLOUDFLARE_API_TOKEN: "an-expired-token-value-123" } });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).not.toContain("an-expired-token-value-123");
    expect(res.stderr).toContain("HTTP 401: [10000] Authentication error (check CLOUDFLARE_API_TOKEN");
  });
});
