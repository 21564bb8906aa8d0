// Certificate impact of the Let's Encrypt chain change (spec part B: "Certificate chain timeline" and
// "Certificate types and behavior"). Pure: no I/O. The Terraform reader (src/terraform/readers/certificates.ts)
// and, later, the API layer turn their inputs into `Certificate`s; `auditCertificates` turns those into findings.
//
// The spec's table, row by row, and the finding each row becomes:
//   Universal                                         -> CERT_UNIVERSAL_AUTO_SWITCH (info, one per zone)
//   Advanced using the named CA by choice             -> CERT_ADVANCED_LETS_ENCRYPT (warning)
//   Total TLS (with the named CA)                     -> CERT_TOTAL_TLS_LETS_ENCRYPT (warning)
//   Custom, compatible/modern, uploaded before 09-09  -> CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY (info)
//   Custom of that CA after 09-09, compatible/modern  -> CERT_CUSTOM_REBUNDLED_SELF_SIGNED (info)
//   Custom with user-defined bundling                 -> CERT_CUSTOM_USER_DEFINED_CHAIN (warning)
//   Custom hostname set to the named CA               -> CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT (warning)
// plus one code of our own for what cannot be told offline:
//   CA/issuer set by an expression or computed later  -> CERT_CA_UNKNOWN (warning)
// A certificate of any other CA (google, ssl_com, digicert, sectigo, an uploaded GlobalSign, ...) yields nothing.

import type { Finding, ResourceRef, Severity } from "./model.js";

// ---- Domain types -------------------------------------------------------------------------------------

export type CertificateKind = "universal" | "advanced" | "total_tls" | "custom_hostname" | "custom_uploaded";
export type BundleMethod = "ubiquitous" | "optimal" | "force";
export type Urgency = "overdue" | "soon" | "later" | "none";

/** The CA value the provider and the API use for the named public CA. */
export const LETS_ENCRYPT = "lets_encrypt";

export interface Certificate {
  kind: CertificateKind;
  ref: ResourceRef;
  /** Zone id (state), the literal zone_id, or the zone_id expression text (`cloudflare_zone.shop.id`); null if none. */
  zone: string | null;
  /** The zone's domain name, when known (Universal certificates: the `cloudflare_zone`'s name). */
  zoneName: string | null;
  /** Custom hostname; null for other kinds. */
  hostname: string | null;
  /** Hosts covered, when known (certificate pack `hosts`, uploaded certificate `hosts`). */
  hosts: string[];
  /**
   * The CA in effect, as a literal: `lets_encrypt`, `google`, `ssl_com`, `digicert`, …; state's value when the
   * resource is in state, else config's literal. null when not set (the service's default CA) or when it
   * cannot be known offline (then `unknown.certificate_authority` says why).
   * For uploaded certificates the reader derives it from `issuer` (see `caFromIssuer`).
   */
  certificateAuthority: string | null;
  /** Bundle method; null when not set (the service's default, `ubiquitous`) or unknown (see `unknown`). */
  bundleMethod: BundleMethod | null;
  /** Issuer text of an uploaded certificate (state's computed `issuer`), when known. */
  issuer: string | null;
  /** Upload date of an uploaded certificate, `YYYY-MM-DD` (UTC), when known. */
  uploadedOn: string | null;
  /** Expiry date, `YYYY-MM-DD` (UTC), when known. */
  expiresOn: string | null;
  /** Total TLS `enabled`; null for other kinds or when unknown. */
  enabled: boolean | null;
  /** Certificate pack `validity_days`, when known. */
  validityDays: number | null;
  /** Remote object id from state (certificate pack id, custom hostname id, custom certificate id). */
  id: string | null;
  /**
   * The certificate_authority exactly as config writes it: a literal, or `${…}` text for an expression;
   * null when config does not set it or the resource is not in config. Used by `--fix`.
   */
  configCertificateAuthority: string | null;
  /** Attribute shape seen: `blocks` (provider 3/4: `ssl[0]`, `custom_ssl_options[0]`), `attributes` (provider 5). */
  schemaShape: "blocks" | "attributes" | null;
  /** Values that cannot be known offline: attribute name -> the expression text or the reason. */
  unknown: Record<string, string>;
}

