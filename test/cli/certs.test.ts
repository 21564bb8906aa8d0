// `cf-waf-migrate certs` end to end through yargs, in process (the command module as main.ts registers it),
// on the certificate fixtures; plus the built binary when dist/ has the command registered.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { execa } from "execa";
import { afterEach, describe, expect, it, vi } from "vitest";
import yargs from "yargs";

import { certsCommand, parseAsOf } from "../../src/cli/commands/certs.js";
import { onlyAdmittedMajor as majorOfConstraints } from "../../src/core/provider-version.js";
import { CliError, UserInputError } from "../../src/cli/errors.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = path.join(ROOT, "testdata/certificates");
const STATE = path.join(FIXTURE, "terraform.tfstate");
const V5 = path.join(FIXTURE, "../certificates-v5");
const SAAS = "9a7806061c88ada191ed06f989cc3dac";
const ACME_ID = "7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4";

interface Run {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs `certs …` through yargs as main.ts does, capturing stdout, stderr and the exit code. */
async function certs(args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  process.exitCode = undefined;
  let exitCode = 0;
  try {
    await yargs(["certs", ...args])
      .command(certsCommand)
      .option("debug", { type: "boolean", default: false })
      .strict()
      .fail((msg, e) => {
        throw e ?? new CliError(msg);
      })
      .exitProcess(false)
      .parseAsync();
    exitCode = Number(process.exitCode ?? 0);
  } catch (e) {
    if (!(e instanceof UserInputError)) throw e; // what main.ts reports as one line
    stderr += `cf-waf-migrate: ${e.message}\n`;
    exitCode = e.exitCode;
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
  return { stdout, stderr, exitCode };
}

interface JsonFinding {
  code: string;
  severity: string;
  address: string;
  file: string;
  line: number;
  details: { urgency: string; deadline: string | null; action: string };
}

async function json(args: string[]) {
  const r = await certs([...args, "--format", "json"]);
  expect(r.stderr).toBe("");
  return { ...r, report: JSON.parse(r.stdout) as { findings: JsonFinding[]; certs: any; resources: any[]; errors: any[] } };
}

const urgencies = (findings: JsonFinding[]) => Object.fromEntries(findings.map((f) => [`${f.code} ${f.address}`, f.details.urgency]));

function tempCopy(dir: string): string {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cfwm-certs-"));
  cpSync(dir, tmp, { recursive: true });
  return tmp;
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("certs: the audit on the provider 4 fixture with state", () => {
  it("JSON as of 2024-09-08: every row of the table, one day before the switch deadline", async () => {
    const { report, exitCode } = await json([FIXTURE, "--state", STATE, "--as-of", "2024-09-08"]);
    expect(exitCode).toBe(0);
    expect(report.errors).toEqual([]);
    expect(urgencies(report.findings)).toEqual({
      "CERT_ADVANCED_LETS_ENCRYPT cloudflare_certificate_pack.shop_wildcard": "soon",
      "CERT_TOTAL_TLS_LETS_ENCRYPT cloudflare_total_tls.shop": "soon",
      "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT cloudflare_custom_hostname.tenant_acme": "soon",
      "CERT_CUSTOM_USER_DEFINED_CHAIN cloudflare_custom_ssl.legacy_clients": "soon",
      "CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY cloudflare_custom_ssl.checkout": "later",
      "CERT_UNIVERSAL_AUTO_SWITCH cloudflare_zone.shop": "none",
    });
    // Another CA (google) yields no finding at all.
    const addresses = report.findings.map((f) => f.address);
    expect(addresses).not.toContain("cloudflare_certificate_pack.shop_api");
    expect(addresses).not.toContain("cloudflare_custom_hostname.tenant_globex");
    // Every finding has a file and line, and says what to do and by when.
    for (const f of report.findings) {
      expect([f.file, typeof f.line]).toEqual(["main.tf", "number"]);
      expect(f.details.action.length).toBeGreaterThan(0);
    }
    const pack = report.findings.find((f) => f.code === "CERT_ADVANCED_LETS_ENCRYPT")!;
    expect(pack).toMatchObject({ severity: "warning", line: 37, details: { deadline: "2024-09-09" } });
    expect(report.certs.asOf).toBe("2024-09-08");
    expect(report.certs.timeline.map((t: { date: string; status: string }) => [t.date, t.status])).toEqual([
      ["2024-06", "past"],
      ["2024-09-09", "future"],
      ["2024-09-30", "future"],
    ]);
    expect(report.certs.certificates).toHaveLength(8);
    expect(report.resources.every((r: { type: string }) => /^cloudflare_(zone|certificate_pack|total_tls|custom_hostname|custom_ssl)$/.test(r.type))).toBe(true);
  });

  it("JSON as of 2024-09-09: the switch-before-09-09 rows are overdue, force bundling is still due", async () => {
    const { report } = await json([FIXTURE, "--state", STATE, "--as-of", "2024-09-09"]);
    expect(urgencies(report.findings)).toMatchObject({
      "CERT_ADVANCED_LETS_ENCRYPT cloudflare_certificate_pack.shop_wildcard": "overdue",
      "CERT_TOTAL_TLS_LETS_ENCRYPT cloudflare_total_tls.shop": "overdue",
      "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT cloudflare_custom_hostname.tenant_acme": "overdue",
      "CERT_CUSTOM_USER_DEFINED_CHAIN cloudflare_custom_ssl.legacy_clients": "soon",
    });
    expect(report.certs.timeline[1]).toMatchObject({ date: "2024-09-09", status: "current", relative: "today" });
  });

  it("JSON as of 2024-09-30: the cross-signed chain expires, force bundling is overdue too", async () => {
    const { report } = await json([FIXTURE, "--state", STATE, "--as-of", "2024-09-30"]);
    expect(urgencies(report.findings)).toMatchObject({
      "CERT_CUSTOM_USER_DEFINED_CHAIN cloudflare_custom_ssl.legacy_clients": "overdue",
      "CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY cloudflare_custom_ssl.checkout": "later",
    });
    expect(report.certs.timeline.map((t: { status: string }) => t.status)).toEqual(["past", "past", "current"]);
  });

  it("text: the timeline with past/today/future markers, urgency groups, service/do/by", async () => {
    const r = await certs([FIXTURE, "--state", STATE, "--as-of", "2024-09-08", "--format", "text"]);
    expect(r.exitCode).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/^cf-waf-migrate certs as of 2024-09-08: 8 certificates .*4 warnings, 2 info\n/);
    expect(out).toContain("Timeline of the Let's Encrypt chain change");
    expect(out).toMatch(/✓ 2024-06 +99 days ago +The service starts switching/);
    expect(out).toMatch(/▶ 2024-09-08 +today/);
    expect(out).toMatch(/○ 2024-09-09 +in 1 day +The service stops using the cross-signed chain/);
    expect(out).toMatch(/○ 2024-09-30 +in 22 days +The cross-signed chain expires/);
    // Timeline order: past, today, future.
    expect(out.indexOf("✓ 2024-06")).toBeLessThan(out.indexOf("▶ 2024-09-08"));
    expect(out.indexOf("▶ 2024-09-08")).toBeLessThan(out.indexOf("○ 2024-09-09"));
    expect(out).toContain("Due within 30 days (4)");
    expect(out).toContain("Later (1)");
    expect(out).toContain("No deadline (1)");
    expect(out).not.toContain("Overdue");
    expect(out).toMatch(/WARNING CERT_ADVANCED_LETS_ENCRYPT +Advanced certificate pack cloudflare_certificate_pack\.shop_wildcard +testdata\/certificates\/main\.tf:37/);
    expect(out).toContain("Service: never changes the Total TLS CA automatically");
    expect(out).toContain("By:      2024-09-09 (in 1 day)");
    expect(out).toContain("By:      2024-11-18 (in 71 days)");
    expect(out).toMatch(/No action \(2\)[^\n]*\n  ok  cloudflare_certificate_pack\.shop_api  Advanced certificate pack, CA google/);
    expect(out).not.toContain("\u001b[");
  });

  it("text on 2024-09-09 and 2024-09-30: overdue groups and the current day on the timeline", async () => {
    const a = await certs([FIXTURE, "--state", STATE, "--as-of", "2024-09-09", "--format", "text"]);
    expect(a.stdout).toContain("Overdue (3)");
    expect(a.stdout).toMatch(/▶ 2024-09-09 +today +The service stops/);
    expect(a.stdout).toContain("By:      2024-09-09 (today: overdue)");
    const b = await certs([FIXTURE, "--state", STATE, "--as-of", "2024-09-30", "--format", "text"]);
    expect(b.stdout).toContain("Overdue (4)");
    expect(b.stdout).toMatch(/✓ 2024-09-09 +21 days ago/);
    expect(b.stdout).toMatch(/▶ 2024-09-30 +today +The cross-signed chain expires/);
  });

  it("--fail-on warning exits 1; the default (never) exits 0", async () => {
    expect((await certs([FIXTURE, "--state", STATE, "--as-of", "2024-09-08", "--format", "json", "--fail-on", "warning"])).exitCode).toBe(1);
    expect((await certs([FIXTURE, "--state", STATE, "--as-of", "2024-09-08", "--format", "json"])).exitCode).toBe(0);
  });
});

describe("certs: provider 5 syntax", () => {
  it("reads the ssl = { … } object and flattened custom_ssl (config only: uploads are unknown)", async () => {
    const { report } = await json([V5, "--as-of", "2024-09-08"]);
    const codes = report.findings.map((f) => `${f.code} ${f.address}`).sort();
    expect(codes).toEqual([
      "CERT_ADVANCED_LETS_ENCRYPT cloudflare_certificate_pack.shop_wildcard",
      "CERT_CA_UNKNOWN cloudflare_custom_ssl.checkout",
      "CERT_CA_UNKNOWN cloudflare_custom_ssl.legacy_clients",
      "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT cloudflare_custom_hostname.tenant_acme",
      "CERT_TOTAL_TLS_LETS_ENCRYPT cloudflare_total_tls.shop",
      "CERT_UNIVERSAL_AUTO_SWITCH cloudflare_zone.shop",
    ]);
  });
});

describe("certs: --as-of and option errors", () => {
  it.each(["2024-02-30", "09/09/2024", "2024-9-9", "yesterday"])("--as-of %s exits 2 with one line", async (bad) => {
    const r = await certs([FIXTURE, "--as-of", bad, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^cf-waf-migrate: --as-of .*expected a calendar date YYYY-MM-DD/);
  });

  it("defaults to today (UTC)", () => {
    expect(parseAsOf(undefined, new Date("2024-09-08T23:30:00-02:00"))).toBe("2024-09-09");
    expect(parseAsOf("2024-09-30")).toBe("2024-09-30");
  });

  it("--fix needs --to; --to and --patch-file need --fix; --to takes default|google|ssl_com only", async () => {
    expect((await certs([FIXTURE, "--fix"])).stderr).toMatch(/--fix needs --to/);
    expect((await certs([FIXTURE, "--to", "google"])).stderr).toMatch(/--to goes with --fix/);
    const bad = await certs([FIXTURE, "--fix", "--to", "digicert"]);
    expect(bad.exitCode).toBe(2);
  });

  it("reads the provider major from required_providers constraints", () => {
    expect(majorOfConstraints(["~> 4.52"])).toBe(4);
    expect(majorOfConstraints(["~> 5.8"])).toBe(5);
    expect(majorOfConstraints([">= 4.0, < 5.0"])).toBe(4);
    expect(majorOfConstraints([">= 3.0"])).toBeNull();
    expect(majorOfConstraints([">= 4.0, < 6.0"])).toBeNull();
    expect(majorOfConstraints([])).toBeNull();
  });
});

describe("certs --fix", () => {
  it("--to google: a patch git apply accepts, only the three literals change, the pack forces a replacement", async () => {
    const dir = tempCopy(FIXTURE);
    const before = readFileSync(path.join(dir, "main.tf"), "utf8");
    const patchFile = path.join(dir, "ca.patch");
    const r = await certs([dir, "--state", path.join(dir, "terraform.tfstate"), "--as-of", "2024-09-08", "--format", "text", "--fix", "--to", "google", "--patch-file", patchFile]);
    expect(r.exitCode).toBe(0);
    // The source is not touched; the patch is.
    expect(readFileSync(path.join(dir, "main.tf"), "utf8")).toBe(before);
    const patch = readFileSync(patchFile, "utf8");
    expect(patch).toMatch(/^# cf-waf-migrate certs --fix --to google \(as of 2024-09-08\)\n/);
    expect(patch).toContain("--- a/main.tf\n+++ b/main.tf\n");
    expect(patch).toMatch(/# cloudflare_certificate_pack\.shop_wildcard \(main\.tf:37\): certificate_authority "lets_encrypt" -> "google"\n#   FORCES REPLACEMENT/);
    expect(patch).toContain(`#   API: cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id ${ACME_ID} --ca google`);

    // The text report says which edit forces a replacement and prints the custom hostname command.
    expect(r.stdout).toMatch(/Fix: certificate_authority to google · patch .*ca\.patch \(3 edits\)/);
    expect(r.stdout).toMatch(/REPLACES +cloudflare_certificate_pack\.shop_wildcard +\S+main\.tf:37 +certificate_authority "lets_encrypt" → "google"/);
    expect(r.stdout).toMatch(/in place +cloudflare_total_tls\.shop/);
    expect(r.stdout).toMatch(/in place +cloudflare_custom_hostname\.tenant_acme .*ssl\.certificate_authority "lets_encrypt" → "google"/);
    expect(r.stdout).toContain(`API: cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id ${ACME_ID} --ca google`);
    expect(r.stderr).toMatch(/^cf-waf-migrate: wrote .*ca\.patch \(3 edits, 1 forcing a replacement\); apply with: cd \S+ && git apply ca\.patch\n$/);
    expect(r.stderr).toContain(`wrote ${patchFile} `);

    // git apply accepts it; afterwards only the three lines differ.
    await execa("git", ["init", "-q"], { cwd: dir });
    await execa("git", ["apply", "--check", "ca.patch"], { cwd: dir });
    await execa("git", ["apply", "ca.patch"], { cwd: dir });
    const after = readFileSync(path.join(dir, "main.tf"), "utf8");
    const a = before.split("\n");
    const b = after.split("\n");
    expect(b).toHaveLength(a.length);
    const changed = a.flatMap((line, i) => (line === b[i] ? [] : [[i + 1, line.trim(), b[i]!.trim()]]));
    expect(changed).toEqual([
      [43, 'certificate_authority = "lets_encrypt"', 'certificate_authority = "google"'],
      [59, 'certificate_authority = "lets_encrypt"', 'certificate_authority = "google"'],
      [70, 'certificate_authority = "lets_encrypt"', 'certificate_authority = "google"'],
    ]);
    expect(after).toBe(before.replaceAll('certificate_authority = "lets_encrypt"', 'certificate_authority = "google"'));
  });

  it("JSON: the fix section lists each edit with forcesReplacement, status and commands", async () => {
    const dir = tempCopy(FIXTURE);
    const { report } = await (async () => {
      const r = await certs([dir, "--state", path.join(dir, "terraform.tfstate"), "--as-of", "2024-09-08", "--format", "json", "--fix", "--to", "google", "--patch-file", path.join(dir, "x.patch"), "--quiet"]);
      expect(r.stderr).toBe("");
      return { report: JSON.parse(r.stdout) };
    })();
    const edits = report.certs.fix.edits as { address: string; forcesReplacement: boolean; status: string; commands: string[] }[];
    expect(edits.map((e) => [e.address, e.forcesReplacement, e.status])).toEqual([
      ["cloudflare_certificate_pack.shop_wildcard", true, "patched"],
      ["cloudflare_total_tls.shop", false, "patched"],
      ["cloudflare_custom_hostname.tenant_acme", false, "patched"],
    ]);
    expect(edits[2]!.commands).toEqual([`cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id ${ACME_ID} --ca google`]);
    expect(report.certs.fix.target).toBe("google");
  });

  it("never overwrites an existing patch without --force", async () => {
    const dir = tempCopy(FIXTURE);
    const patchFile = path.join(dir, "ca.patch");
    writeFileSync(patchFile, "keep me\n");
    const r = await certs([dir, "--format", "json", "--fix", "--to", "google", "--patch-file", patchFile]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/ca\.patch already exists; pass --force/);
    expect(readFileSync(patchFile, "utf8")).toBe("keep me\n");
    const forced = await certs([dir, "--format", "json", "--fix", "--to", "google", "--patch-file", patchFile, "--force", "--quiet"]);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(patchFile, "utf8")).toContain("+  certificate_authority = \"google\"");
  });

  it("provider 5, --to default: packs and Total TLS get google, the custom hostname's line goes, with the API command", async () => {
    const dir = tempCopy(V5);
    const before = readFileSync(path.join(dir, "main.tf"), "utf8");
    const r = await certs([dir, "--as-of", "2024-09-08", "--format", "text", "--fix", "--to", "default", "--patch-file", path.join(dir, "ca.patch")]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/in place +cloudflare_custom_hostname\.tenant_acme .*delete ssl\.certificate_authority = "lets_encrypt"/);
    expect(r.stdout).toContain(`API: cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id <CUSTOM_HOSTNAME_ID> --ca default`);
    expect(r.stdout).toMatch(/REPLACES +cloudflare_certificate_pack\.shop_wildcard/);
    await execa("git", ["init", "-q"], { cwd: dir });
    await execa("git", ["apply", "ca.patch"], { cwd: dir });
    const after = readFileSync(path.join(dir, "main.tf"), "utf8");
    const acme = before.indexOf('resource "cloudflare_custom_hostname" "tenant_acme"');
    const expected =
      before.slice(0, acme).replaceAll('certificate_authority = "lets_encrypt"', 'certificate_authority = "google"') +
      before.slice(acme).replace('    certificate_authority = "lets_encrypt"\n', "");
    expect(after).toBe(expected);
  });

  it("--to ssl_com with provider 4: Total TLS and custom hostnames are skipped (the provider rejects it), the pack is patched", async () => {
    const dir = tempCopy(FIXTURE);
    const r = await certs([dir, "--state", path.join(dir, "terraform.tfstate"), "--format", "json", "--fix", "--to", "ssl_com", "--patch-file", path.join(dir, "ca.patch"), "--quiet"]);
    const edits = JSON.parse(r.stdout).certs.fix.edits as { address: string; status: string }[];
    expect(edits.map((e) => [e.address, e.status])).toEqual([
      ["cloudflare_certificate_pack.shop_wildcard", "patched"],
      ["cloudflare_total_tls.shop", "skipped"],
      ["cloudflare_custom_hostname.tenant_acme", "skipped"],
    ]);
    const patch = readFileSync(path.join(dir, "ca.patch"), "utf8");
    expect(patch.match(/^\+ /gm)).toHaveLength(1);
  });

  it("a Let's Encrypt pack whose certificate_authority is an expression is listed as refused with the reason, never edited", async () => {
    const dir = tempCopy(path.join(ROOT, "testdata/certificates-ca-expression"));
    const run = async (extra: string[]) => {
      const r = await certs([dir, "--format", "json", "--fix", "--to", "google", "--patch-file", path.join(dir, "ca.patch"), "--force", "--quiet", ...extra]);
      expect(r.exitCode).toBe(0);
      const edits = JSON.parse(r.stdout).certs.fix.edits as { address: string; status: string; from: string; reason: string | null }[];
      return { edits, patch: readFileSync(path.join(dir, "ca.patch"), "utf8") };
    };
    // No tfvars: the CA is not known offline, so the packs may be Let's Encrypt.
    const unknown = await run([]);
    expect(unknown.edits.map((e) => [e.address, e.status, e.from])).toEqual([
      ["cloudflare_certificate_pack.shop", "refused", "${var.certificate_authority}"],
      ["cloudflare_certificate_pack.blog", "refused", "${local.blog_ca}"],
      ["cloudflare_certificate_pack.api", "patched", "lets_encrypt"],
    ]);
    expect(unknown.edits[0]!.reason).toMatch(/^certificate_authority is the expression `var\.certificate_authority`, not known offline, so it may be Let's Encrypt: not edited; give its value with --var-file\/--var or pass --state/);
    expect(unknown.edits[1]!.reason).toContain("`local.blog_ca`, not known offline");
    // The patch holds the literal's edit only, and says why the others are not in it.
    expect(unknown.patch.match(/^\+ /gm)).toEqual(['+ ']);
    expect(unknown.patch).toContain('+  certificate_authority = "google"');
    expect(unknown.patch).toContain('cloudflare_certificate_pack.shop (main.tf:20): certificate_authority "${var.certificate_authority}" -> "google" [REFUSED, not in this patch]');

    // The environment's tfvars say lets_encrypt: still refused (the value is set in the tfvars), with that reason.
    const le = await run(["--var-file", path.join(dir, "env/prod.tfvars")]);
    expect(le.edits.map((e) => [e.address, e.status])).toEqual([
      ["cloudflare_certificate_pack.shop", "refused"],
      ["cloudflare_certificate_pack.blog", "refused"],
      ["cloudflare_certificate_pack.api", "patched"],
    ]);
    expect(le.edits[0]!.reason).toMatch(/which is "lets_encrypt": the patch edits only a literal "lets_encrypt"; change it where the value is set/);

    // Known to be another CA: nothing to switch, not listed.
    const google = await run(["--var-file", path.join(dir, "env/staging.tfvars")]);
    expect(google.edits.map((e) => [e.address, e.status])).toEqual([["cloudflare_certificate_pack.api", "patched"]]);
  });

  it("an edit the editor refuses (.tf.json) is reported, and no patch is written", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-certs-json-"));
    writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({ resource: { cloudflare_total_tls: { shop: { zone_id: "0da42c8d2132a9ddaf714f9e7c920711", enabled: true, certificate_authority: "lets_encrypt" } } } }, null, 2),
    );
    const r = await certs([dir, "--format", "text", "--fix", "--to", "google", "--patch-file", path.join(dir, "ca.patch"), "--as-of", "2024-09-01"]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(dir, "ca.patch"))).toBe(false);
    expect(r.stdout).toContain("no patch written");
    expect(r.stdout).toMatch(/REFUSED +cloudflare_total_tls\.shop/);
    expect(r.stdout).toContain("JSON syntax (.tf.json)");
    expect(r.stderr).toMatch(/no patch written/);
  });
});

// The built binary (`npm test` builds it first).
const BIN = path.join(ROOT, "dist/cli/main.js");
describe("the built binary", () => {
  it("cf-waf-migrate certs testdata/certificates --state … prints the audit", async () => {
    const r = await execa("node", [BIN, "certs", "testdata/certificates", "--state", "testdata/certificates/terraform.tfstate", "--as-of", "2024-09-08", "--format", "text"], {
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      reject: false,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Timeline of the Let's Encrypt chain change");
    expect(r.stdout).toContain("Due within 30 days (4)");
  });
});

// Two roots (prod and staging) that each declare `cloudflare_certificate_pack.main` and both call one shared
// module with their own zone id from terraform.tfvars: the shape of a repository with one folder per
// environment. Before certs read the estate, the second root's certificates vanished into the first's.
describe("certs: several roots", () => {
  const PROD = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
  const STAGING = "f9e8d7c6b5a4039281706f5e4d3c2b1a";

  function estate(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-certs-estate-"));
    const write = (rel: string, text: string) => {
      const abs = path.join(dir, rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    };
    write(
      "modules/tls/main.tf",
      [
        'variable "zone_id" { type = string }',
        "",
        'resource "cloudflare_certificate_pack" "edge" {',
        "  zone_id               = var.zone_id",
        '  type                  = "advanced"',
        '  hosts                 = ["edge.example.com"]',
        '  validation_method     = "txt"',
        "  validity_days         = 90",
        '  certificate_authority = "lets_encrypt"',
        "}",
        "",
      ].join("\n"),
    );
    for (const [env, zone] of [["prod", PROD], ["staging", STAGING]] as const) {
      write(
        `envs/${env}/main.tf`,
        [
          "terraform {",
          '  required_providers { cloudflare = { source = "cloudflare/cloudflare", version = "~> 4.52" } }',
          "}",
          'variable "zone_id" { type = string }',
          "",
          'module "tls" {',
          '  source  = "../../modules/tls"',
          "  zone_id = var.zone_id",
          "}",
          "",
          'resource "cloudflare_certificate_pack" "main" {',
          "  zone_id               = var.zone_id",
          '  type                  = "advanced"',
          `  hosts                 = ["${env}.example.com"]`,
          '  validation_method     = "txt"',
          "  validity_days         = 90",
          '  certificate_authority = "lets_encrypt"',
          "}",
          "",
        ].join("\n"),
      );
      write(`envs/${env}/terraform.tfvars`, `zone_id = "${zone}"\n`);
    }
    return dir;
  }

  it("JSON: each root's certificates and findings, with their own zone ids, none merged into another root's", async () => {
    const dir = estate();
    const { report } = await json([dir, "--as-of", "2024-09-08"]);
    const rows = (report.certs.certificates as { address: string; zone: string; root: string; file: string }[]).map((c) => [c.root, c.address, c.zone, c.file]);
    expect(rows).toEqual([
      ["envs/prod", "cloudflare_certificate_pack.main", PROD, "envs/prod/main.tf"],
      ["envs/prod", "module.tls.cloudflare_certificate_pack.edge", PROD, "modules/tls/main.tf"],
      ["envs/staging", "cloudflare_certificate_pack.main", STAGING, "envs/staging/main.tf"],
      ["envs/staging", "module.tls.cloudflare_certificate_pack.edge", STAGING, "modules/tls/main.tf"],
    ]);
    const findings = (report.findings as (JsonFinding & { root: string; zoneId: string })[]).map((f) => [f.root, f.code, f.address, f.zoneId]);
    expect(findings).toHaveLength(4);
    expect(findings).toEqual(
      expect.arrayContaining([
        ["envs/prod", "CERT_ADVANCED_LETS_ENCRYPT", "cloudflare_certificate_pack.main", PROD],
        ["envs/staging", "CERT_ADVANCED_LETS_ENCRYPT", "cloudflare_certificate_pack.main", STAGING],
        ["envs/prod", "CERT_ADVANCED_LETS_ENCRYPT", "module.tls.cloudflare_certificate_pack.edge", PROD],
        ["envs/staging", "CERT_ADVANCED_LETS_ENCRYPT", "module.tls.cloudflare_certificate_pack.edge", STAGING],
      ]),
    );
    expect((report as unknown as { roots: { path: string }[] }).roots.map((r) => r.path)).toEqual(["envs/prod", "envs/staging"]);
  });

  it("text names each finding's root; --fix patches each root's file and the shared module's line once", async () => {
    const dir = estate();
    const patchFile = path.join(dir, "ca.patch");
    const r = await certs([dir, "--as-of", "2024-09-08", "--format", "text", "--fix", "--to", "google", "--patch-file", patchFile]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/CERT_ADVANCED_LETS_ENCRYPT +\[envs\/prod\] Advanced certificate pack cloudflare_certificate_pack\.main/);
    expect(r.stdout).toMatch(/CERT_ADVANCED_LETS_ENCRYPT +\[envs\/staging\] Advanced certificate pack cloudflare_certificate_pack\.main/);
    const patch = readFileSync(patchFile, "utf8");
    expect(patch.match(/^\+\+\+ .*$/gm)).toEqual(["+++ b/envs/prod/main.tf", "+++ b/envs/staging/main.tf", "+++ b/modules/tls/main.tf"]);
    expect(patch.match(/^# module\.tls\.cloudflare_certificate_pack\.edge \(modules\/tls\/main\.tf:3\)/gm)).toHaveLength(1);
    expect(patch).not.toContain("The same block also serves");
    await execa("git", ["init", "-q"], { cwd: dir });
    await execa("git", ["apply", "ca.patch"], { cwd: dir });
    for (const f of ["envs/prod/main.tf", "envs/staging/main.tf", "modules/tls/main.tf"]) {
      expect(readFileSync(path.join(dir, f), "utf8")).toContain('certificate_authority = "google"');
      expect(readFileSync(path.join(dir, f), "utf8")).not.toContain("lets_encrypt");
    }
  });
});

describe("certs: blocks whose count/for_each gives no instance", () => {
  // The real shape: packs and custom hostnames fanned out over a tfvars map that this environment leaves
  // empty, Total TLS behind a feature-flag count, in a module whose other call gives one instance.
  function tree(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-certs-none-"));
    const write = (rel: string, text: string) => {
      const abs = path.join(dir, rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    };
    write(
      "main.tf",
      [
        'variable "packs" {',
        "  type    = map(object({ zone_id = string, hosts = list(string) }))",
        "  default = {}",
        "}",
        'variable "total_tls" {',
        "  type    = bool",
        "  default = false",
        "}",
        "",
        'resource "cloudflare_certificate_pack" "le" {',
        "  for_each              = var.packs",
        "  zone_id               = each.value.zone_id",
        '  type                  = "advanced"',
        "  hosts                 = each.value.hosts",
        '  validation_method     = "txt"',
        "  validity_days         = 90",
        '  certificate_authority = "lets_encrypt"',
        "}",
        "",
        'resource "cloudflare_total_tls" "tls" {',
        "  count                 = var.total_tls ? 1 : 0",
        '  zone_id               = "0123456789abcdef0123456789abcdef"',
        "  enabled               = true",
        '  certificate_authority = "lets_encrypt"',
        "}",
        "",
        'resource "cloudflare_custom_hostname" "tenants" {',
        "  for_each = toset([])",
        '  zone_id  = "0123456789abcdef0123456789abcdef"',
        "  hostname = each.key",
        "  ssl {",
        '    method                = "txt"',
        '    certificate_authority = "lets_encrypt"',
        "  }",
        "}",
        "",
        // A zone this environment does not create: its Universal certificate is a block with no instance too.
        'resource "cloudflare_zone" "staging" {',
        "  count = var.total_tls ? 1 : 0",
        '  zone  = "staging.example.com"',
        "}",
        "",
      ].join("\n"),
    );
    return dir;
  }

  it("JSON: each block is listed with noInstances, of no zone, and gives no finding", async () => {
    const { report, exitCode } = await json([tree(), "--as-of", "2024-09-08"]);
    expect(exitCode).toBe(0);
    expect(report.findings).toEqual([]);
    const rows = (report.certs.certificates as { address: string; kind: string; line: number; zone: string | null; noInstances?: boolean }[]).map((c) => [c.address, c.kind, c.line, c.zone, c.noInstances]);
    expect(rows).toEqual([
      ["cloudflare_certificate_pack.le", "advanced", 10, null, true],
      ["cloudflare_custom_hostname.tenants", "custom_hostname", 27, null, true],
      ["cloudflare_total_tls.tls", "total_tls", 20, null, true],
      ["cloudflare_zone.staging", "universal", 37, null, true],
    ]);
    // resources[] carries the same marker (and only there).
    const marked = (report.resources as { address: string; noInstances?: true }[]).map((r) => [r.address, r.noInstances ?? false]);
    expect(marked).toEqual(expect.arrayContaining([["cloudflare_zone.staging", true], ["cloudflare_total_tls.tls", true]]));
    expect(marked.every(([, m]) => m === true)).toBe(true);
  });

  it("text: listed under No action as blocks with no instance, not 'No certificate resources found'", async () => {
    const { stdout, exitCode } = await certs([tree(), "--as-of", "2024-09-08", "--format", "text"]);
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain("No certificate resources found");
    expect(stdout).toContain("0 certificates and 4 blocks with no instance");
    expect(stdout).toContain("cloudflare_zone.staging  Universal certificate, no instance");
    expect(stdout).toMatch(/ok {2}cloudflare_certificate_pack\.le {2}Advanced certificate pack, no instance: its count\/for_each gives none here · .*main\.tf:10/);
    expect(stdout).toContain("cloudflare_total_tls.tls  Total TLS, no instance");
    expect(stdout).toContain("cloudflare_custom_hostname.tenants  Custom hostname, no instance");
  });
});
