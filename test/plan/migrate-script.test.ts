// migrate.sh's shape: every check comes before the first change, step 5 before step 6, and step 6's
// fresh state list before its git apply. (Its behaviour runs for real in test/e2e/realworld.e2e.test.ts.)
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { legacyLeftInState, stateRmStep, type ApplyContext, type Migration } from "../../src/apply/index.js";
import { renderMigrateScript } from "../../src/plan/migrate-script.js";
import { tempDir } from "../support/workdir.js";

const script = renderMigrateScript({
  version: "0.0.0",
  zones: [],
  legacyResources: ["cloudflare_waf_group.noisy", 'module.waf.cloudflare_waf_rule.r'],
  patchDir: "../..",
  legacyPatch: { file: "legacy-removal.patch", paths: ["main.tf", "modules/w[1]/main.tf"] },
  overridesPatch: { file: "uri-overrides-removal.patch", paths: ["main.tf"] },
});

describe("migrate.sh", () => {
  it("checks both patches and the state before step 3, and guards step 6 with a fresh state list", () => {
    const at = (needle: string) => {
      const i = script.indexOf(needle);
      expect(i, needle).toBeGreaterThan(-1);
      return i;
    };
    const checks = at('step "0: checks before any change"');
    expect(at('patch_file_state "$LEGACY_PATCH" \'main.tf\'')).toBeGreaterThan(checks);
    expect(at('patch_file_state "$OVERRIDES_PATCH" \'main.tf\'')).toBeGreaterThan(checks);
    expect(at("cloudflare_waf_override")).toBeGreaterThan(checks);
    const step3 = at('step "3: import');
    expect(step3).toBeGreaterThan(at('patch_file_state "$OVERRIDES_PATCH"'));
    const step5 = at('step "5: remove every instance');
    const step6 = at('step "6: delete the legacy blocks');
    expect(step6).toBeGreaterThan(at('"$TF" state rm "${FOUND[@]}"'));
    const guard = script.indexOf("find_legacy_in_state", step6);
    expect(guard).toBeGreaterThan(step6);
    expect(script.indexOf('patch_git "${INCLUDES[@]}" "$LEGACY_PATCH"', step6)).toBeGreaterThan(guard);
    expect(step5).toBeGreaterThan(step3);
    expect(script).toContain("PATCH_DIR='../..'");
    expect(script).toContain("'modules/w\\[1\\]/main.tf'");
    expect(script).toContain("    'cloudflare_waf_group.noisy') return 0 ;;");
  });
});

