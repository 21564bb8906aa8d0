// `certs --fix --to default|google|ssl_com`: which config values change, to what, and with what effect.
// Pure: the file patch itself is made by the Terraform layer's surgical editor from these edits.
//
// Only certificates whose config writes `certificate_authority = "lets_encrypt"` literally are edited. A CA set
// by an expression (`var.ca`, `local.pack_ca`) that is Let's Encrypt, or that is not known offline (so may be),
// is listed as refused with the reason: the patch never edits an expression, and the value has to change
// where it is set. Uploaded certificates have no CA attribute (the owner re-uploads), Universal certificates
// are switched by the service.
//
// Provider facts used (reference/domain-facts.md section 5, provider schemas):
//  - cloudflare_certificate_pack.certificate_authority: ForceNew in 3/4, RequiresReplace in 5 -> a replacement.
//    Values: 3.x lets_encrypt|google|digicert; ssl_com from 4.44.0; 5.x google|lets_encrypt|ssl_com.
//    validity_days 14|30|90|365; Let's Encrypt only 90; Google and SSL.com 14|30|90.
//  - cloudflare_total_tls.certificate_authority: optional, updates in place. 3/4: google|lets_encrypt; 5 adds ssl_com.
//  - cloudflare_custom_hostname ssl.certificate_authority: updates in place. 3/4: lets_encrypt|digicert|google
//    (Optional+Computed); 5: digicert|google|lets_encrypt (ssl_com in later 5.x releases).
//    No provider version accepts "" in config (the validators list the CAs only), while the API takes "" for the
//    default CA. So `--to default` deletes the attribute and sets "" through the API; with provider 3/4 the
//    attribute is Optional+Computed, so deleting it alone changes nothing: the API call does the switch.

import { customHostnameCaCommand, LETS_ENCRYPT, type Certificate, type CertificateKind } from "./certs.js";

export type CaTarget = "default" | "google" | "ssl_com";

export interface CertFixOptions {
  /** The Cloudflare provider major version, when known (lock file or required_providers). */
  providerMajor?: 3 | 4 | 5 | null;
  /** The exact provider version, when known (e.g. "4.43.0"), for version-gated values. */
  providerVersion?: string | null;
}

export interface CertFixEdit {
  /** The file and the line of the resource block (the editor finds the attribute inside the block). */
  file: string;
  line: number;
  /** The configuration address (no instance keys): one edit per block, whatever its count/for_each. */
  address: string;
  /** Attribute path as written in HCL: `certificate_authority` or `ssl.certificate_authority`. */
  attribute: string;
  path: string[];
  kind: CertificateKind;
  from: string;
  /** The new literal, or null: delete the attribute line. */
  to: string | null;
  forcesReplacement: boolean;
  /** False when the target is not accepted by the provider in use: do not write this edit. */
  valid: boolean;
  note: string;
  /** For custom hostnames: the equivalent API command (`cf-waf-migrate api custom-hostname-ca …`; a dry run until `--yes` is added). */
  command: string | null;
  /** One command per instance of the block (count/for_each); `command` is the first. Empty for other kinds. */
  commands: string[];
  /** Why this block is not edited although it is (or may be) Let's Encrypt: its CA is an expression. */
  refusal?: string;
}

function versionAtLeast(version: string | null | undefined, min: [number, number, number]): boolean | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version ?? "");
  if (!m) return null;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) {
    if (v[i]! !== min[i]!) return v[i]! > min[i]!;
  }
  return true;
}

function majorOf(c: Certificate, options: CertFixOptions): 3 | 4 | 5 | null {
  if (options.providerMajor) return options.providerMajor;
  const m = /^v?(\d+)\./.exec(options.providerVersion ?? "");
  if (m && (m[1] === "3" || m[1] === "4" || m[1] === "5")) return Number(m[1]) as 3 | 4 | 5;
  // Provider 5 writes nested objects (`ssl = {…}`), 3 and 4 blocks: only the custom hostname tells them apart.
  return c.schemaShape === "attributes" && c.kind === "custom_hostname" ? 5 : null;
}

