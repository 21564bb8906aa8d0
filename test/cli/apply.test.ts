// End-to-end: `cf-waf-migrate apply` through the built CLI against the fake terraform (on PATH, or named
// with --terraform-bin): exact argv and order, the backup, dry run, failures at each step and resuming.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { FAKE_TERRAFORM } from "../support/workdir.js";
import {
  BLOG,
  BLOG_RS,
  BLOG_RULESET,
  calls,
  envFor,
  hasResource,
  IDS,
  inconsistency,
  LEGACY_FILES,
  legacyInState,
  prepareWork,
  readState,
  REMOVALS,
  SHOP,
  SHOP_RS,
  SHOP_RULESET,
  snapshot,
  type Work,
} from "../apply/helpers.js";

const READ_ONLY = new Set(["version", "state list", "state pull", "state rm -dry-run", "workspace list"]);
const kind = (full: string[]) => {
  const argv = full[0]?.startsWith("-chdir=") ? full.slice(1) : full;
  if (argv[0] === "workspace") return `workspace ${argv[1]}`;
  return argv[0] === "state" ? (argv[1] === "rm" && argv[2] === "-dry-run" ? "state rm -dry-run" : `state ${argv[1]}`) : argv[0]!;
};

async function apply(work: Work, args: string[], env: Record<string, string> = {}) {
  return runCli(["apply", ...args], { cwd: work.dir, env: envFor(work, env) });
}

async function applyJson(work: Work, args: string[], env: Record<string, string> = {}) {
  const r = await apply(work, [...args, "--format", "json"], env);
  return { ...r, report: JSON.parse(r.stdout) };
}

