// A root whose configuration reads terraform.workspace gives each workspace its own zone: a run that reads one
// workspace (the one selected here, or the states given) and not the others says so, never reports the one
// as if it were the root. testdata/workspace-zone-lookup: the zone from var.zones by workspace, local
// states for staging and prod.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import type { Finding } from "./split-stacks-repository.js";


/** The fixture as a root `live`, initialised with `selected` selected (null: not initialised here). */
function checkout(selected: string | null, backend?: object): string {
  const top = tempDir("cfwm-ws-not-read-");
  cpSync(path.join(TESTDATA, "workspace-zone-lookup"), path.join(top, "live"), { recursive: true });
  if (selected !== null) {
    mkdirSync(path.join(top, "live/.terraform"), { recursive: true });
    writeFileSync(path.join(top, "live/.terraform/environment"), selected);
    if (backend) writeFileSync(path.join(top, "live/.terraform/terraform.tfstate"), JSON.stringify({ version: 3, backend }));
  }
  return top;
}

async function notRead(top: string, args: string[] = [], env: Record<string, string> = {}): Promise<Finding[]> {
  const r = await runCli(["scan", "live", ...args, "--format", "json", "--fail-on", "never"], { cwd: top, env });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.details?.terraformWorkspace === true);
}

const STAGING = "live/terraform.tfstate.d/staging/terraform.tfstate";
const PROD = "live/terraform.tfstate.d/prod/terraform.tfstate";

describe("a root whose configuration reads terraform.workspace, some of its workspaces not read", () => {
  it("config only, prod selected: one warning at its first legacy block naming staging and its state file", async () => {
    const found = await notRead(checkout("prod"));
    expect(found.map((f) => [f.severity, f.file, f.line, f.root, f.workspace])).toEqual([["warning", "main.tf", 14, ".", "prod"]]);
    expect(found[0]!.details).toMatchObject({ workspacesRead: ["prod"], workspacesNotRead: ["staging"] });
    expect(found[0]!.message).toContain("this root's configuration depends on terraform.workspace, and this run read it for workspace prod only: its workspace staging gives its own zones and settings");
    expect(found[0]!.message).toContain(`--state ${STAGING}`);
    // The same when a root worker builds the instance (estate/parallel/).
    expect(await notRead(checkout("prod"), [], { CFWM_ROOT_WORKERS: "1" })).toEqual(found);
  });

  it("the states given name the workspaces read; every one given, nothing to say", async () => {
    const top = checkout("prod");
    const found = await notRead(top, ["--state", PROD]);
    expect(found[0]!.details).toMatchObject({ workspacesRead: ["prod"], workspacesNotRead: ["staging"] });
    expect(await notRead(top, ["--state", PROD, "--state", STAGING])).toEqual([]);
  });

  it("a backend whose workspaces are not known offline (s3): the others are named as unknown, --pull-state offered", async () => {
    const found = await notRead(checkout("prod", { type: "s3", config: { bucket: "b", key: "k" } }));
    expect(found[0]!.details).toMatchObject({ workspacesRead: ["prod"], workspacesNotRead: null });
    expect(found[0]!.message).toContain("its backend's other workspaces (not known offline) give their own zones");
    expect(found[0]!.message).toContain("--pull-state");
  });

  it("nothing when terraform.workspace is not known offline (not initialised here: VALUE_UNRESOLVED at the zone instead), or not read", async () => {
    expect(await notRead(checkout(null))).toEqual([]);
    const top = checkout("prod");
    const main = path.join(top, "live/main.tf");
    writeFileSync(main, 'resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "3a4b5c6d7e8f90112233445566778899"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "medium"\n}\n');
    expect(await notRead(top)).toEqual([]);
  });
});
