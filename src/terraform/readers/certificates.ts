// Inventory resources -> core `Certificate`s for the Let's Encrypt chain audit.
//
// Attribute maps arrive in two forms (see InventoryResource): state attributes (JSON from the state file: all
// values literal) or config attributes from hcl2json (blocks as arrays of objects, expressions as "${…}"
// strings). Provider 3/4 keep nested blocks as one-element lists (`ssl[0]`, `custom_ssl_options[0]`),
// provider 5 as objects (`ssl = {…}`) or flattened (custom_ssl). `firstObject` reads either.
//
// Resource types read:
//   cloudflare_zone              -> universal (the zone has a Universal certificate; one per zone)
//   cloudflare_certificate_pack  -> advanced
//   cloudflare_total_tls         -> total_tls
//   cloudflare_custom_hostname   -> custom_hostname (only when it has an `ssl` block/attribute)
//   cloudflare_custom_ssl        -> custom_uploaded
// Values written as expressions are not guessed: they land in `Certificate.unknown`.

import { X509Certificate } from "node:crypto";

import { caFromIssuer, toIsoDay, type BundleMethod, type Certificate, type CertificateKind } from "../../core/certs.js";
import { refOf, type InventoryResource } from "../../core/model.js";

/** The first element if `v` is an array (a provider 3/4 block list), `v` itself if it is an object, else null. */
export function firstObject(v: unknown): Record<string, unknown> | null {
  const x = Array.isArray(v) ? v[0] : v;
  return x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

/** True for hcl2json's rendering of an expression or template (`${var.ca}`, `%{ if … }`). */
export function isExpressionText(v: unknown): v is string {
  return typeof v === "string" && (v.includes("${") || v.includes("%{"));
}

type Value<T> = { kind: "absent" } | { kind: "literal"; value: T } | { kind: "expression"; text: string };

function stringValue(v: unknown, fromConfig: boolean): Value<string> {
  if (v === undefined || v === null) return { kind: "absent" };
  if (fromConfig && isExpressionText(v)) return { kind: "expression", text: v };
  if (typeof v === "string") return { kind: "literal", value: v };
  if (typeof v === "number" || typeof v === "boolean") return { kind: "literal", value: String(v) };
  return { kind: "expression", text: JSON.stringify(v) };
}

function lit(v: Value<string>): string | null {
  return v.kind === "literal" ? v.value : null;
}

function stringList(v: unknown, fromConfig: boolean): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === "string" && !(fromConfig && isExpressionText(x)));
}

function bundleOf(v: Value<string>): BundleMethod | null {
  if (v.kind !== "literal") return null;
  const b = v.value.trim().toLowerCase();
  return b === "ubiquitous" || b === "optimal" || b === "force" ? b : null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return null;
}

function boolOf(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return null;
}

/** Issuer and expiry of a literal PEM certificate (the first one of a bundle); null when it is not one. */
function pemFacts(pem: string | null): { issuer: string; expiresOn: string | null } | null {
  if (!pem || !pem.includes("-----BEGIN CERTIFICATE-----")) return null;
  try {
    const x = new X509Certificate(pem);
    return { issuer: x.issuer.replace(/\n/g, ", "), expiresOn: toIsoDay(new Date(x.validTo)) };
  } catch {
    return null;
  }
}

function base(r: InventoryResource, kind: CertificateKind): Certificate {
  return {
    kind,
    ref: refOf(r),
    zone: r.zoneId,
    zoneName: null,
    hostname: null,
    hosts: [],
    certificateAuthority: null,
    bundleMethod: null,
    issuer: null,
    uploadedOn: null,
    expiresOn: null,
    enabled: null,
    validityDays: null,
    id: null,
    configCertificateAuthority: null,
    schemaShape: null,
    unknown: {},
  };
}

/** The attribute map to read and whether it came from config (expressions possible) rather than state. */
function source(r: InventoryResource): { attrs: Record<string, unknown>; fromConfig: boolean } {
  return { attrs: r.attributes ?? {}, fromConfig: !r.inState };
}

