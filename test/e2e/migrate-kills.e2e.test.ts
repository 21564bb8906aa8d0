// A SIGKILL of migrate.sh's whole process group before and after every terraform command it runs (the
// real terraform doing state list / rm / pull; import and plan stubbed): each stop leaves either every legacy
// instance in state with every block in place, or the instances gone; the rerun finishes (once per tree
// the kills leave behind: test/support/world-digest.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/workdir.js";
import { rerunOnce, treeDigest } from "../support/world-digest.js";
import { copyTree, corpusTree as tree, countInvocations, expectFinished, planArtifacts, runScript, violation } from "./helpers.js";

describe("a kill at every step of migrate.sh", { timeout: 1_800_000 }, () => {
  // "after" command k differs from "before" command k+1 only by the work between them (git apply after
  // step 6's state list): both for the tree whose patch edits a module outside the root, "before" for the other.
  for (const [name, layout, whens] of [
    ["realworld-module-examples", "repo-subdir", ["before", "after"]],
    ["realworld-nested-modules", "none", ["before"]],
  ] as const) {
    it(`${name}: after each SIGKILL of the process group the invariant holds and the rerun finishes`, async () => {
      const t = tree(name);
      const probe = await copyTree(t, layout);
      const out = await planArtifacts(t, probe);
      const n = await countInvocations((env) => runScript(probe, out, env));
      expect(n).toBeGreaterThan(6);
      const firstTime = rerunOnce();
      for (let k = 1; k <= n; k++) {
        for (const when of whens) {
          const copy = await copyTree(t, layout);
          const killed = await runScript(copy, out, { TF_COUNTER: path.join(tempDir("cfwm-count-"), "n"), TF_KILL_AT: String(k), TF_KILL_WHEN: when });
          expect(killed.signal, `kill ${when} invocation ${k}`).toBe("SIGKILL");
          expect(await violation(copy), `kill ${when} invocation ${k}`).toBeNull();
          if (!firstTime(treeDigest([copy.top]))) continue;
          const again = await runScript(copy, out);
          expect(again.code, `rerun after a kill ${when} invocation ${k}: ${again.stderr}`).toBe(0);
          await expectFinished(t, copy);
        }
      }
    });
  }
});

