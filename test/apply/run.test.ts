// runApply through its API, with the fake terraform behind a TerraformCli that tests can wrap: faults
// between steps (a file edited meanwhile, a legacy entry back in state, the second of two imports failing)
// and what each leaves behind.
import { appendFileSync, existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APPLY_STEPS, renderApplyJson, renderApplyText, runApply, type ApplyOptions, type ApplyReport } from "../../src/apply/index.js";
import { createTerraformCli, type TerraformCli } from "../../src/terraform/runner/index.js";
import { FAKE_TERRAFORM } from "../support/workdir.js";
import { BLOG, BLOG_RS, BLOG_RULESET, SHOP, SHOP_RS, calls, hasResource, inconsistency, LEGACY_FILES, legacyInState, prepareWork, REMOVALS, RULESET_IDS, SHOP_RULESET, snapshot, type Work } from "./helpers.js";

type Wrap = (inner: TerraformCli) => TerraformCli;

function options(work: Work, extra: Partial<ApplyOptions> = {}, wrap: Wrap = (c) => c, env: Record<string, string> = {}): ApplyOptions {
  return {
    cwd: work.dir,
    rulesetIds: RULESET_IDS,
    yes: true,
    // The fake on the work's PATH directory: its shell client, answered by this worker's server.
    terraformBin: path.join(work.bin, "terraform"),
    createCli: ({ bin, cwd }) => wrap(createTerraformCli({ bin, cwd, env: { FAKE_TF_LOG: work.log, ...env } })),
    ...extra,
  };
}

/** Calls `after` once a command whose argv starts with `prefix` has run. */
function afterCommand(prefix: string[], after: (args: readonly string[], cwd: string) => Promise<void> | void): Wrap {
  return (inner) => ({
    bin: inner.bin,
    cwd: inner.cwd,
    async run(args, o) {
      const result = await inner.run(args, o);
      if (prefix.every((p, i) => args[i] === p)) await after(args, inner.cwd);
      return result;
    },
  });
}

const statuses = (r: ApplyReport) => r.steps.map((s) => `${s.name}:${s.status}`);

