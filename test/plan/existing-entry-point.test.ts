// PLAN.md steps 2 and 3 of a zone whose entry point a cloudflare_ruleset already manages: never a second
// resource for it, nor an import into the generated one.
import path from "node:path";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { finding } from "../../src/core/findings.js";
import type { PlanStep } from "../../src/core/model.js";
import { addExistingEntryPointNotes } from "../../src/plan/existing-entry-point.js";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "9a7806061c88ada191ed06f989cc3dac";
const steps = (): PlanStep[] => [2, 3, 5].map((number) => ({ number, title: `step ${number}`, commands: [], notes: [] }));
const exists = (address: string, file: string, line: number, details?: Record<string, unknown>) =>
  finding("MANAGED_RULESET_EXISTS", "…", { zoneId: ZONE, file, line, ref: null }, details);

describe("addExistingEntryPointNotes", () => {
  it("names the ruleset to merge into (step 2) and to import into, if at all (step 3)", () => {
    const s = steps();
    const f = Object.assign(exists("cloudflare_ruleset.managed", "main.tf", 38), { address: "cloudflare_ruleset.managed" });
    addExistingEntryPointNotes(s, [f], "ruleset.tf");
    expect(s[0]!.notes).toEqual([
      `${ZONE}: cloudflare_ruleset.managed (main.tf:38) already manages its http_request_firewall_managed entry point (MANAGED_RULESET_EXISTS): do not add ruleset.tf as another resource for it (they would overwrite each other at every apply); merge the rules of ruleset.tf into cloudflare_ruleset.managed instead, where it is declared`,
    ]);
    expect(s[1]!.notes).toEqual([
      `${ZONE}: cloudflare_ruleset.managed (main.tf:38) already manages its entry point: when the state holds it, there is nothing to import for the zone; otherwise import into cloudflare_ruleset.managed there, not into the generated resource`,
    ]);
    expect(s[2]!.notes).toEqual([]);
  });

  it("names the other root, and asks to keep one of two", () => {
    const s = steps();
    const a = Object.assign(exists("cloudflare_ruleset.a", "edge/main.tf", 5, { otherRoot: "edge" }), { address: "cloudflare_ruleset.a" });
    const b = Object.assign(exists("cloudflare_ruleset.b", "edge/main.tf", 20, { otherRoot: "edge" }), { address: "cloudflare_ruleset.b" });
    addExistingEntryPointNotes(s, [a, b], "ruleset.tf");
    expect(s[0]!.notes).toHaveLength(1);
    expect(s[0]!.notes![0]).toContain("cloudflare_ruleset.a of root edge (edge/main.tf:5) and cloudflare_ruleset.b of root edge (edge/main.tf:20) already manage");
    expect(s[0]!.notes![0]).toContain("DUPLICATE_ENTRY_POINT: keep one of them");
  });

  it("adds nothing without such a finding", () => {
    const s = steps();
    addExistingEntryPointNotes(s, [finding("RULESET_ID_UNKNOWN", "…", { zoneId: ZONE })], "ruleset.tf");
    expect(s.map((x) => x.notes)).toEqual([[], [], []]);
  });
});

describe("plan --out-dir: PLAN.md of a root with a hand-written entry point ruleset", () => {
  it("tells step 2 to merge into it and step 3 not to import into the generated resource", async () => {
    const dir = tempDir("cfwm-existing-entry-");
    mkdirSync(path.join(dir, "security"), { recursive: true });
    writeFileSync(
      path.join(dir, "security/main.tf"),
      `resource "cloudflare_filter" "office" {
  zone_id    = "${ZONE}"
  expression = "ip.src in {192.0.2.0/24}"
}

resource "cloudflare_firewall_rule" "office" {
  zone_id   = "${ZONE}"
  filter_id = cloudflare_filter.office.id
  action    = "bypass"
  products  = ["waf", "uaBlock"]
}

resource "cloudflare_ruleset" "managed" {
  zone_id = "${ZONE}"
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
  rules {
    action     = "bypass"
    expression = "ip.src in {192.0.2.0/24}"
  }
}
`,
    );
    const r = await runCli(["--chdir", path.join(dir, "security"), "plan", ".", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const md = readFileSync(path.join(dir, "security/out/PLAN.md"), "utf8");
    const section = (n: number) => md.slice(md.indexOf(`### ${n}.`), md.indexOf(`### ${n + 1}.`));
    expect(section(2)).toContain("cloudflare_ruleset.managed (main.tf:13) already manages its http_request_firewall_managed entry point (MANAGED_RULESET_EXISTS)");
    expect(section(3)).toContain("otherwise import into cloudflare_ruleset.managed there, not into the generated resource");
  });

  it("imports into the one the root module declares (as apply does), never into a second, generated one; two declared: neither", async () => {
    const dir = tempDir("cfwm-existing-entry-");
    const root = path.join(dir, "root");
    mkdirSync(root, { recursive: true });
    const ruleset = (name: string) =>
      `resource "cloudflare_ruleset" "${name}" {\n  zone_id = "${ZONE}"\n  name    = "default"\n  kind    = "zone"\n  phase   = "http_request_firewall_managed"\n  rules {\n    action      = "execute"\n    expression  = "true"\n    action_parameters {\n      id = "efb7b8c949ac4650a09736fc376e9aee"\n    }\n  }\n}\n`;
    const legacy = `resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "${ZONE}"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "low"\n  action_mode = "simulate"\n}\n`;
    writeFileSync(path.join(root, "main.tf"), legacy + ruleset("managed"));
    const plan = async () => {
      const out = tempDir("cfwm-existing-entry-out-");
      const r = await runCli(["plan", "root", "--out-dir", out, "--format", "json", "--ruleset-id", `${ZONE}=4814384a9e5d4991b9815dcfc25d2f1f`], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { zones: { imports: { to: string }[] }[] };
      return { to: report.zones[0]!.imports.map((i) => i.to), script: readFileSync(path.join(out, "migrate.sh"), "utf8") };
    };
    const one = await plan();
    expect(one.to).toEqual(["cloudflare_ruleset.managed"]);
    expect(one.script).toContain(`import 'cloudflare_ruleset.managed' 'zone/${ZONE}/4814384a9e5d4991b9815dcfc25d2f1f'`);
    writeFileSync(path.join(root, "main.tf"), legacy + ruleset("managed") + ruleset("other"));
    expect((await plan()).to).toEqual(["cloudflare_ruleset.waf_managed_9a780606"]);
  });
});
