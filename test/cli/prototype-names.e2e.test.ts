// Issue 18 §1 end to end, through the built CLI: a tree (.tf, .tf.json) and a state whose names are
// Object.prototype members (`toString`, `constructor`, `__proto__`, … — legal Terraform names) scan and plan
// exactly like the same tree with harmless names, and zone-keyed options (`--zone-plan`, `--ruleset-id`,
// `--config-json`) keyed by such zone ids find only what was given.
import { execa } from "execa";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const FIXTURE = path.join(TESTDATA, "prototype-names");
const RULESET_ID = "0123456789abcdef0123456789abcdef";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A copy of the fixture with every Object.prototype name `n` written `zz` + n. */
function renamedCopy(dir: string): string {
  const copy = copyFixture("prototype-names");
  const pattern = new RegExp(`(?<![A-Za-z0-9_])(${NAMES.join("|")})(?![A-Za-z0-9_])`, "g");
  for (const f of filesUnder(dir)) {
    const rel = path.relative(dir, f);
    writeFileSync(path.join(copy, rel), readFileSync(f, "utf8").replace(pattern, "zz$1"));
  }
  return copy;
}

/** The report with the renaming undone and everything order-dependent sorted. */
function comparable(stdout: string, renamed: boolean): Record<string, unknown> {
  const text = renamed ? stdout.replace(new RegExp(`zz(${NAMES.join("|")})`, "g"), "$1") : stdout;
  const r = JSON.parse(text) as Record<string, unknown>;
  const sorted = (xs: unknown) => (xs as unknown[]).map((x) => JSON.stringify(x)).sort();
  return {
    resources: sorted(r.resources),
    findings: sorted(r.findings),
    errors: sorted(r.errors),
    // The generated resource names are cut from the zone id, so `zztoString` and `toString` differ in length.
    zones: sorted((r.zones as Record<string, unknown>[]).map((z) => ({ ...z, imports: undefined, stateRemovals: [...(z.stateRemovals as string[])].sort() }))),
  };
}

describe("names that are Object.prototype members", () => {
  it("the fixture really uses them in every kind of slot", () => {
    const all = filesUnder(FIXTURE).map((f) => readFileSync(f, "utf8")).join("\n");
    for (const n of ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"]) expect(all).toContain(n);
  });

  it.each([
    ["with state", ["--state", "terraform.tfstate"]],
    ["config only", []],
  ])("scan and plan (%s) equal the same tree with harmless names", async (_, extra) => {
    const twin = renamedCopy(FIXTURE);
    // A copy, as the twin is: in place, a plan of this root also reports the other fixtures' WAF bypasses.
    const alone = copyFixture("prototype-names");
    for (const command of ["scan", "plan"]) {
      const got = await runCli([command, ".", ...extra, "--format", "json"], { cwd: alone });
      expect(got.stderr).not.toMatch(/internal error/);
      expect(got.exitCode, got.stderr).toBe(0);
      const expected = await runCli([command, ".", ...extra, "--format", "json"], { cwd: twin });
      expect(comparable(got.stdout, false)).toEqual(comparable(expected.stdout, true));
    }
  });

  it("every legacy resource and instance is found, and the removal patch applies", async () => {
    const r = await runCli(["scan", ".", "--state", "terraform.tfstate", "--format", "json"], { cwd: FIXTURE });
    const addresses = (JSON.parse(r.stdout).resources as { address: string; inConfig: boolean; inState: boolean }[]).filter((x) => x.inConfig && x.inState).map((x) => x.address);
    for (const a of [
      "cloudflare_waf_rule.toString",
      "cloudflare_waf_rule.constructor",
      "cloudflare_waf_rule.__proto__",
      'module.__proto__["constructor"].cloudflare_waf_group.__lookupGetter__["__proto__"]',
      'module.__proto__["toString"].cloudflare_waf_package.valueOf',
      "cloudflare_page_rule.isPrototypeOf",
    ]) {
      expect(addresses).toContain(a);
    }
    const dir = copyFixture("prototype-names");
    const out = tempDir();
    const plan = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", out, "--format", "json"], { cwd: dir });
    expect(plan.exitCode, plan.stderr).toBe(0);
    const patch = readFileSync(path.join(out, "legacy-removal.patch"), "utf8");
    expect(patch).toContain('"__proto__": {');
    await execa("git", ["init", "-q"], { cwd: dir });
    await execa("git", ["apply", path.join(out, "legacy-removal.patch")], { cwd: dir });
    const json = JSON.parse(readFileSync(path.join(dir, "rules.tf.json"), "utf8"));
    expect(Object.hasOwn(json, "resource")).toBe(false);
    // The output only exposed a legacy rule, so step 6 removes it with the rule; the variable stays.
    expect(Object.hasOwn(json, "output")).toBe(false);
    expect(Object.hasOwn(json.variable, "__defineGetter__")).toBe(true);
  });

  it("zone ids named toString / __proto__: --zone-plan, --ruleset-id and --config-json find only what was given", async () => {
    const dir = copyFixture("prototype-names");
    const rules = path.join(dir, "rules.tf.json");
    const doc = JSON.parse(readFileSync(rules, "utf8"));
    doc.resource.cloudflare_waf_rule.constructor.zone_id = "toString";
    doc.resource.cloudflare_waf_rule.__proto__.zone_id = "__proto__";
    writeFileSync(rules, JSON.stringify(doc, null, 2));
    const config = path.join(dir, "constructor-config.json");
    writeFileSync(config, JSON.stringify({ result: { name: "default", rules: [{ action: "execute", expression: "true", action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" } }] } }));
    const r = await runCli(
      ["plan", ".", "--format", "json", "--zone-plan", "toString=enterprise", "--ruleset-id", `__proto__=${RULESET_ID}`, "--config-json", `valueOf=${config}`],
      { cwd: dir },
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode, r.stderr).toBe(0);
    const zones = JSON.parse(r.stdout).zones as { zoneId: string; plan: string; imports: { id: string }[]; ruleset: { rules: unknown[] } }[];
    const byId = new Map(zones.map((z) => [z.zoneId, z]));
    expect(byId.get("toString")?.plan).toBe("enterprise");
    expect(byId.get("__proto__")?.plan).toBe("unknown");
    // A zone id that is not 32 hex digits is written as an expression in the import id; the ruleset id is the given one.
    expect(byId.get("__proto__")?.imports[0]?.id).toMatch(new RegExp(`^zone/.*__proto__.*/${RULESET_ID}$`));
    expect(byId.get("toString")?.imports[0]?.id).toMatch(/^zone\/.*toString.*\/<RULESET_ID>$/);
    // No zone is called valueOf: its --config-json is used by none, and no zone got a function for a ruleset.
    for (const z of zones) expect(Array.isArray(z.ruleset.rules)).toBe(true);
  });
});
