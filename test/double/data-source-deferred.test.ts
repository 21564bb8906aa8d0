// A reusable module in the shape public ones have (the package looked up by name through the legacy
// `data "cloudflare_waf_packages"`, `count` on a feature flag, rules from `for_each` over a map, outputs
// exposing them with try(x[0], null) and values(x)[*].id), run from its `examples/complete` root, which calls
// `source = "../../"`. Once the zone is migrated (step 0), the previous WAF's API refuses that data source,
// and `terraform import` reads every data source of the configuration: the import cannot succeed while the
// legacy blocks are there. apply defers it: state entries out, blocks out, then the import and its check;
// migrate.sh runs its steps 3 and 4 after step 6 for the same reason. Real terraform, the provider double
// and the simulated API; nothing stubbed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../../dist/sandbox/index.js";
import { runGroup } from "../e2e/helpers.js";
import { TERRAFORM } from "../sandbox/harness.js";
import { expectCleanPlan, initAndApply, legacyZone, migrateZones, newHarness, placeRuleset, planMigration, providerBlock, SQLI_RULE, startApi, tool, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

const MODULE_MAIN = `locals {
  enabled = var.enabled && contains(var.anomaly_packages, "owasp")
}

data "cloudflare_waf_packages" "owasp" {
  count   = local.enabled ? 1 : 0
  zone_id = var.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

resource "cloudflare_waf_package" "owasp" {
  count = local.enabled ? 1 : 0

  zone_id     = var.zone_id
  package_id  = data.cloudflare_waf_packages.owasp[0].packages[0].id
  sensitivity = var.sensitivity
  action_mode = var.action_mode
}

resource "cloudflare_waf_rule" "rules" {
  for_each = var.rules

  zone_id = var.zone_id
  rule_id = each.key
  mode    = each.value
}
`;

const MODULE_VARIABLES = `terraform {
  required_providers {
    cloudflare = {
      source = "cloudflare/cloudflare"
    }
  }
}

variable "zone_id" {
  type = string
}

variable "enabled" {
  type    = bool
  default = true
}

variable "anomaly_packages" {
  type    = list(string)
  default = ["owasp"]
}

variable "sensitivity" {
  type = string
}

variable "action_mode" {
  type = string
}

variable "rules" {
  type    = map(string)
  default = {}
}
`;

const MODULE_OUTPUTS = `output "waf_package" {
  value = try(cloudflare_waf_package.owasp[0], null)
}

output "rule_ids" {
  value = values(cloudflare_waf_rule.rules)[*].id
}

output "zone_id" {
  value = var.zone_id
}
`;

const EXAMPLE = `module "waf" {
  source = "../../"

  zone_id     = "${ZONE_ID}"
  sensitivity = "low"
  action_mode = "simulate"

  rules = {
    "${SQLI_RULE}" = "disable"
  }
}

output "package" {
  value = module.waf.waf_package
}

output "rules" {
  value = module.waf.rule_ids
}

output "zone" {
  value = module.waf.zone_id
}
`;

/** A module both workspaces of one root call, each for its own zone. */
const SHARED_MODULE = `terraform {
  required_providers {
    cloudflare = {
      source = "cloudflare/cloudflare"
    }
  }
}

variable "zone_id" {
  type = string
}

data "cloudflare_waf_packages" "owasp" {
  zone_id = var.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = data.cloudflare_waf_packages.owasp.packages[0].id
  sensitivity = "low"
  action_mode = "simulate"
}
`;

let h: TerraformHarness;
const apis: ApiServer[] = [];

interface Tree {
  root: Root;
  moduleDir: string;
  rulesetIds: string[];
  planDir: string;
}

async function legacyTree(name: string): Promise<Tree> {
  const root = h.root(`${name}/examples/complete`, { "versions.tf": providerBlock("3.35.0"), "main.tf": EXAMPLE }, [legacyZone()]);
  const moduleDir = path.resolve(root.dir, "../..");
  mkdirSync(moduleDir, { recursive: true });
  writeFileSync(path.join(moduleDir, "main.tf"), MODULE_MAIN);
  writeFileSync(path.join(moduleDir, "variables.tf"), MODULE_VARIABLES);
  writeFileSync(path.join(moduleDir, "outputs.tf"), MODULE_OUTPUTS);
  await initAndApply(root);
  expect(await stateList(root)).toEqual(["module.waf.data.cloudflare_waf_packages.owasp[0]", "module.waf.cloudflare_waf_package.owasp[0]", `module.waf.cloudflare_waf_rule.rules["${SQLI_RULE}"]`]);
  const started = await startApi(root);
  apis.push(started.api);
  const migrated = await migrateZones(root, started.env, [ZONE_ID], "pending");
  const planDir = await planMigration(root, [...migrated.configs, ...migrated.rulesetIds]);
  placeRuleset(root, planDir);
  // The premise: once migrated, terraform cannot read the legacy data source (so `import` cannot either).
  const planned = await root.tf("plan", "-refresh=false", "-input=false");
  expect(planned.code).toBe(1);
  expect(planned.stderr).toContain("data.cloudflare_waf_packages.owasp[0]");
  return { root, moduleDir, rulesetIds: migrated.rulesetIds, planDir };
}

const stateList = async (root: Root) => (await root.tf("state", "list")).stdout.trim().split("\n").filter((l) => l !== "");
const moduleFiles = (t: Tree) => ["main.tf", "outputs.tf", "variables.tf"].map((f) => readFileSync(path.join(t.moduleDir, f), "utf8"));
interface Report {
  exitCode: number;
  steps: { name: string; status: string; commands: string[]; detail: string }[];
  rehearsal: { status: string; steps: { name: string; status: string; detail: string }[] } | null;
}

beforeAll(() => {
  h = newHarness(["3.35.0"], { reattach: true });
});
afterAll(async () => {
  for (const api of apis) await api.close();
  h?.teardown();
});

describe("a legacy data source in a module called from examples/complete, zone migrated", () => {
  it(
    "the dry run rehearses the deferred import; --yes removes state entries, then blocks, then imports; a second run and a resumed import finish",
    async () => {
      const tree = await legacyTree("apply");
      const { root, rulesetIds } = tree;
      const filesBefore = moduleFiles(tree);
      const stateBefore = await stateList(root);

      const dry = await tool(root, ["apply", ".", ...rulesetIds, "--format", "json"]);
      const dryReport = JSON.parse(dry.stdout) as Report;
      expect(dry.exitCode, dry.stdout + dry.stderr).toBe(0);
      expect(dryReport.rehearsal!.status).toBe("passed");
      expect(dryReport.rehearsal!.steps.map((s) => `${s.name}:${s.status}`)).toEqual([
        "import:deferred",
        "state-rm:done",
        "remove-blocks:done",
        "import:done",
        "plan-check:done",
        "final-plan:done",
      ]);
      expect(dryReport.rehearsal!.steps[0]!.detail).toContain("refuses module.waf.data.cloudflare_waf_packages.owasp now that the zone is migrated");
      expect(moduleFiles(tree)).toEqual(filesBefore);
      expect(await stateList(root)).toEqual(stateBefore);

      const real = await tool(root, ["apply", ".", ...rulesetIds, "--yes", "--format", "json"]);
      const report = JSON.parse(real.stdout) as Report;
      expect(real.exitCode, real.stdout + real.stderr).toBe(0);
      expect(report.steps.map((s) => `${s.name}:${s.status}`)).toEqual([
        "backup:done",
        "import:deferred",
        "state-rm:done",
        "remove-blocks:done",
        "import:done",
        "plan-check:done",
        "final-plan:done",
      ]);
      const rulesetAddress = report.steps[4]!.commands[0]!.split(" ")[4]!;
      expect(await stateList(root)).toEqual([rulesetAddress]);
      const [main, outputs] = moduleFiles(tree);
      expect(main).not.toContain("cloudflare_waf");
      expect(outputs).not.toContain("waf_package");
      expect(outputs).toContain('output "zone_id"');
      expect(root.read("main.tf")).not.toContain('output "package"');
      expect((await root.tf("validate")).code).toBe(0);
      await expectCleanPlan(root);

      const again = await tool(root, ["apply", ".", ...rulesetIds, "--yes", "--format", "json"]);
      expect(again.exitCode, again.stdout).toBe(0);
      expect((JSON.parse(again.stdout) as Report).steps.filter((s) => s.status === "done").map((s) => s.name)).toEqual(["backup", "final-plan"]);

      // A run stopped between the blocks' removal and the import: no legacy piece is left to name the
      // zone, and the ruleset in the configuration is still imported.
      expect((await root.tf("state", "rm", rulesetAddress)).code).toBe(0);
      const resumed = await tool(root, ["apply", ".", ...rulesetIds, "--yes", "--format", "json"]);
      expect(resumed.exitCode, resumed.stdout).toBe(0);
      expect((JSON.parse(resumed.stdout) as Report).steps[1]).toMatchObject({ name: "import", status: "done" });
      expect(await stateList(root)).toEqual([rulesetAddress]);
      await expectCleanPlan(root);
    },
    900_000,
  );

  it(
    "migrate.sh --yes: steps 5 and 6, then the import and its plan, then step 7",
    async () => {
      const tree = await legacyTree("script");
      const { root, planDir } = tree;
      const run = await runGroup("bash", [path.join(planDir, "migrate.sh"), "--yes"], root.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...root.env, TF: TERRAFORM });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain("The configuration reads legacy data sources (module.waf.data.cloudflare_waf_packages.owasp)");
      const order = ["5: remove", "6: delete", "3: import", "4: plan", "7: plan again"].map((s) => run.stdout.indexOf(s));
      expect(order.every((i) => i >= 0), run.stdout).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(await stateList(root)).toEqual([expect.stringMatching(/^cloudflare_ruleset\./)]);
      expect(moduleFiles(tree)[0]).not.toContain("cloudflare_waf");
      expect((await root.tf("validate")).code).toBe(0);
      await expectCleanPlan(root);
      // A second run finds everything done.
      const again = await runGroup("bash", [path.join(planDir, "migrate.sh"), "--yes"], root.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...root.env, TF: TERRAFORM });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain("is already in state: skipping the import");
    },
    900_000,
  );

  it(
    "two workspaces share the blocks: each run removes its own entries, the last deletes the blocks and imports, the first imports on its rerun",
    async () => {
      const STAGING = "11111111111111111111111111111111";
      const root = h.root("workspaces", { "versions.tf": providerBlock("3.35.0") }, [legacyZone({ id: STAGING }), legacyZone()]);
      mkdirSync(path.join(root.dir, "modules/waf"), { recursive: true });
      root.write("modules/waf/main.tf", SHARED_MODULE);
      root.write("main.tf", `locals {\n  zone = {\n    staging = "${STAGING}"\n    prod    = "${ZONE_ID}"\n  }[terraform.workspace]\n}\n\nmodule "waf" {\n  source  = "./modules/waf"\n  zone_id = local.zone\n}\n`);
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      for (const ws of ["staging", "prod"]) {
        expect((await root.tf("workspace", "new", ws)).code).toBe(0);
        const applied = await root.tf("apply", "-auto-approve", "-input=false");
        expect(applied.code, applied.stderr).toBe(0);
      }
      const started = await startApi(root);
      apis.push(started.api);
      const migrated = await migrateZones(root, started.env, [STAGING, ZONE_ID], "pending");
      // One ruleset per workspace's zone, counted on terraform.workspace (the blocks are shared, the zones not).
      for (const [ws, zone] of [["staging", STAGING], ["prod", ZONE_ID]] as const) {
        expect((await root.tf("workspace", "select", ws)).code).toBe(0);
        const dir = await planMigration(root, ["--ruleset-id", `${zone}=${migrated.ids[zone]}`]);
        root.write(`ruleset-${ws}.tf`, readFileSync(path.join(dir, "ruleset.tf"), "utf8").replace(/^(resource "cloudflare_ruleset" "[^"]+" \{\n)/m, `$1  count = terraform.workspace == "${ws}" ? 1 : 0\n\n`));
      }
      const run = async (ws: string) => {
        const r = await tool(root, ["apply", ".", ...migrated.rulesetIds, "--workspace", ws, "--yes", "--format", "json"]);
        return { code: r.exitCode, report: JSON.parse(r.stdout) as Report & { error: { step: string; message: string } | null } };
      };
      const list = async (ws: string) => (await h.run(root.dir, ["state", "list"], { ...root.env, TF_WORKSPACE: ws })).stdout.trim();

      // The dry run says what --yes will do here, rather than "fix that first".
      const dry = await tool(root, ["apply", ".", ...migrated.rulesetIds, "--workspace", "staging", "--format", "text"]);
      expect(dry.exitCode).toBe(1);
      expect(dry.stdout).toContain("Dry run: nothing was changed. With --yes this state's legacy entries leave its state, and the run stops there (exit 1)");
      expect(dry.stdout).not.toContain("Fix that first");
      expect(await list("staging")).toContain("cloudflare_waf_package");

      const first = await run("staging");
      expect(first.code).toBe(1);
      expect(first.report.steps.map((s) => `${s.name}:${s.status}`)).toEqual(["backup:done", "import:deferred", "state-rm:done", "remove-blocks:skipped"]);
      expect(first.report.error?.message).toContain("the import of the rulesets waits until the legacy blocks are deleted");
      expect(await list("staging")).toBe("");
      expect(root.read("modules/waf/main.tf")).toContain("cloudflare_waf_package");

      const second = await run("prod");
      expect(second.code, JSON.stringify(second.report.error)).toBe(0);
      expect(second.report.steps.map((s) => `${s.name}:${s.status}`)).toEqual(["backup:done", "import:deferred", "state-rm:done", "remove-blocks:done", "import:done", "plan-check:done", "final-plan:done"]);
      expect(root.read("modules/waf/main.tf")).not.toContain("cloudflare_waf");

      const third = await run("staging");
      expect(third.code, JSON.stringify(third.report.error)).toBe(0);
      expect(third.report.steps[1]).toMatchObject({ name: "import", status: "done" });
      expect(await list("staging")).toMatch(/^cloudflare_ruleset\.[a-z0-9_]+\[0\]$/);
      expect(await list("prod")).toMatch(/^cloudflare_ruleset\.[a-z0-9_]+\[0\]$/);
      for (const ws of ["staging", "prod"]) {
        expect((await root.tf("workspace", "select", ws)).code).toBe(0);
        await expectCleanPlan(root);
      }
    },
    900_000,
  );
});