describe("cf-waf-migrate apply", () => {
  it("a real run: exact argv in order, the backup equals the state before, blocks deleted after state rm", async () => {
    const work = await prepareWork();
    const stateBefore = readFileSync(path.join(work.dir, "terraform.tfstate"));
    const r = await apply(work, [...IDS, "--yes"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);

    const plan = ["plan", "-detailed-exitcode", "-refresh=false", "-input=false", "-no-color"];
    expect(calls(work)).toEqual([
      ["version", "-json"],
      ["state", "pull"],
      ["state", "list"],
      // Does another workspace still hold the legacy blocks? (read-only; shared-blocks.ts)
      ["-chdir=.", "workspace", "list"],
      ["import", "-input=false", "-no-color", SHOP_RULESET, `zone/${SHOP}/${SHOP_RS}`],
      ["import", "-input=false", "-no-color", BLOG_RULESET, `zone/${BLOG}/${BLOG_RS}`],
      [...plan, `-target=${SHOP_RULESET}`, `-target=${BLOG_RULESET}`],
      ["state", "rm", "-dry-run", ...REMOVALS],
      ["state", "rm", ...REMOVALS],
      ["state", "list"],
      // The final plan is saved next to the backup (applied from there when it changes root outputs only).
      [...plan, expect.stringMatching(/^-out=\.cf-waf-migrate\/final-\d{8}T\d{6}Z\.tfplan$/)],
    ]);

    // The backup is `state pull` output byte for byte, i.e. the state file before the run.
    const backups = readdirSync(path.join(work.dir, ".cf-waf-migrate"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^state-\d{8}T\d{6}Z\.json$/);
    expect(readFileSync(path.join(work.dir, ".cf-waf-migrate", backups[0]!)).equals(stateBefore)).toBe(true);
    expect(r.stdout).toContain(`State backup (before this run): .cf-waf-migrate/${backups[0]}`);

    expect(legacyInState(work.dir)).toEqual([]);
    expect(hasResource(work.dir, "cloudflare_ruleset", "waf_managed_shop_example_com")).toBe(true);
    expect(hasResource(work.dir, "cloudflare_ruleset", "waf_managed_blog_example_org")).toBe(true);
    // The edit is the plan's patch: the files equal the originals with the patch applied, plus .backup copies.
    expect(readFileSync(path.join(work.dir, "modules/waf/main.tf"), "utf8")).not.toMatch(/cloudflare_waf_/);
    expect(JSON.parse(readFileSync(path.join(work.dir, "waf-rules.tf.json"), "utf8")).resource).toBeUndefined();
    for (const f of LEGACY_FILES) expect(readFileSync(path.join(work.dir, `${f}.backup`), "utf8")).toMatch(/cloudflare_waf_rule/);
    expect(r.stdout).toMatch(/✓ 6\. Plan again, expecting no changes\n/);
    expect(r.stdout).toContain("Done: the legacy WAF resources are migrated");
  });

  it("a second run after success detects everything as done: no import, no state rm, no edit", async () => {
    const work = await prepareWork();
    expect((await apply(work, [...IDS, "--yes"])).exitCode).toBe(0);
    const files = snapshot(work.dir);
    writeFileSync(work.log, "");
    const again = await applyJson(work, [...IDS, "--yes"]);
    expect(again.exitCode).toBe(0);
    expect(again.report.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      "backup:done",
      "import:skipped",
      "plan-check:done",
      "state-rm:skipped",
      "remove-blocks:skipped",
      "final-plan:done",
    ]);
    expect(calls(work).some((c) => c[0] === "import" || c[1] === "rm")).toBe(false);
    const after = snapshot(work.dir);
    const changed = Object.keys(after).filter((f) => after[f] !== files[f]);
    // Only a second backup appeared.
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^\.cf-waf-migrate\/state-/);
  });

  it("dry run (no --yes): only read-only commands, every file byte-identical, no backup directory", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const r = await apply(work, IDS);
    expect(r.exitCode).toBe(0);
    expect(snapshot(work.dir)).toEqual(before);
    expect(existsSync(path.join(work.dir, ".cf-waf-migrate"))).toBe(false);
    const seen = calls(work).map(kind);
    expect(seen).toEqual(["version", "state pull", "state list", "workspace list", "state rm -dry-run"]);
    expect(seen.every((k) => READ_ONLY.has(k))).toBe(true);
    expect(r.stdout).toContain("dry run, nothing is changed");
    expect(r.stdout).toContain(`→ 2. Import the entry point rulesets (would run)`);
    expect(r.stdout).toContain(`would run: terraform import -input=false -no-color ${SHOP_RULESET} zone/${SHOP}/${SHOP_RS}`);
    expect(r.stdout).toContain(`$ terraform state rm -dry-run cloudflare_waf_group.retired`);
    expect(r.stdout).toContain(`Would remove module.waf["shop"].data.cloudflare_waf_packages.owasp`);
    // The unified diff of the edit.
    expect(r.stdout).toContain("--- a/modules/waf/main.tf\n");
    expect(r.stdout).toContain('-resource "cloudflare_waf_package" "owasp" {');
    expect(r.stdout).toContain("Dry run: nothing was changed.");
  });

  it("--format json: schemaVersion 1, terraform detected, steps with status and commands", async () => {
    const work = await prepareWork();
    const { report, exitCode } = await applyJson(work, IDS);
    expect(exitCode).toBe(0);
    expect(report).toMatchObject({ schemaVersion: 1, dryRun: true, terraform: { flavor: "terraform", version: "1.11.0" }, backup: null, error: null, exitCode: 0 });
    expect(report.steps.map((s: { number: number; name: string; status: string }) => [s.number, s.name, s.status])).toEqual([
      [1, "backup", "would-run"],
      [2, "import", "would-run"],
      [3, "plan-check", "would-run"],
      [4, "state-rm", "would-run"],
      [5, "remove-blocks", "would-run"],
      [6, "final-plan", "would-run"],
    ]);
    const rm = report.steps[3];
    expect(rm.commands[0]).toMatch(/^terraform state rm -dry-run /);
    expect(rm.commands[1]).toMatch(/^terraform state rm cloudflare_waf_group\.retired /);
    expect(rm.commands[1]).toContain(`'module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]'`);
    expect(report.preflight.commands).toEqual(["terraform version -json", "terraform state pull", "terraform state list", "terraform -chdir=. workspace list"]);
  });

  it.each([
    { fault: "import", stopsAt: "import" },
    { fault: "plan", stopsAt: "plan-check" },
    { fault: "state rm", stopsAt: "state-rm" },
  ])("FAKE_TF_FAIL_ON=$fault stops at $stopsAt with state and files consistent; a second run resumes and finishes", async ({ fault, stopsAt }) => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const failed = await applyJson(work, [...IDS, "--yes"], { FAKE_TF_FAIL_ON: fault });
    expect(failed.exitCode).toBe(1);
    expect(failed.report.error.step).toBe(stopsAt);
    expect(failed.report.error.message).toContain("Injected failure");
    expect(failed.report.steps.at(-1)).toMatchObject({ name: stopsAt, status: "failed" });
    expect(failed.report.backup).toMatch(/^\.cf-waf-migrate\/state-.*\.json$/);
    // Nothing after the failing step ran; the legacy entries and blocks are all still there.
    expect(legacyInState(work.dir)).toHaveLength(10);
    for (const f of LEGACY_FILES) expect(readFileSync(path.join(work.dir, f), "latin1")).toBe(before[f]);
    expect(inconsistency(work.dir, before)).toBeNull();
    if (fault === "import") expect(readFileSync(path.join(work.dir, "terraform.tfstate"), "latin1")).toBe(before["terraform.tfstate"]);
    else expect(hasResource(work.dir, "cloudflare_ruleset", "waf_managed_shop_example_com")).toBe(true);

    writeFileSync(work.log, "");
    const resumed = await applyJson(work, [...IDS, "--yes"]);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.report.error).toBeNull();
    expect(resumed.report.steps.find((s: { name: string }) => s.name === "import").status).toBe(fault === "import" ? "done" : "skipped");
    expect(calls(work).filter((c) => c[0] === "import")).toHaveLength(fault === "import" ? 2 : 0);
    expect(legacyInState(work.dir)).toEqual([]);
    expect(readFileSync(path.join(work.dir, "modules/waf/main.tf"), "utf8")).not.toMatch(/cloudflare_waf_/);
  });

  it("text output of a stop: what was done, what failed, and how to continue", async () => {
    const work = await prepareWork();
    const r = await apply(work, [...IDS, "--yes"], { FAKE_TF_FAIL_ON: "state rm" });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/✓ 2\. Import the entry point rulesets\n/);
    expect(r.stdout).toMatch(/✗ 4\. Remove the legacy resources from state \(failed\)\n/);
    expect(r.stdout).toMatch(/✗ Stopped at step 4 \(state-rm\): terraform state rm -dry-run .* failed with exit code 1/);
    expect(r.stdout).toContain("Done: 1. backup, 2. import, 3. plan-check");
    expect(r.stdout).toContain("Not run: 5. remove-blocks, 6. final-plan");
    expect(r.stdout).toContain("Run the same command again to continue");
  });

  it("a refused edit (a .tf.json shape the editor does not handle) exits 2 before any state change", async () => {
    const work = await prepareWork();
    const file = path.join(work.dir, "waf-rules.tf.json");
    const original = readFileSync(file, "utf8");
    const doc = JSON.parse(original);
    doc.resource.cloudflare_waf_rule = [doc.resource.cloudflare_waf_rule];
    writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
    const before = snapshot(work.dir);
    const r = await apply(work, [...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/apply refused, nothing was changed: waf-rules\.tf\.json: its legacy blocks cannot be removed safely/);
    expect(snapshot(work.dir)).toEqual(before);
    expect(calls(work).map(kind).every((k) => READ_ONLY.has(k))).toBe(true);

    writeFileSync(file, original);
    const fixed = await apply(work, [...IDS, "--yes"]);
    expect(fixed.exitCode).toBe(0);
    expect(legacyInState(work.dir)).toEqual([]);
  });

  it("refuses while a URI-based override is still in state (step 0 not done)", async () => {
    const work = await prepareWork({ stepZero: false });
    const before = snapshot(work.dir);
    const r = await applyJson(work, [...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.report.error.message).toContain("module.uri_overrides[0].cloudflare_waf_override.checkout is a URI-based WAF override still in state: do step 0");
    expect(r.report.steps).toEqual([]);
    expect(snapshot(work.dir)).toEqual(before);
  });

  it("refuses an import id still holding <RULESET_ID> and says how to get the id", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const r = await apply(work, ["--ruleset-id", `${SHOP}=${SHOP_RS}`, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`zone/${BLOG}/<RULESET_ID>`);
    expect(r.stderr).toContain(`--ruleset-id ${BLOG}=RULESET_ID`);
    expect(r.stderr).toContain(`cf-waf-migrate api entrypoint --zone ${BLOG}`);
    expect(snapshot(work.dir)).toEqual(before);
  });

  it("refuses, before any change, when the locked provider cannot import a cloudflare_ruleset (before 3.29.0)", async () => {
    const work = await prepareWork();
    const lock = path.join(work.dir, ".terraform.lock.hcl");
    writeFileSync(lock, readFileSync(lock, "utf8").replace(/version\s*=\s*"3\.35\.0"/, 'version     = "3.20.0"'));
    const before = snapshot(work.dir);
    const r = await apply(work, [...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("importing a cloudflare_ruleset needs provider 3.29.0 or later, but the lock file (.terraform.lock.hcl:4) selects provider 3.20.0");
    expect(r.stderr).toContain("raise the constraint to ~> 3.35 and run terraform init -upgrade");
    expect(snapshot(work.dir)).toEqual(before);
    expect(calls(work).map(kind).every((k) => READ_ONLY.has(k))).toBe(true);
  });

  it("refuses when the ruleset to import into is not in the configuration (steps 1–2 not done)", async () => {
    const work = await prepareWork({ ruleset: false });
    const r = await apply(work, [...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${SHOP_RULESET} is not in the configuration`);
    expect(calls(work).some((c) => c[0] === "import")).toBe(false);
  });

  it("a ruleset with count on terraform.workspace (one per workspace's zone) is imported into its instance, in the workspace apply runs in", async () => {
    const work = await prepareWork();
    const file = path.join(work.dir, "ruleset.tf");
    const counted = (ws: string) => readFileSync(file, "utf8").replace(/^(resource "cloudflare_ruleset" "[^"]+" \{\n)/gm, `$1  count = terraform.workspace == "${ws}" ? 1 : 0\n\n`);
    const original = readFileSync(file, "utf8");
    writeFileSync(file, counted("default"));
    const r = await applyJson(work, [...IDS, "--yes"]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(calls(work).filter((c) => c[0] === "import")).toEqual([
      ["import", "-input=false", "-no-color", `${SHOP_RULESET}[0]`, `zone/${SHOP}/${SHOP_RS}`],
      ["import", "-input=false", "-no-color", `${BLOG_RULESET}[0]`, `zone/${BLOG}/${BLOG_RS}`],
    ]);
    expect(calls(work).find((c) => c[0] === "plan")).toContain(`-target=${SHOP_RULESET}[0]`);

    // Meant for another workspace: no instance here, nothing to import into; refused before any change.
    const other = await prepareWork();
    writeFileSync(path.join(other.dir, "ruleset.tf"), original.replace(/^(resource "cloudflare_ruleset" "[^"]+" \{\n)/gm, '$1  count = terraform.workspace == "prod" ? 1 : 0\n\n'));
    const refused = await apply(other, [...IDS, "--yes"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${SHOP_RULESET} is not in the configuration`);
    expect(calls(other).some((c) => c[0] === "import" || (c[0] === "state" && c[1] === "rm"))).toBe(false);
  });

  it("a ruleset whose for_each is not known offline is refused at its line before any change, never imported into the bare address", async () => {
    const work = await prepareWork();
    const file = path.join(work.dir, "ruleset.tf");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^(resource "cloudflare_ruleset" "[^"]+" \{\n)/gm, "$1  for_each = var.zones\n\n") + 'variable "zones" {\n  type = map(string)\n}\n');
    const before = snapshot(work.dir);
    const r = await apply(work, [...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`ruleset\\.tf:\\d+: ${SHOP_RULESET.replace(/\./g, "\\.")} \\(zone ${SHOP}\\) has count or for_each whose instances are not known offline`));
    expect(calls(work).some((c) => c[0] === "import" || (c[0] === "state" && c[1] === "rm"))).toBe(false);
    expect(snapshot(work.dir)).toEqual(before);
  });

  it("the plan check stops on changes (exit 1, nothing removed) unless --accept-changes; final plan exit 2 → exit 1", async () => {
    const work = await prepareWork();
    const before = snapshot(work.dir);
    const stopped = await applyJson(work, [...IDS, "--yes"], { FAKE_TF_PLAN_EXIT: "2" });
    expect(stopped.exitCode).toBe(1);
    expect(stopped.report.error.step).toBe("plan-check");
    expect(stopped.report.steps[2].detail).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    expect(legacyInState(work.dir)).toHaveLength(10);
    expect(inconsistency(work.dir, before)).toBeNull();

    const accepted = await applyJson(work, [...IDS, "--yes", "--accept-changes"], { FAKE_TF_PLAN_EXIT: "2" });
    expect(accepted.exitCode).toBe(1);
    expect(accepted.report.steps[2]).toMatchObject({ name: "plan-check", status: "done" });
    expect(accepted.report.steps[2].detail).toContain("accepted with --accept-changes");
    expect(accepted.report.error.step).toBe("final-plan");
    expect(accepted.report.error.message).toMatch(/^changes remain/);
    expect(accepted.report.steps.at(-1)).toMatchObject({ name: "final-plan", status: "failed" });
    // Everything before it was done.
    expect(legacyInState(work.dir)).toEqual([]);

    const text = await apply(work, [...IDS, "--yes"], { FAKE_TF_PLAN_EXIT: "0" });
    expect(text.exitCode).toBe(0);
  });

  it("--terraform-bin tofu with FAKE_TF_FLAVOR=tofu: OpenTofu is detected, reported and run", async () => {
    const work = await prepareWork();
    const { report, exitCode } = await applyJson(work, [...IDS, "--terraform-bin", "tofu", "--yes"], { FAKE_TF_FLAVOR: "tofu" });
    expect(exitCode).toBe(0);
    expect(report.terraform).toEqual({ flavor: "tofu", version: "1.9.0" });
    expect(report.preflight.commands).toEqual(["tofu version -json", "tofu version", "tofu state pull", "tofu state list", "tofu -chdir=. workspace list"]);
    expect(report.steps[1].commands[0]).toBe(`tofu import -input=false -no-color ${SHOP_RULESET} zone/${SHOP}/${SHOP_RS}`);
    const text = await apply(work, [...IDS, "--terraform-bin", "tofu"], { FAKE_TF_FLAVOR: "tofu" });
    expect(text.stdout).toContain("OpenTofu 1.9.0 (tofu) in .");
  });

  it("--terraform-bin PATH runs the fake without PATH; --chdir names the root module; --state feeds the inventory", async () => {
    const work = await prepareWork();
    const copy = path.join(work.scratch, "inventory.tfstate");
    const inventory = readFileSync(path.join(work.dir, "terraform.tfstate"));
    writeFileSync(copy, inventory);
    const r = await runCli(["apply", work.dir, "--chdir", work.dir, "--state", copy, "--terraform-bin", FAKE_TERRAFORM, ...IDS, "--yes", "--format", "json"], {
      cwd: work.scratch,
      env: { FAKE_TF_LOG: work.log },
    });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    // terraform's -chdir: the run switched to DIR first, so the root module is "." from there.
    expect(report.chdir).toBe(".");
    expect(report.steps.map((s: { status: string }) => s.status)).toEqual(["done", "done", "done", "done", "done", "done"]);
    expect(legacyInState(work.dir)).toEqual([]);
    // terraform worked on its own state; the inventory file was only read.
    expect(readFileSync(copy).equals(inventory)).toBe(true);
    expect(readState(work.dir).resources.some((r) => r.type === "cloudflare_ruleset")).toBe(true);
  });

  it("--state FILE of another state (another lineage: another workspace's pulled copy) is refused before any change", async () => {
    const work = await prepareWork();
    const copy = path.join(work.scratch, "staging.tfstate");
    const live = readFileSync(path.join(work.dir, "terraform.tfstate"), "utf8");
    const lineage = (JSON.parse(live) as { lineage: string }).lineage;
    writeFileSync(copy, live.replace(lineage, "22222222-2222-4222-8222-222222222222"));
    const r = await apply(work, [".", "--state", copy, ...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).toContain(`is not the state this run would change: it has lineage 22222222-2222-4222-8222-222222222222`);
    expect(r.stdout + r.stderr).toContain(`has lineage ${lineage}`);
    expect(calls(work).map(kind).every((k) => READ_ONLY.has(k))).toBe(true);
    expect(readFileSync(path.join(work.dir, "terraform.tfstate"), "utf8")).toBe(live);
  });

  it("--state FILE of this state but a later serial than the live one (rolled back) is refused before any change", async () => {
    const work = await prepareWork();
    const copy = path.join(work.scratch, "later.tfstate");
    const live = readFileSync(path.join(work.dir, "terraform.tfstate"), "utf8");
    const doc = JSON.parse(live) as { serial: number };
    writeFileSync(copy, JSON.stringify({ ...doc, serial: doc.serial + 5 }));
    const r = await apply(work, [".", "--state", copy, ...IDS, "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).toContain(`(serial ${doc.serial + 5}) is a later write of this state than`);
    expect(r.stdout + r.stderr).toContain(`(serial ${doc.serial}): the live state was rolled back`);
    expect(calls(work).map(kind).every((k) => READ_ONLY.has(k))).toBe(true);
    expect(readFileSync(path.join(work.dir, "terraform.tfstate"), "utf8")).toBe(live);
  });

  it("--state FILE of this state at an earlier serial than the live one is read as before", async () => {
    const work = await prepareWork();
    const copy = path.join(work.scratch, "earlier.tfstate");
    const live = readFileSync(path.join(work.dir, "terraform.tfstate"), "utf8");
    const doc = JSON.parse(live) as { serial: number };
    writeFileSync(copy, JSON.stringify({ ...doc, serial: Math.max(0, doc.serial - 1) }));
    const r = await apply(work, [".", "--state", copy, ...IDS]);
    expect(r.stdout + r.stderr).not.toContain("is a later write of this state");
    expect(r.stdout + r.stderr).not.toContain("is not the state this run would change");
  });

  it("never prints a secret from the environment, even in terraform's error output", async () => {
    const work = await prepareWork();
    const secret = "s3cr3t-token-value-1234567890";
    const r = await apply(work, [...IDS, "--yes"], {
      CLOUDFLARE_API_TOKEN: secret,
      FAKE_TF_FAIL_ON: "import",
      FAKE_TF_FAIL_MESSAGE: `Error: provider rejected token ${secret}`,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout).toContain("provider rejected token ***");
  });

  it("bad usage exits 2: a ruleset id that is not 32 hex characters, several --state", async () => {
    const work = await prepareWork();
    const bad = await apply(work, ["--ruleset-id", `${SHOP}=nope`]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("a ruleset id is 32 hexadecimal characters");
    const two = await apply(work, ["--state", "a", "--state", "b"]);
    expect(two.exitCode).toBe(2);
    expect(calls(work)).toEqual([]);
    const missing = await apply(work, [...IDS, "--terraform-bin", path.join(work.scratch, "no-such-terraform")]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("no-such-terraform");
  });
});
