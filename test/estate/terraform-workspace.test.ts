// `terraform.workspace`: evaluated to the workspace terraform would run in when that is certain, unresolved
// otherwise. With a state: its workspace when the state was read where the local backend keeps it
// (ROOT/terraform.tfstate.d/<ws>/, ROOT/terraform.tfstate) or pulled; a state saved anywhere else may come
// from any workspace. Without: TF_WORKSPACE, `.terraform/environment`, else `default` in an initialised
// checkout; an uninitialised one says nothing (its workspaces may be in a remote backend). The root is the common real-world shape: one zone per
// workspace through a map, and a rule counted on for prod only.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadEstate } from "../../src/estate/load.js";
import { selectedWorkspaceOf } from "../../src/terraform/runner/data-dir.js";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const MAIN_TF = `
variable "zones" {
  type = map(string)
  default = {
    prod    = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    staging = "1b2c3d4e5f60718293a4b5c6d7e8f901"
  }
}

resource "cloudflare_waf_rule" "sqli" {
  count   = terraform.workspace == "prod" ? 1 : 0
  zone_id = lookup(var.zones, terraform.workspace)
  rule_id = "100000"
  mode    = "block"
}
`;

function root(opts: { environment?: string; stateDir?: boolean } = {}): string {
  const dir = tempDir("cfwm-tfws-");
  writeFileSync(path.join(dir, "main.tf"), MAIN_TF);
  if (opts.environment !== undefined) {
    mkdirSync(path.join(dir, ".terraform"));
    writeFileSync(path.join(dir, ".terraform", "environment"), opts.environment);
  }
  if (opts.stateDir) mkdirSync(path.join(dir, "terraform.tfstate.d", "staging"), { recursive: true });
  return dir;
}

async function sqli(dir: string) {
  const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
  return estate.instances[0]!.ws.resources.filter((r) => r.type === "cloudflare_waf_rule");
}

