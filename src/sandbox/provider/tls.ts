// The plugin's TLS identity for go-plugin's AutoMTLS: a self-signed ECDSA P-256 certificate for
// "localhost", shaped like the one go-plugin makes (CA, server and client auth). It is made with the
// system's openssl once and kept in a directory outside the mirror package (the package's hash must
// never change), because a fresh key per plugin start costs time on every Terraform phase.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ServerIdentity {
  certPem: Buffer;
  keyPem: Buffer;
  /** Handshake field 6: the certificate's DER in base64 without padding (Go's RawStdEncoding). */
  derBase64: string;
}

const OPENSSL = process.env.CF_DOUBLE_OPENSSL || "openssl";

/** Creates the certificate in `dir` unless it is already there; returns it. */
export function ensureServerIdentity(dir: string): ServerIdentity {
  const certFile = join(dir, "server-cert.pem");
  const keyFile = join(dir, "server-key.pem");
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true });
    // Written under temporary names and renamed, so that two plugins starting at once never read half a file.
    const suffix = `.${process.pid}.tmp`;
    execFileSync(
      OPENSSL,
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", keyFile + suffix, "-out", certFile + suffix, "-days", "3650", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,digitalSignature,keyEncipherment,keyAgreement,keyCertSign",
        "-addext", "extendedKeyUsage=serverAuth,clientAuth",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    renameSync(keyFile + suffix, keyFile);
    renameSync(certFile + suffix, certFile);
  }
  const certPem = readFileSync(certFile);
  return { certPem, keyPem: readFileSync(keyFile), derBase64: pemToUnpaddedDer(certPem.toString("utf8")) };
}

export function pemToUnpaddedDer(pem: string): string {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  return Buffer.from(body, "base64").toString("base64").replace(/=+$/, "");
}

/** Where the certificate lives when the launcher did not say (a per-user temp directory). */
export function defaultIdentityDir(): string {
  return process.env.CF_DOUBLE_TLS_DIR || join(tmpdir(), `cf-provider-double-tls-${process.getuid?.() ?? "user"}`);
}
