// `removed.tf` (Terraform 1.7+, a lock still on provider <= 3.35) is step 5's alternative. A `removed {}` block
// is refused while its resource block is configured, so using it means deleting the module's legacy blocks at
// once; when another root calls that module, its states lose the blocks too and its next apply destroys its
// legacy instances. A plan for one root of such a module writes no removed.tf and says why in step 5.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, FAKE_TERRAFORM, tempDir } from "../support/workdir.js";

const LOCK = `provider "registry.terraform.io/cloudflare/cloudflare" {
  version     = "3.35.0"
  constraints = "~> 3.35"
  hashes = [
    "h1:abc=",
  ]
}
`;

/** live/prod of the shared-module fixture, on Terraform >= 1.7 with a lock on 3.35.0 (removed {} eligible). */
function prodRoot(withOtherCaller: boolean): string {
  const top = copyFixture("shared-module-one-root");
  const prod = path.join(top, "live/prod");
  writeFileSync(path.join(prod, "main.tf"), readFileSync(path.join(prod, "main.tf"), "utf8").replace('required_version = ">= 1.5.0"', 'required_version = ">= 1.7.0"'));
  writeFileSync(path.join(prod, ".terraform.lock.hcl"), LOCK);
  if (!withOtherCaller) rmSync(path.join(top, "live/dev"), { recursive: true, force: true });
  return prod;
}

async function plan(root: string): Promise<{ out: string; planMd: string; report: { plan: { steps: { number: number; notes?: string[] }[] } } }> {
  const out = tempDir("cfwm-removed-");
  const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", out, "--force", "--format", "json"], { cwd: root });
  expect(r.exitCode, r.stderr).toBe(0);
  return { out, planMd: readFileSync(path.join(out, "PLAN.md"), "utf8"), report: JSON.parse(r.stdout) };
}

describe("removed.tf for a module other roots call", () => {
  it("alone in its module's callers: removed.tf is offered as step 5's alternative", async () => {
    const { out, planMd } = await plan(prodRoot(false));
    expect(existsSync(path.join(out, "removed.tf"))).toBe(true);
    expect(planMd).toContain("apply the removed {} blocks in removed.tf");
  });

  // The root's other workspaces share its blocks too, and only `terraform workspace list` knows them (a remote
  // backend's, or one made after the plan). removed.tf was offered with no way to check them short of running
  // migrate.sh itself; `migrate.sh --check-removed` reads them (read-only) and says whether it may be used.
  it("alone: migrate.sh --check-removed reads the root's other workspaces, read-only, and says whether removed.tf may be used", async () => {
    const prod = prodRoot(false);
    const { out, planMd } = await plan(prod);
    expect(planMd).toContain("that deletes them for every workspace of this root: only when no other workspace still holds their instances, which only `terraform workspace list` and their states tell. Run `bash migrate.sh --check-removed` first");
    expect(planMd).toContain("- `removed.tf`: removed {} blocks: the alternative to step 5 while the lock pins provider <= 3.35; it deletes the legacy blocks for every workspace of this root, so run `bash migrate.sh --check-removed` first");
    const log = path.join(tempDir("cfwm-check-removed-"), "tf.log");
    const check = () => spawnSync("bash", [path.join(out, "migrate.sh"), "--check-removed"], { cwd: prod, encoding: "utf8", env: { ...process.env, TF: FAKE_TERRAFORM, FAKE_TF_LOG: log } });

    const alone = check();
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toContain("removed.tf may be used");

    // A workspace eu, made after the plan, holding the same legacy instances.
    mkdirSync(path.join(prod, "terraform.tfstate.d/eu"), { recursive: true });
    copyFileSync(path.join(prod, "terraform.tfstate"), path.join(prod, "terraform.tfstate.d/eu/terraform.tfstate"));
    const before = readFileSync(path.join(prod, "terraform.tfstate"), "utf8");
    const shared = check();
    expect(shared.status).toBe(1);
    expect(shared.stdout).toBe("  workspace eu of this root\n");
    expect(shared.stderr).toContain("migrate.sh: do not use removed.tf: the state(s) above hold legacy instances of the same blocks");
    // Read-only: workspace and state listings only, nothing changed.
    const kinds = new Set(readFileSync(log, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as string[]).slice(0, 2).join(" ")));
    expect([...kinds].sort()).toEqual(["state list", "workspace list", "workspace show"]);
    expect(readFileSync(path.join(prod, "terraform.tfstate"), "utf8")).toBe(before);
    expect(readFileSync(path.join(prod, "main.tf"), "utf8")).toContain("module");
  });

  it("another root calls the module: no removed.tf, and step 5 says why", async () => {
    const { out, planMd, report } = await plan(prodRoot(true));
    expect(readFileSync(path.join(out, "migrate.sh"), "utf8")).not.toContain("--check-removed");
    expect(existsSync(path.join(out, "removed.tf"))).toBe(false);
    expect(planMd).not.toContain("apply the removed {} blocks");
    expect(planMd).not.toContain("`removed.tf`");
    const step5 = report.plan.steps.find((s) => s.number === 5)!;
    expect(step5.notes!.join("\n")).toContain("no removed.tf: removed {} blocks only apply once the legacy blocks are gone from the module, which ../dev also uses");
  });

  it("an estate plan of both roots: neither instance gets removed.tf, each names the other", async () => {
    const prod = prodRoot(true);
    const top = path.resolve(prod, "../..");
    const dev = path.join(top, "live/dev");
    writeFileSync(path.join(dev, "main.tf"), readFileSync(path.join(dev, "main.tf"), "utf8").replace('required_version = ">= 1.5.0"', 'required_version = ">= 1.7.0"'));
    writeFileSync(path.join(dev, ".terraform.lock.hcl"), LOCK);
    const out = tempDir("cfwm-removed-estate-");
    const r = await runCli(["plan", ".", "--state", "live/prod/terraform.tfstate", "--state", "live/dev/terraform.tfstate", "--out-dir", out, "--force", "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    for (const [root, other] of [["live/prod", "live/dev"], ["live/dev", "live/prod"]] as const) {
      expect(existsSync(path.join(out, root, "removed.tf"))).toBe(false);
      expect(readFileSync(path.join(out, root, "PLAN.md"), "utf8")).toContain(`no removed.tf: removed {} blocks only apply once the legacy blocks are gone from the module, which ${other} also uses`);
    }
  });
});