function isLiteralLetsEncrypt(v: string | null): v is string {
  return v !== null && !v.includes("${") && v.trim().toLowerCase() === LETS_ENCRYPT;
}

/**
 * A CA written as an expression that is Let's Encrypt, or not known offline: the refusal to list; null for a
 * literal, for no CA in config, and for an expression known to name another CA (nothing to switch).
 */
function expressionRefusal(c: Certificate): string | null {
  const written = c.configCertificateAuthority;
  if (written === null || !written.includes("${")) return null;
  const expression = `\`${/^\$\{([\s\S]*)\}$/.exec(written)?.[1] ?? written}\``;
  const where = "change it where the value is set (the tfvars, the variable's default, the module call's argument, the local), or write the CA as a literal";
  if (c.certificateAuthority !== null && c.certificateAuthority.trim().toLowerCase() === LETS_ENCRYPT) {
    return `certificate_authority is the expression ${expression}, which is "lets_encrypt": the patch edits only a literal "lets_encrypt"; ${where}`;
  }
  if (c.certificateAuthority !== null) return null;
  // The reader's reason, unless it only repeats that this is an expression.
  const why = c.unknown.certificate_authority?.startsWith("set by an expression") ? undefined : c.unknown.certificate_authority;
  return (
    `certificate_authority is the expression ${expression}, not known offline${why ? ` (${why})` : ""}, so it may be Let's Encrypt: not edited; ` +
    `give its value with --var-file/--var or pass --state to know it, then ${where}`
  );
}

function packEdit(c: Certificate, target: CaTarget, major: 3 | 4 | 5 | null, options: CertFixOptions) {
  const to = target === "default" ? "google" : target;
  const notes: string[] = [];
  let valid = true;
  if (target === "default") notes.push("A certificate pack has no default CA: google is used instead.");
  notes.push(
    "certificate_authority is ForceNew: terraform plan shows the pack replaced (-/+); add lifecycle { create_before_destroy = true } " +
      "so the new pack is issued before the old one is deleted, and expect a new DCV for the hosts.",
  );
  if (to === "ssl_com") {
    if (major === 3) {
      valid = false;
      notes.push("ssl_com is not accepted by provider 3.x for certificate packs (added in 4.44.0): use google or upgrade.");
    } else if (major === 4) {
      const ok = versionAtLeast(options.providerVersion, [4, 44, 0]);
      if (ok === false) {
        valid = false;
        notes.push(`ssl_com needs provider 4.44.0 or later (this is ${options.providerVersion}): use google or upgrade.`);
      } else if (ok === null) {
        notes.push("ssl_com needs provider 4.44.0 or later.");
      }
    } else if (major === null) {
      notes.push("ssl_com needs provider 4.44.0 or later.");
    }
  }
  const days = c.validityDays;
  if (days !== null && ![14, 30, 90].includes(days)) {
    valid = false;
    notes.push(`validity_days = ${days} is not offered by ${to} (14, 30 or 90): change validity_days too.`);
  } else {
    notes.push(`Let's Encrypt packs are 90-day; ${to} offers 14, 30 or 90 days, so validity_days ${days ?? "(90)"} stays valid.`);
  }
  return { to, valid, note: notes.join(" "), forcesReplacement: true, command: null as string | null };
}

function totalTlsEdit(_c: Certificate, target: CaTarget, major: 3 | 4 | 5 | null) {
  const to = target === "default" ? "google" : target;
  const notes: string[] = [];
  let valid = true;
  if (target === "default") notes.push("Total TLS has no default CA to select here: google is used instead.");
  notes.push("Updates in place; Total TLS certificates issued from then on come from the new CA.");
  if (to === "ssl_com") {
    if (major === 3 || major === 4) {
      valid = false;
      notes.push(`ssl_com is not accepted by provider ${major}.x for cloudflare_total_tls (google or lets_encrypt): use google or move to provider 5.`);
    } else if (major === null) {
      notes.push("ssl_com is accepted for cloudflare_total_tls by provider 5 only (3/4: google or lets_encrypt).");
    }
  }
  return { to, valid, note: notes.join(" "), forcesReplacement: false, command: null as string | null };
}

