// A module called by two roots (live/prod and live/dev), planned for live/prod alone: step 6 deletes the
// module's legacy block, which live/dev's state still instantiates. migrate.sh must read live/dev's state
// before step 6 and keep the block until live/dev has migrated, or live/dev's next apply would destroy its
// legacy package and reset that zone's live WAF. Real terraform does workspace/state list and state rm;
// import and plan are stubbed (test/support/real-terraform.sh).
import { execa } from "execa";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";
import { legacyInState, REAL_TERRAFORM, runScript, snapshot, tfEnv, type Copy } from "./helpers.js";

const PROD_ZONE = "3f1bc18efe333337886cd2d0f6fa0000";
const MODULE = "modules/waf/main.tf";

describe("a module shared by two roots, planned for one of them", { timeout: 300_000 }, () => {
  it("migrate.sh keeps the module's blocks while the other root's state holds a legacy instance, and deletes them once it does not", async () => {
    const top = copyFixture("shared-module-one-root");
    const prod = path.join(top, "live/prod");
    const dev = path.join(top, "live/dev");
    for (const root of [prod, dev]) expect((await execa(REAL_TERRAFORM, ["get"], { cwd: root, env: tfEnv(), reject: false })).exitCode).toBe(0);
    const copy: Copy = { top, root: prod, before: snapshot(top) };

    const out = tempDir("cfwm-plan-");
    const plan = await runCli(["plan", ".", "--state", "terraform.tfstate", "--ruleset-id", `${PROD_ZONE}=6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7`, "--out-dir", out, "--format", "json"], { cwd: prod });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(readFileSync(path.join(out, "PLAN.md"), "utf8")).toContain("is also called by other root module(s): ../dev");

    const first = await runScript(copy, out);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("../dev (workspace default)");
    expect(first.stdout).toContain("stopping before step 6");
    // This root's instances are gone; the shared block stays, for live/dev's state.
    expect(await legacyInState(prod)).toEqual([]);
    expect(readFileSync(path.join(top, MODULE), "utf8")).toBe(copy.before[MODULE]);
    expect(await legacyInState(dev)).toEqual(["module.waf.cloudflare_waf_package.owasp[0]"]);

    // live/dev migrates (its state entry leaves); the same script now deletes the block.
    expect((await execa(REAL_TERRAFORM, ["state", "rm", "module.waf.cloudflare_waf_package.owasp[0]"], { cwd: dev, env: tfEnv(), reject: false })).exitCode).toBe(0);
    const second = await runScript(copy, out);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("deleted the legacy blocks");
    expect(readFileSync(path.join(top, MODULE), "utf8")).not.toContain("cloudflare_waf_package");
  });
});
