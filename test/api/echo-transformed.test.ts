// Issue 18 §3: a misconfigured proxy echoes the request headers back in its error body, not only verbatim:
// upper-cased, cut to a prefix or suffix, spaced out, hex- and base64-encoded (`Bearer <token>` and
// `email:key` as a Basic-style header would carry them). A local 127.0.0.1 server does exactly that, in
// every place a body can reach the user (envelope errors and messages, a non-JSON body with retries, a
// result written with --output); no output, log or file may hold any of it.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedactor, REDACTED } from "../../src/api/index.js";
import { EMAIL, KEY, TOKEN, runApi, type RunResult } from "./helpers.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const hex = (s: string) => Buffer.from(s).toString("hex");
const spaced = (s: string, sep = " ") => s.split("").join(sep);

/** Every transformed form of the credential headers an echoing proxy has been seen to produce. */
function echoes(req: IncomingMessage): string[] {
  const auth = String(req.headers.authorization ?? "");
  const key = String(req.headers["x-auth-key"] ?? "");
  const email = String(req.headers["x-auth-email"] ?? "");
  const token = auth.replace(/^Bearer /, "");
  const out: string[] = [];
  for (const secret of [token, key].filter((s) => s !== "")) {
    out.push(
      secret,
      secret.toUpperCase(),
      secret.slice(0, 12),
      secret.slice(-12),
      secret.slice(9, 19),
      spaced(secret),
      spaced(secret.toUpperCase(), "-"),
      hex(secret),
      hex(secret).toUpperCase(),
      spaced(hex(secret.slice(4, 14)), ":"),
      b64(secret),
      Buffer.from(secret).toString("base64url"),
      b64(secret.slice(5, 17)),
    );
  }
  if (auth !== "") out.push(auth.toUpperCase(), b64(auth), hex(auth));
  if (email !== "" && key !== "") out.push(b64(`${email}:${key}`), `Basic ${b64(`${email}:${key}`)}`, hex(`${email}:${key}`));
  return out;
}

type Mode = "error-envelope" | "non-json" | "success-echo";

