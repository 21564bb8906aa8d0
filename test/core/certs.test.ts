import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { parse as parseHcl } from "@cdktn/hcl2json";
import { beforeAll, describe, expect, it } from "vitest";

import { planCertificateFixes } from "../../src/core/cert-fix.js";
import {
  auditCertificates,
  isLetsEncryptIssuer,
  timeline,
  toIsoDay,
  type Certificate,
  type CertificateKind,
} from "../../src/core/certs.js";
import type { Finding, InventoryResource } from "../../src/core/model.js";
import { firstObject, readCertificates } from "../../src/terraform/readers/certificates.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const FIXTURE = join(ROOT, "testdata", "certificates");
const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
const SAAS = "9a7806061c88ada191ed06f989cc3dac";

// ---- helpers ------------------------------------------------------------------------------------------

let seq = 0;
function cert(kind: CertificateKind, over: Partial<Certificate> = {}): Certificate {
  seq += 1;
  const type = {
    universal: "cloudflare_zone",
    advanced: "cloudflare_certificate_pack",
    total_tls: "cloudflare_total_tls",
    custom_hostname: "cloudflare_custom_hostname",
    custom_uploaded: "cloudflare_custom_ssl",
  }[kind];
  const address = `${type}.r${seq}`;
  return {
    kind,
    ref: { address, configAddress: address, type, file: "main.tf", line: seq, zoneId: SHOP, inConfig: true, inState: true },
    zone: SHOP,
    zoneName: null,
    hostname: kind === "custom_hostname" ? "shop.tenant.example" : null,
    hosts: [],
    certificateAuthority: null,
    bundleMethod: null,
    issuer: null,
    uploadedOn: null,
    expiresOn: null,
    enabled: kind === "total_tls" ? true : null,
    validityDays: null,
    id: "7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4",
    configCertificateAuthority: null,
    schemaShape: null,
    unknown: {},
    ...over,
  };
}

const le = (kind: CertificateKind, over: Partial<Certificate> = {}) =>
  cert(kind, { certificateAuthority: "lets_encrypt", configCertificateAuthority: "lets_encrypt", ...over });
const upload = (over: Partial<Certificate> = {}) =>
  cert("custom_uploaded", { issuer: "LetsEncrypt", certificateAuthority: "lets_encrypt", expiresOn: "2024-11-18", ...over });

function only(findings: Finding[]): Finding {
  expect(findings).toHaveLength(1);
  return findings[0]!;
}

