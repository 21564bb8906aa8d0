// Shared by kills-before.test.ts and kills-after.test.ts (two files, so vitest runs them side by side).
// A SIGKILL of the whole process group (the tool, terraform, the provider plugins) before every terraform
// command `apply --yes` runs, and after those the tool's own work follows (the last state rm, the last
// command), with the real terraform and the double: after each kill the state holds every legacy instance
// with every block in place, or none of them; the rerun finishes, and `terraform plan -detailed-exitcode`
// returns 0. Each kill point starts from the same snapshot of the root,
// its data directory and the simulated account (the setup runs terraform once, not once per kill).
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGroup } from "../e2e/helpers.js";
import { BIN, ROOT } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { rerunOnce, treeDigest } from "../support/world-digest.js";
import { expectCleanPlan, initAndApply, legacyZone, PACKAGE_AND_GROUP, placeRuleset, planMigration, providerBlock, newHarness, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";
import { equivalentConfig, migrate } from "../../dist/sandbox/api/migration.js";

const KILLER = path.join(ROOT, "test/double/kill-terraform.sh");

const WAF = PACKAGE_AND_GROUP;

let h: TerraformHarness;
let root: Root;
let rulesetId: string;
let snapshot: string;
let watched: string[];

function save(): void {
  for (const d of watched) cpSync(d, path.join(snapshot, path.basename(d)), { recursive: true, verbatimSymlinks: true });
}
function restore(): void {
  for (const d of watched) {
    rmSync(d, { recursive: true, force: true });
    cpSync(path.join(snapshot, path.basename(d)), d, { recursive: true, verbatimSymlinks: true });
  }
}

async function legacyInState(): Promise<string[]> {
  const list = await root.tf("state", "list");
  expect(list.code, list.stderr).toBe(0);
  return list.stdout.split("\n").filter((a) => a.startsWith("cloudflare_waf_"));
}

function applyYes(env: Record<string, string> = {}) {
  return runGroup("node", [BIN, "apply", ".", "--ruleset-id", `${ZONE_ID}=${rulesetId}`, "--terraform-bin", KILLER, "--yes", "--format", "json"], root.dir, {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: h.base,
    NO_COLOR: "1",
    ...root.env,
    ...env,
  });
}

async function setup(): Promise<void> {
  h = newHarness(["3.35.0"]);
  root = h.root("kills", { "versions.tf": providerBlock("3.35.0"), "waf.tf": WAF }, [legacyZone()]);
  await initAndApply(root);
  let config: unknown;
  root.editAccount((a) => {
    const zone = a.zones[ZONE_ID]!;
    config = equivalentConfig(zone);
    rulesetId = migrate(zone, "pending", config).id;
  });
  const configFile = path.join(tempDir("cfwm-kills-config-"), "config.json");
  writeFileSync(configFile, JSON.stringify({ result: config, success: true, errors: [], messages: [] }));
  placeRuleset(root, await planMigration(root, ["--config-json", `${ZONE_ID}=${configFile}`, "--ruleset-id", `${ZONE_ID}=${rulesetId}`]));
  watched = [root.dir, root.env.TF_DATA_DIR!, root.accountDir];
  snapshot = tempDir("cfwm-kills-snapshot-");
  save();
}

/** Registers the file's suite: a kill `when` each terraform command of a whole `apply --yes`, then a rerun. */
export function killAtEveryCommand(when: "before" | "after"): void {
  beforeAll(setup, 600_000);
  afterAll(() => h?.teardown());
  describe(`a kill ${when} every terraform command of apply --yes, then a rerun`, () => {
    it(
      "each kill leaves all legacy instances in state with their blocks, or none; every rerun finishes with a clean plan",
      async () => {
        const counter = path.join(tempDir("cfwm-kills-count-"), "n");
        const argv = path.join(tempDir("cfwm-kills-argv-"), "log");
        const whole = await applyYes({ TF_COUNTER: counter, TF_ARGV_LOG: argv });
        expect(whole.code, whole.stdout + whole.stderr).toBe(0);
        const n = Number(readFileSync(counter, "utf8").trim());
        const commands = readFileSync(argv, "utf8").trim().split("\n");
        expect(commands.length).toBe(n);
        expect(commands.some((c) => c.startsWith("import "))).toBe(true);
        expect(commands.some((c) => c.startsWith("state rm "))).toBe(true);
        // "after command k" is "before command k+1" unless the tool does work of its own in between: it
        // edits the .tf files after the last `state rm`, and nothing follows the last command.
        const points = Array.from({ length: n }, (_, i) => i + 1).filter(
          (k) => when === "before" || k === n || (commands[k - 1]!.startsWith("state rm ") && !commands[k]!.startsWith("state rm ")),
        );
        expect(points.length).toBeGreaterThan(when === "before" ? 5 : 1);
        const firstTime = rerunOnce();
        for (const k of points) {
          {
            restore();
            const label = `kill ${when} terraform command ${k} of ${n}`;
            const killed = await applyYes({ TF_COUNTER: path.join(tempDir("cfwm-kills-count-"), "n"), TF_KILL_AT: String(k), TF_KILL_WHEN: when });
            expect(killed.signal, label).toBe("SIGKILL");
            const left = await legacyInState();
            const blocks = root.read("waf.tf").match(/resource "cloudflare_waf_/g)?.length ?? 0;
            // All or nothing: instances in state only with their blocks in place.
            expect([left.length === 2 && blocks === 2, left.length === 0].includes(true), `${label}: state ${left.join(", ")}; ${blocks} blocks`).toBe(true);
            if (!firstTime(treeDigest(watched))) continue;
            const again = await applyYes();
            expect(again.code, `${label}, rerun: ${again.stdout}${again.stderr}`).toBe(0);
            // The rerun's own last step is `terraform plan -detailed-exitcode` over the root: it returned 0.
            const final = JSON.parse(again.stdout).steps.find((s: { name: string }) => s.name === "final-plan");
            expect(final.status, label).toBe("done");
            expect(final.detail, label).toContain("no changes");
            expect(root.read("waf.tf"), label).not.toContain("cloudflare_waf_");
          }
        }
        expect(await legacyInState()).toEqual([]);
        await expectCleanPlan(root);
      },
      1_800_000,
    );
  });
}
