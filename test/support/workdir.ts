// Temporary copies of fixture trees, and a PATH with the fake terraform on it.
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, TESTDATA } from "./cli.js";

export const FAKE_TERRAFORM = path.join(ROOT, "test/support/fake-terraform.mjs");

/**
 * `testdata/<name>` copied into a fresh temp directory, outside this repository; returns the copy of `<name>`.
 * A nested name (`values-tfvars/with-tfvars`) brings the rest of its top directory along, for the modules it
 * calls by `../`. Plans run on such copies: a plan reads the repository around its root for the other roots
 * that call its modules, and in place that repository is this one (all of testdata, and its deliberately
 * odd files for the WASM parser).
 */
export function copyFixture(name: string): string {
  const [top, ...rest] = name.split("/");
  return path.join(copyDir(path.join(TESTDATA, top!), top!), ...rest);
}

/** A fresh temp directory (named after `name`) holding a copy of the tree at `from`; returns its path. */
export function copyDir(from: string, name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cfwm-${name}-`));
  cpSync(from, dir, { recursive: true });
  return dir;
}

/**
 * A bin directory whose `terraform` (and `tofu`) run the fake; prepend it to PATH. Each is a shell client of
 * this test worker's fake-terraform server (one Node process for every invocation, started with the first
 * bin directory); until the server has written its port, or if it cannot be reached, the client runs the
 * fake itself, as `node fake-terraform.mjs`.
 */
export function fakeTerraformBin(): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), "cfwm-bin-"));
  chmodSync(FAKE_TERRAFORM, 0o755);
  const client = fakeTerraformClient(fakeTerraformServer());
  for (const name of ["terraform", "tofu"]) writeFileSync(path.join(bin, name), client, { mode: 0o755 });
  return bin;
}

let serverPortFile: string | null = null;

/** Starts this worker's server once; returns the file its port will be in. It ends when this process does. */
function fakeTerraformServer(): string {
  if (serverPortFile) return serverPortFile;
  const portFile = path.join(mkdtempSync(path.join(os.tmpdir(), "cfwm-fake-tf-")), "port");
  const child = spawn(process.execPath, [path.join(ROOT, "test/support/fake-terraform-server.mjs"), portFile], { stdio: ["pipe", "ignore", "inherit"] });
  // Neither the child nor the pipe keeps this process alive; the pipe closing on exit ends the server.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  child.on("error", () => undefined);
  serverPortFile = portFile;
  return portFile;
}

const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The client: the invocation's directory, arguments and environment to the server, its answer (exit code,
 * stdout, stderr) back. Only shell built-ins on the way, apart from the one subshell listing the environment.
 */
function fakeTerraformClient(portFile: string): string {
  return `#!/usr/bin/env bash
port=""
{ read -r port < ${sh(portFile)}; } 2>/dev/null
if [ -n "$port" ] && { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
  {
    printf '%s\\0' "$PWD" "$#" "$@"
    for name in $(compgen -e); do printf '%s=%s\\0' "$name" "\${!name}"; done
    printf '\\0'
  } >&3
  code=1 out="" err=""
  IFS= read -r -d '' code <&3
  IFS= read -r -d '' out <&3
  IFS= read -r -d '' err <&3
  exec 3<&-
  printf '%s' "$out"
  printf '%s' "$err" >&2
  exit "\${code:-1}"
fi
exec node ${sh(FAKE_TERRAFORM)} "$@"
`;
}

export function tempDir(prefix = "cfwm-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  return dir;
}
