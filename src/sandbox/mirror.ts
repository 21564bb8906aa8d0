// Lays out a filesystem mirror from which the real `terraform init` installs the provider double
// offline, several versions side by side, and the CLI configuration that points Terraform at it.
//
//   DIR/mirror/registry.terraform.io/cloudflare/cloudflare/<version>/linux_amd64/terraform-provider-cloudflare_v<version>
//   DIR/mirror/registry.opentofu.org/cloudflare/cloudflare/…   the same packages, for OpenTofu
//   DIR/double.env          where the double's code, node and certificate are (read by the wrapper)
//   DIR/tls/                the plugin's certificate, made once
//   DIR/terraform.rc        provider_installation { filesystem_mirror { ... } }
//
// The package directory holds only the wrapper script, whose content depends on nothing but the version:
// its h1: hash is then the same on every machine and platform, a committed lock file stays valid, and
// nothing changes inside the package at run time (the code, the certificate and the account live outside).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomicSync } from "./fs-sync.js";
import { ensureServerIdentity } from "./provider/tls.js";

export const PROVIDER_SOURCE = "registry.terraform.io/cloudflare/cloudflare";
/**
 * OpenTofu resolves `cloudflare/cloudflare` on its own registry's host: the mirror holds the same packages
 * under it too, so `tofu init` installs the double from the same CLI configuration.
 */
export const OPENTOFU_PROVIDER_SOURCE = "registry.opentofu.org/cloudflare/cloudflare";
const MIRRORED_SOURCES = [PROVIDER_SOURCE, OPENTOFU_PROVIDER_SOURCE];

export interface MirrorLayout {
  /** The directory given to buildMirror. */
  dir: string;
  /** The filesystem mirror root (the `path` of filesystem_mirror). */
  mirrorDir: string;
  /** The CLI configuration file to point TF_CLI_CONFIG_FILE at. */
  cliConfigFile: string;
  versions: string[];
  /** Environment for Terraform: TF_CLI_CONFIG_FILE and the checkpoint/automation switches. */
  env: Record<string, string>;
}

/** The provider versions the double has schemas for (schemas/<version>.json), oldest first. */
export function servedVersions(): string[] {
  const dir = fileURLToPath(new URL("./schemas/", import.meta.url));
  return readdirSync(dir)
    .filter((f) => /^\d+\.\d+\.\d+\.json$/.test(f))
    .map((f) => f.slice(0, -".json".length))
    .sort((a, b) => {
      const [x, y] = [a, b].map((v) => v.split(".").map(Number));
      return x![0]! - y![0]! || x![1]! - y![1]! || x![2]! - y![2]!;
    });
}

export function wrapperScript(version: string): string {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a provider version: ${version}`);
  // `exec` matters: if Terraform ever kills the plugin, it must kill node itself, or an orphaned node keeps
  // Terraform's pipes open and Terraform waits forever. `readlink -f` follows init's symlink into the mirror.
  return [
    "#!/bin/sh",
    `# Cloudflare provider double ${version} for tests (src/sandbox); see double.env next to the mirror.`,
    'here=$(dirname "$(readlink -f "$0")")',
    `CF_DOUBLE_VERSION=${version}`,
    "export CF_DOUBLE_VERSION",
    // The mirror root's parent holds double.env; CF_DOUBLE_ENV_FILE overrides it for a package copied elsewhere.
    '. "${CF_DOUBLE_ENV_FILE:-$here/../../../../../../double.env}"',
    'exec "$CF_DOUBLE_NODE" "$CF_DOUBLE_MAIN"',
    "",
  ].join("\n");
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function buildMirror(dir: string, versions: string[] = servedVersions()): MirrorLayout {
  const root = resolve(dir);
  const mirrorDir = join(root, "mirror");
  const known = new Set(servedVersions());
  for (const version of versions) {
    if (!known.has(version)) throw new Error(`the provider double has no schemas for version ${version} (served: ${[...known].join(", ")})`);
    for (const source of MIRRORED_SOURCES) {
      const pkg = join(mirrorDir, source, version, "linux_amd64");
      mkdirSync(pkg, { recursive: true });
      const exe = join(pkg, `terraform-provider-cloudflare_v${version}`);
      writeFileAtomicSync(exe, wrapperScript(version), 0o755);
    }
  }
  const tlsDir = join(root, "tls");
  ensureServerIdentity(tlsDir);
  // start.cjs (the build's launcher: the double through V8's code cache, scripts/bundle-double.mjs); main.js
  // when only tsc ran.
  const start = fileURLToPath(new URL("./provider/start.cjs", import.meta.url));
  const main = existsSync(start) ? start : fileURLToPath(new URL("./provider/main.js", import.meta.url));
  if (!existsSync(main)) throw new Error(`provider double entry point missing: ${main} (run npm run build)`);
  writeFileAtomicSync(
    join(root, "double.env"),
    [
      `CF_DOUBLE_MAIN=${shellQuote(main)}`,
      `CF_DOUBLE_NODE=${shellQuote(process.execPath)}`,
      `CF_DOUBLE_TLS_DIR=\${CF_DOUBLE_TLS_DIR:-${shellQuote(tlsDir)}}`,
      "export CF_DOUBLE_MAIN CF_DOUBLE_NODE CF_DOUBLE_TLS_DIR",
      "",
    ].join("\n"),
  );
  const cliConfigFile = join(root, "terraform.rc");
  writeFileAtomicSync(
    cliConfigFile,
    [
      "provider_installation {",
      "  filesystem_mirror {",
      `    path    = ${JSON.stringify(mirrorDir)}`,
      `    include = [${MIRRORED_SOURCES.map((s) => JSON.stringify(s)).join(", ")}]`,
      "  }",
      "}",
      "disable_checkpoint = true",
      "",
    ].join("\n"),
  );
  return {
    dir: root,
    mirrorDir,
    cliConfigFile,
    versions: [...versions],
    env: { TF_CLI_CONFIG_FILE: cliConfigFile, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" },
  };
}

/**
 * The `h1:` hash Terraform records in .terraform.lock.hcl for a package directory (Go's dirhash Hash1:
 * SHA-256 over "<sha256 hex>  <relative path>\n" lines in path order). The same on every machine, because
 * the package holds only the version-specific wrapper.
 */
export function packageHash(mirrorDir: string, version: string): string {
  const pkg = join(mirrorDir, PROVIDER_SOURCE, version, "linux_amd64");
  const files = readdirSync(pkg, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? (d as unknown as { path: string }).path, d.name).slice(pkg.length + 1))
    .sort();
  const summary = files.map((f) => `${createHash("sha256").update(readFileSync(join(pkg, f))).digest("hex")}  ${f}\n`).join("");
  return "h1:" + createHash("sha256").update(summary).digest("base64");
}