describe("runApply", () => {
  it("a file edited after the edit was computed: nothing is written, state entries are gone (safe), a second run finishes and keeps the change", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const file = path.join(work.dir, "modules/waf/main.tf");
    const wrap = afterCommand(["state", "rm", REMOVALS[0]!], () => appendFileSync(file, "\n# a colleague's note\n"));
    const report = await runApply(options(work, {}, wrap));
    expect(report.exitCode).toBe(1);
    expect(report.error).toMatchObject({ step: "remove-blocks" });
    expect(report.error!.message).toMatch(/^modules\/waf\/main\.tf changed after the edit was computed: no file was edited/);
    expect(legacyInState(work.dir)).toEqual([]);
    // Neither file was written: the other one is untouched too, and no .backup copies exist.
    expect(readFileSync(path.join(work.dir, "waf-rules.tf.json"), "latin1")).toBe(before["waf-rules.tf.json"]);
    expect(readFileSync(file, "utf8")).toBe(before["modules/waf/main.tf"] + "\n# a colleague's note\n");
    for (const f of LEGACY_FILES) expect(existsSync(path.join(work.dir, `${f}.backup`))).toBe(false);
    expect(inconsistency(work.dir, before)).toBeNull();

    const again = await runApply(options(work));
    expect(again.exitCode).toBe(0);
    expect(statuses(again)).toEqual(["backup:done", "import:skipped", "plan-check:done", "state-rm:skipped", "remove-blocks:done", "final-plan:done"]);
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/cloudflare_waf_/);
    expect(text).toContain("# a colleague's note");
  });

  it("refuses to delete blocks while a legacy entry is back in state, and edits nothing", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    // Something puts a legacy resource back between the removal and the edit.
    const wrap = afterCommand(["state", "rm", REMOVALS[0]!], async (_args, cwd) => {
      const { execa } = await import("execa");
      await execa("node", [FAKE_TERRAFORM, "import", 'module.waf["shop"].cloudflare_waf_package.owasp', `zone/${SHOP}/a25a9a7e9c00afc1fb2e0245519d725b`], { cwd });
    });
    const report = await runApply(options(work, {}, wrap));
    expect(report.exitCode).toBe(1);
    expect(report.error?.step).toBe("remove-blocks");
    expect(report.error?.message).toContain('the state still holds module.waf["shop"].cloudflare_waf_package.owasp');
    for (const f of LEGACY_FILES) expect(readFileSync(path.join(work.dir, f), "latin1")).toBe(before[f]);
    expect(inconsistency(work.dir, before)).toBeNull();

    // The next run removes it (dry run first) and finishes.
    const again = await runApply(options(work));
    expect(again.error).toBeNull();
    expect(again.exitCode).toBe(0);
    expect(again.steps[3]!.commands).toEqual([
      `${path.join(work.bin, "terraform")} state rm -dry-run 'module.waf["shop"].cloudflare_waf_package.owasp'`,
      `${path.join(work.bin, "terraform")} state rm 'module.waf["shop"].cloudflare_waf_package.owasp'`,
    ]);
    expect(legacyInState(work.dir)).toEqual([]);
  });

  it("the second of two imports fails: the first stays imported, the next run imports only the second", async () => {
    const work = await prepareWork();
    let imports = 0;
    const failSecond: Wrap = (inner) => ({
      bin: inner.bin,
      cwd: inner.cwd,
      run(args, o) {
        if (args[0] === "import" && ++imports === 2) return inner.run(["import", "-no-such-flag"], o);
        return inner.run(args, o);
      },
    });
    const report = await runApply(options(work, {}, failSecond));
    expect(report.exitCode).toBe(1);
    expect(report.error?.step).toBe("import");
    expect(hasResource(work.dir, "cloudflare_ruleset", "waf_managed_shop_example_com")).toBe(true);
    expect(hasResource(work.dir, "cloudflare_ruleset", "waf_managed_blog_example_org")).toBe(false);
    expect(legacyInState(work.dir)).toHaveLength(10);

    const again = await runApply(options(work));
    expect(again.exitCode).toBe(0);
    expect(again.steps[1]!.detail).toContain(`${SHOP_RULESET} is already in state`);
    expect(again.steps[1]!.detail).toContain(`imported ${BLOG_RULESET}`);
    expect(again.steps[1]!.commands).toHaveLength(1);
  });

  it("a dry run through the API runs read-only commands only and writes nothing", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const report = await runApply(options(work, { yes: false }));
    expect(report.exitCode).toBe(0);
    expect(report.dryRun).toBe(true);
    expect(report.backup).toBeNull();
    expect(statuses(report)).toEqual(APPLY_STEPS.map((s) => `${s.name}:would-run`));
    expect(snapshot(work.dir)).toEqual(before);
    expect(calls(work).map((c) => c.slice(0, c[0] === "state" ? 2 : c[0] === "-chdir=." ? 3 : 1).join(" "))).toEqual(["version", "state pull", "state list", "-chdir=. workspace list", "state rm"]);
    expect(calls(work)[4]![2]).toBe("-dry-run");
  });

  it("a resumed run after the state removal: the module's zones still resolve (through for_each and state) to the imported rulesets", async () => {
    const work = await prepareWork();
    const { execa } = await import("execa");
    for (const [to, id] of [
      [SHOP_RULESET, `zone/${SHOP}/${SHOP_RS}`],
      [BLOG_RULESET, `zone/${BLOG}/${BLOG_RS}`],
    ]) {
      await execa("node", [FAKE_TERRAFORM, "import", to!, id!], { cwd: work.dir });
    }
    await execa("node", [FAKE_TERRAFORM, "state", "rm", ...REMOVALS], { cwd: work.dir });
    // No --ruleset-id now: both rulesets are in state, so their ids are not needed.
    const report = await runApply(options(work, { rulesetIds: {} }));
    expect(report.exitCode).toBe(0);
    expect(report.steps[1]!.status).toBe("skipped");
    // The legacy resources are config-only now; their zone_id (module input each.value.zone_id =
    // cloudflare_zone.shop.id) still names the zone state holds, so no zone is left known only by an expression.
    expect(report.steps[1]!.detail).toBe(`${SHOP_RULESET} is already in state\n${BLOG_RULESET} is already in state`);
    expect(report.steps[3]!.status).toBe("skipped");
    expect(report.steps[4]!.status).toBe("done");
    expect(readFileSync(path.join(work.dir, "modules/waf/main.tf"), "utf8")).not.toMatch(/cloudflare_waf_/);
  });

  it("two runs in the same second keep both backups", async () => {
    const work = await prepareWork();
    const now = () => new Date("2025-06-14T10:15:03.250Z");
    expect((await runApply(options(work, { now }))).backup).toBe(".cf-waf-migrate/state-20250614T101503Z.json");
    expect((await runApply(options(work, { now }))).backup).toBe(".cf-waf-migrate/state-20250614T101503Z-1.json");
    expect(readdirSync(path.join(work.dir, ".cf-waf-migrate")).sort()).toEqual(["state-20250614T101503Z-1.json", "state-20250614T101503Z.json"]);
  });

  it("renders a stopped run as text and JSON", async () => {
    const work = await prepareWork();
    const report = await runApply(options(work, {}, (c) => c, { FAKE_TF_FAIL_ON: "plan" }));
    const text = renderApplyText(report);
    expect(text).toMatch(/^cf-waf-migrate apply\n/);
    expect(text).toContain("✓ 1. Back up the state\n");
    expect(text).toContain("✗ 3. Check that the imported rulesets match the configuration (failed)\n");
    expect(text).toContain("Injected failure");
    expect(text).toContain("Not run: 4. state-rm, 5. remove-blocks, 6. final-plan");
    expect(text).toContain("Run the same command again to continue");
    const json = JSON.parse(renderApplyJson(report));
    expect(Object.keys(json)).toEqual(["schemaVersion", "dryRun", "terraform", "chdir", "preflight", "steps", "backup", "error", "rehearsal", "exitCode"]);
    expect(json.steps.map((s: { status: string }) => s.status)).toEqual(["done", "done", "failed"]);
    expect(Object.keys(json.steps[0])).toEqual(["number", "name", "title", "status", "commands", "detail"]);
  });
});