describe("migrate.sh with a legacy data source among the blocks step 6 deletes", () => {
  // `terraform import` reads every data source, and the retired API refuses the legacy ones once the zone
  // is migrated: the import and its plan run after step 6; state entries still leave before blocks.
  const zone = { zone: { zoneId: "0da42c8d2132a9ddaf714f9e7c920711", zoneName: null, imports: [{ to: "cloudflare_ruleset.waf", id: "zone/0da42c8d2132a9ddaf714f9e7c920711/6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7" }] } };
  const input = {
    version: "0.0.0",
    zones: [zone] as never,
    legacyResources: ["module.waf.cloudflare_waf_package.owasp", "module.waf.data.cloudflare_waf_packages.owasp"],
    patchDir: "../..",
    legacyPatch: { file: "legacy-removal.patch", paths: ["main.tf"] },
    overridesPatch: null,
  };
  it("runs steps 5 and 6 first, then 3, 4 and 7", () => {
    const s = renderMigrateScript(input);
    const at = (needle: string) => s.indexOf(needle);
    expect(s).toContain("The configuration reads legacy data sources (module.waf.data.cloudflare_waf_packages.owasp)");
    expect(at('step "5: remove')).toBeGreaterThan(at('step "0: preconditions'));
    expect(at('step "6: delete')).toBeGreaterThan(at('step "5: remove'));
    expect(at('step "3: import')).toBeGreaterThan(at('patch_git "${INCLUDES[@]}" "$LEGACY_PATCH"'));
    expect(at('step "4: plan')).toBeGreaterThan(at('step "3: import'));
    expect(at('step "7: plan again')).toBeGreaterThan(at('step "4: plan'));
    expect(s.match(/step "3: import/g)).toHaveLength(1);
  });
  it("an incomplete import id stops it before step 5", () => {
    const s = renderMigrateScript({ ...input, zones: [{ zone: { ...zone.zone, imports: [{ to: "cloudflare_ruleset.waf", id: "zone/0da42c8d2132a9ddaf714f9e7c920711/<RULESET_ID>" }] } }] as never });
    const stop = s.indexOf("is incomplete");
    expect(stop).toBeGreaterThan(-1);
    expect(stop).toBeLessThan(s.indexOf('step "5: remove'));
    expect(s.indexOf("exit 1", stop)).toBeLessThan(s.indexOf('step "5: remove'));
  });
  it("keeps the guide's order without one", () => {
    const s = renderMigrateScript({ ...input, legacyResources: ["module.waf.cloudflare_waf_package.owasp"] });
    expect(s.indexOf('step "3: import')).toBeLessThan(s.indexOf('step "5: remove'));
    expect(s).not.toContain("reads legacy data sources");
  });
});

describe("migrate.sh's workspace", () => {
  const base = { version: "0.0.0", zones: [], legacyResources: ["cloudflare_waf_group.noisy"], patchDir: ".", legacyPatch: null, overridesPatch: null };
  it("is pinned with TF_WORKSPACE, before any terraform command, when the plan was made for a workspace other than default", () => {
    const s = renderMigrateScript({ ...base, workspace: "prod" });
    const pin = s.indexOf("export TF_WORKSPACE='prod'");
    expect(pin).toBeGreaterThan(-1);
    expect(pin).toBeLessThan(s.indexOf('"$TF" '));
    expect(renderMigrateScript({ ...base, workspace: "default" })).not.toMatch(/^export TF_WORKSPACE=/m);
    expect(renderMigrateScript(base)).not.toMatch(/^export TF_WORKSPACE=/m);
  });
});

describe("apply on resources", () => {
  const migration: Migration = {
    imports: [],
    importNotes: [],
    stateRemovals: [],
    blockConfigAddresses: ["cloudflare_waf_group.noisy", "module.waf.data.cloudflare_waf_packages.p"],
    edits: [],
    patch: "",
  };
  const live = ["cloudflare_waf_group.noisy[0]", 'module.waf["a"].data.cloudflare_waf_packages.p[0]', "cloudflare_ruleset.r"];

  it("an instance the plan did not know (planned without state) is left in state, so the edit waits, and state rm removes it", async () => {
    expect(legacyLeftInState(live, migration)).toEqual(live.slice(0, 2));
    const ctx = { stateList: live, migration } as unknown as ApplyContext;
    expect(await stateRmStep.done(ctx)).toBeNull();
    expect(await stateRmStep.done({ ...ctx, stateList: ["cloudflare_ruleset.r"] })).toBe("no legacy address left in state");
  });
});

describe("migrate.sh with a LEGACY_REFERENCE", () => {
  it("refuses at the very start, before the checks and before any terraform command", () => {
    const refusing = renderMigrateScript({
      version: "0.0.0",
      zones: [],
      legacyResources: ["cloudflare_waf_rule.sqli"],
      patchDir: ".",
      legacyPatch: { file: "legacy-removal.patch", paths: ["main.tf"] },
      overridesPatch: null,
      legacyReferences: ["main.tf:31: resource \"cloudflare_filter\" \"edge\" (argument depends_on) refers to cloudflare_waf_rule.sqli"],
    });
    const refusal = refusing.indexOf("refusing to start: 1 expression(s) refer to legacy WAF blocks");
    expect(refusal).toBeGreaterThan(-1);
    const exit = refusing.indexOf("exit 1", refusal);
    expect(exit).toBeGreaterThan(refusal);
    expect(refusing.indexOf('"$TF"')).toBeGreaterThan(exit);
    expect(refusing.indexOf('step "0: checks before any change"')).toBeGreaterThan(exit);
    // The safety side is all still there after it.
    expect(refusing.indexOf("find_legacy_in_state", exit)).toBeGreaterThan(exit);
  });
});

describe("migrate.sh checks that the live state is the one the plan read", () => {
  const base = { version: "0.0.0", zones: [], legacyResources: ["cloudflare_waf_group.noisy"], patchDir: ".", legacyPatch: null, overridesPatch: null };
  const planned = { files: ["../staging.tfstate"], lineages: [{ lineage: "2222", serial: 7 }], workspaceKnown: false };
  it("compares the lineage of `state pull` before the first state list and any change, and names the workspace unknown", () => {
    const s = renderMigrateScript({ ...base, plannedState: planned });
    const pull = s.indexOf('PULLED="$("$TF" state pull)"');
    expect(pull).toBeGreaterThan(s.indexOf('step "0: checks before any change"'));
    expect(s.indexOf('CURRENT="$("$TF" state list)"')).toBeGreaterThan(pull);
    expect(s.indexOf('"$TF" state rm')).toBeGreaterThan(pull);
    expect(s).toContain("  '2222') PLAN_SERIAL=7 ;;");
    expect(s).toContain("Its workspace is unknown");
    expect(s).toContain("../staging.tfstate (lineage 2222, serial 7, workspace unknown)");
  });
  it("without a state read there is nothing to compare: no check, as before", () => {
    const s = renderMigrateScript({ ...base, plannedState: null });
    expect(s).not.toContain("state pull");
    expect(s).not.toContain('[ -n "${TF_WORKSPACE:-}" ] || fail');
  });
  it("a state without lineage (terraform show -json) outside terraform.tfstate.d/ requires TF_WORKSPACE", () => {
    const s = renderMigrateScript({ ...base, plannedState: { ...planned, lineages: [] } });
    expect(s).toContain('[ -n "${TF_WORKSPACE:-}" ] || fail');
    expect(s).not.toContain("state pull");
  });
});

describe("migrate.sh for one workspace of a root several share: the copied ruleset is found in .tf and .tf.json", () => {
  // It only grepped ./*.tf, so a copy written as JSON (cf-waf-migrate-ruleset-eu.tf.json) was taken for a
  // missing one and the script refused to start.
  const zone = { zone: { zoneId: "0da42c8d2132a9ddaf714f9e7c920711", zoneName: null, imports: [{ to: "cloudflare_ruleset.waf_managed_0da42c8d_eu[0]", id: "zone/0da42c8d2132a9ddaf714f9e7c920711/6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7" }] } };
  const script = renderMigrateScript({
    version: "0.0.0",
    zones: [zone] as never,
    legacyResources: ["cloudflare_waf_package.owasp"],
    patchDir: ".",
    legacyPatch: null,
    overridesPatch: null,
    rulesetGate: { workspace: "eu", copy: "cf-waf-migrate-ruleset-eu.tf" },
  });
  const fn = script.slice(script.indexOf("declares_ruleset() {"), script.indexOf("\n}\n", script.indexOf("declares_ruleset() {")) + 3);
  const declares = (files: Record<string, string>) => {
    const dir = tempDir("cfwm-declares-");
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return spawnSync("bash", ["-c", `set -euo pipefail\n${fn}\ndeclares_ruleset waf_managed_0da42c8d_eu`], { cwd: dir }).status;
  };

  it("uses one check for both forms before any change", () => {
    expect(script).toContain("if ! in_state 'cloudflare_ruleset.waf_managed_0da42c8d_eu[0]' && ! declares_ruleset 'waf_managed_0da42c8d_eu'; then");
    expect(script.indexOf("declares_ruleset 'waf")).toBeLessThan(script.indexOf('step "3: import'));
  });

  it.each([
    ["an HCL copy", { "cf-waf-migrate-ruleset-eu.tf": 'resource "cloudflare_ruleset" "waf_managed_0da42c8d_eu" {\n  count = terraform.workspace == "eu" ? 1 : 0\n}\n' }, 0],
    ["a JSON copy", { "cf-waf-migrate-ruleset-eu.tf.json": '{\n  "resource": {\n    "cloudflare_ruleset": {\n      "waf_managed_0da42c8d_eu": { "count": "${terraform.workspace == \\"eu\\" ? 1 : 0}" }\n    }\n  }\n}\n' }, 0],
    ["no copy", { "main.tf": 'resource "cloudflare_waf_package" "owasp" {}\n' }, 1],
    ["another workspace's copy only", { "cf-waf-migrate-ruleset-us.tf.json": '{"resource": {"cloudflare_ruleset": {"waf_managed_2c3d4e5f_us": {}}}}\n', "x.tf": "# waf_managed_0da42c8d_eu\n" }, 1],
    ["no file at all", {}, 1],
  ])("%s", (_what, files, status) => {
    expect(declares(files)).toBe(status);
  });
});

describe("migrate.sh for a root of its own: the ruleset step 3 imports must be declared before any change", () => {
  // Only the workspace-shared root checked it: elsewhere a forgotten step 2 let the script run until
  // `terraform import` failed ("resource address does not exist in the configuration").
  const zone = { zone: { zoneId: "0da42c8d2132a9ddaf714f9e7c920711", zoneName: null, imports: [{ to: "cloudflare_ruleset.waf_managed_0da42c8d", id: "zone/0da42c8d2132a9ddaf714f9e7c920711/6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7" }] } };
  const script = renderMigrateScript({ version: "0.0.0", zones: [zone] as never, legacyResources: ["cloudflare_waf_package.owasp"], patchDir: ".", legacyPatch: null, overridesPatch: null });
  const run = (files: Record<string, string>) => {
    const dir = tempDir("cfwm-declared-");
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, "migrate.sh"), script);
    // A terraform double: an empty state; every call logged.
    writeFileSync(path.join(dir, "tf.sh"), '#!/bin/bash\necho "$*" >> "$TFLOG"\n[ "$1 $2" = "state pull" ] && echo "{}"\nexit 0\n', { mode: 0o755 });
    const log = path.join(dir, "tf.log");
    writeFileSync(log, "");
    const r = spawnSync("bash", ["migrate.sh", "--yes"], { cwd: dir, env: { PATH: process.env.PATH, TF: path.join(dir, "tf.sh"), TFLOG: log }, encoding: "utf8" });
    return { status: r.status, stderr: r.stderr, calls: spawnSync("cat", [log], { encoding: "utf8" }).stdout };
  };
  const main = { "main.tf": 'resource "cloudflare_waf_package" "owasp" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n' };

  it("checks it before step 0's question and step 3", () => {
    expect(script).toContain("if ! in_state 'cloudflare_ruleset.waf_managed_0da42c8d' && ! declares_ruleset 'waf_managed_0da42c8d'; then");
    expect(script.indexOf("declares_ruleset 'waf")).toBeLessThan(script.indexOf('step "0: preconditions'));
  });

  it("refuses with one line, nothing imported, when ruleset.tf was not copied", () => {
    const r = run(main);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("migrate.sh: the root module declares no cloudflare_ruleset.waf_managed_0da42c8d, which step 3 imports: copy ruleset.tf to ./cf-waf-migrate-ruleset.tf first (PLAN.md step 2). Nothing was changed");
    expect(r.calls).not.toMatch(/^import /m);
  });

  it("imports once it is copied", () => {
    const r = run({ ...main, "cf-waf-migrate-ruleset.tf": 'resource "cloudflare_ruleset" "waf_managed_0da42c8d" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n' });
    expect(r.calls).toMatch(/^import cloudflare_ruleset\.waf_managed_0da42c8d zone\//m);
  });
});

describe("migrate.sh on an empty state file", () => {
  // Step 0 names terraform's backup when the implicit local backend's file is empty (a terraform write
  // killed half way), and says nothing of a terraform.tfstate lying in a root whose backend is s3.
  const run = (backend: object | null) => {
    const root = tempDir("cfwm-empty-script-");
    writeFileSync(path.join(root, "migrate.sh"), renderMigrateScript({ version: "0.0.0", zones: [], legacyResources: ["cloudflare_waf_group.noisy"], patchDir: ".", legacyPatch: null, overridesPatch: null }));
    writeFileSync(path.join(root, "terraform.tfstate"), "");
    writeFileSync(path.join(root, "terraform.tfstate.1795809050.backup"), '{"version":4}');
    if (backend) {
      mkdirSync(path.join(root, ".terraform"));
      writeFileSync(path.join(root, ".terraform", "terraform.tfstate"), JSON.stringify({ version: 3, backend }));
    }
    // A terraform that fails every command: the run must stop before any change either way.
    writeFileSync(path.join(root, "tf"), "#!/usr/bin/env bash\necho 'tf stub: no state' >&2\nexit 1\n", { mode: 0o755 });
    const r = spawnSync("bash", ["migrate.sh", "--yes"], { cwd: root, env: { ...process.env, TF: path.join(root, "tf"), TF_WORKSPACE: "" }, encoding: "utf8" });
    return { code: r.status, stderr: r.stderr };
  };

  it("implicit local backend: names the backup", () => {
    const r = run(null);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("migrate.sh: terraform.tfstate is empty (0 bytes)");
    expect(r.stderr).toContain("cp terraform.tfstate.1795809050.backup terraform.tfstate");
  });

  it("an s3 backend: the local file is not the state, and is not blamed", () => {
    const r = run({ type: "s3", config: { bucket: "b", key: "k" } });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("is empty");
    expect(r.stderr).toContain("tf stub: no state");
  });
});