function stateId(r: InventoryResource, attrs: Record<string, unknown>): string | null {
  return r.inState && typeof attrs.id === "string" && attrs.id !== "" ? attrs.id : null;
}

/** How config writes `certificate_authority` (literal or `${…}` text); null when absent or no config. */
function configCa(r: InventoryResource, nested?: string): string | null {
  const cfg = r.configAttributes;
  if (!cfg) return null;
  let holder: Record<string, unknown> | null = cfg;
  if (nested) {
    const raw = cfg[nested];
    if (isExpressionText(raw)) return raw;
    holder = firstObject(raw);
  }
  const v = holder?.certificate_authority;
  return typeof v === "string" ? v : v === undefined || v === null ? null : JSON.stringify(v);
}

function applyCa(c: Certificate, v: Value<string>): void {
  if (v.kind === "literal") c.certificateAuthority = v.value;
  else if (v.kind === "expression") c.unknown.certificate_authority = `set by an expression (${v.text})`;
}

function readZone(r: InventoryResource): Certificate {
  const { attrs, fromConfig } = source(r);
  const c = base(r, "universal");
  const id = stateId(r, attrs);
  // The zone's own key: its id from state, else what the inventory found, else the expression other
  // resources use to reference it (`cloudflare_zone.shop.id`), so one zone gives one Universal finding.
  c.zone = id ?? r.zoneId ?? `cloudflare_zone.${r.name}.id`;
  c.id = id;
  c.zoneName = lit(stringValue(attrs.zone ?? attrs.name, fromConfig));
  return c;
}

function readCertificatePack(r: InventoryResource): Certificate {
  const { attrs, fromConfig } = source(r);
  const c = base(r, "advanced");
  applyCa(c, stringValue(attrs.certificate_authority, fromConfig));
  c.configCertificateAuthority = configCa(r);
  c.hosts = stringList(attrs.hosts, fromConfig);
  c.validityDays = numberOf(attrs.validity_days);
  c.id = stateId(r, attrs);
  return c;
}

function readTotalTls(r: InventoryResource): Certificate {
  const { attrs, fromConfig } = source(r);
  const c = base(r, "total_tls");
  applyCa(c, stringValue(attrs.certificate_authority, fromConfig));
  c.configCertificateAuthority = configCa(r);
  const enabled = stringValue(attrs.enabled, fromConfig);
  // An expression for `enabled` is read as enabled: the audit then still reports a Let's Encrypt CA.
  c.enabled = enabled.kind === "literal" ? boolOf(attrs.enabled) : null;
  if (enabled.kind === "expression") c.unknown.enabled = `set by an expression (${enabled.text})`;
  c.id = stateId(r, attrs);
  return c;
}

function readCustomHostname(r: InventoryResource): Certificate | null {
  const { attrs, fromConfig } = source(r);
  const c = base(r, "custom_hostname");
  c.hostname = lit(stringValue(attrs.hostname, fromConfig));
  if (c.hostname === null && isExpressionText(attrs.hostname)) c.unknown.hostname = attrs.hostname;
  c.id = stateId(r, attrs);
  c.configCertificateAuthority = configCa(r, "ssl");
  const rawSsl = attrs.ssl;
  if (fromConfig && isExpressionText(rawSsl)) {
    c.unknown.certificate_authority = `the ssl attribute is an expression (${rawSsl})`;
    c.schemaShape = "attributes";
    return c;
  }
  const ssl = firstObject(rawSsl);
  if (!ssl) return null; // No ssl block: no certificate for this hostname.
  c.schemaShape = Array.isArray(rawSsl) ? "blocks" : "attributes";
  applyCa(c, stringValue(ssl.certificate_authority, fromConfig));
  // State may keep "" for "default CA": the service chooses, so that is the same as not set.
  if (c.certificateAuthority === "") c.certificateAuthority = null;
  const bundle = stringValue(ssl.bundle_method, fromConfig);
  c.bundleMethod = bundleOf(bundle);
  if (bundle.kind === "expression") c.unknown.bundle_method = bundle.text;
  return c;
}

