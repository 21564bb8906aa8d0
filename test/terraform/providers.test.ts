import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  collectProviderInfo,
  detectProviderMajor,
  hclEntryLines,
  isCloudflareSource,
  maskTrivia,
  rootProviderMajor,
  workspaceProviderMajor,
  type ProviderInfo,
} from "../../src/terraform/versions/providers.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";

const TESTDATA = fileURLToPath(new URL("../../testdata", import.meta.url));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-providers-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function info(paths: string[], cwd: string): Promise<ProviderInfo> {
  const ws = await loadWorkspace({ paths, statePaths: [], cwd, readStdin: async () => Buffer.alloc(0) });
  expect(ws.errors).toEqual([]);
  return collectProviderInfo(ws.tree, ws.base);
}

const LOCK = (source: string, version: string) => `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}

provider "${source}" {
  version     = "${version}"
  constraints = "~> 3.30"
  hashes = [
    "h1:8rO1U+k+sMJwQVsTIfs9NVvHdGwbf0VgHWD6XK1BJsk=",
  ]
}
`;

// Every form of a required_providers entry, one per module, all called from the root.
const FILES: Record<string, string> = {
  "main.tf": `terraform {
  required_version = ">= 1.5.0"
  backend "local" {
    path = "cloudflare = \\"x\\""
  }

  required_providers {
    # cloudflare = "~> 2.0"
    /* cloudflare = { version = "~> 1.0" } */
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

module "legacy_string" {
  source = "./modules/legacy-string"
}
module "host" {
  source = "./modules/host"
}
module "tofu" {
  source = "./modules/tofu"
}
module "implied" {
  source = "./modules/implied"
}
module "json" {
  source = "./modules/json"
}
module "none" {
  source = "./modules/none"
}
`,
  ".terraform.lock.hcl": LOCK("registry.terraform.io/cloudflare/cloudflare", "3.35.0"),
  "modules/legacy-string/versions.tf": `terraform {
  required_providers {
    cloudflare = "~> 3.0"
  }
}
`,
  // A lock file in a module directory is not the one terraform init uses: ignored.
  "modules/legacy-string/.terraform.lock.hcl": LOCK("registry.terraform.io/cloudflare/cloudflare", "4.52.8"),
  "modules/host/versions.tf": `
# The first terraform block has no required_providers.
terraform {
  experiments = []
}

terraform {
  required_providers {
    cloudflare = { source = "registry.terraform.io/cloudflare/cloudflare", version = ">= 3.0" }
  }
}
`,
  "modules/tofu/versions.tf": `terraform {
  required_providers {
    cf = {
      source = "registry.opentofu.org/cloudflare/cloudflare"
    }
    other = {
      source  = "someone/cloudflare-tools"
      version = "1.0.0"
    }
  }
}
`,
  "modules/implied/versions.tf": `terraform {
  required_providers {
    cloudflare = {
      configuration_aliases = [cloudflare.alt]
      version               = ">= 3.20"
    }
  }
}
`,
  "modules/json/versions.tf.json": `{
  "terraform": {
    "required_providers": {
      "cloudflare": {
        "source": "cloudflare/cloudflare",
        "version": "~> 3.33"
      }
    }
  }
}
`,
  "modules/none/main.tf": `resource "cloudflare_waf_package" "p" {
  zone_id    = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"
  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"
}
`,
};

