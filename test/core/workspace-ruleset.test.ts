import { describe, expect, it } from "vitest";
import { rulesetCopyFile, rulesetWorkspaceGate, workspaceCountExpression, workspaceResourceName } from "../../src/core/workspace-ruleset.js";

describe("a root's ruleset limited to its workspace", () => {
  it("is limited in a non-default workspace, or in default when the run has several workspaces of the root", () => {
    expect(rulesetWorkspaceGate("default", 1)).toBeNull();
    expect(rulesetWorkspaceGate("default", 2)).toBe("default");
    expect(rulesetWorkspaceGate("eu", 1)).toBe("eu");
    expect(rulesetWorkspaceGate("eu", 2)).toBe("eu");
  });

  it("counts on terraform.workspace with the name as an HCL string; names and files carry the workspace", () => {
    expect(workspaceCountExpression("eu")).toBe('terraform.workspace == "eu" ? 1 : 0');
    expect(workspaceCountExpression('a"b')).toBe('terraform.workspace == "a\\"b" ? 1 : 0');
    expect(workspaceResourceName("waf_managed_1b2c3d4e", "eu-West_1")).toBe("waf_managed_1b2c3d4e_eu-West_1");
    // Other characters: a hash of the whole name keeps look-alikes apart.
    expect(workspaceResourceName("waf_managed_1b2c3d4e", "eu.prod")).toMatch(/^waf_managed_1b2c3d4e_eu_prod_[0-9a-f]{8}$/);
    expect(rulesetCopyFile("eu.prod")).not.toBe(rulesetCopyFile("eu_prod"));
    expect(rulesetCopyFile("eu.prod")).toBe(rulesetCopyFile("eu.prod"));
    expect(rulesetCopyFile(null)).toBe("cf-waf-migrate-ruleset.tf");
    expect(rulesetCopyFile("eu")).toBe("cf-waf-migrate-ruleset-eu.tf");
    expect(rulesetCopyFile("@@")).toMatch(/^cf-waf-migrate-ruleset-ws_[0-9a-f]{8}\.tf$/);
  });
});