describe("terraform.workspace in a configuration-only instance", () => {
  it("follows .terraform/environment: prod counts the rule in the prod zone", async () => {
    const rules = await sqli(root({ environment: "prod\n" }));
    expect(rules.map((r) => [r.address, r.zoneId])).toEqual([["cloudflare_waf_rule.sqli[0]", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"]]);
  });

  it("is default in an initialised checkout with no selection, unknown in an uninitialised one (never a guessed count 0)", async () => {
    const initialised = root();
    mkdirSync(path.join(initialised, ".terraform"));
    expect(selectedWorkspaceOf(initialised, {})).toBe("default");
    expect(selectedWorkspaceOf(root(), {})).toBeNull();
    expect(selectedWorkspaceOf(root({ stateDir: true }), {})).toBeNull();
    // Uninitialised: the rule's count is unknown, so it is not silently dropped.
    const rules = await sqli(root());
    expect(rules.map((r) => r.address)).toEqual(["cloudflare_waf_rule.sqli"]);
    expect(selectedWorkspaceOf(root({ stateDir: true }), { TF_WORKSPACE: "staging" })).toBe("staging");
    expect(selectedWorkspaceOf(root({ environment: "staging" }), { TF_WORKSPACE: "prod" })).toBe("prod");
  });
});

describe("the configuration-only instance's name", () => {
  it("is the workspace terraform would run in (.terraform/environment), in the estate, the report and migrate.sh; default stays default", async () => {
    const dir = root({ environment: "prod\n" });
    const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
    expect(estate.instances.map((i) => i.workspace)).toEqual(["prod"]);

    const out = path.join(tempDir("cfwm-tfws-plan-"), "plan");
    const r = await runCli(["plan", ".", "--out-dir", out, "--format", "json"], { cwd: dir, env: { TF_WORKSPACE: "" } });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { roots?: { workspace: string }[]; resources: { address: string; workspace?: string }[] };
    expect(report.resources.filter((x) => x.address.startsWith("cloudflare_waf_rule.")).map((x) => [x.address, x.workspace ?? "default"])).toEqual([["cloudflare_waf_rule.sqli[0]", "prod"]]);
    expect(report.roots?.map((x) => x.workspace)).toEqual(["prod"]);
    // migrate.sh changes the state of the workspace the plan was made for, whichever is selected later.
    expect(readFileSync(path.join(out, "migrate.sh"), "utf8")).toMatch(/^export TF_WORKSPACE='?prod'?$/m);

    const plain = root();
    mkdirSync(path.join(plain, ".terraform"));
    const def = await loadEstate({ paths: ["."], statePaths: [], cwd: plain, readStdin: async () => Buffer.alloc(0) });
    expect(def.instances.map((i) => i.workspace)).toEqual(["default"]);
    const defOut = path.join(tempDir("cfwm-tfws-plan-"), "plan");
    expect((await runCli(["plan", ".", "--out-dir", defOut, "--format", "json"], { cwd: plain, env: { TF_WORKSPACE: "" } })).exitCode).toBe(0);
    expect(readFileSync(path.join(defOut, "migrate.sh"), "utf8")).not.toMatch(/^export TF_WORKSPACE=/m);
  });
});

// Through the CLI on the estate fixture's shape (settings from YAML by workspace name).
const EU_ZONE = "1b2c3d4e5f60718293a4b5c6d7e8f901";
/** A workspace created (`terraform workspace new eu`) but not applied yet: its state holds nothing. */
const EMPTY_STATE = JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "eu", outputs: {}, resources: [] });

interface ScanJson {
  resources: { address: string; zoneId: string | null; workspace: string }[];
  findings: { code: string; message: string }[];
}

function stagingEstate(): string {
  const top = tempDir("cfwm-tfws-estate-");
  cpSync(path.join(TESTDATA, "estate/live/staging"), path.join(top, "live/staging"), { recursive: true });
  cpSync(path.join(TESTDATA, "estate/modules"), path.join(top, "modules"), { recursive: true });
  return top;
}

async function scanStaging(top: string, state: string): Promise<ScanJson> {
  const r = await runCli(["scan", "live/staging", "--state", state, "--format", "json"], { cwd: top });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ScanJson;
}

const owasp = (j: ScanJson) => j.resources.filter((r) => r.address.endsWith("cloudflare_waf_package.owasp"));

describe("terraform.workspace with a state", () => {
  it("is the workspace whose state comes from ROOT/terraform.tfstate.d/<ws>/: the settings YAML picks that workspace's zone", async () => {
    const top = stagingEstate();
    const dir = path.join(top, "live/staging/terraform.tfstate.d/eu");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "terraform.tfstate"), EMPTY_STATE);
    const j = await scanStaging(top, "live/staging/terraform.tfstate.d/eu/terraform.tfstate");
    expect(owasp(j).map((r) => [r.workspace, r.zoneId])).toEqual([["eu", EU_ZONE]]);
    const unresolved = j.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.message.includes("terraform.workspace"));
    // Known: only the warning that the root's other workspace (us, with its own state there) is not read.
    expect(unresolved.map((f) => (f as { details?: unknown }).details)).toEqual([{ terraformWorkspace: true, workspacesRead: ["eu"], workspacesNotRead: ["us"] }]);
  });

  it("stays unknown for a state saved elsewhere (it may come from any workspace), and says how to make it known", async () => {
    const top = stagingEstate();
    writeFileSync(path.join(top, "live/staging/saved.tfstate"), EMPTY_STATE);
    const j = await scanStaging(top, "live/staging/saved.tfstate");
    expect(owasp(j).every((r) => r.zoneId === null || !/^[0-9a-f]{32}$/.test(r.zoneId))).toBe(true);
    const unresolved = j.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.message.includes("terraform.workspace"));
    expect(unresolved.length).toBeGreaterThan(0);
    expect(unresolved[0]!.message).toContain("terraform.tfstate.d/<workspace>/");
  });
});
