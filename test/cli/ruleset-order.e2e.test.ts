// From the built CLI: an existing managed-phase cloudflare_ruleset (provider 3/4 blocks, provider 5
// attributes) whose skip rule comes after the execute rules is flagged RULESET_SKIP_AFTER_EXECUTE.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "3f1bc18efe333337886cd2d0f6fa0000";
const LEGACY = `resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE}"
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = "low"
  action_mode = "block"
}
`;

const BLOCKS = (skipFirst: boolean) => {
  const exec = `  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare Managed Ruleset"
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
  }
`;
  const skip = `  rules {
    action      = "skip"
    expression  = "(http.request.uri.path eq \\"/health\\")"
    description = "health checks"
    action_parameters {
      ruleset = "current"
    }
  }
`;
  return `resource "cloudflare_ruleset" "managed" {
  zone_id = "${ZONE}"
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
${skipFirst ? skip + exec : exec + skip}}
`;
};

const ATTRIBUTES = `resource "cloudflare_ruleset" "managed" {
  zone_id = "${ZONE}"
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
  rules = [
    { action = "execute", expression = "true", description = "OWASP", action_parameters = { id = "4814384a9e5d4991b9815dcfc25d2f1f" } },
    { action = "skip", expression = "true", description = "skip owasp", action_parameters = { rulesets = ["4814384a9e5d4991b9815dcfc25d2f1f"] } },
  ]
}
`;

async function codes(tf: string): Promise<{ code: string; address: string | null; line: number | null; details?: unknown }[]> {
  const dir = tempDir("cfwm-order-");
  writeFileSync(path.join(dir, "main.tf"), LEGACY + tf);
  const r = await runCli(["scan", dir, "--format", "json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { findings: { code: string; address: string | null; line: number | null; details?: unknown }[] }).findings.filter((f) => f.code === "RULESET_SKIP_AFTER_EXECUTE");
}

describe("existing managed-phase ruleset: skip after execute", () => {
  it("block syntax, skip after the execute rule: flagged at the ruleset", async () => {
    const f = await codes(BLOCKS(false));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ address: "cloudflare_ruleset.managed", line: 7, details: { skipRule: 2, executeRules: [1] } });
  });

  it("block syntax, skip first: not flagged", async () => {
    expect(await codes(BLOCKS(true))).toEqual([]);
  });

  it("provider 5 attribute syntax, a skip of the OWASP ruleset after its execute rule: flagged", async () => {
    const f = await codes(ATTRIBUTES);
    expect(f.map((x) => x.details)).toEqual([{ skipRule: 2, executeRules: [1], expression: "true" }]);
  });

  it("--config-json whose skip rule comes after the execute rules (the live ruleset edited by hand): flagged for the zone; the service's usual order is not", async () => {
    const dir = tempDir("cfwm-order-");
    writeFileSync(path.join(dir, "main.tf"), LEGACY);
    const doc = JSON.parse(readFileSync(path.join(TESTDATA, "service-config-blog.json"), "utf8")) as { result: { rules: unknown[] } };
    const flagged = async (config: unknown) => {
      const file = path.join(dir, "config.json");
      writeFileSync(file, JSON.stringify(config));
      const r = await runCli(["plan", dir, "--config-json", `${ZONE}=${file}`, "--format", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { findings: { code: string; zoneId: string | null; details?: unknown }[] }).findings.filter((f) => f.code === "RULESET_SKIP_AFTER_EXECUTE");
    };
    expect(await flagged(doc)).toEqual([]);
    const [skip, ...rest] = doc.result.rules;
    const moved = await flagged({ result: { ...doc.result, rules: [...rest, skip] } });
    expect(moved).toMatchObject([{ zoneId: ZONE, details: { skipRule: 3, executeRules: [1, 2], source: "service" } }]);
  });

  it("--from-cf-terraforming (kept as written in ruleset.tf): flagged at the cf-terraforming file's resource when the skip rule was moved last", async () => {
    const MZ = path.join(TESTDATA, "multi-zone");
    const BLOG = "9a7806061c88ada191ed06f989cc3dac";
    const src = readFileSync(path.join(TESTDATA, "cf-terraforming-rulesets.tf"), "utf8");
    const run = async (text: string) => {
      const file = path.join(tempDir("cfwm-order-"), "cf.tf");
      writeFileSync(file, text);
      const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--from-cf-terraforming", file, "--format", "json"], { cwd: MZ });
      expect(r.exitCode, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { findings: { code: string; zoneId: string | null; address: string | null; file: string | null; line: number | null; details?: unknown }[] }).findings.filter((f) => f.code === "RULESET_SKIP_AFTER_EXECUTE");
    };
    expect(await run(src)).toEqual([]);
    // The managed-phase resource's skip rule (its first rules block) moved after the two execute rules.
    const start = src.indexOf('resource "cloudflare_ruleset" "terraform_managed_resource_2c0fc9fa937b4d3fb7a4ec1e3f9f8e21_1"');
    const end = src.indexOf('resource "cloudflare_ruleset"', start + 10);
    const block = src.slice(start, end);
    const rules = block.split(/\n(?=  rules \{)/);
    const [head, skip, ...execs] = rules;
    const last = execs.pop()!.replace(/\n\}\n*$/, "");
    const moved = [head, ...execs, last, skip!.replace(/\n$/, "")].join("\n") + "\n}\n\n";
    const found = await run(src.slice(0, start) + moved + src.slice(end));
    expect(found).toMatchObject([{ zoneId: BLOG, address: "cloudflare_ruleset.terraform_managed_resource_2c0fc9fa937b4d3fb7a4ec1e3f9f8e21_1", line: 14, details: { skipRule: 3, executeRules: [1, 2] } }]);
    expect(found[0]!.file).toMatch(/cf\.tf$/);
  });
});
