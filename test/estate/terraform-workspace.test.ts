// `terraform.workspace` in a configuration-only instance: evaluated to the workspace terraform would run in
// (TF_WORKSPACE, `.terraform/environment`, else `default` when the root has no terraform.tfstate.d/), and
// unresolved when that is not known offline. The root is the common real-world shape: one zone per
// workspace through a map, and a rule counted on for prod only.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configOnlyWorkspace, loadEstate } from "../../src/estate/load.js";
import { tempDir } from "../support/workdir.js";

const MAIN_TF = `
variable "zones" {
  type = map(string)
  default = {
    prod    = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    staging = "1b2c3d4e5f60718293a4b5c6d7e8f901"
  }
}

resource "cloudflare_waf_rule" "sqli" {
  count   = terraform.workspace == "prod" ? 1 : 0
  zone_id = lookup(var.zones, terraform.workspace)
  rule_id = "100000"
  mode    = "block"
}
`;

function root(opts: { environment?: string; stateDir?: boolean } = {}): string {
  const dir = tempDir("cfwm-tfws-");
  writeFileSync(path.join(dir, "main.tf"), MAIN_TF);
  if (opts.environment !== undefined) {
    mkdirSync(path.join(dir, ".terraform"));
    writeFileSync(path.join(dir, ".terraform", "environment"), opts.environment);
  }
  if (opts.stateDir) mkdirSync(path.join(dir, "terraform.tfstate.d", "staging"), { recursive: true });
  return dir;
}

async function sqli(dir: string) {
  const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
  return estate.instances[0]!.ws.resources.filter((r) => r.type === "cloudflare_waf_rule");
}

describe("terraform.workspace in a configuration-only instance", () => {
  it("follows .terraform/environment: prod counts the rule in the prod zone", async () => {
    const rules = await sqli(root({ environment: "prod\n" }));
    expect(rules.map((r) => [r.address, r.zoneId])).toEqual([["cloudflare_waf_rule.sqli[0]", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"]]);
  });

  it("is default without other workspace evidence (count 0: no instance), and unknown with terraform.tfstate.d/", () => {
    expect(configOnlyWorkspace(root(), {})).toBe("default");
    expect(configOnlyWorkspace(root({ stateDir: true }), {})).toBeNull();
    expect(configOnlyWorkspace(root({ stateDir: true }), { TF_WORKSPACE: "staging" })).toBe("staging");
    expect(configOnlyWorkspace(root({ environment: "staging" }), { TF_WORKSPACE: "prod" })).toBe("prod");
  });
});
