// A plan that cannot be written whole (a full disk, a quota) must not leave half a migration behind: a
// PLAN.md without its migrate.sh reads as a plan. The files the run created are removed, and the error is the
// user's one line (exit 2), not an internal error.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserInputError } from "../../src/core/user-input-error.js";
import type { Report } from "../../src/core/model.js";
import { PlanWriteError, writeArtifacts, type AssembledPlan } from "../../src/plan/artifacts.js";
import { NODE_ATOMIC_FS, type AtomicFs } from "../../src/terraform/edit/fs-atomic.js";

let dir: string;
beforeEach(() => void (dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-full-disk-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const content = {
  plan: { rulesetTf: 'resource "cloudflare_ruleset" "x" {}\n', importsTf: "import {}\n", removedTf: null, overridesPatch: null, legacyPatch: null } as unknown as AssembledPlan,
  report: { schemaVersion: 1 } as unknown as Report,
  markdown: "# Plan\n",
  script: "#!/bin/sh\n",
};

/** Node's file system, except that creating anything for `name` fails as a full disk does. */
function fullAt(name: string): AtomicFs {
  const full = Object.assign(new Error(`ENOSPC: no space left on device, open '${name}'`), { code: "ENOSPC" });
  return {
    ...NODE_ATOMIC_FS,
    open: (async (p: string, ...rest: unknown[]) => {
      if (path.basename(String(p)).startsWith(`.${name}.`)) throw full;
      return (nodeFs.open as (...a: unknown[]) => Promise<nodeFs.FileHandle>)(p, ...rest);
    }) as typeof nodeFs.open,
  };
}

describe("a plan the disk cannot hold", () => {
  it("leaves nothing of itself in the directory, and says so in one line", async () => {
    const out = path.join(dir, "migration");
    const e = await writeArtifacts(out, content, false, fullAt("migrate.sh")).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserInputError);
    expect((e as UserInputError).message).toBe(`cannot write ${path.join(out, "migrate.sh")}: ENOSPC: no space left on device, open 'migrate.sh'; nothing of the plan was left in ${out}`);
    expect(readdirSync(out)).toEqual([]);
    // What an estate's plan rewords with its own outcome (plan/estate-out-dir.ts).
    expect(e).toBeInstanceOf(PlanWriteError);
    expect((e as PlanWriteError).what).toBe(`cannot write ${path.join(out, "migrate.sh")}: ENOSPC: no space left on device, open 'migrate.sh'`);
  });

  it("with --force, names what it replaced before it stopped (those are gone either way)", async () => {
    const out = path.join(dir, "migration");
    await writeArtifacts(out, content, false);
    writeFileSync(path.join(out, "keep.txt"), "not ours");
    const e = await writeArtifacts(out, content, true, fullAt("imports.tf")).catch((x: unknown) => x);
    expect((e as UserInputError).message).toContain("the plan in");
    expect((e as UserInputError).message).toContain("is incomplete (written: PLAN.md, ruleset.tf): rerun once there is room");
    expect(existsSync(path.join(out, "keep.txt"))).toBe(true);
  });

  it("rethrows what is not the system's refusal (a bug stays an internal error)", async () => {
    const broken = { ...fullAt("none"), open: (async () => { throw new TypeError("boom"); }) as unknown as typeof nodeFs.open };
    await expect(writeArtifacts(path.join(dir, "m"), content, false, broken)).rejects.toThrow(TypeError);
  });
});
