// Real `terraform validate` (through the provider double) is the oracle for step 6: after the edit the
// removal set computes, the module-with-examples tree validates; deleting the legacy blocks alone does not
// ("Reference to undeclared resource"); and where LEGACY_REFERENCE findings remain, validate fails on
// exactly what they name.
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRemoval } from "../../src/terraform/edit/legacy-removal.js";
import { legacyRemovalSet } from "../../src/terraform/references/removal-set.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { TESTDATA } from "../support/cli.js";
import { Root, TERRAFORM, TerraformHarness } from "./harness.js";

let h: TerraformHarness;
beforeAll(() => {
  h = new TerraformHarness(["3.35.0"], TERRAFORM, { reattach: true });
});
afterAll(() => h?.teardown());

/** A copy of a fixture under the harness, with terraform run in `rootRel`. */
function fixtureRoot(name: string, fixture: string, rootRel: string): Root {
  const base = h.root(name, {});
  cpSync(path.join(TESTDATA, fixture), base.dir, { recursive: true });
  return new Root(h, path.join(base.dir, rootRel), base.accountDir, base.env);
}

async function removal(root: Root) {
  const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: root.dir, readStdin: async () => Buffer.alloc(0) });
  expect(ws.errors).toEqual([]);
  const set = await legacyRemovalSet(ws);
  return { ws, set };
}

describe("step 6 against real terraform validate", () => {
  it(
    "a module with examples/complete: validates after the edit; the legacy blocks alone would leave it broken",
    async () => {
      const root = fixtureRoot("refs-module", "refs-module-example", "examples/complete");
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      expect((await root.tf("validate")).code).toBe(0);

      const { ws, set } = await removal(root);
      expect(set.findings).toEqual([]);
      // Control: the legacy blocks alone, as the step-6 patch used to remove them.
      const blocksOnly = await buildRemoval(ws.base, set.blocks);
      for (const e of blocksOnly.edits) writeFileSync(e.absolute, e.newText);
      const broken = await root.tf("validate");
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain("Reference to undeclared resource");
      for (const e of blocksOnly.edits) writeFileSync(e.absolute, e.oldText);

      const full = await buildRemoval(ws.base, set.targets);
      expect(full.refused).toEqual([]);
      for (const e of full.edits) writeFileSync(e.absolute, e.newText);
      const v = await root.tf("validate");
      expect(v.stderr).toBe("");
      expect(v.code).toBe(0);
    },
    600_000,
  );

  it(
    "where LEGACY_REFERENCE findings remain, validate fails on what they name, and only on that",
    async () => {
      const root = fixtureRoot("refs-dangling", "refs-dangling", ".");
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      expect((await root.tf("validate")).code).toBe(0);
      const { ws, set } = await removal(root);
      expect(set.findings.length).toBe(3);
      const edit = await buildRemoval(ws.base, set.targets);
      for (const e of edit.edits) writeFileSync(e.absolute, e.newText);
      const v = await root.tf("validate");
      expect(v.code).toBe(1);
      const errors = [...v.stderr.matchAll(/Error: (Reference to undeclared [a-z ]+)/g)].map((m) => m[1]);
      expect(errors.length).toBe(set.findings.length);
      for (const f of set.findings) expect(v.stderr).toContain(String(f.details?.written).split(".").slice(-1)[0]);
    },
    600_000,
  );
});
