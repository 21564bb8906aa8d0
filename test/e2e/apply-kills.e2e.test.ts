// Issue 18 section 5, kept as a test: 30 kills at seeded random points of `apply --yes` (at a terraform
// command, or after a random delay that lands anywhere, file writes included) each leave state and files
// consistent, and the rerun finishes (once per tree the kills leave behind: test/support/world-digest.ts).
// Only outcomes are asserted, never durations.
import { copyFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/workdir.js";
import { rerunOnce, treeDigest } from "../support/world-digest.js";
import { copyTree, corpusTree as tree, countInvocations, expectFinished, interruptedStateWrite, planArtifacts, runApplyCli, seeded, snapshot, violation } from "./helpers.js";

describe("30 kills at random points of apply --yes (seeded)", { timeout: 1_800_000 }, () => {
  it("each leaves state and files consistent, and the rerun finishes", async () => {
    const t = tree("realworld-module-examples");
    const probe = await copyTree(t);
    const out = await planArtifacts(t, probe);
    const withRuleset = async () => {
      const copy = await copyTree(t);
      copyFileSync(path.join(out, "ruleset.tf"), path.join(copy.root, "cf-waf-migrate-ruleset.tf"));
      copy.before = snapshot(copy.top);
      return copy;
    };
    const first = await withRuleset();
    const n = await countInvocations((env) => runApplyCli(t, first, env));
    const random = seeded(12);
    const firstTime = rerunOnce();
    for (let i = 0; i < 30; i++) {
      const copy = await withRuleset();
      // Half the kills at a terraform invocation (before or after it), half after a random delay, which
      // lands anywhere (in node's own work, in a file write); only the outcome is asserted, never the time.
      const k = 1 + Math.floor(random() * n);
      const when = random() < 0.5 ? "before" : "after";
      const delay = Math.floor(random() * 2500);
      const byInvocation = i % 2 === 0;
      const killed = byInvocation
        ? await runApplyCli(t, copy, { TF_COUNTER: path.join(tempDir("cfwm-count-"), "n"), TF_KILL_AT: String(k), TF_KILL_WHEN: when })
        : await runApplyCli(t, copy, {}, delay);
      const where = byInvocation ? `kill ${when} invocation ${k}` : `kill after ${delay} ms`;
      expect(await violation(copy), where).toBeNull();
      const backup = interruptedStateWrite(copy);
      if (backup) {
        // The kill landed inside terraform's own state write: apply refuses, names the backup, changes
        // nothing; the user restores it as told, and the rerun finishes.
        const refused = await runApplyCli(t, copy);
        expect(refused.code, `${where}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, where).toContain(`cp ${path.basename(backup)} terraform.tfstate`);
        expect(await violation(copy), where).toBeNull();
        copyFileSync(backup, path.join(copy.root, "terraform.tfstate"));
      }
      if (byInvocation) expect(killed.signal, where).toBe("SIGKILL");
      if (!firstTime(treeDigest([copy.top]))) continue;
      const again = await runApplyCli(t, copy);
      expect(again.code, `${where}: rerun ${again.stdout}${again.stderr}`).toBe(0);
      await expectFinished(t, copy);
    }
  });
});

