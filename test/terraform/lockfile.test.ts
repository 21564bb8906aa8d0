import { describe, expect, it } from "vitest";
import { decideProviderUpgrade } from "../../src/core/provider-version.js";
import { cloudflareLock, LockFileError, parseLockFile } from "../../src/terraform/versions/lockfile.js";

const TERRAFORM_LOCK = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/cloudflare/cloudflare" {
  version     = "3.35.0"
  constraints = "~> 3.30"
  hashes = [
    "h1:jXW4Yhlvdmo0ijMxGoOGxQnI9DiNSvqvKDhlpFzNXaU=",
    "zh:0a4c9f7a0d8a0b9c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}
`;

const TOFU_LOCK = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/random" {
  version     = "3.6.2"
  constraints = ">= 3.0.0"
}

provider "registry.opentofu.org/cloudflare/cloudflare" {
  version     = "4.52.8"
  constraints = ">= 3.0.0, < 5.0.0"
  hashes      = ["h1:abc="]
}
`;

describe("parseLockFile", () => {
  it("reads a Terraform lock file with the line of each provider block", async () => {
    const entries = await parseLockFile(TERRAFORM_LOCK);
    expect(entries).toEqual([
      { source: "registry.terraform.io/cloudflare/cloudflare", version: "3.35.0", constraints: "~> 3.30", line: 4 },
      { source: "registry.terraform.io/hashicorp/random", version: "3.6.0", constraints: null, line: 13 },
    ]);
    const cf = cloudflareLock(entries);
    expect(cf?.version).toBe("3.35.0");
    expect(decideProviderUpgrade({ constraints: [cf!.constraints!], lockedVersion: cf!.version! })).toMatchObject({
      blocked: false,
      lockedHasLegacySchema: true,
    });
  });

  it("reads an OpenTofu lock file (registry.opentofu.org)", async () => {
    const entries = await parseLockFile(TOFU_LOCK, "envs/prod/.terraform.lock.hcl");
    const cf = cloudflareLock(entries);
    expect(cf).toEqual({
      source: "registry.opentofu.org/cloudflare/cloudflare",
      version: "4.52.8",
      constraints: ">= 3.0.0, < 5.0.0",
      line: 9,
    });
    expect(decideProviderUpgrade({ constraints: [cf!.constraints!], lockedVersion: cf!.version! })).toMatchObject({
      blocked: true,
      allowsLegacyRemoval: true,
      lockedHasLegacySchema: false,
    });
  });

  it("finds the block even when the label text also appears in a comment above it", async () => {
    const text = `# provider "registry.terraform.io/cloudflare/cloudflare" was upgraded\n\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  version = "3.34.0"\n}\n`;
    expect(await parseLockFile(text)).toEqual([
      { source: "registry.terraform.io/cloudflare/cloudflare", version: "3.34.0", constraints: null, line: 3 },
    ]);
  });

  it("handles CRLF line endings and an empty file", async () => {
    const crlf = TERRAFORM_LOCK.replace(/\n/g, "\r\n");
    expect((await parseLockFile(crlf)).map((e) => e.line)).toEqual([4, 13]);
    expect(await parseLockFile("")).toEqual([]);
    expect(cloudflareLock([])).toBeNull();
  });

  it("returns null when the Cloudflare provider is not locked", async () => {
    const entries = await parseLockFile(`provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n}\n`);
    expect(cloudflareLock(entries)).toBeNull();
  });

  it("prefers Terraform's registry when both registries are present", async () => {
    const text = `provider "registry.opentofu.org/cloudflare/cloudflare" {\n  version = "4.0.0"\n}\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  version = "3.35.0"\n}\n`;
    expect(cloudflareLock(await parseLockFile(text))?.version).toBe("3.35.0");
  });

  it("reports invalid HCL as a LockFileError with file, line and column", async () => {
    const bad = `provider "registry.terraform.io/cloudflare/cloudflare" {\n  version = \n}\n`;
    let err: unknown;
    try {
      await parseLockFile(bad, "infra/.terraform.lock.hcl");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LockFileError);
    const le = err as LockFileError;
    expect(le.file).toBe("infra/.terraform.lock.hcl");
    expect(le.line).toBe(2);
    expect(le.column).toBeGreaterThan(0);
    expect(le.message).toMatch(/^infra\/\.terraform\.lock\.hcl:2:\d+: Invalid expression/);
  });
});
