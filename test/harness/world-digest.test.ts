// The kill tests rerun once per tree a kill leaves behind (test/support/world-digest.ts): a digest that
// missed a change would skip reruns that prove something, so what it sees and what it ignores is pinned here.
import { chmodSync, cpSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/workdir.js";
import { rerunOnce, treeDigest } from "../support/world-digest.js";

function tree(): string {
  const dir = tempDir("cfwm-digest-");
  mkdirSync(path.join(dir, "modules/waf"), { recursive: true });
  mkdirSync(path.join(dir, ".cf-waf-migrate"));
  mkdirSync(path.join(dir, ".git"));
  writeFileSync(path.join(dir, "main.tf"), 'module "waf" { source = "./modules/waf" }\n');
  writeFileSync(path.join(dir, "modules/waf/main.tf"), 'resource "cloudflare_waf_group" "g" {}\n');
  writeFileSync(path.join(dir, "terraform.tfstate"), '{"serial": 3}\n');
  writeFileSync(path.join(dir, "terraform.tfstate.1795875049.backup"), '{"serial": 1}\n');
  writeFileSync(path.join(dir, "terraform.tfstate.1795875101.backup"), '{"serial": 2}\n');
  writeFileSync(path.join(dir, ".cf-waf-migrate/state-20261128T141238Z.json"), '{"serial": 3}\n');
  writeFileSync(path.join(dir, ".git/index"), "stat data of this copy");
  symlinkSync("modules/waf", path.join(dir, "waf"));
  return dir;
}

describe("treeDigest", () => {
  it("is the same for a copy of a tree elsewhere, whatever its times, backup stamps and git index", () => {
    const a = tree();
    const b = tempDir("cfwm-digest-copy-");
    cpSync(a, b, { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(b, ".git/index"), "other stat data");
    // The same backups, written in other seconds (their order kept).
    renameSync(path.join(b, "terraform.tfstate.1795875049.backup"), path.join(b, "terraform.tfstate.1795875990.backup"));
    renameSync(path.join(b, "terraform.tfstate.1795875101.backup"), path.join(b, "terraform.tfstate.1795876000.backup"));
    renameSync(path.join(b, ".cf-waf-migrate/state-20261128T141238Z.json"), path.join(b, ".cf-waf-migrate/state-20261128T150000Z.json"));
    expect(treeDigest([b])).toBe(treeDigest([a]));
  });

  it("changes with a file's content, a new or removed file, a mode, a link's target, and the order of backups", () => {
    const base = treeDigest([tree()]);
    const changed = (edit: (dir: string) => void) => {
      const dir = tree();
      edit(dir);
      return treeDigest([dir]);
    };
    const digests = [
      changed((d) => writeFileSync(path.join(d, "modules/waf/main.tf"), "")),
      changed((d) => writeFileSync(path.join(d, "terraform.tfstate"), '{"serial": 4}\n')),
      changed((d) => writeFileSync(path.join(d, "modules/waf/main.tf.backup"), "")),
      changed((d) => writeFileSync(path.join(d, ".git/HEAD"), "ref: refs/heads/main\n")),
      changed((d) => chmodSync(path.join(d, "main.tf"), 0o755)),
      changed((d) => {
        const link = path.join(d, "waf");
        renameSync(link, path.join(d, "old-link"));
        symlinkSync("modules", link);
      }),
      // The same two backups, the newer one now holding the older serial.
      changed((d) => {
        renameSync(path.join(d, "terraform.tfstate.1795875049.backup"), path.join(d, "terraform.tfstate.1795879999.backup"));
      }),
      changed((d) => writeFileSync(path.join(d, ".cf-waf-migrate/state-20261128T141239Z.json"), '{"serial": 3}\n')),
    ];
    for (const d of digests) expect(d).not.toBe(base);
    expect(new Set(digests).size).toBe(digests.length);
  });

  it("tells the directories of one world apart", () => {
    const a = tree();
    const b = tree();
    expect(treeDigest([a, b])).toBe(treeDigest([b, a]));
    writeFileSync(path.join(b, "extra.tf"), "");
    expect(treeDigest([a, b])).not.toBe(treeDigest([b, a]));
  });
});

describe("rerunOnce", () => {
  it("is true the first time a digest is seen, false after", () => {
    const firstTime = rerunOnce();
    expect([firstTime("a"), firstTime("b"), firstTime("a"), firstTime("b"), firstTime("c")]).toEqual([true, true, false, false, true]);
  });
});