function customHostnameEdit(c: Certificate, target: CaTarget, major: 3 | 4 | 5 | null) {
  const command = customHostnameCaCommand(c.zone, c.id, target);
  const notes: string[] = [];
  let valid = true;
  let to: string | null = target;
  if (target === "default") {
    to = null;
    notes.push(
      'The default CA is "" in the API, which no provider version accepts in config: delete the certificate_authority line and run the command with --yes ' +
        "(the service then picks a more compatible CA, falling back to Let's Encrypt only when a CAA record blocks it).",
    );
    if (major !== 5) {
      notes.push(
        "With provider 3/4 the attribute is Optional+Computed: deleting it alone shows no change in terraform plan, so the API command is what switches the CA.",
      );
    }
  } else {
    notes.push("Updates in place (PATCH of the custom hostname's ssl); the command is the equivalent API call (it prints the request, --yes sends it).");
  }
  if (target === "ssl_com") {
    if (major === 3 || major === 4) {
      valid = false;
      notes.push(`ssl_com is not accepted by provider ${major}.x for custom hostnames (lets_encrypt, digicert, google): use google or "" (default).`);
    } else if (major === null) {
      notes.push("ssl_com is accepted for custom hostnames only by provider 5 releases that list it (not by 3 or 4).");
    }
  }
  if (target !== "default" && c.bundleMethod === "force") {
    notes.push("bundle_method is force: the chain is served as issued/uploaded, check it after the switch.");
  }
  return { to, valid, note: notes.join(" "), forcesReplacement: false, command };
}

/**
 * The edits for `--fix --to target`: one per configuration block whose `certificate_authority` is the literal
 * `lets_encrypt`, and one with `refusal` per block whose CA is an expression that is (or may be) Let's Encrypt.
 * Instances of one block (count/for_each) share a single edit.
 */
export function planCertificateFixes(certs: Certificate[], target: CaTarget, options: CertFixOptions = {}): CertFixEdit[] {
  const out: CertFixEdit[] = [];
  const byBlock = new Map<string, CertFixEdit>();
  for (const c of certs) {
    if (c.kind !== "advanced" && c.kind !== "total_tls" && c.kind !== "custom_hostname") continue;
    if (!c.ref.inConfig || c.ref.file === null || c.ref.line === null) continue;
    const refusal = expressionRefusal(c);
    if (refusal === null && !isLiteralLetsEncrypt(c.configCertificateAuthority)) continue;
    const path = c.kind === "custom_hostname" ? ["ssl", "certificate_authority"] : ["certificate_authority"];
    const major = majorOf(c, options);
    const e =
      c.kind === "advanced"
        ? packEdit(c, target, major, options)
        : c.kind === "total_tls"
          ? totalTlsEdit(c, target, major)
          : customHostnameEdit(c, target, major);
    const key = `${c.ref.file}\u0000${c.ref.line}\u0000${c.ref.configAddress}`;
    const existing = byBlock.get(key);
    if (existing) {
      // Another instance of the same block: one edit, one more API command.
      if (e.command && !existing.commands.includes(e.command)) existing.commands.push(e.command);
      continue;
    }
    const edit: CertFixEdit = {
      file: c.ref.file,
      line: c.ref.line,
      address: c.ref.configAddress,
      attribute: path.join("."),
      path,
      kind: c.kind,
      from: c.configCertificateAuthority!,
      to: e.to,
      forcesReplacement: e.forcesReplacement,
      valid: e.valid,
      note: e.note,
      command: e.command,
      commands: e.command ? [e.command] : [],
      ...(refusal !== null ? { refusal } : {}),
    };
    byBlock.set(key, edit);
    out.push(edit);
  }
  return out;
}
