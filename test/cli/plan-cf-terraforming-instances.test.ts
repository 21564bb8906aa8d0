// --from-cf-terraforming over several instances: a resource whose zone_id names a zone serves that zone
// only. With one resource and one zone per instance, it was taken for every instance's zone, whatever
// zone_id it had (testdata/estate's live/staging: workspaces eu and us, each its own zone).
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const US = "2c3d4e5f60718293a4b5c6d7e8f90112";

describe("plan --from-cf-terraforming over two workspaces", () => {
  it("uses a resource for the zone its zone_id names, not for the other workspace's zone", async () => {
    const top = tempDir("cfwm-cft-instances-");
    cpSync(path.join(TESTDATA, "estate/live/staging"), path.join(top, "live/staging"), { recursive: true });
    cpSync(path.join(TESTDATA, "estate/modules"), path.join(top, "modules"), { recursive: true });
    const root = path.join(top, "live/staging");
    writeFileSync(path.join(top, "cft.tf"), `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = "${US}"\n}\n`);
    const states = ["eu", "us"].flatMap((ws) => ["--state", `terraform.tfstate.d/${ws}/terraform.tfstate`]);
    const r = await runCli(["plan", ".", ...states, "--from-cf-terraforming", "../../cft.tf", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const eu = readFileSync(path.join(root, "out/_root/eu/ruleset.tf"), "utf8");
    expect(eu).not.toContain("terraform_managed_resource_abc");
    expect(eu).not.toContain(US);
    expect(readFileSync(path.join(root, "out/_root/us/ruleset.tf"), "utf8")).toContain(`resource "cloudflare_ruleset" "terraform_managed_resource_abc"`);
  });
});