let server: Server;
let baseUrl: string;
let mode: Mode = "error-envelope";
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cf-waf-echo-"));
  server = createServer((req, res) => {
    const echo = `proxy saw: ${echoes(req).join(" | ")}`;
    if (mode === "non-json") {
      res.writeHead(502, { "content-type": "text/plain" }).end(`Bad gateway. Request headers: ${echo}`);
      return;
    }
    const body =
      mode === "error-envelope"
        ? { success: false, errors: [{ code: 10000, message: echo }, { code: 10001, message: echo.toUpperCase() }], messages: [{ code: 1, message: echo }], result: null }
        : { success: true, errors: [], messages: [{ code: 2, message: echo }], result: { name: "default", rules: [{ action: "skip", expression: "true", description: echo }] } };
    res.writeHead(mode === "error-envelope" ? 403 : 200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

/**
 * Independent of the redactor: no window of 8 characters of the token or key (case-insensitive), of 16 hex
 * digits of them, or of 10 base64 characters from the middle of any base64 form an echo uses.
 */
function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  const windows = (s: string, w: number) => Array.from({ length: Math.max(0, s.length - w + 1) }, (_, i) => s.slice(i, i + w));
  for (const secret of [TOKEN, KEY]) {
    for (const w of windows(secret.toLowerCase(), 8)) if (lower.includes(w)) found.push(`run ${w}`);
    for (const w of windows(hex(secret), 16)) if (lower.includes(w)) found.push(`hex ${w}`);
    for (const w of windows(spaced(secret.toLowerCase()), 15)) if (lower.includes(w)) found.push(`spaced ${w}`);
  }
  // Skip the characters that encode public text (`Bearer `, the e-mail address: not secret) and the last group.
  const publicChars = (prefix: string) => Math.ceil(prefix.length / 3) * 4 + 4;
  for (const [prefix, secret] of [["", TOKEN], ["Bearer ", TOKEN], [`${EMAIL}:`, KEY], ["", KEY]] as const) {
    for (const encoded of [b64(prefix + secret), Buffer.from(prefix + secret).toString("base64url")]) {
      for (const w of windows(encoded.slice(publicChars(prefix), -4), 10)) if (text.includes(w)) found.push(`base64 ${w}`);
    }
  }
  return found;
}

function expectClean(res: RunResult, what: string): void {
  const thrown = res.thrown instanceof Error ? `${res.thrown.message}\n${res.thrown.stack ?? ""}` : String(res.thrown ?? "");
  for (const [name, text] of [["stdout", res.stdout], ["stderr", res.stderr], ["thrown", thrown]] as const) {
    expect(leaks(text), `${what}: ${name}`).toEqual([]);
  }
}

const tokenEnv = { CLOUDFLARE_API_TOKEN: TOKEN };
const keyEnv = { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY };

describe("a proxy that echoes the credential headers in transformed forms", () => {
  it.each([
    ["bearer token", tokenEnv],
    ["e-mail and key", keyEnv],
  ])("error envelope (%s): only code and capped message are printed, every form redacted", async (_, env) => {
    mode = "error-envelope";
    for (const args of [["check", "--zone", ZONE], ["status", "--zone", ZONE, "--format", "json"], ["entrypoint", "--zone", ZONE, "--format", "text"]]) {
      const res = await runApi([...args, "--base-url", baseUrl], { env });
      expectClean(res, args.join(" "));
      expect(res.exitCode, args.join(" ")).toBe(2);
      expect(res.stdout + res.stderr, args.join(" ")).toContain(REDACTED);
      expect(res.stdout + res.stderr).toContain("[10000] proxy saw:");
    }
  });

  it("a non-JSON body is never quoted, through every retry", async () => {
    mode = "non-json";
    const res = await runApi(["config", "--zone", ZONE, "--base-url", baseUrl], { env: { ...tokenEnv, ...keyEnv } });
    expectClean(res, "config on 502");
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("HTTP 502");
    expect(res.stderr).not.toContain("proxy saw");
  });

  it("a successful response that echoes them: the file written with --output and the messages are clean", async () => {
    mode = "success-echo";
    const file = join(dir, "config.json");
    const res = await runApi(["config", "--zone", ZONE, "--output", file, "--format", "json", "--base-url", baseUrl], { env: tokenEnv });
    expectClean(res, "config with echo");
    expect(res.exitCode).toBe(0);
    const written = await readFile(file, "utf8");
    expect(leaks(written)).toEqual([]);
    expect(written).toContain(REDACTED);
  });
});

describe("the shared redactor on each form", () => {
  const redact = createRedactor([TOKEN, KEY], [EMAIL]);
  const fake = { headers: { authorization: `Bearer ${TOKEN}`, "x-auth-key": KEY, "x-auth-email": EMAIL } } as unknown as IncomingMessage;

  it.each(echoes(fake).map((e) => [e]))("%s", (form) => {
    const out = redact(`before ${form} after`);
    expect(leaks(out)).toEqual([]);
    expect(out).toContain(REDACTED);
    // Around the form, at most a character that happens to continue the credential goes with it.
    expect(out).toMatch(/^befor.*\[REDACTED\].*fter$/);
  });

  it("leaves ordinary text, ids and the e-mail's domain alone", () => {
    const text = `zone ${ZONE} shop.example ruleset efb7b8c949ac4650a09736fc376e9aee {"expression":"true"} Bearer`;
    expect(redact(text)).toBe(text);
    expect(redact(`mail ${EMAIL.toUpperCase()} end`)).toBe(`mail ${REDACTED} end`);
  });

  it("is linear: a megabyte of text is one pass", () => {
    const big = `${"a1-".repeat(300_000)}${TOKEN}`;
    const out = redact(big);
    expect(out.endsWith(REDACTED)).toBe(true);
    expect(out.length).toBe(big.length - TOKEN.length + REDACTED.length);
  });
});