describe("collectProviderInfo: required_providers entries", () => {
  it("finds every form, with the line of the entry and of its version", async () => {
    const dir = tree(FILES);
    const { roots, errors } = await info(["."], dir);
    expect(errors).toEqual([]);
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.root).toBe(".");
    const order = (r: { module: string }) => r.module;
    expect([...root.requirements].sort((a, b) => order(a).localeCompare(order(b)))).toEqual([
      { localName: "cloudflare", source: "cloudflare/cloudflare", constraint: "~> 3.30", stringForm: false, file: "main.tf", line: 14, versionLine: 16, module: "" },
      { localName: "cloudflare", source: "registry.terraform.io/cloudflare/cloudflare", constraint: ">= 3.0", stringForm: false, file: "modules/host/versions.tf", line: 9, versionLine: 9, module: "module.host" },
      { localName: "cloudflare", source: null, constraint: ">= 3.20", stringForm: false, file: "modules/implied/versions.tf", line: 3, versionLine: 5, module: "module.implied" },
      { localName: "cloudflare", source: "cloudflare/cloudflare", constraint: "~> 3.33", stringForm: false, file: "modules/json/versions.tf.json", line: 4, versionLine: 6, module: "module.json" },
      { localName: "cloudflare", source: null, constraint: "~> 3.0", stringForm: true, file: "modules/legacy-string/versions.tf", line: 3, versionLine: 3, module: "module.legacy_string" },
      { localName: "cf", source: "registry.opentofu.org/cloudflare/cloudflare", constraint: "", stringForm: false, file: "modules/tofu/versions.tf", line: 3, versionLine: 3, module: "module.tofu" },
    ]);
    expect([...root.moduleDirs].sort()).toEqual([".", "modules/host", "modules/implied", "modules/json", "modules/legacy-string", "modules/none", "modules/tofu"]);
    expect(root.anchor).toEqual({ file: "main.tf", line: 1 });
  });

  it("reads .terraform.lock.hcl from the root directory only", async () => {
    const dir = tree(FILES);
    const { roots } = await info([dir], os.tmpdir());
    expect(roots[0]!.lock).toEqual({ source: "registry.terraform.io/cloudflare/cloudflare", version: "3.35.0", constraints: "~> 3.30", file: ".terraform.lock.hcl", line: 11 });
  });

  it("one entry per root; each root has its own lock (Terraform's or OpenTofu's registry)", async () => {
    const dir = tree({
      "envs/prod/main.tf": `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 4.52"\n    }\n  }\n}\nmodule "waf" {\n  source = "../../modules/waf"\n}\n`,
      "envs/prod/.terraform.lock.hcl": LOCK("registry.terraform.io/cloudflare/cloudflare", "4.52.8"),
      "envs/stage/main.tf": `terraform {\n  required_providers {\n    cloudflare = "~> 3.30"\n  }\n}\nmodule "waf" {\n  source = "../../modules/waf"\n}\n`,
      "envs/stage/.terraform.lock.hcl": LOCK("registry.opentofu.org/cloudflare/cloudflare", "3.35.0"),
      "modules/waf/versions.tf": `terraform {\n  required_providers {\n    cloudflare = {\n      source = "cloudflare/cloudflare"\n    }\n  }\n}\n`,
    });
    const { roots, errors } = await info(["."], dir);
    expect(errors).toEqual([]);
    expect(roots.map((r) => r.root).sort()).toEqual(["envs/prod", "envs/stage"]);
    const prod = roots.find((r) => r.root === "envs/prod")!;
    const stage = roots.find((r) => r.root === "envs/stage")!;
    expect(prod.requirements.map((r) => [r.file, r.line, r.constraint, r.module])).toEqual([
      ["envs/prod/main.tf", 3, "~> 4.52", ""],
      ["modules/waf/versions.tf", 3, "", "module.waf"],
    ]);
    expect(stage.requirements.map((r) => [r.file, r.line, r.constraint])).toEqual([
      ["envs/stage/main.tf", 3, "~> 3.30"],
      ["modules/waf/versions.tf", 3, ""],
    ]);
    expect(prod.lock).toMatchObject({ version: "4.52.8", file: "envs/prod/.terraform.lock.hcl", line: 11 });
    expect(stage.lock).toMatchObject({ version: "3.35.0", source: "registry.opentofu.org/cloudflare/cloudflare" });
    expect(rootProviderMajor(prod)).toBe(4);
    expect(rootProviderMajor(stage)).toBe(3);
    expect(workspaceProviderMajor({ roots, errors })).toBeNull();
    expect(workspaceProviderMajor({ roots: [prod], errors })).toBe(4);
  });

  it("a lock file that does not parse, or has no version, is an input error", async () => {
    const dir = tree({
      "a/main.tf": `terraform {\n  required_providers {\n    cloudflare = "~> 3.30"\n  }\n}\n`,
      "a/.terraform.lock.hcl": `provider "registry.terraform.io/cloudflare/cloudflare" {\n  version = \n}\n`,
      "b/main.tf": `terraform {\n  required_providers {\n    cloudflare = "~> 3.30"\n  }\n}\n`,
      "b/.terraform.lock.hcl": `\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  constraints = "~> 3.30"\n}\n`,
    });
    const { roots, errors } = await info(["."], dir);
    expect(errors).toEqual([
      { file: "a/.terraform.lock.hcl", line: 2, column: expect.any(Number), message: expect.any(String) },
      { file: "b/.terraform.lock.hcl", line: 2, column: null, message: expect.stringContaining("has no version") },
    ]);
    expect(roots.find((r) => r.root === "a")!.lock).toBeNull();
    expect(roots.find((r) => r.root === "b")!.lock).toMatchObject({ version: null, line: 2 });
  });

  it("the multi-zone example: ~> 3.30 on main.tf:4, lock 3.35.0", async () => {
    const { roots } = await info([path.join(TESTDATA, "multi-zone")], process.cwd());
    const root = roots.find((r) => r.root === ".")!;
    expect(root.requirements.map((r) => [r.file, r.line, r.constraint])).toEqual([["main.tf", 4, "~> 3.30"]]);
    expect(root.lock).toMatchObject({ version: "3.35.0", file: ".terraform.lock.hcl", line: 4 });
  });

  it("the fixtures of the gate", async () => {
    const up = (await info([path.join(TESTDATA, "provider-upgrade")], process.cwd())).roots[0]!;
    expect(up.requirements.map((r) => [r.file, r.line, r.constraint])).toEqual([
      ["main.tf", 8, ">= 3.0"],
      ["modules/waf/main.tf", 4, ""],
    ]);
    const migrated = (await info([path.join(TESTDATA, "already-migrated")], process.cwd())).roots[0]!;
    expect(migrated.requirements.map((r) => [r.line, r.constraint])).toEqual([[5, "~> 4.52"]]);
    expect(rootProviderMajor(migrated)).toBe(4);
  });
});