function readCustomSsl(r: InventoryResource): Certificate {
  const { attrs, fromConfig } = source(r);
  const c = base(r, "custom_uploaded");
  const rawOptions = attrs.custom_ssl_options;
  const options = firstObject(rawOptions);
  // Provider 3/4: custom_ssl_options[0].{certificate, bundle_method}; provider 5: flattened at the top.
  const holder = options ?? attrs;
  c.schemaShape = rawOptions !== undefined ? "blocks" : "certificate" in attrs || "bundle_method" in attrs ? "attributes" : null;
  if (fromConfig && isExpressionText(rawOptions)) c.unknown.bundle_method = rawOptions;
  const bundle = stringValue(holder.bundle_method, fromConfig);
  c.bundleMethod = bundleOf(bundle);
  if (bundle.kind === "expression") c.unknown.bundle_method = bundle.text;
  c.hosts = stringList(attrs.hosts, fromConfig);
  c.id = stateId(r, attrs);

  // issuer, uploaded_on and expires_on are computed: only state has them.
  const issuer = stringValue(attrs.issuer, fromConfig);
  c.issuer = lit(issuer) || null;
  c.uploadedOn = toIsoDay(lit(stringValue(attrs.uploaded_on, fromConfig)));
  c.expiresOn = toIsoDay(lit(stringValue(attrs.expires_on, fromConfig)));

  const cert = stringValue(holder.certificate, fromConfig);
  if (c.issuer === null) {
    const pem = pemFacts(lit(cert));
    if (pem) {
      c.issuer = pem.issuer;
      c.expiresOn ??= pem.expiresOn;
    } else if (!r.inState) {
      c.unknown.issuer =
        cert.kind === "expression"
          ? `not in state; the issuer is computed at upload and the certificate is ${cert.text}`
          : "not in state; the issuer is computed at upload";
    } else {
      c.unknown.issuer = "state has no issuer";
    }
  }
  c.certificateAuthority = caFromIssuer(c.issuer);
  if (c.uploadedOn === null) {
    c.unknown.uploaded_on = r.inState
      ? "state has no uploaded_on"
      : "not in state: the certificate is uploaded when the configuration is applied";
  }
  return c;
}

/** The certificate each certificate block type configures (a zone: its Universal certificate). */
const KIND_BY_TYPE: Readonly<Record<string, CertificateKind>> = {
  cloudflare_zone: "universal",
  cloudflare_certificate_pack: "advanced",
  cloudflare_total_tls: "total_tls",
  cloudflare_custom_hostname: "custom_hostname",
  cloudflare_custom_ssl: "custom_uploaded",
};

/**
 * The certificate blocks in config whose count/for_each (or module's) is known to give no instance: there,
 * but configuring no certificate. A custom hostname counts only when it has an `ssl` block.
 */
export function certificateBlocksWithoutInstance(resources: InventoryResource[]): { resource: InventoryResource; kind: CertificateKind }[] {
  return resources
    .filter((r) => r.noInstances && Object.hasOwn(KIND_BY_TYPE, r.type) && (r.type !== "cloudflare_custom_hostname" || r.configAttributes?.ssl !== undefined))
    .map((resource) => ({ resource, kind: KIND_BY_TYPE[resource.type]! }));
}

/** Certificates of the inventory, in inventory order. */
export function readCertificates(resources: InventoryResource[]): Certificate[] {
  const out: Certificate[] = [];
  for (const r of resources) {
    // A block whose count/for_each gives no instance is no certificate (certificateBlocksWithoutInstance).
    if (r.noInstances) continue;
    switch (r.type) {
      case "cloudflare_zone":
        out.push(readZone(r));
        break;
      case "cloudflare_certificate_pack":
        out.push(readCertificatePack(r));
        break;
      case "cloudflare_total_tls":
        out.push(readTotalTls(r));
        break;
      case "cloudflare_custom_hostname": {
        const c = readCustomHostname(r);
        if (c) out.push(c);
        break;
      }
      case "cloudflare_custom_ssl":
        out.push(readCustomSsl(r));
        break;
    }
  }
  return out;
}
