// A realistic root whose outputs expose legacy resources (`cloudflare_waf_package.owasp.id`, a splat over a
// counted group): step 6 removes those outputs with the blocks, but only after step 5 has removed every
// state instance, and step 7 accepts the plan that then changes root outputs only. Real terraform does
// state list / rm; plan and import are stubbed (test/support/real-terraform.sh).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/workdir.js";
import { copyTree, expectFinished, legacyInState, planArtifacts, runScript, violation, type CorpusTree } from "./helpers.js";

const TREE: CorpusTree = { name: "realworld-root-outputs", root: ".", zones: ["7c5dae5552338874e5053f2534d2767a"], planWithState: false };

// What terraform 1.11 prints for `plan -detailed-exitcode` once those root outputs are gone.
const OUTPUTS_ONLY_PLAN = `
Changes to Outputs:
  - waf_package_id = "a25a9a7e9c00afc1fb2e0245519d725b" -> null
  - xss_group_ids  = [
      - "cfda825dfda411ea218cb70e6c88e82e",
    ] -> null

You can apply this plan to save these new output values to the Terraform
state, without changing any real infrastructure.
`;

describe("a root whose outputs expose legacy resources", { timeout: 300_000 }, () => {
  it("migrate.sh --yes removes the state instances, then the blocks and the outputs, and step 7 accepts the output-only plan", async () => {
    const copy = await copyTree(TREE);
    const out = await planArtifacts(TREE, copy);
    const patch = readFileSync(path.join(out, "legacy-removal.patch"), "utf8");
    expect(patch).toContain('-output "waf_package_id" {');
    expect(patch).toContain('-output "xss_group_ids" {');
    expect(patch).not.toContain('-output "zone_id" {');
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
    expect(report.findings.filter((f: { code: string }) => f.code === "LEGACY_REFERENCE")).toEqual([]);
    // Planned without state: the plan knows the resource, the state holds its instance [0].
    expect(await legacyInState(copy.root)).toEqual(["cloudflare_waf_group.xss[0]", "cloudflare_waf_package.owasp"]);

    const planText = path.join(tempDir("cfwm-plantext-"), "plan.txt");
    writeFileSync(planText, OUTPUTS_ONLY_PLAN);
    const argv = path.join(tempDir("cfwm-argv-"), "argv");
    const r = await runScript(copy, out, { TF_PLAN_DETAILED_OUT: planText, TF_ARGV_LOG: argv });
    expect(r.stderr.replace(/^.*terraformrc.*$/gm, "")).not.toMatch(/migrate\.sh:/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Removed cloudflare_waf_group.xss[0]");
    expect(r.stdout).toContain("done: no resource changes; only root outputs change");

    // State first: the last `state rm` precedes the fresh `state list` of step 6, which precedes the edit.
    const calls = readFileSync(argv, "utf8").split("\n");
    const rm = calls.findIndex((c) => c.startsWith("state rm ") && !c.includes("-dry-run"));
    expect(rm).toBeGreaterThan(-1);
    expect(calls.slice(rm + 1).some((c) => c === "state list")).toBe(true);

    await expectFinished(TREE, copy);
    expect(await violation(copy)).toBeNull();
    const outputs = readFileSync(path.join(copy.root, "outputs.tf"), "utf8");
    expect(outputs).not.toContain("waf_package_id");
    expect(outputs).not.toContain("xss_group_ids");
    expect(outputs).toContain('output "zone_id"');
    expect(readFileSync(path.join(copy.root, "main.tf"), "utf8")).toContain("staging_only");
  });
});
