// A zone whose entry point ruleset is already declared by hand in one root while another root holds its
// WAF-bypassing Page Rules (the real-world shape of a team's Page Rules in a root of their own, next to a
// hand-migrated ruleset): the estate must not plan a second entry point ruleset, and import it, elsewhere.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Finding, Report, ZoneReport } from "../../src/core/model.js";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { snapshot } from "../apply/helpers.js";
import { runCli } from "../support/cli.js";
import { fakeTerraformBin, tempDir } from "../support/workdir.js";

const ZONE = "9a7806061c88ada191ed06f989cc3dac";

const PAGE_RULES = `terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 5.0"
    }
  }
}

resource "cloudflare_page_rule" "admin" {
  zone_id  = "${ZONE}"
  target   = "bank.example/admin/*"
  priority = 1
  actions = {
    disable_security = true
    waf              = "off"
  }
}
`;

const RULESET = `resource "cloudflare_ruleset" "managed" {
  zone_id = local.zone_id
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
  rules {
    action     = "execute"
    expression = "true"
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
  }
}
`;

const BYPASS = `resource "cloudflare_filter" "office" {
  zone_id    = local.zone_id
  expression = "ip.src in {192.0.2.0/24}"
}

resource "cloudflare_firewall_rule" "office" {
  zone_id   = local.zone_id
  filter_id = cloudflare_filter.office.id
  action    = "bypass"
  products  = ["waf", "uaBlock"]
}
`;

function tree(files: Record<string, string>): string {
  const dir = tempDir("cfwm-entry-point-");
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
  return dir;
}

