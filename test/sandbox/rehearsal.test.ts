// `apply` without --yes rehearses steps 3-7 for real on a throwaway copy: a legacy root applied on provider
// 3.35.0 (a non-default local backend path), its zone migrated on the simulated service, ruleset.tf in
// place; the dry run imports, removes, plans on the copy with the installed providers and reports the final
// plan, while every byte of the real root, its state, its data directory and the account stays the same.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedProviders, rehearse, type ApplyContext } from "../../dist/apply/index.js";
import { equivalentConfig, migrate } from "../../dist/sandbox/api/migration.js";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { legacyZone, OWASP_PACKAGE, type Root, TERRAFORM, TerraformHarness, ZONE_ID } from "./harness.js";

const VERSIONS = `terraform {
  required_version = ">= 1.5"

  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "3.35.0"
    }
  }

  backend "local" {
    path = "state/prod.tfstate"
  }
}

provider "cloudflare" {}
`;

const WAF = `resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "block"
}
`;

/** sha256 of every file under the directories, by path. */
function hashes(...dirs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out[p] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return out;
}

let h: TerraformHarness;
let root: Root;
let rulesetId: string;

beforeAll(async () => {
  h = new TerraformHarness(["3.35.0"], TERRAFORM, { reattach: true });
  root = h.root("rehearsal", { "versions.tf": VERSIONS, "waf.tf": WAF }, [legacyZone()]);
  expect((await root.tf("init", "-input=false")).code).toBe(0);
  const applied = await root.tf("apply", "-auto-approve", "-input=false");
  expect(applied.code, applied.stderr).toBe(0);
  // The zone migrates on the service (pending): its entry point ruleset is the equivalent configuration.
  let config: unknown;
  root.editAccount((a) => {
    const zone = a.zones[ZONE_ID]!;
    config = equivalentConfig(zone);
    rulesetId = migrate(zone, "pending", config).id;
  });
  const out = tempDir("cfwm-rehearsal-plan-");
  const configFile = path.join(out, "config.json");
  writeFileSync(configFile, JSON.stringify({ result: config, success: true, errors: [], messages: [] }));
  const plan = await runCli(["plan", ".", "--config-json", `${ZONE_ID}=${configFile}`, "--ruleset-id", `${ZONE_ID}=${rulesetId}`, "--out-dir", path.join(out, "plan"), "--format", "json"], {
    cwd: root.dir,
    env: root.env,
  });
  expect(plan.exitCode, plan.stderr).toBe(0);
  root.write("ruleset.tf", readFileSync(path.join(out, "plan", "ruleset.tf"), "utf8"));
}, 300_000);
afterAll(() => h?.teardown());

async function dryRun(extra: string[] = [], env: Record<string, string> = root.env) {
  const r = await runCli(["apply", ".", "--ruleset-id", `${ZONE_ID}=${rulesetId}`, "--format", "json", ...extra], { cwd: root.dir, env });
  return { r, report: JSON.parse(r.stdout) };
}

describe("apply's dry run rehearses steps 3-7 on a throwaway copy", () => {
  it(
    "imports, removes and plans on the copy with the installed providers; the final plan is clean; real files, state, data dir and account untouched",
    async () => {
      const watched = [root.dir, root.env.TF_DATA_DIR!, root.accountDir];
      const before = hashes(...watched);
      expect(Object.keys(before).some((f) => f.endsWith("state/prod.tfstate"))).toBe(true);
      const { r, report } = await dryRun();
      expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      expect(report.dryRun).toBe(true);
      const reh = report.rehearsal;
      expect(reh.status, JSON.stringify(reh, null, 2)).toBe("passed");
      expect(reh.setup[0]).toMatch(/^terraform init -input=false -no-color '?-plugin-dir=/);
      expect(reh.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual(["import:done", "plan-check:done", "state-rm:done", "remove-blocks:done", "final-plan:done"]);
      expect(reh.steps[0].detail).toContain(`imported cloudflare_ruleset.`);
      expect(reh.steps[2].detail).toContain("cloudflare_waf_package.owasp");
      expect(reh.steps[4].detail).toContain("no changes");
      // The real run's steps stayed a dry run.
      expect(report.steps.map((s: { status: string }) => s.status)).not.toContain("done");
      expect(hashes(...watched)).toEqual(before);
      // The legacy setting in the account is still the applied one (nothing destroyed, nothing reset).
      expect(root.account().zones[ZONE_ID]!.waf!.packages.find((p) => p.id === OWASP_PACKAGE)!.sensitivity).toBe("low");
    },
    300_000,
  );

  it(
    "the text report shows the rehearsal; --no-rehearsal keeps the dry run read-only",
    async () => {
      const text = await runCli(["apply", ".", "--ruleset-id", `${ZONE_ID}=${rulesetId}`], { cwd: root.dir, env: root.env });
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toContain("✓ Rehearsal passed: steps 3-7 on a throwaway copy of the root");
      const { r, report } = await dryRun(["--no-rehearsal"]);
      expect(r.exitCode).toBe(0);
      expect(report.rehearsal).toBeNull();
    },
    300_000,
  );

  it(
    "a ruleset that differs from the live one: the rehearsal stops at the plan check, as the real run would; the dry run exits 1 and nothing real changed",
    async () => {
      const ruleset = root.read("ruleset.tf");
      const edited = ruleset.replace(/description = "[^"]*"/, 'description = "edited by hand"');
      expect(edited).not.toBe(ruleset);
      root.write("ruleset.tf", edited);
      try {
        const before = hashes(root.dir, root.env.TF_DATA_DIR!, root.accountDir);
        const { r, report } = await dryRun();
        expect(r.exitCode).toBe(1);
        expect(report.rehearsal.status).toBe("failed");
        expect(report.rehearsal.detail).toContain('the rehearsal stopped at "Check that the imported rulesets match the configuration"');
        const check = report.rehearsal.steps.find((s: { name: string }) => s.name === "plan-check");
        expect(check.status).toBe("failed");
        expect(check.detail).toContain("edited by hand");
        expect(hashes(root.dir, root.env.TF_DATA_DIR!, root.accountDir)).toEqual(before);
      } finally {
        root.write("ruleset.tf", ruleset);
      }
    },
    300_000,
  );

  it("providers not installed (neither in the data directory nor in TF_PLUGIN_CACHE_DIR): it says so and runs nothing", async () => {
    const dir = tempDir("cfwm-no-providers-");
    const ran: string[] = [];
    const ctx = { chdir: dir, terraform: { flavor: "terraform", version: "1.11.0" }, cli: { bin: "terraform" } } as unknown as ApplyContext;
    const report = await rehearse(ctx, {
      env: { TF_PLUGIN_CACHE_DIR: tempDir("cfwm-empty-cache-") },
      makeCli: () => {
        ran.push("cli");
        throw new Error("no terraform may run");
      },
    });
    expect(report.status).toBe("skipped");
    expect(report.detail).toContain("the root's providers are not installed (no .terraform/providers, nothing in TF_PLUGIN_CACHE_DIR)");
    expect(report.detail).toContain("This dry run is read-only");
    expect(ran).toEqual([]);
    // With the root's providers in the plugin cache instead, they are found there.
    expect(installedProviders(dir, { TF_PLUGIN_CACHE_DIR: root.env.TF_PLUGIN_CACHE_DIR! })).toBe(root.env.TF_PLUGIN_CACHE_DIR);
  });
});
