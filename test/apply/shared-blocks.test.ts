// Step 5 deletes legacy blocks for every state that instantiates them. `apply --yes` must keep them while
// another workspace of the root, or another root calling the same module, still holds legacy instances
// (their next apply would destroy them, resetting the live WAF), and delete them once nobody does.
// Through the built CLI against the fake terraform, which keeps workspaces the local backend's way.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { calls, envFor, IDS, LEGACY_FILES, legacyInState, prepareWork, snapshot, type Work } from "./helpers.js";

interface ApplyJson {
  exitCode: number;
  steps: { name: string; status: string; detail: string }[];
  keptBlocks?: { reason: string; sharedFiles: string[]; callers: string[]; holders: string[]; unreadable: string[] };
}

async function applyJson(work: Work, cwd: string, args: string[]): Promise<ApplyJson> {
  const r = await runCli(["apply", ...args, "--format", "json"], { cwd, env: envFor(work) });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as ApplyJson;
}

const status = (report: ApplyJson, name: string) => report.steps.find((s) => s.name === name)?.status;

describe("apply keeps legacy blocks other states still hold", () => {
  it("another workspace of the root: steps 2-4 run, the blocks stay until that workspace has migrated too", async () => {
    const work = await prepareWork();
    // Workspace `staging` of the same root still holds every legacy instance (it has not migrated yet).
    const staging = path.join(work.dir, "terraform.tfstate.d", "staging");
    mkdirSync(staging, { recursive: true });
    cpSync(path.join(work.dir, "terraform.tfstate"), path.join(staging, "terraform.tfstate"));
    const before = snapshot(work.dir);

    const first = await applyJson(work, work.dir, [...IDS, "--yes"]);
    expect(first.exitCode).toBe(0);
    expect(legacyInState(work.dir)).toEqual([]);
    expect(status(first, "remove-blocks")).toBe("skipped");
    expect(status(first, "final-plan")).toBe("skipped");
    expect(first.keptBlocks?.holders).toEqual([expect.stringMatching(/^\. \(workspace staging\): \d+ legacy instances \(/)]);
    expect(first.steps.find((s) => s.name === "remove-blocks")!.detail).toContain("the legacy blocks are kept");
    for (const f of LEGACY_FILES) expect(snapshot(work.dir)[f]).toBe(before[f]);
    // Nothing but a read ran in staging: `state pull` with TF_WORKSPACE=staging, never a change.
    expect(calls(work).filter((c) => c.includes("workspace") || c.includes("pull")).map((c) => c.join(" "))).toEqual(["state pull", "-chdir=. workspace list", "-chdir=. state pull"]);

    // Staging migrates (its legacy entries leave its state): the same command now deletes the blocks.
    const stagingState = JSON.parse(readFileSync(path.join(staging, "terraform.tfstate"), "utf8")) as { resources: { type: string }[] };
    stagingState.resources = stagingState.resources.filter((r) => !/^cloudflare_waf_/.test(r.type));
    writeFileSync(path.join(staging, "terraform.tfstate"), JSON.stringify(stagingState));
    const second = await applyJson(work, work.dir, [...IDS, "--yes"]);
    expect(second.exitCode).toBe(0);
    expect(second.keptBlocks).toBeUndefined();
    expect(status(second, "remove-blocks")).toBe("done");
    expect(status(second, "final-plan")).toBe("done");
    expect(readFileSync(path.join(work.dir, "modules/waf/main.tf"), "utf8")).not.toMatch(/cloudflare_waf_/);
  });

  it("the text summary of a run that kept the blocks does not claim a clean final plan (none ran)", async () => {
    const work = await prepareWork();
    const staging = path.join(work.dir, "terraform.tfstate.d", "staging");
    mkdirSync(staging, { recursive: true });
    cpSync(path.join(work.dir, "terraform.tfstate"), path.join(staging, "terraform.tfstate"));
    const r = await runCli(["apply", ...IDS, "--yes", "--format", "text"], { cwd: work.dir, env: envFor(work) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("the plan shows no changes");
    expect(r.stdout).toContain("Done for this state: the rulesets are imported and the legacy resources are out of its state.");
    expect(r.stdout).toMatch(/The legacy blocks are kept \(other states still hold them: \. \(workspace staging\): \d+ legacy instances \(.*\), so no final plan ran\. Migrate those, then run the same command again/);
  });

  it("another root calling the module: kept while its state holds legacy instances; --remove-shared-blocks overrides", async () => {
    const work = await prepareWork();
    // One repository: this root under app/, and edge/ calling app's module with its own state.
    const repo = tempDir();
    mkdirSync(path.join(repo, ".git"));
    const app = path.join(repo, "app");
    cpSync(work.dir, app, { recursive: true });
    rmSync(work.dir, { recursive: true, force: true });
    const edge = path.join(repo, "edge");
    mkdirSync(edge);
    writeFileSync(
      path.join(edge, "main.tf"),
      [
        'module "edge_waf" {',
        '  source      = "../app/modules/waf"',
        '  zone_id     = "11111111111111111111111111111111"',
        '  sensitivity = "high"',
        '  action_mode = "block"',
        "}",
        "",
      ].join("\n"),
    );
    const legacyInstance = {
      module: "module.edge_waf",
      mode: "managed",
      type: "cloudflare_waf_package",
      name: "owasp",
      provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: [{ schema_version: 0, attributes: { id: "pkg", zone_id: "11111111111111111111111111111111" } }],
    };
    const edgeState = { version: 4, terraform_version: "1.11.0", serial: 1, lineage: "edge", outputs: {}, resources: [legacyInstance] };
    writeFileSync(path.join(edge, "terraform.tfstate"), JSON.stringify(edgeState));
    const moved: Work = { ...work, dir: app };

    const kept = await applyJson(moved, app, [...IDS, "--yes"]);
    expect(kept.exitCode).toBe(0);
    expect(kept.keptBlocks).toMatchObject({ sharedFiles: ["modules/waf/main.tf"], callers: ["../edge"], unreadable: [] });
    expect(kept.keptBlocks!.holders).toEqual(["../edge: 1 legacy instance (module.edge_waf.cloudflare_waf_package.owasp)"]);
    expect(readFileSync(path.join(app, "modules/waf/main.tf"), "utf8")).toMatch(/cloudflare_waf_package/);
    expect(legacyInState(app)).toEqual([]);

    // The user knows better (edge is being decommissioned): the flag deletes the blocks now.
    const forced = await applyJson(moved, app, [...IDS, "--yes", "--remove-shared-blocks"]);
    expect(forced.exitCode).toBe(0);
    expect(status(forced, "remove-blocks")).toBe("done");
    expect(readFileSync(path.join(app, "modules/waf/main.tf"), "utf8")).not.toMatch(/cloudflare_waf_/);
  });
});