async function scan(dir: string): Promise<Report> {
  const r = await runCli(["scan", ".", "--format", "json", "--quiet"], { cwd: dir });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

type Entry = ZoneReport & { root?: string; rulesetIn?: { root: string } };
type At = Finding & { root?: string };

describe("estate: a zone whose entry point ruleset another root already declares", () => {
  it("plans the joined ruleset in the root that declares the entry point, not the first root in path order", async () => {
    // `pagerules` comes first in path order; `security` has a bypass of its own and the hand-written ruleset.
    const dir = tree({
      "pagerules/main.tf": PAGE_RULES,
      "security/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${BYPASS}\n${RULESET}`,
    });
    const report = await scan(dir);
    const entries = report.zones as Entry[];
    expect(entries.map((z) => [z.zoneId, z.root, z.imports.length, z.rulesetIn?.root ?? null])).toEqual([
      [ZONE, "pagerules", 0, "security"],
      [ZONE, "security", 1, null],
    ]);
    // The joined ruleset holds both roots' skip rules.
    const owner = entries.find((z) => z.root === "security")!;
    expect(owner.ruleset.rules.filter((r) => r.action === "skip")).toHaveLength(2);
    const split = report.findings.filter((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS") as At[];
    expect(split.map((f) => [f.root, f.message])).toEqual([
      [
        "security",
        `zone ${ZONE} has settings in 2 roots (pagerules, security): its one entry point ruleset and import are planned in security (it already declares the zone's http_request_firewall_managed ruleset: cloudflare_ruleset.managed), with the skip rules from all of them`,
      ],
    ]);
  });

  it("says where the entry point is when the root that declares it has nothing left to migrate", async () => {
    const dir = tree({
      "edge/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${RULESET}`,
      "pagerules/main.tf": PAGE_RULES,
    });
    const report = await scan(dir);
    expect((report.zones as Entry[]).map((z) => [z.zoneId, z.root])).toEqual([[ZONE, "pagerules"]]);
    const exists = report.findings.filter((f) => f.code === "MANAGED_RULESET_EXISTS") as At[];
    expect(exists.map((f) => [f.root, f.zoneId, f.address, f.file, f.line, f.details])).toEqual([
      ["pagerules", ZONE, "cloudflare_ruleset.managed", "edge/main.tf", 5, { otherRoot: "edge", otherWorkspace: "default", address: "cloudflare_ruleset.managed" }],
    ]);
    expect(exists[0]!.message).toContain("merge the skip rules planned in pagerules into it there");
  });
});

describe("estate plan: the entry point another root declares reaches that root's plan files", () => {
  it("puts the MANAGED_RULESET_EXISTS of the other root's ruleset into the planning root's report.json", async () => {
    const dir = tree({
      "edge/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${RULESET}`,
      "pagerules/main.tf": PAGE_RULES,
    });
    const r = await runCli(["plan", ".", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const own = JSON.parse(readFileSync(path.join(dir, "out/pagerules/report.json"), "utf8")) as Report;
    expect(own.findings.filter((f) => f.code === "MANAGED_RULESET_EXISTS").map((f) => [f.address, f.file])).toEqual([["cloudflare_ruleset.managed", "edge/main.tf"]]);
  });
});

describe("--ruleset-root naming a root that has nothing of the zone", () => {
  it("is refused (exit 2, one line) instead of being ignored; a root that has the zone is honoured", async () => {
    // waf's zone id is only known from state (cloudflare_zone.bank.id): offline it is not this zone.
    const dir = tree({
      "pagerules/main.tf": PAGE_RULES,
      "security/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${BYPASS}`,
      "waf/main.tf": `resource "cloudflare_zone" "bank" {\n  zone = "bank.example"\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id     = cloudflare_zone.bank.id\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "medium"\n}\n`,
    });
    for (const command of ["scan", "plan"]) {
      const r = await runCli([command, ".", "--ruleset-root", `${ZONE}=waf`, "--format", "json", "--quiet"], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.trim().split("\n")).toEqual([
        `cf-waf-migrate: --ruleset-root ${ZONE}=waf: root waf has nothing of zone ${ZONE} known offline (the zone is in pagerules, security), so its ruleset cannot go there; if a zone id of waf is an expression only state or a variable knows, give it (--state, --var-file, --var) first`,
      ]);
    }
    const ok = await runCli(["scan", ".", "--ruleset-root", `${ZONE}=security`, "--format", "json", "--quiet"], { cwd: dir });
    expect(ok.exitCode).toBe(0);
    const zones = (JSON.parse(ok.stdout) as Report).zones as Entry[];
    expect(zones.filter((z) => z.zoneId === ZONE).map((z) => [z.root, z.rulesetIn?.root ?? null])).toEqual([
      ["pagerules", "security"],
      ["security", null],
    ]);
  });
});

describe("plan of one root: another root of the repository already declares the zone's entry point", () => {
  it("MANAGED_RULESET_EXISTS at that root's ruleset, and PLAN.md steps 2 and 3 name it", async () => {
    const dir = tree({
      ".git/HEAD": "ref: refs/heads/main\n",
      "edge/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${RULESET}`,
      "pagerules/main.tf": PAGE_RULES,
    });
    const r = await runCli(["--chdir", "pagerules", "plan", ".", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    const exists = report.findings.filter((f) => f.code === "MANAGED_RULESET_EXISTS");
    expect(exists.map((f) => [f.address, f.file, f.line, f.details])).toEqual([
      ["cloudflare_ruleset.managed", "../edge/main.tf", 5, { otherRoot: "../edge", address: "cloudflare_ruleset.managed" }],
    ]);
    const md = readFileSync(path.join(dir, "pagerules/out/PLAN.md"), "utf8");
    expect(md.slice(md.indexOf("### 2."), md.indexOf("### 3."))).toContain("cloudflare_ruleset.managed of root ../edge (../edge/main.tf:5) already manages its http_request_firewall_managed entry point");
  });
});

describe("migrate.sh and apply of the root that would import a second entry point ruleset", () => {
  const repo = () =>
    tree({
      ".git/HEAD": "ref: refs/heads/main\n",
      "edge/main.tf": `locals {\n  zone_id = "${ZONE}"\n}\n\n${RULESET}`,
      "pagerules/main.tf": PAGE_RULES,
    });
  const REFUSAL =
    "another root already manages the http_request_firewall_managed entry point of a zone whose ruleset step 3 would import here, as a second resource for it (two roots managing one ruleset, each apply overwriting the other)";

  it("migrate.sh of the one-root plan and of the estate plan refuses to start, nothing changed", async () => {
    const dir = repo();
    const one = tempDir();
    const estate = tempDir();
    expect((await runCli(["plan", "pagerules", "--out-dir", one, "--format", "json", "--quiet"], { cwd: dir })).exitCode).toBe(0);
    expect((await runCli(["plan", ".", "--out-dir", estate, "--format", "json", "--quiet"], { cwd: dir })).exitCode).toBe(0);
    const tf = path.join(tempDir(), "tf");
    writeFileSync(tf, "#!/usr/bin/env bash\necho 'tf stub: fails' >&2\nexit 1\n", { mode: 0o755 });
    const before = snapshot(dir);
    for (const [script, at] of [
      [path.join(one, "migrate.sh"), "../edge/main.tf:5: cloudflare_ruleset.managed in root edge"],
      [path.join(estate, "pagerules/migrate.sh"), "edge/main.tf:5: cloudflare_ruleset.managed in root edge"],
    ] as const) {
      const r = spawnSync("bash", [script, "--yes"], { cwd: path.join(dir, "pagerules"), env: { ...process.env, TF: tf }, encoding: "utf8" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`migrate.sh: refusing to start: ${REFUSAL}:`);
      expect(r.stderr).toContain(`${at} (zone ${ZONE}) (MANAGED_RULESET_EXISTS)`);
      expect(r.stderr).not.toContain("tf stub");
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it("apply refuses before any change (exit 2)", async () => {
    const dir = repo();
    const out = tempDir();
    expect((await runCli(["plan", "pagerules", "--out-dir", out, "--format", "json", "--quiet"], { cwd: dir })).exitCode).toBe(0);
    cpSync(path.join(out, "ruleset.tf"), path.join(dir, "pagerules/cf-waf-migrate-ruleset.tf"));
    writeFileSync(path.join(dir, "pagerules/terraform.tfstate"), JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 3, lineage: "5d0c3f52-pr", outputs: {}, resources: [] }));
    const before = snapshot(dir);
    const log = path.join(tempDir(), "argv.log");
    const r = await runCli(["apply", "--chdir", "pagerules", "--no-rehearsal", "--yes", "--ruleset-id", `${ZONE}=${"a".repeat(32)}`, "--accept-missing-skip-rules"], {
      cwd: dir,
      env: { PATH: `${fakeTerraformBin()}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: log },
    });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("apply refused, nothing was changed");
    expect(r.stderr).toContain(`../edge/main.tf:5: cloudflare_ruleset.managed in root ../edge (zone ${ZONE}) (MANAGED_RULESET_EXISTS): ${REFUSAL}`);
    const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l)[0]) : [];
    expect(calls).toEqual(["version", "state"]);
    expect(snapshot(dir)).toEqual(before);
  });
});
