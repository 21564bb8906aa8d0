// gate merges PROVIDER_UPGRADE_BLOCKED into PROVIDER_FEATURE_MISSING ("legacy resources") for an instance
// that has both. It wrote the addresses into the PROVIDER_FEATURE_MISSING finding it was given, so a scan or
// plan report built from the same version findings changed when gate ran. It now gives them to a copy.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { estateProviderGate, oneFindingPerProviderCause, rootProviderInfo } from "../../src/estate/gate.js";
import { loadEstate } from "../../src/estate/load.js";
import { versionFindings } from "../../src/plan/versions.js";
import { collectProviderInfo } from "../../src/terraform/versions/providers.js";
import { tempDir } from "../support/workdir.js";

const noStdin = async () => Buffer.alloc(0);

describe("oneFindingPerProviderCause", () => {
  it("leaves the version findings (what the scan report holds) as they were, and gives the addresses to a copy", async () => {
    // A root that still holds a legacy package while its constraint admits only provider 4.
    const dir = path.join(tempDir("cfwm-gate-findings-"), "live/waf");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "versions.tf"), `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 4.0"\n    }\n  }\n}\n`);
    writeFileSync(path.join(dir, "main.tf"), `resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "off"\n  action_mode = "challenge"\n}\n`);
    const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin });
    const providers = await collectProviderInfo(estate.tree, estate.base);
    const inst = estate.instances[0]!;
    // As gate builds them: each instance's version findings carry its root and workspace.
    const versions = versionFindings(inst.ws, rootProviderInfo(providers, inst.dir), []).map((f) => ({ ...f, root: inst.root, workspace: inst.workspace }));
    const upgrade = estateProviderGate(estate, providers, undefined).findings;
    expect(upgrade.map((f) => f.code)).toContain("PROVIDER_UPGRADE_BLOCKED");
    const scanBefore = JSON.stringify(versions);
    const upgradeBefore = JSON.stringify(upgrade);

    const gated = oneFindingPerProviderCause(upgrade, versions);

    expect(JSON.stringify(versions)).toBe(scanBefore);
    expect(JSON.stringify(upgrade)).toBe(upgradeBefore);
    expect(gated.map((f) => f.code)).not.toContain("PROVIDER_UPGRADE_BLOCKED");
    const missing = gated.find((f) => f.code === "PROVIDER_FEATURE_MISSING")!;
    expect(missing.details).toMatchObject({ construct: "legacy resources", addresses: ["cloudflare_waf_package.owasp"] });
    expect(versions).not.toContain(missing);
    expect(versions.find((f) => f.code === "PROVIDER_FEATURE_MISSING")!.details).not.toHaveProperty("addresses");
  });
});