describe("line finding", () => {
  it("maskTrivia keeps offsets and lines, blanks comments, strings and heredocs", () => {
    const text = `a = "x = 1" # b = 2\n/* c =\n 3 */ d = <<EOT\ne = 4\nEOT\n`;
    const masked = maskTrivia(text);
    expect(masked).toHaveLength(text.length);
    expect(masked.split("\n")).toHaveLength(text.split("\n").length);
    expect(masked).not.toMatch(/[bce] =/);
    expect(masked).toMatch(/^a = " +" /);
    expect(masked).toContain("d = ");
  });

  it("hclEntryLines picks the nth terraform block on a line and the nth required_providers block", () => {
    const text = `terraform {\n  required_providers {\n    cloudflare = "~> 3.0"\n  }\n  required_providers {\n    cf = {\n      version = "1"\n    }\n  }\n}\n`;
    const at = hclEntryLines(text, 1);
    expect(at(0, "cloudflare")).toEqual({ line: 3, versionLine: null });
    expect(at(1, "cf")).toEqual({ line: 6, versionLine: 7 });
    expect(at(0, "cf")).toBeNull();
    expect(hclEntryLines(text, 2)(0, "cloudflare")).toBeNull();
  });

  it.each([
    ["cloudflare/cloudflare", true],
    ["Cloudflare/Cloudflare", true],
    ["registry.terraform.io/cloudflare/cloudflare", true],
    ["registry.opentofu.org/cloudflare/cloudflare", true],
    ["terraform.example.com/cloudflare/cloudflare", true],
    ["hashicorp/cloudflare", true],
    ["cloudflare/cloudflare-tools", false],
    ["someone/cloudflare", false],
    ["cloudflare", false],
    ["a/b/cloudflare/cloudflare", false],
  ])("isCloudflareSource(%j) is %s", (source, expected) => {
    expect(isCloudflareSource(source)).toBe(expected);
  });
});

describe("detectProviderMajor", () => {
  it.each([
    [{ lockedVersion: "3.35.0", constraints: [">= 3.0"] }, 3],
    [{ lockedVersion: "4.52.8", constraints: ["~> 3.30"] }, 4], // the lock is what is installed
    [{ lockedVersion: "5.8.2" }, 5],
    [{ lockedVersion: "2.19.2" }, 3],
    [{ lockedVersion: "6.0.0" }, 5],
    [{ lockedVersion: "not-a-version", constraints: ["~> 4.52"] }, 4],
    [{ constraints: ["~> 4.52"] }, 4],
    [{ constraints: [">= 3.0"] }, 3],
    [{ constraints: ["~> 5.8"] }, 5],
    [{ constraints: [">= 6.1"] }, 5],
    [{ constraints: ["< 4.0"] }, 3],
    [{ constraints: [">= 3.0", ">= 4.2"] }, 4], // ANDed
    [{ constraints: [">= 4.0.0-rc1"] }, 4],
    [{ constraints: ["= 4.0.0-rc1"] }, 4],
    [{ constraints: ["", "~> 4.1"] }, 4],
    [{ constraints: ["=> 3.0", "~> 5.0"] }, 5], // an invalid constraint is ignored
    [{ constraints: [">= 4.0", "< 3.0"] }, null], // nothing meets it
    [{ constraints: [""] }, null],
    [{ constraints: [] }, null],
    [{}, null],
  ])("%j → %s", (input, expected) => {
    expect(detectProviderMajor(input)).toBe(expected);
  });
});
