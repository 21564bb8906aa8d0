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

/**
 * `testdata/<name>` copied outside the repository (with the rest of its top directory, for the modules it
 * calls by `../`); returns the copy of `<name>`. A plan reads the repository around its root, for the other
 * roots that call its modules: run in place, that repository is this one, and every plan would read all of
 * testdata (and start the WASM parser for its deliberately odd files) for a fixture that stands alone.
 */
export function fixtureOutsideRepo(name: string): string {
  const [top, ...rest] = name.split("/");
  return path.join(copyDir(path.join(TESTDATA, top!), top!), ...rest);
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
