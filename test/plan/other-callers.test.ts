// withdrawRemovedBlocks took step 5's removed.tf offer away by comparing each note with the offer's text;
// step 5 now says where it put the offer (buildPlanSteps' removedOffer) and the offer is withdrawn by that
// position. Same notes, same order as before.
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "../../src/plan/artifacts.js";
import { withdrawRemovedBlocks } from "../../src/plan/other-callers.js";
import { buildPlanSteps, removedBlocksNote, type PlanInput } from "../../src/plan/steps.js";

const input: PlanInput = {
  zones: [],
  stateRemovals: ["module.waf.cloudflare_waf_package.owasp"],
  overrides: [],
  legacyBlockFiles: ["modules/waf/main.tf"],
  patchDir: "../..",
  legacyResources: ["module.waf.cloudflare_waf_package.owasp"],
  providerMajor: 4,
  removedBlocksOffered: true,
  rulesetFile: ARTIFACTS.ruleset,
  outDir: "out",
  fromCfTerraforming: null,
  stateKnown: true,
  artifacts: { patch: ARTIFACTS.patch, imports: ARTIFACTS.imports, removed: ARTIFACTS.removed, script: ARTIFACTS.script },
};

describe("withdrawRemovedBlocks", () => {
  it("step 5 marks where it offers removed.tf, and the offer is withdrawn by that mark", () => {
    const { steps, removedOffer } = buildPlanSteps(input);
    const step5 = steps.find((s) => s.number === 5)!;
    expect(removedOffer).toEqual({ step: step5, note: step5.notes!.length - 1 });
    expect(step5.notes![removedOffer!.note]).toBe(removedBlocksNote(ARTIFACTS.removed));
    const before = [...step5.notes!];

    const plan = { removedTf: "removed {}\n", artifactList: [{ file: ARTIFACTS.removed, purpose: "" }, { file: ARTIFACTS.script, purpose: "" }], removedOffer };
    withdrawRemovedBlocks(plan, ["../dev"]);
    expect(plan).toMatchObject({ removedTf: null, removedOffer: null, artifactList: [{ file: ARTIFACTS.script }] });
    expect(step5.notes).toEqual([
      ...before.slice(0, -1),
      "no removed.tf: removed {} blocks only apply once the legacy blocks are gone from the module, which ../dev also uses: use the state rm commands above (migrate.sh keeps the blocks until it has migrated)",
    ]);
  });

  it("no offer, no mark; no other caller, nothing withdrawn", () => {
    expect(buildPlanSteps({ ...input, removedBlocksOffered: false }).removedOffer).toBeNull();
    const { removedOffer } = buildPlanSteps(input);
    const plan = { removedTf: "removed {}\n", artifactList: [], removedOffer };
    withdrawRemovedBlocks(plan, []);
    expect(plan.removedOffer).toBe(removedOffer);
    expect(removedOffer!.step.notes).toContain(removedBlocksNote(ARTIFACTS.removed));
  });
});
