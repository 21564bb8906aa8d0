// Temporary copies of fixture trees, and a PATH with the fake terraform on it.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, TESTDATA } from "./cli.js";

export const FAKE_TERRAFORM = path.join(ROOT, "test/support/fake-terraform.mjs");

/** A fresh temp directory holding a copy of `testdata/<name>`; returns its path. */
export function copyFixture(name: string): string {
  return copyDir(path.join(TESTDATA, name), name);
}

/** A fresh temp directory (named after `name`) holding a copy of the tree at `from`; returns its path. */
export function copyDir(from: string, name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cfwm-${name}-`));
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** A bin directory whose `terraform` (and `tofu`) run the fake; prepend it to PATH. */
export function fakeTerraformBin(): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), "cfwm-bin-"));
  chmodSync(FAKE_TERRAFORM, 0o755);
  for (const name of ["terraform", "tofu"]) symlinkSync(FAKE_TERRAFORM, path.join(bin, name));
  return bin;
}

export function tempDir(prefix = "cfwm-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  return dir;
}
