// The rehearsal's throwaway copy: the root with the local modules it calls (even above it), the state pull
// output as local state, the backend override, and nothing of .terraform, .git or the user's state files.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRehearsalCopy, REHEARSAL_OVERRIDE } from "../../src/apply/rehearsal-copy.js";
import { localStatePath, selectedWorkspace } from "../../src/apply/rehearsal-workspace.js";
import { tempDir } from "../support/workdir.js";

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe("makeRehearsalCopy", () => {
  it("copies the root and a module above it, maps paths, writes the state and the override, leaves the rest out", () => {
    const repo = tempDir("cfwm-reh-copy-");
    const root = path.join(repo, "stacks", "prod");
    write(path.join(root, "main.tf"), 'module "waf" {\n  source = "../../modules/waf"\n}\n');
    write(path.join(root, "backend.tf"), 'terraform {\n  backend "s3" {\n    bucket = "b"\n  }\n}\n');
    write(path.join(root, ".terraform", "providers", "x"), "binary");
    write(path.join(root, "terraform.tfstate"), "the user's old local state");
    write(path.join(repo, "modules", "waf", "main.tf"), 'resource "cloudflare_waf_package" "p" {}\n');
    write(path.join(repo, ".git", "HEAD"), "ref");
    const copy = makeRehearsalCopy(root, '{"version":4}', [path.join(repo, "modules", "waf", "main.tf")]);
    try {
      expect(copy.root).toBe(copy.map(root));
      expect(readFileSync(path.join(copy.root, "main.tf"), "utf8")).toContain("../../modules/waf");
      expect(existsSync(copy.map(path.join(repo, "modules", "waf", "main.tf")))).toBe(true);
      expect(readFileSync(path.join(copy.root, "terraform.tfstate"), "utf8")).toBe('{"version":4}');
      expect(readFileSync(path.join(copy.root, REHEARSAL_OVERRIDE), "utf8")).toContain('backend "local"');
      expect(existsSync(path.join(copy.root, ".terraform"))).toBe(false);
      expect(existsSync(copy.map(path.join(repo, ".git")))).toBe(false);
      expect(copy.dataDir.startsWith(copy.dir)).toBe(true);
      // The user's tree is as it was.
      expect(readFileSync(path.join(root, "terraform.tfstate"), "utf8")).toBe("the user's old local state");
      expect(existsSync(path.join(root, REHEARSAL_OVERRIDE))).toBe(false);
    } finally {
      rmSync(copy.dir, { recursive: true, force: true });
    }
  });
});

describe("the rehearsal copy keeps the user's workspace", () => {
  it("selectedWorkspace: TF_WORKSPACE first, then the data directory's environment file, else default", () => {
    const root = tempDir("cfwm-reh-ws-");
    expect(selectedWorkspace(root, {})).toBe("default");
    write(path.join(root, ".terraform", "environment"), "staging");
    expect(selectedWorkspace(root, {})).toBe("staging");
    expect(selectedWorkspace(root, { TF_WORKSPACE: "prod" })).toBe("prod");
    // TF_DATA_DIR moves the environment file with the rest of the data directory.
    write(path.join(root, "elsewhere", "environment"), "eu\n");
    expect(selectedWorkspace(root, { TF_DATA_DIR: "elsewhere" })).toBe("eu");
    expect(selectedWorkspace(root, { TF_DATA_DIR: path.join(root, "none") })).toBe("default");
  });

  it("a non-default workspace's state goes where the local backend looks for it (its workspace_dir/NAME/)", () => {
    const root = tempDir("cfwm-reh-ws-copy-");
    write(path.join(root, "main.tf"), "");
    const copy = makeRehearsalCopy(root, '{"version":4,"serial":7}', [], "prod");
    try {
      expect(localStatePath("prod")).toBe(path.join("cf-waf-migrate-rehearsal.tfstate.d", "prod", "terraform.tfstate"));
      expect(readFileSync(path.join(copy.root, localStatePath("prod")), "utf8")).toBe('{"version":4,"serial":7}');
      expect(existsSync(path.join(copy.root, "terraform.tfstate"))).toBe(false);
    } finally {
      rmSync(copy.dir, { recursive: true, force: true });
    }
  });
});