/** A config-only inventory from one .tf file, the way the inventory builder presents it (hcl2json shapes). */
async function configInventory(file: string): Promise<InventoryResource[]> {
  const text = readFileSync(file, "utf8");
  const json = (await parseHcl(file, text)) as { resource?: Record<string, Record<string, Record<string, unknown>[]>> };
  const lines = text.split("\n");
  const out: InventoryResource[] = [];
  for (const [type, byName] of Object.entries(json.resource ?? {})) {
    for (const [name, bodies] of Object.entries(byName)) {
      const body = bodies[0]!;
      const line = lines.findIndex((l) => l.startsWith(`resource "${type}" "${name}"`)) + 1;
      const z = body.zone_id;
      const expr = typeof z === "string" && z.startsWith("${") ? z.slice(2, -1) : null;
      out.push({
        address: `${type}.${name}`,
        configAddress: `${type}.${name}`,
        type,
        name,
        module: "",
        file: file.slice(ROOT.length + 1),
        line,
        zoneId: expr ?? (typeof z === "string" ? z : null),
        zoneIdExpression: expr,
        inConfig: true,
        inState: false,
        attributes: body,
        configAttributes: body,
      });
    }
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

interface StateFile {
  resources: { mode: string; type: string; name: string; instances: { index_key?: string | number; attributes: Record<string, unknown> }[] }[];
}

/** Config inventory joined with a state v4 file: state attributes win, config attributes stay for --fix. */
function withState(config: InventoryResource[], state: StateFile): InventoryResource[] {
  const out: InventoryResource[] = [];
  for (const r of state.resources.filter((x) => x.mode === "managed")) {
    const cfg = config.find((c) => c.type === r.type && c.name === r.name);
    for (const inst of r.instances) {
      const key = inst.index_key === undefined ? "" : typeof inst.index_key === "number" ? `[${inst.index_key}]` : `["${inst.index_key}"]`;
      const zid = r.type === "cloudflare_zone" ? inst.attributes.id : inst.attributes.zone_id;
      out.push({
        address: `${r.type}.${r.name}${key}`,
        configAddress: `${r.type}.${r.name}`,
        type: r.type,
        name: r.name,
        module: "",
        file: cfg?.file ?? null,
        line: cfg?.line ?? null,
        zoneId: typeof zid === "string" ? zid : null,
        zoneIdExpression: cfg?.zoneIdExpression ?? null,
        inConfig: cfg !== undefined,
        inState: true,
        attributes: inst.attributes,
        configAttributes: cfg?.configAttributes ?? null,
      });
    }
  }
  return out;
}

const fixtureState = (): StateFile => JSON.parse(readFileSync(join(FIXTURE, "terraform.tfstate"), "utf8")) as StateFile;

// ---- the spec's certificate table, one row per test -------------------------------------------------

describe("auditCertificates: the spec's certificate table", () => {
  const asOf = "2024-09-01";

  it("Universal: switched automatically, nothing to do; one info per zone", () => {
    const findings = auditCertificates(
      [
        cert("universal", { zoneName: "shop.example.com" }),
        cert("universal", { zoneName: "shop.example.com" }), // a second resource in the same zone
        cert("universal", { zone: SAAS, zoneName: "saas.example.net" }),
      ],
      asOf,
    );
    expect(findings.map((f) => [f.code, f.severity, f.zoneId])).toEqual([
      ["CERT_UNIVERSAL_AUTO_SWITCH", "info", SHOP],
      ["CERT_UNIVERSAL_AUTO_SWITCH", "info", SAAS],
    ]);
    expect(findings[0]!.message).toMatch(/more compatible CA automatically.*nothing to do/);
    expect(findings[0]!.details).toMatchObject({ urgency: "none", deadline: null, kind: "universal", certificateAuthority: null });
  });

  it("Advanced using Let's Encrypt by choice: no automatic change, e-mail, choose another CA (replacement)", () => {
    const f = only(auditCertificates([le("advanced", { hosts: ["shop.example.com", "*.shop.example.com"] })], asOf));
    expect(f).toMatchObject({ code: "CERT_ADVANCED_LETS_ENCRYPT", severity: "warning", zoneId: SHOP, file: "main.tf" });
    expect(f.message).toContain("does not change it automatically");
    expect(f.message).toContain("e-mail");
    expect(f.message).toContain("List Certificates");
    expect(f.message).toContain("before 2024-09-09 (in 8 days)");
    expect(f.message).toContain("replacement");
    expect(f.details).toMatchObject({ urgency: "soon", deadline: "2024-09-09", kind: "advanced", certificateAuthority: "lets_encrypt" });
  });

  it("Total TLS with Let's Encrypt: never changed automatically, select a different CA", () => {
    const f = only(auditCertificates([le("total_tls")], asOf));
    expect(f).toMatchObject({ code: "CERT_TOTAL_TLS_LETS_ENCRYPT", severity: "warning" });
    expect(f.message).toContain("never changes");
    expect(f.message).toContain("Total TLS");
    expect(f.details).toMatchObject({ urgency: "soon", deadline: "2024-09-09", kind: "total_tls" });
    // Total TLS switched off issues nothing.
    expect(auditCertificates([le("total_tls", { enabled: false })], asOf)).toEqual([]);
  });

  it("Custom, compatible or modern bundling, uploaded before 2024-09-09: cross-signed chain kept until expiry", () => {
    for (const bundleMethod of ["ubiquitous", "optimal", null] as const) {
      const f = only(auditCertificates([upload({ bundleMethod, uploadedOn: "2024-08-20" })], asOf));
      expect(f).toMatchObject({ code: "CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY", severity: "info" });
      expect(f.message).toContain("keeps serving the cross-signed chain until the certificate expires on 2024-11-18 (in 78 days)");
      expect(f.details).toMatchObject({ deadline: "2024-11-18", urgency: "later", kind: "custom_uploaded", certificateAuthority: "lets_encrypt" });
    }
  });

  it("Custom of that CA uploaded after 2024-09-09, compatible or modern: bundled with the self-signed root", () => {
    const f = only(auditCertificates([upload({ bundleMethod: "optimal", uploadedOn: "2024-09-16" })], "2024-09-20"));
    expect(f).toMatchObject({ code: "CERT_CUSTOM_REBUNDLED_SELF_SIGNED", severity: "info" });
    expect(f.message).toContain("self-signed ISRG Root X1 chain instead of the cross-signed chain");
    expect(f.details).toMatchObject({ urgency: "none", deadline: null, bundleMethod: "optimal" });
  });

  it("Custom with user-defined (force) bundling: the uploaded chain is served as is", () => {
    const f = only(auditCertificates([upload({ bundleMethod: "force", uploadedOn: "2024-08-20" })], asOf));
    expect(f).toMatchObject({ code: "CERT_CUSTOM_USER_DEFINED_CHAIN", severity: "warning" });
    expect(f.message).toContain("serves the chain exactly as uploaded");
    expect(f.message).toContain("before 2024-09-30 (in 29 days)");
    expect(f.details).toMatchObject({ urgency: "soon", deadline: "2024-09-30", bundleMethod: "force" });
  });

  it("Custom hostname set to Let's Encrypt: no automatic change, SaaS provider notified, switch before 2024-09-09", () => {
    const f = only(auditCertificates([le("custom_hostname", { zone: SAAS })], "2024-07-01"));
    expect(f).toMatchObject({ code: "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT", severity: "warning", zoneId: SAAS });
    expect(f.message).toContain("SaaS provider");
    expect(f.message).toContain("before 2024-09-09 (in 70 days)");
    expect(f.details).toMatchObject({
      urgency: "later",
      deadline: "2024-09-09",
      command: `cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id 7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4 --ca default`,
    });
  });
});

// ---- date boundaries ----------------------------------------------------------------------------------

describe("date boundaries", () => {
  it("asOf 2024-09-08 vs 2024-09-09 for the switch-before-09-09 rows", () => {
    const h = le("custom_hostname");
    const d8 = only(auditCertificates([h], "2024-09-08"));
    expect(d8.details).toMatchObject({ urgency: "soon" });
    expect(d8.message).toContain("before 2024-09-09 (in 1 day)");
    const d9 = only(auditCertificates([h], "2024-09-09"));
    expect(d9.details).toMatchObject({ urgency: "overdue" });
    expect(d9.message).toContain("before 2024-09-09 (today: overdue, do it now)");
    const d12 = only(auditCertificates([le("advanced")], "2024-09-12"));
    expect(d12.message).toContain("before 2024-09-09 (3 days ago: overdue, do it now)");
    // A Date asOf counts by its UTC day.
    expect(only(auditCertificates([h], new Date("2024-09-08T23:59:59Z"))).details).toMatchObject({ urgency: "soon" });
    expect(only(auditCertificates([h], new Date("2024-09-09T00:00:00Z"))).details).toMatchObject({ urgency: "overdue" });
  });

  it("upload date 2024-09-08 vs 2024-09-09 (UTC day of the timestamp)", () => {
    const code = (uploadedOn: string | null) =>
      only(auditCertificates([upload({ bundleMethod: "ubiquitous", uploadedOn })], "2024-10-01")).code;
    expect(code("2024-09-08")).toBe("CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY");
    expect(code("2024-09-09")).toBe("CERT_CUSTOM_REBUNDLED_SELF_SIGNED");
    expect(code(toIsoDay("2024-09-08T23:59:59Z"))).toBe("CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY");
    expect(code(toIsoDay("2024-09-09T00:30:00+02:00"))).toBe("CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY"); // 2024-09-08T22:30Z
    expect(code(toIsoDay("2024-09-09T00:00:00Z"))).toBe("CERT_CUSTOM_REBUNDLED_SELF_SIGNED");
  });

  it("asOf 2024-09-29 vs 2024-09-30 for force bundling", () => {
    const c = upload({ bundleMethod: "force", uploadedOn: "2024-08-20" });
    const d29 = only(auditCertificates([c], "2024-09-29"));
    expect(d29.details).toMatchObject({ urgency: "soon", deadline: "2024-09-30" });
    expect(d29.message).toContain("before 2024-09-30 (in 1 day)");
    const d30 = only(auditCertificates([c], "2024-09-30"));
    expect(d30.details).toMatchObject({ urgency: "overdue" });
    expect(d30.message).toContain("(today: overdue, do it now)");
  });

  it("upload date 2024-09-29 vs 2024-09-30 for force bundling", () => {
    const msg = (uploadedOn: string) =>
      only(auditCertificates([upload({ bundleMethod: "force", uploadedOn })], "2024-10-05")).message;
    expect(msg("2024-09-29")).toContain("should not use the cross-signed chain: if this bundle carries it");
    expect(msg("2024-09-30")).toContain("uploaded on or after 2024-09-30, when the cross-signed chain had expired");
  });

  it("timeline: the three dates with their status", () => {
    const status = (asOf: string) => timeline(asOf).map((e) => `${e.date}:${e.status}`);
    expect(status("2024-05-31")).toEqual(["2024-06:future", "2024-09-09:future", "2024-09-30:future"]);
    expect(status("2024-06-15")).toEqual(["2024-06:current", "2024-09-09:future", "2024-09-30:future"]);
    expect(status("2024-09-08")).toEqual(["2024-06:past", "2024-09-09:future", "2024-09-30:future"]);
    expect(status("2024-09-09")).toEqual(["2024-06:past", "2024-09-09:current", "2024-09-30:future"]);
    expect(status("2024-09-29")).toEqual(["2024-06:past", "2024-09-09:past", "2024-09-30:future"]);
    expect(status("2024-09-30")).toEqual(["2024-06:past", "2024-09-09:past", "2024-09-30:current"]);
    const t = timeline("2024-09-08");
    expect(t[1]).toMatchObject({ days: 1, relative: "in 1 day" });
    expect(t[2]).toMatchObject({ days: 22, relative: "in 22 days" });
    expect(timeline("2024-10-01")[2]).toMatchObject({ status: "past", days: -1, relative: "1 day ago" });
    // The month-long entry: days and its text both from the first of the month.
    expect(timeline("2026-11-27")[0]).toMatchObject({ date: "2024-06", status: "past", days: -909, relative: "909 days ago" });
    expect(timeline("2024-07-01")[0]).toMatchObject({ status: "past", days: -30, relative: "30 days ago" });
    expect(() => timeline("2024-13-01")).toThrow(RangeError);
  });
});

// ---- other CAs and unknowns ---------------------------------------------------------------------------

describe("other CAs and values that cannot be known offline", () => {
  it("a certificate of another CA yields no finding", () => {
    const others = [
      cert("advanced", { certificateAuthority: "google" }),
      cert("advanced", { certificateAuthority: "digicert" }),
      cert("advanced", { certificateAuthority: "ssl_com" }),
      cert("total_tls", { certificateAuthority: "google" }),
      cert("total_tls", { certificateAuthority: null }), // default CA
      cert("custom_hostname", { certificateAuthority: "ssl_com" }),
      cert("custom_hostname", { certificateAuthority: "google" }),
      cert("custom_hostname", { certificateAuthority: null }), // "" / default
      cert("custom_uploaded", { issuer: "DigiCert Inc", bundleMethod: "force", uploadedOn: "2024-08-01" }),
      cert("custom_uploaded", { issuer: "GlobalSign", uploadedOn: "2024-10-01" }),
      cert("custom_uploaded", { issuer: "Google Trust Services", uploadedOn: "2024-08-01" }),
      cert("custom_uploaded", { issuer: "CN=SSL.com RSA SSL subCA,O=SSL Corporation,C=US", uploadedOn: "2024-08-01" }),
    ];
    expect(auditCertificates(others, "2024-09-01")).toEqual([]);
  });

  it("recognises Let's Encrypt issuers and nothing else", () => {
    for (const yes of ["LetsEncrypt", "Let's Encrypt", "Let’s Encrypt", "R3", "R10", "r11", "E5", "ISRG Root X1", "CN=R11,O=Let's Encrypt,C=US", "C=US, O=Example, CN=E6", "(STAGING) Let's Encrypt"]) {
      expect(isLetsEncryptIssuer(yes), yes).toBe(true);
    }
    for (const no of ["GlobalSign", "DigiCert Inc", "Google Trust Services", "GTS CA 1P5", "Sectigo RSA Domain Validation Secure Server CA", "CN=R3 Corp Root,O=Example", "", null]) {
      expect(isLetsEncryptIssuer(no), String(no)).toBe(false);
    }
  });

  it("a CA written as an expression is reported as unknown, not guessed", () => {
    const c = cert("custom_hostname", { unknown: { certificate_authority: "set by an expression (${var.ca})" } });
    const f = only(auditCertificates([c], "2024-09-01"));
    expect(f).toMatchObject({ code: "CERT_CA_UNKNOWN", severity: "warning" });
    expect(f.message).toContain("${var.ca}");
    expect(f.message).toContain("cannot be told offline");
  });

  it("an uploaded certificate without issuer is unknown; one without upload date is read as on/after 2024-09-09", () => {
    const noIssuer = cert("custom_uploaded", { unknown: { issuer: "not in state; the issuer is computed at upload" } });
    expect(only(auditCertificates([noIssuer], "2024-09-01")).code).toBe("CERT_CA_UNKNOWN");
    const noDate = upload({ bundleMethod: "ubiquitous", uploadedOn: null, unknown: { uploaded_on: "state has no uploaded_on" } });
    const f = only(auditCertificates([noDate], "2024-09-01"));
    expect(f.code).toBe("CERT_CUSTOM_REBUNDLED_SELF_SIGNED");
    expect(f.message).toContain("upload date is unknown (state has no uploaded_on)");
    expect(f.message).toContain("treated as on or after 2024-09-09");
  });

  it("config leaving a custom hostname's CA to the service while state shows lets_encrypt points at CAA", () => {
    const c = le("custom_hostname", { configCertificateAuthority: null });
    expect(only(auditCertificates([c], "2024-09-01")).message).toContain("CAA");
  });

  it("rejects an unreadable asOf", () => {
    expect(() => auditCertificates([], "09/09/2024")).toThrow(RangeError);
  });
});

// ---- reader: provider 4 and provider 5 shapes ---------------------------------------------------------

describe("readCertificates", () => {
  let v4Config: InventoryResource[];
  let v5Config: InventoryResource[];
  beforeAll(async () => {
    v4Config = await configInventory(join(FIXTURE, "main.tf"));
    v5Config = await configInventory(join(FIXTURE, "../certificates-v5", "main.tf"));
  });

  it("firstObject reads a block list and a nested object alike", () => {
    expect(firstObject([{ a: 1 }])).toEqual({ a: 1 });
    expect(firstObject({ a: 1 })).toEqual({ a: 1 });
    expect(firstObject([])).toBeNull();
    expect(firstObject("${var.ssl}")).toBeNull();
  });

  it("provider 4 state + config (fixture): every type, state values win", () => {
    const certs = readCertificates(withState(v4Config, fixtureState()));
    const by = (a: string) => certs.find((c) => c.ref.address === a)!;
    expect(certs.map((c) => `${c.kind}:${c.ref.address}`).sort()).toEqual(
      [
        "advanced:cloudflare_certificate_pack.shop_api",
        "advanced:cloudflare_certificate_pack.shop_wildcard",
        "custom_hostname:cloudflare_custom_hostname.tenant_acme",
        "custom_hostname:cloudflare_custom_hostname.tenant_globex",
        "custom_uploaded:cloudflare_custom_ssl.checkout",
        "custom_uploaded:cloudflare_custom_ssl.legacy_clients",
        "total_tls:cloudflare_total_tls.shop",
        "universal:cloudflare_zone.shop",
      ].sort(),
    );
    expect(by("cloudflare_zone.shop")).toMatchObject({ zone: SHOP, zoneName: "shop.example.com" });
    expect(by("cloudflare_certificate_pack.shop_wildcard")).toMatchObject({
      certificateAuthority: "lets_encrypt",
      configCertificateAuthority: "lets_encrypt",
      validityDays: 90,
      zone: SHOP,
      id: "5e8d1f0b3c2a4e79a61f0c9d2b7e4a13",
    });
    expect(by("cloudflare_custom_hostname.tenant_acme")).toMatchObject({
      hostname: "shop.acme-tenant.example",
      certificateAuthority: "lets_encrypt",
      bundleMethod: "ubiquitous",
      schemaShape: "blocks",
      zone: SAAS,
    });
    expect(by("cloudflare_custom_ssl.checkout")).toMatchObject({
      issuer: "LetsEncrypt",
      certificateAuthority: "lets_encrypt",
      bundleMethod: "ubiquitous",
      uploadedOn: "2024-08-20",
      expiresOn: "2024-11-18",
      schemaShape: "blocks",
    });
    expect(by("cloudflare_custom_ssl.legacy_clients")).toMatchObject({ bundleMethod: "force", uploadedOn: "2024-09-16" });
    expect(by("cloudflare_total_tls.shop")).toMatchObject({ enabled: true, certificateAuthority: "lets_encrypt" });
    expect(by("cloudflare_total_tls.shop").ref).toMatchObject({ file: "testdata/certificates/main.tf", inConfig: true, inState: true });
  });

  it("provider 4 fixture audited as of 2024-09-20", () => {
    const findings = auditCertificates(readCertificates(withState(v4Config, fixtureState())), "2024-09-20");
    expect(findings.map((f) => `${f.code} ${f.address}`).sort()).toEqual(
      [
        "CERT_ADVANCED_LETS_ENCRYPT cloudflare_certificate_pack.shop_wildcard",
        "CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY cloudflare_custom_ssl.checkout",
        "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT cloudflare_custom_hostname.tenant_acme",
        "CERT_CUSTOM_USER_DEFINED_CHAIN cloudflare_custom_ssl.legacy_clients",
        "CERT_TOTAL_TLS_LETS_ENCRYPT cloudflare_total_tls.shop",
        "CERT_UNIVERSAL_AUTO_SWITCH cloudflare_zone.shop",
      ].sort(),
    );
    for (const f of findings) expect(f.file).toBe("testdata/certificates/main.tf");
    const hostname = findings.find((f) => f.code === "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT")!;
    expect(hostname.details).toMatchObject({ urgency: "overdue" });
    expect(hostname.message).toContain(`--zone ${SAAS} --hostname-id 7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4`);
    expect(findings.find((f) => f.code === "CERT_CUSTOM_USER_DEFINED_CHAIN")!.details).toMatchObject({ urgency: "soon" });
  });

  it("provider 4 config only: literals read, computed values reported unknown", () => {
    const certs = readCertificates(v4Config);
    const pack = certs.find((c) => c.ref.address === "cloudflare_certificate_pack.shop_wildcard")!;
    expect(pack).toMatchObject({ certificateAuthority: "lets_encrypt", zone: "cloudflare_zone.shop.id" });
    const zone = certs.find((c) => c.kind === "universal")!;
    expect(zone.zone).toBe("cloudflare_zone.shop.id"); // same key as the resources that reference it
    const checkout = certs.find((c) => c.ref.address === "cloudflare_custom_ssl.checkout")!;
    expect(checkout.issuer).toBeNull();
    expect(checkout.unknown.issuer).toContain('${file("${path.module}/certs/checkout.pem")}');
    expect(checkout.unknown.uploaded_on).toContain("uploaded when the configuration is applied");
    const codes = auditCertificates(certs, "2024-09-20").map((f) => `${f.code} ${f.address}`);
    expect(codes).toContain("CERT_CA_UNKNOWN cloudflare_custom_ssl.checkout");
    expect(codes).toContain("CERT_CA_UNKNOWN cloudflare_custom_ssl.legacy_clients");
  });

  it("provider 5 config (nested attributes, flattened custom_ssl)", () => {
    const certs = readCertificates(v5Config);
    const acme = certs.find((c) => c.ref.address === "cloudflare_custom_hostname.tenant_acme")!;
    expect(acme).toMatchObject({ certificateAuthority: "lets_encrypt", bundleMethod: "ubiquitous", schemaShape: "attributes", zone: SAAS });
    const globex = certs.find((c) => c.ref.address === "cloudflare_custom_hostname.tenant_globex")!;
    expect(globex.certificateAuthority).toBe("google");
    const legacy = certs.find((c) => c.ref.address === "cloudflare_custom_ssl.legacy_clients")!;
    expect(legacy).toMatchObject({ bundleMethod: "force", schemaShape: "attributes" });
    expect(certs.find((c) => c.kind === "universal")!.zoneName).toBe("shop.example.com");
  });

  it("provider 5 state shapes: ssl object, flattened custom_ssl, schema 500", () => {
    const base = { module: "", file: "v5/main.tf", line: 1, zoneIdExpression: null, inConfig: false, inState: true, configAttributes: null };
    const resources: InventoryResource[] = [
      {
        ...base,
        address: "cloudflare_custom_hostname.tenant_acme",
        configAddress: "cloudflare_custom_hostname.tenant_acme",
        type: "cloudflare_custom_hostname",
        name: "tenant_acme",
        zoneId: SAAS,
        attributes: {
          id: "7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4",
          zone_id: SAAS,
          hostname: "shop.acme-tenant.example",
          ssl: { bundle_method: "ubiquitous", certificate_authority: "lets_encrypt", method: "txt", type: "dv", settings: { http2: "on" } },
          status: "active",
        },
      },
      {
        ...base,
        address: "cloudflare_custom_ssl.checkout",
        configAddress: "cloudflare_custom_ssl.checkout",
        type: "cloudflare_custom_ssl",
        name: "checkout",
        zoneId: SHOP,
        attributes: {
          id: "2f8a5c1e9b4d47f6a3c0e8d5b2f9a6c1",
          zone_id: SHOP,
          certificate: readFileSync(join(FIXTURE, "certs", "checkout.pem"), "utf8"),
          private_key: "(sensitive)",
          bundle_method: "optimal",
          type: "sni_custom",
          issuer: "Let's Encrypt",
          uploaded_on: "2024-09-09T06:00:00Z",
          expires_on: "2024-12-08T05:59:59Z",
          hosts: ["checkout.shop.example.com"],
          status: "active",
        },
      },
    ];
    const certs = readCertificates(resources);
    expect(certs[0]).toMatchObject({ kind: "custom_hostname", certificateAuthority: "lets_encrypt", schemaShape: "attributes" });
    expect(certs[1]).toMatchObject({ kind: "custom_uploaded", bundleMethod: "optimal", uploadedOn: "2024-09-09", schemaShape: "attributes" });
    expect(auditCertificates(certs, "2024-09-20").map((f) => f.code)).toEqual([
      "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT",
      "CERT_CUSTOM_REBUNDLED_SELF_SIGNED",
    ]);
  });

  it("expressions are unknown; a literal PEM in config gives the issuer", () => {
    const r = (type: string, attributes: Record<string, unknown>): InventoryResource => ({
      address: `${type}.x`,
      configAddress: `${type}.x`,
      type,
      name: "x",
      module: "",
      file: "main.tf",
      line: 3,
      zoneId: SHOP,
      zoneIdExpression: null,
      inConfig: true,
      inState: false,
      attributes,
      configAttributes: attributes,
    });
    const certs = readCertificates([
      r("cloudflare_certificate_pack", { zone_id: SHOP, certificate_authority: "${var.ca}" }),
      r("cloudflare_custom_hostname", { zone_id: SHOP, hostname: "a.example", ssl: [{ certificate_authority: "${local.cas[each.key]}" }] }),
      r("cloudflare_custom_hostname", { zone_id: SHOP, hostname: "b.example", ssl: "${var.ssl}" }),
      r("cloudflare_custom_hostname", { zone_id: SHOP, hostname: "c.example" }), // no ssl: no certificate
      r("cloudflare_custom_ssl", {
        zone_id: SHOP,
        custom_ssl_options: [{ certificate: readFileSync(join(FIXTURE, "certs", "legacy.pem"), "utf8"), bundle_method: "force" }],
      }),
    ]);
    expect(certs).toHaveLength(4);
    expect(certs[0]!.certificateAuthority).toBeNull();
    expect(certs[0]!.unknown.certificate_authority).toContain("${var.ca}");
    expect(certs[1]!.unknown.certificate_authority).toContain("${local.cas[each.key]}");
    expect(certs[2]!.unknown.certificate_authority).toContain("${var.ssl}");
    expect(certs[3]).toMatchObject({ issuer: "C=US, O=Let's Encrypt, CN=R11", certificateAuthority: "lets_encrypt", expiresOn: "2024-12-15" });
    const codes = auditCertificates(certs, "2024-09-01").map((f) => f.code);
    expect(codes).toEqual(["CERT_CA_UNKNOWN", "CERT_CA_UNKNOWN", "CERT_CA_UNKNOWN", "CERT_CUSTOM_USER_DEFINED_CHAIN"]);
  });
});

// ---- cert-fix -----------------------------------------------------------------------------------------

describe("planCertificateFixes", () => {
  let v4: Certificate[];
  let v5: Certificate[];
  beforeAll(async () => {
    v4 = readCertificates(withState(await configInventory(join(FIXTURE, "main.tf")), fixtureState()));
    v5 = readCertificates(await configInventory(join(FIXTURE, "../certificates-v5", "main.tf")));
  });

  it("--to google: one edit per literal lets_encrypt; packs are replaced, the rest update in place", () => {
    const edits = planCertificateFixes(v4, "google", { providerMajor: 4 });
    expect(edits.map((e) => [e.address, e.attribute, e.from, e.to, e.forcesReplacement, e.valid])).toEqual([
      ["cloudflare_certificate_pack.shop_wildcard", "certificate_authority", "lets_encrypt", "google", true, true],
      ["cloudflare_custom_hostname.tenant_acme", "ssl.certificate_authority", "lets_encrypt", "google", false, true],
      ["cloudflare_total_tls.shop", "certificate_authority", "lets_encrypt", "google", false, true],
    ]);
    const pack = edits[0]!;
    expect(pack).toMatchObject({ file: "testdata/certificates/main.tf", line: 37 });
    expect(pack.note).toContain("ForceNew");
    expect(pack.note).toContain("create_before_destroy");
    expect(pack.note).toMatch(/14, 30 or 90/);
    expect(edits[1]!.command).toBe(
      `cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id 7c2f9e4a1b8d4c3e9f06a5b2d1e8c7f4 --ca google`,
    );
    expect(edits[2]!.command).toBeNull();
  });

  it("--to default: google for packs and Total TLS (said so), delete + API \"\" for custom hostnames", () => {
    const edits = planCertificateFixes(v4, "default", { providerMajor: 4 });
    const pack = edits.find((e) => e.kind === "advanced")!;
    expect(pack.to).toBe("google");
    expect(pack.note).toContain("no default CA: google is used instead");
    const tls = edits.find((e) => e.kind === "total_tls")!;
    expect(tls.to).toBe("google");
    expect(tls.note).toContain("google is used instead");
    const host = edits.find((e) => e.kind === "custom_hostname")!;
    expect(host.to).toBeNull();
    expect(host.command).toMatch(/--ca default$/);
    expect(host.note).toContain("Optional+Computed");
  });

  it("--to ssl_com: validity by provider version and resource type", () => {
    const v4edits = planCertificateFixes(v4, "ssl_com", { providerMajor: 4, providerVersion: "4.43.0" });
    expect(v4edits.map((e) => [e.kind, e.valid])).toEqual([
      ["advanced", false],
      ["custom_hostname", false],
      ["total_tls", false],
    ]);
    expect(v4edits.find((e) => e.kind === "advanced")!.note).toContain("4.44.0");
    expect(planCertificateFixes(v4, "ssl_com", { providerVersion: "4.52.8" }).find((e) => e.kind === "advanced")!.valid).toBe(true);
    expect(planCertificateFixes(v4, "ssl_com", { providerMajor: 3 }).find((e) => e.kind === "custom_hostname")!.note).toContain(
      "not accepted by provider 3.x",
    );
    // Provider 5 (told apart by the custom hostname's nested attribute): all valid.
    const v5edits = planCertificateFixes(v5, "ssl_com", { providerMajor: 5 });
    expect(v5edits.map((e) => [e.kind, e.to, e.valid])).toEqual([
      ["advanced", "ssl_com", true],
      ["total_tls", "ssl_com", true],
      ["custom_hostname", "ssl_com", true],
    ]);
    expect(planCertificateFixes(v5, "ssl_com").find((e) => e.kind === "custom_hostname")!.valid).toBe(true);
  });

  it("leaves other CAs and state-only resources alone, refuses an expression that may be Let's Encrypt; one edit per block across instances", () => {
    const ref = (address: string, over: Partial<Certificate["ref"]> = {}) => ({
      address,
      configAddress: address.replace(/\[.*\]$/, ""),
      type: "cloudflare_custom_hostname",
      file: "main.tf",
      line: 10,
      zoneId: SAAS,
      inConfig: true,
      inState: true,
      ...over,
    });
    const certs: Certificate[] = [
      cert("custom_hostname", { ref: ref('cloudflare_custom_hostname.t["a"]'), configCertificateAuthority: "lets_encrypt", id: "11111111111111111111111111111111", zone: SAAS }),
      cert("custom_hostname", { ref: ref('cloudflare_custom_hostname.t["b"]'), configCertificateAuthority: "lets_encrypt", id: "22222222222222222222222222222222", zone: SAAS }),
      cert("custom_hostname", { ref: ref("cloudflare_custom_hostname.v", { line: 20 }), configCertificateAuthority: "${var.ca}" }),
      cert("custom_hostname", { ref: ref("cloudflare_custom_hostname.g", { line: 30 }), configCertificateAuthority: "google" }),
      cert("custom_hostname", { ref: ref("cloudflare_custom_hostname.s", { file: null, line: null, inConfig: false }), certificateAuthority: "lets_encrypt" }),
      upload({ bundleMethod: "force" }),
      cert("universal"),
    ];
    const edits = planCertificateFixes(certs, "google", { providerMajor: 5 });
    expect(edits).toHaveLength(2);
    expect(edits[0]).toMatchObject({ address: "cloudflare_custom_hostname.t", line: 10 });
    expect(edits[0]!.refusal).toBeUndefined();
    // `${var.ca}`, not known offline: listed with the reason it is not edited, never patched.
    expect(edits[1]).toMatchObject({ address: "cloudflare_custom_hostname.v", line: 20, from: "${var.ca}" });
    expect(edits[1]!.refusal).toMatch(/^certificate_authority is the expression `var\.ca`, not known offline, so it may be Let's Encrypt: not edited/);
    expect(edits[0]!.commands).toEqual([
      `cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id 11111111111111111111111111111111 --ca google`,
      `cf-waf-migrate api custom-hostname-ca --zone ${SAAS} --hostname-id 22222222222222222222222222222222 --ca google`,
    ]);
  });
});