// ---- Dates ---------------------------------------------------------------------------------------------

/** June 2024: the service starts switching managed certificates where the owner had not chosen the CA. */
export const CA_SWITCH_START = "2024-06-01";
export const CA_SWITCH_END = "2024-06-30";
/** 2024-09-09: the service stops using the cross-signed chain in issuance and bundling. */
export const CROSS_SIGN_STOP = "2024-09-09";
/** 2024-09-30: the cross-signed chain expires. */
export const CROSS_SIGN_EXPIRY = "2024-09-30";
/** A deadline this many days away or fewer is `soon`. */
export const SOON_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * A calendar day (UTC) as `YYYY-MM-DD`, from a Date, a `YYYY-MM-DD` string or an RFC 3339 timestamp
 * (`2024-09-08T23:10:00Z`, `2024-09-09T01:00:00+02:00`: the UTC day counts). null when unreadable.
 */
export function toIsoDay(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  const s = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const d = new Date(`${s}T00:00:00Z`);
    return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s ? null : s;
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(s)) return null;
  const t = Date.parse(s.replace(" ", "T"));
  return Number.isNaN(t) ? null : new Date(t).toISOString().slice(0, 10);
}

function dayNumber(isoDay: string): number {
  return Math.round(Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS);
}

/** Days from `from` to `to` (both `YYYY-MM-DD`): positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

function asOfDay(asOf: Date | string): string {
  const d = toIsoDay(asOf);
  if (d === null) throw new RangeError(`invalid as-of date: ${String(asOf)} (expected YYYY-MM-DD)`);
  return d;
}

/** "in 3 days", "today", "1 day ago". */
export function relativeDays(days: number): string {
  if (days === 0) return "today";
  const n = Math.abs(days);
  const unit = n === 1 ? "day" : "days";
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

/**
 * Urgency of an action due before `deadline`: `overdue` when asOf is on or after the deadline (an action due
 * "before 2024-09-09" is overdue on 2024-09-09), `soon` within SOON_DAYS days, else `later`.
 */
export function urgencyOf(deadline: string, asOf: string): Urgency {
  const days = daysBetween(asOf, deadline);
  if (days <= 0) return "overdue";
  return days <= SOON_DAYS ? "soon" : "later";
}

function before(deadline: string, asOf: string): string {
  const days = daysBetween(asOf, deadline);
  const rel = relativeDays(days);
  return days > 0 ? `before ${deadline} (${rel})` : `before ${deadline} (${rel}: overdue, do it now)`;
}

// ---- Timeline ------------------------------------------------------------------------------------------

export interface TimelineEntry {
  /** `2024-06` for the month-long start, `YYYY-MM-DD` for the two days. */
  date: string;
  start: string;
  end: string;
  change: string;
  /** Relative to asOf: `current` while asOf falls inside [start, end]. */
  status: "past" | "current" | "future";
  /** Days from asOf to `start` (negative: in the past). */
  days: number;
  /** Human text of `days` (from `start`, also for the month-long entry): "in 3 days", "today", "45 days ago", "this month". */
  relative: string;
}

/** The spec's three dates with their status relative to asOf (for the text report's header). */
export function timeline(asOf: Date | string): TimelineEntry[] {
  const day = asOfDay(asOf);
  const entry = (date: string, start: string, end: string, change: string): TimelineEntry => {
    const days = daysBetween(day, start);
    const status = day < start ? "future" : day > end ? "past" : "current";
    // Counted from the start, as `days` is: "2024-06 … 909 days ago" is since 2024-06-01.
    const relative = status === "current" && start !== end ? "this month" : relativeDays(days);
    return { date, start, end, change, status, days, relative };
  };
  return [
    entry(
      "2024-06",
      CA_SWITCH_START,
      CA_SWITCH_END,
      "The service starts switching the CA of managed certificates where the owner had not chosen Let's Encrypt",
    ),
    entry(
      CROSS_SIGN_STOP,
      CROSS_SIGN_STOP,
      CROSS_SIGN_STOP,
      "The service stops using the cross-signed chain in issuance and in bundling; first visible effects for legacy clients",
    ),
    entry(CROSS_SIGN_EXPIRY, CROSS_SIGN_EXPIRY, CROSS_SIGN_EXPIRY, "The cross-signed chain expires"),
  ];
}

// ---- Issuers -------------------------------------------------------------------------------------------

// Issuers recognised as Let's Encrypt (case-insensitive). The state's computed `issuer` is free text from
// the API ("LetsEncrypt", "Let's Encrypt", sometimes a distinguished name "CN=R3,O=Let's Encrypt,C=US"):
//  - any text that, with spaces, punctuation and apostrophes removed, contains "letsencrypt"
//    (also "(STAGING) Let's Encrypt", "Let’s Encrypt" with a typographic apostrophe);
//  - any text containing "ISRG" (Internet Security Research Group: ISRG Root X1/X2, the O of its roots);
//  - an issuer CN (or the whole text) equal to one of Let's Encrypt's intermediates:
//    RSA R3, R4, R10–R14; ECDSA E1, E2, E5–E9; the 2025 generation YR1–YR3, YE1–YE3.
// Short names are matched only as the whole text or the whole CN, never as substrings.
const LE_INTERMEDIATES = new Set([
  "r3", "r4", "r10", "r11", "r12", "r13", "r14",
  "e1", "e2", "e5", "e6", "e7", "e8", "e9",
  "yr1", "yr2", "yr3", "ye1", "ye2", "ye3",
]);

export function isLetsEncryptIssuer(issuer: string | null | undefined): boolean {
  if (!issuer) return false;
  const text = issuer.trim();
  const squashed = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (squashed.includes("letsencrypt") || squashed.includes("isrg")) return true;
  if (LE_INTERMEDIATES.has(text.toLowerCase())) return true;
  const cn = /(?:^|[,/]\s*)CN\s*=\s*([^,/]+)/i.exec(text);
  return cn !== null && LE_INTERMEDIATES.has(cn[1]!.trim().toLowerCase());
}

/** A CA value for an uploaded certificate's issuer text: `lets_encrypt`, or the issuer text itself. */
export function caFromIssuer(issuer: string | null | undefined): string | null {
  if (!issuer) return null;
  return isLetsEncryptIssuer(issuer) ? LETS_ENCRYPT : issuer.trim();
}

function isLetsEncryptCa(ca: string | null): boolean {
  return ca !== null && ca.trim().toLowerCase() === LETS_ENCRYPT;
}

// ---- Audit ---------------------------------------------------------------------------------------------

export interface CertificateFindingDetails {
  urgency: Urgency;
  /** `YYYY-MM-DD`, or null when nothing is due. */
  deadline: string | null;
  action: string;
  kind: CertificateKind;
  certificateAuthority: string | null;
  [extra: string]: unknown;
}

function describe(c: Certificate): string {
  switch (c.kind) {
    case "universal":
      return `Universal certificate of zone ${c.zoneName ?? c.zone ?? c.ref.address}`;
    case "advanced":
      return `Advanced certificate pack ${c.ref.address}${c.hosts.length ? ` (${c.hosts.join(", ")})` : ""}`;
    case "total_tls":
      return `Total TLS ${c.ref.address}${c.zone ? ` (zone ${c.zone})` : ""}`;
    case "custom_hostname":
      return `Custom hostname ${c.hostname ?? c.ref.address} (${c.ref.address})`;
    case "custom_uploaded":
      return `Uploaded certificate ${c.ref.address}${c.hosts.length ? ` (${c.hosts.join(", ")})` : ""}`;
  }
}

function finding(
  c: Certificate,
  code: string,
  severity: Severity,
  message: string,
  details: CertificateFindingDetails,
): Finding {
  return {
    code,
    severity,
    message,
    zoneId: c.zone,
    address: c.ref.address,
    file: c.ref.file,
    line: c.ref.line,
    details,
  };
}

/**
 * The API command that switches one custom hostname's CA: `default` sends `""` (the service chooses a more
 * compatible CA). It prints the request; the CLI sends it only with `--yes`.
 */
export function customHostnameCaCommand(
  zone: string | null,
  hostnameId: string | null,
  ca: "default" | "google" | "ssl_com",
): string {
  // Only ids (32 hex digits, or a UUID) go into the command; an expression or a missing id becomes a placeholder.
  const isId = (s: string | null): s is string =>
    s !== null && /^(?:[0-9a-f]{32}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i.test(s);
  const z = isId(zone) ? zone : "<ZONE_ID>";
  const h = isId(hostnameId) ? hostnameId : "<CUSTOM_HOSTNAME_ID>";
  return `cf-waf-migrate api custom-hostname-ca --zone ${z} --hostname-id ${h} --ca ${ca}`;
}

const CHAIN_FACTS =
  `from ${CROSS_SIGN_STOP} the service stops using the cross-signed chain in issuance and bundling, ` +
  `and the cross-signed chain expires on ${CROSS_SIGN_EXPIRY}, which breaks older clients (e.g. mobile OS 7.0 and earlier) ` +
  `that lack the self-signed ISRG Root X1`;

function managedLetsEncrypt(c: Certificate, asOf: string): Finding {
  const deadline = CROSS_SIGN_STOP;
  const urgency = urgencyOf(deadline, asOf);
  const base = { urgency, deadline, kind: c.kind, certificateAuthority: LETS_ENCRYPT };
  const who = describe(c);
  if (c.kind === "advanced") {
    const action = "Choose another CA (google or ssl_com) for the certificate pack; in Terraform this replaces the pack";
    return finding(
      c,
      "CERT_ADVANCED_LETS_ENCRYPT",
      "warning",
      `${who} uses Let's Encrypt by choice: the service does not change it automatically and notifies the owner by e-mail ` +
        `(List Certificates shows which packs use it); ${CHAIN_FACTS}. ` +
        `Choose another CA (google or ssl_com) ${before(deadline, asOf)}; certificate_authority is ForceNew, so terraform plan shows ` +
        `a replacement of the pack (cf-waf-migrate certs --fix --to google).`,
      { ...base, action, hosts: c.hosts, validityDays: c.validityDays },
    );
  }
  if (c.kind === "total_tls") {
    const action =
      "Select a different CA for Total TLS (certificate_authority = \"google\", or SSL/TLS > Edge Certificates > Total TLS)";
    return finding(
      c,
      "CERT_TOTAL_TLS_LETS_ENCRYPT",
      "warning",
      `${who} issues Let's Encrypt certificates: the service never changes the Total TLS CA automatically; ${CHAIN_FACTS}. ` +
        `Select a different CA (certificate_authority = "google", or SSL/TLS > Edge Certificates > Total TLS) ${before(deadline, asOf)}; ` +
        `the change updates in place.`,
      { ...base, action },
    );
  }
  // custom_hostname
  const command = customHostnameCaCommand(c.zone, c.id, "default");
  const defaultFallback =
    c.ref.inState && c.ref.inConfig && c.configCertificateAuthority === null
      ? ` Config leaves the CA to the service, yet state shows lets_encrypt: the service falls back to Let's Encrypt only ` +
        `when a CAA record blocks the more compatible CA, so check the hostname's CAA records (allow pki.goog).`
      : "";
  const action = `Switch the custom hostname to the default CA ("") or google: ${command} --yes`;
  return finding(
    c,
    "CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT",
    "warning",
    `${who} is set to Let's Encrypt: no automatic change; the service notifies the SaaS provider by e-mail; ${CHAIN_FACTS}. ` +
      `Switch it to the default CA ("", the service picks a more compatible CA) or google ${before(deadline, asOf)}: ` +
      `in Terraform set google (updates in place; config does not accept ""), or for the default CA run \`${command} --yes\`.${defaultFallback}`,
    { ...base, action, hostname: c.hostname, command },
  );
}

function unknownCa(c: Certificate, asOf: string, why: string): Finding {
  const uploaded = c.kind === "custom_uploaded";
  const deadline = uploaded ? null : CROSS_SIGN_STOP;
  const urgency: Urgency = deadline ? urgencyOf(deadline, asOf) : "none";
  const ifLe = uploaded
    ? `if it was issued by Let's Encrypt, its chain changes as the spec describes (cross-signed chain kept until expiry when ` +
      `uploaded before ${CROSS_SIGN_STOP} with compatible/modern bundling, self-signed root after; the uploaded chain as is with force bundling)`
    : `if it resolves to lets_encrypt, switch to another CA ${before(CROSS_SIGN_STOP, asOf)}`;
  const action = "Pass the state (--state terraform.tfstate) or check List Certificates to learn the CA";
  return finding(
    c,
    "CERT_CA_UNKNOWN",
    "warning",
    `${describe(c)}: ${why}, so whether it uses Let's Encrypt cannot be told offline; ${ifLe}. ` +
      `Pass the state (--state) or check the List Certificates endpoint.`,
    { urgency, deadline, action, kind: c.kind, certificateAuthority: null, unknown: { ...c.unknown } },
  );
}

function uploadedLetsEncrypt(c: Certificate, asOf: string): Finding {
  const who = describe(c);
  const base = { kind: c.kind, certificateAuthority: LETS_ENCRYPT, issuer: c.issuer, uploadedOn: c.uploadedOn, expiresOn: c.expiresOn };
  const uploadedText = c.uploadedOn ? `uploaded on ${c.uploadedOn}` : "upload date unknown";

  // Bundle method: null is the service's default (ubiquitous, "compatible"). An expression is treated as
  // `force`, the one case where the owner's upload decides the chain (the conservative reading).
  const bundleUnknown = c.unknown.bundle_method;
  const bundle: BundleMethod = c.bundleMethod ?? (bundleUnknown ? "force" : "ubiquitous");
  const bundleText = c.bundleMethod
    ? `${c.bundleMethod} bundling`
    : bundleUnknown
      ? `bundle_method set by an expression (${bundleUnknown}), treated as force`
      : "default (ubiquitous) bundling";

  if (bundle === "force") {
    const deadline = CROSS_SIGN_EXPIRY;
    const urgency = urgencyOf(deadline, asOf);
    const uploadedAfter = c.uploadedOn !== null && c.uploadedOn >= CROSS_SIGN_EXPIRY;
    const action =
      "Make sure the uploaded chain ends at the self-signed ISRG Root X1, not the cross-signed one (ISRG Root X1 signed by DST Root CA X3); re-upload if it does not";
    const tail = uploadedAfter
      ? `It was uploaded on or after ${CROSS_SIGN_EXPIRY}, when the cross-signed chain had expired: it must not carry the cross-signed chain; check the bundle and re-upload without it.`
      : `Certificates uploaded after ${CROSS_SIGN_EXPIRY} should not use the cross-signed chain: if this bundle carries it, ` +
        `re-upload it with the self-signed ISRG Root X1 chain ${before(deadline, asOf)}, when the cross-signed chain expires.`;
    return finding(
      c,
      "CERT_CUSTOM_USER_DEFINED_CHAIN",
      "warning",
      `${who} is a Let's Encrypt certificate (issuer ${c.issuer ?? "lets_encrypt"}), ${uploadedText}, with ${bundleText}: ` +
        `the service always serves the chain exactly as uploaded. ${tail}`,
      { ...base, urgency, deadline, action, bundleMethod: bundle },
    );
  }

  const before0909 = c.uploadedOn !== null && c.uploadedOn < CROSS_SIGN_STOP;
  if (before0909) {
    const expiry = c.expiresOn;
    const urgency: Urgency = expiry ? urgencyOf(expiry, asOf) : "none";
    const action =
      "Nothing to change now; when renewing, the new upload is bundled with the self-signed ISRG Root X1 chain: check that clients you control trust it";
    const until = expiry
      ? `until the certificate expires on ${expiry} (${relativeDays(daysBetween(asOf, expiry))})`
      : "until the certificate expires (expiry date unknown)";
    return finding(
      c,
      "CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY",
      "info",
      `${who} is a Let's Encrypt certificate (issuer ${c.issuer ?? "lets_encrypt"}) ${uploadedText}, before ${CROSS_SIGN_STOP}, with ${bundleText}: ` +
        `the service keeps serving the cross-signed chain ${until}; the cross-signed chain itself expires on ${CROSS_SIGN_EXPIRY} ` +
        `(${relativeDays(daysBetween(asOf, CROSS_SIGN_EXPIRY))}). Nothing to change now; renew ${expiry ? before(expiry, asOf) : "before it expires"}: ` +
        `the renewed upload is bundled with the self-signed ISRG Root X1 chain, so add that root where you control the clients.`,
      { ...base, urgency, deadline: expiry, action, bundleMethod: bundle },
    );
  }

  // Uploaded on or after 2024-09-09, or upload date unknown. Unknown is read as "on or after": a configuration
  // that is not in state yet is uploaded when applied, and any re-upload from now on gets the new bundling, so
  // the conservative reading is the one where legacy clients lose the cross-signed path now.
  const unknownNote = c.uploadedOn
    ? ""
    : ` The upload date is unknown (${c.unknown.uploaded_on ?? "no uploaded_on"}); it is treated as on or after ${CROSS_SIGN_STOP}, the reading under which older clients are affected soonest.`;
  const action =
    "No change needed; clients that lack the self-signed ISRG Root X1 (e.g. mobile OS 7.0 and earlier) fail: add the root where you control the clients, and watch for support requests";
  return finding(
    c,
    "CERT_CUSTOM_REBUNDLED_SELF_SIGNED",
    "info",
    `${who} is a Let's Encrypt certificate (issuer ${c.issuer ?? "lets_encrypt"}), ${uploadedText}, with ${bundleText}: ` +
      `uploaded on or after ${CROSS_SIGN_STOP}, it is bundled with the self-signed ISRG Root X1 chain instead of the cross-signed chain. ` +
      `Nothing to change; older clients without that root (e.g. mobile OS 7.0 and earlier) fail: add it where you control the clients ` +
      `and watch support requests about certificate warnings.${unknownNote}`,
    { ...base, urgency: "none", deadline: null, action, bundleMethod: bundle },
  );
}

/**
 * The findings of the spec's certificate table for `certs` as of `asOf` (a Date, whose UTC day counts, or
 * `YYYY-MM-DD`). Universal certificates give one finding per zone; certificates of other CAs give none.
 */
export function auditCertificates(certs: Certificate[], asOf: Date | string): Finding[] {
  const day = asOfDay(asOf);
  const out: Finding[] = [];
  const universalZones = new Set<string>();
  for (const c of certs) {
    switch (c.kind) {
      case "universal": {
        const key = c.zone ?? c.ref.address;
        if (universalZones.has(key)) break;
        universalZones.add(key);
        out.push(
          finding(
            c,
            "CERT_UNIVERSAL_AUTO_SWITCH",
            "info",
            `${describe(c)}: the service switches Universal certificates to a more compatible CA automatically ` +
              `(since June 2024, ahead of ${CROSS_SIGN_STOP}); nothing to do.`,
            { urgency: "none", deadline: null, action: "None", kind: c.kind, certificateAuthority: null, zoneName: c.zoneName },
          ),
        );
        break;
      }
      case "advanced":
      case "total_tls":
      case "custom_hostname": {
        if (c.kind === "total_tls" && c.enabled === false) break; // Total TLS off: it issues nothing.
        const expr = c.unknown.certificate_authority;
        if (expr !== undefined && c.certificateAuthority === null) {
          out.push(unknownCa(c, day, `certificate_authority is ${expr}`));
        } else if (isLetsEncryptCa(c.certificateAuthority)) {
          out.push(managedLetsEncrypt(c, day));
        }
        break;
      }
      case "custom_uploaded": {
        const le = c.issuer !== null ? isLetsEncryptIssuer(c.issuer) : c.certificateAuthority !== null ? isLetsEncryptCa(c.certificateAuthority) : null;
        if (le === null) {
          out.push(unknownCa(c, day, `the issuer is unknown (${c.unknown.issuer ?? "no issuer"})`));
        } else if (le) {
          out.push(uploadedLetsEncrypt(c, day));
        }
        break;
      }
    }
  }
  return out;
}
