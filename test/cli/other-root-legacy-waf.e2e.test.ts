// A plan or apply of one root must not plan the ruleset of a zone whose legacy WAF another root of the same
// repository configures: split-stacks' edge has only Page Rules for the docs zone, its legacy WAF is in
// legacy-waf, whose own migration imports the zone's one entry point. The copy is a repository of its own.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { applyWithFakeTerraform } from "../support/fake-apply.js";
import { tempDir } from "../support/workdir.js";
import { snapshot } from "../apply/helpers.js";
import { byCode, DOCS, DOCS_RS, splitStacksRepository, type Finding } from "./split-stacks-repository.js";

const repository = (opts: { git?: boolean } = {}) => splitStacksRepository(opts);

describe("plan of one root: another root configures the legacy WAF of its zone", () => {
  it("a LEGACY_WAF_IN_OTHER_ROOT error at legacy-waf's first legacy resource; steps 2 and 3 say so; --fail-on error fails", async () => {
    const top = repository();
    const r = await runCli(["plan", "edge", "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const found = byCode(report, "LEGACY_WAF_IN_OTHER_ROOT");
    // The package (line 27) first; the count-0 group configures nothing; the rules are named in the message.
    expect(found.map((f) => [f.file, f.line, f.zoneId, f.severity])).toEqual([["../legacy-waf/main.tf", 27, DOCS, "error"]]);
    expect(found[0]!.details).toMatchObject({ otherRoot: "legacy-waf", addresses: ["cloudflare_waf_package.owasp", 'cloudflare_waf_rule.rules["100000356"]', 'cloudflare_waf_rule.rules["100015"]'] });
    expect(found[0]!.message).toContain("two roots managing one ruleset");
    expect(found[0]!.message).toContain("`cf-waf-migrate plan .`");
    for (const n of [2, 3]) {
      const step = report.plan.steps.find((s: { number: number }) => s.number === n);
      expect(step.notes.join("\n")).toContain("do not copy or import this ruleset: legacy-waf (not in this run) configures the legacy WAF");
    }
    const text = await runCli(["plan", "edge", "--format", "text"], { cwd: top });
    expect(text.stdout).toContain("ERROR   LEGACY_WAF_IN_OTHER_ROOT  legacy-waf/main.tf:27");
    expect((await runCli(["plan", "edge", "--format", "json", "--fail-on", "error"], { cwd: top })).exitCode).toBe(1);
  });

  it("a zone id not known offline in the other root is VALUE_UNRESOLVED, never taken for the zone nor ignored", async () => {
    const top = repository();
    const main = path.join(top, "legacy-waf/main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace(/variable "zone_id" \{\n  type    = string\n  default = "[0-9a-f]+"\n\}/, 'variable "zone_id" {\n  type = string\n}'));
    const report = JSON.parse((await runCli(["plan", "edge", "--format", "json"], { cwd: top })).stdout);
    expect(byCode(report, "LEGACY_WAF_IN_OTHER_ROOT")).toEqual([]);
    const unresolved = byCode(report, "VALUE_UNRESOLVED").filter((f) => f.details?.legacyWaf === true);
    expect(unresolved.map((f) => [f.file, f.line, f.zoneId, f.severity])).toEqual([["../legacy-waf/main.tf", 26, null, "warning"]]);
  });

  it("migrate.sh refuses to start, whatever ACCEPT_MISSING_SKIP_RULES says, with nothing changed", async () => {
    const top = repository();
    const out = tempDir();
    expect((await runCli(["plan", "edge", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    expect(readFileSync(path.join(out, "PLAN.md"), "utf8")).toContain("LEGACY_WAF_IN_OTHER_ROOT");
    const tf = path.join(tempDir(), "tf");
    writeFileSync(tf, "#!/usr/bin/env bash\necho 'tf stub: fails' >&2\nexit 1\n", { mode: 0o755 });
    const before = snapshot(top);
    for (const env of [{}, { ACCEPT_MISSING_SKIP_RULES: "1", ACCEPT_OTHER_ROOT_LEGACY_WAF: "1" }]) {
      const r = spawnSync("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: path.join(top, "edge"), env: { ...process.env, TF: tf, ...env }, encoding: "utf8" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("migrate.sh: refusing to start: roots this plan left out configure the legacy WAF of a zone whose ruleset step 3 imports");
      expect(r.stderr).toContain("../legacy-waf/main.tf:27: cloudflare_waf_package.owasp");
      expect(r.stderr).not.toContain("tf stub");
    }
    expect(snapshot(top)).toEqual(before);
  });

  it("the estate plan over the repository is the same as outside any repository (nothing about other roots)", async () => {
    const top = repository();
    const r = await runCli(["plan", ".", "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).findings.filter((f: Finding) => f.details?.otherRoot !== undefined)).toEqual([]);
    expect((await runCli(["plan", ".", "--format", "json"], { cwd: repository({ git: false }) })).stdout).toBe(r.stdout);
  });
});

describe("apply in one root: another root configures the legacy WAF of its zone", () => {
  it("refuses before any change (exit 2), --accept-missing-skip-rules and --accept-other-root-legacy-waf notwithstanding", async () => {
    const top = repository();
    const out = tempDir();
    expect((await runCli(["plan", "edge", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    cpSync(path.join(out, "ruleset.tf"), path.join(top, "edge/cf-waf-migrate-ruleset.tf"));
    // edge's (initialized) state: its Page Rules only.
    writeFileSync(path.join(top, "edge/terraform.tfstate"), JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 3, lineage: "5d0c3f52-edge", outputs: {}, resources: [] }));
    const before = snapshot(top);
    for (const extra of [[], ["--accept-missing-skip-rules", "--accept-other-root-legacy-waf"]]) {
      const r = await applyWithFakeTerraform(["--chdir", "edge", "--no-rehearsal", "--yes", "--ruleset-id", `${DOCS}=${DOCS_RS}`, ...extra], top);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain("apply refused, nothing was changed");
      expect(r.stderr).toContain(`../legacy-waf/main.tf:27: root ../legacy-waf configures the legacy WAF of zone ${DOCS}`);
      expect(r.commands).toEqual(["version", "state pull"]);
    }
    expect(snapshot(top)).toEqual(before);
  });
});

describe("another root's legacy WAF file cannot be read", () => {
  // A syntax error inside legacy-waf's package block (line 30): its load gives no legacy resources at all.
  const broken = () => {
    const top = repository();
    const main = path.join(top, "legacy-waf/main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace('sensitivity = "off"', "sensitivity = = \"off\""));
    return top;
  };

  it("plan: its declared legacy WAF is VALUE_UNRESOLVED (zone not known), never dropped", async () => {
    const top = broken();
    const report = JSON.parse((await runCli(["plan", "edge", "--format", "json"], { cwd: top })).stdout);
    const unresolved = byCode(report, "VALUE_UNRESOLVED").filter((f) => f.details?.legacyWaf === true);
    expect(unresolved.map((f) => [f.file, f.line, f.zoneId])).toEqual([["../legacy-waf/main.tf", 27, null]]);
    expect(unresolved[0]!.details).toMatchObject({ otherRoot: "legacy-waf", addresses: ["cloudflare_waf_package.owasp", "cloudflare_waf_group.strict", "cloudflare_waf_rule.rules"] });
  });

  it("apply refuses before any change, --accept-missing-skip-rules notwithstanding", async () => {
    const top = broken();
    const out = tempDir();
    expect((await runCli(["plan", "edge", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    cpSync(path.join(out, "ruleset.tf"), path.join(top, "edge/cf-waf-migrate-ruleset.tf"));
    writeFileSync(path.join(top, "edge/terraform.tfstate"), JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 3, lineage: "5d0c3f52-edge", outputs: {}, resources: [] }));
    const before = snapshot(top);
    const r = await applyWithFakeTerraform(["--chdir", "edge", "--no-rehearsal", "--yes", "--ruleset-id", `${DOCS}=${DOCS_RS}`, "--accept-missing-skip-rules"], top);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("apply refused, nothing was changed");
    expect(r.stderr).toContain("../legacy-waf/main.tf:27: root ../legacy-waf configures legacy WAF resources (cloudflare_waf_package.owasp, cloudflare_waf_group.strict, cloudflare_waf_rule.rules) whose zone, or this root's, is not known offline");
    expect(r.commands).toEqual(["version", "state pull"]);
    expect(snapshot(top)).toEqual(before);
  });
});
