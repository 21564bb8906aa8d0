// A one-root plan or apply searches the repository around the root twice (other roots calling a module step 6
// edits; other roots' rules and legacy WAF): the structure is read once per run and shared.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callersOf } from "../../src/estate/module-callers.js";
import { otherRootRules } from "../../src/estate/other-root-rules.js";
import { repositoryTreeReader, type RepositoryTree } from "../../src/estate/repository-tree.js";
import { tempDir } from "../support/workdir.js";

function repository(): string {
  const top = tempDir("cfwm-repo-tree-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    writeFileSync(path.join(top, rel), text);
  };
  mkdirSync(path.join(top, ".git"));
  write("modules/waf/main.tf", 'variable "zone_id" {}\nresource "cloudflare_waf_package" "owasp" {\n  zone_id    = var.zone_id\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n');
  for (const env of ["prod", "dev"]) write(`live/${env}/main.tf`, `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "0da42c8d2132a9ddaf714f9e7c92071${env === "prod" ? 1 : 2}"\n}\n`);
  return top;
}

describe("the repository's structure, read once per run", () => {
  it("one reader gives each top one read, whoever asks", async () => {
    const top = repository();
    const reader = repositoryTreeReader();
    expect(reader(top)).toBe(reader(top));
    expect(reader(path.join(top, "live"))).not.toBe(reader(top));
  });

  it("callersOf and otherRootRules answer the same from one shared read", async () => {
    const top = repository();
    const prod = path.join(top, "live", "prod");
    const reader = repositoryTreeReader();
    const tops: string[] = [];
    const counting: RepositoryTree = (t) => {
      tops.push(t);
      return reader(t);
    };
    const callers = await callersOf(prod, [path.join(top, "modules", "waf")], counting);
    const others = await otherRootRules({ roots: [prod], cwd: top, base: top, repositoryTree: counting });
    expect([...callers.keys()]).toEqual([path.join(top, "live", "dev")]);
    expect(others.roots.map((r) => r.root)).toEqual(["live/dev"]);
    // Both asked for the repository's top, and got the one read.
    expect(tops).toEqual([top, top]);
    // The same answers as each reading on its own.
    expect([...(await callersOf(prod, [path.join(top, "modules", "waf")])).keys()]).toEqual([...callers.keys()]);
    expect((await otherRootRules({ roots: [prod], cwd: top, base: top })).roots.map((r) => r.root)).toEqual(["live/dev"]);
  });
});

describe("the repository's structure is read without bodies", () => {
  it("another root whose legacy WAF file has a syntax error inside a block is still found, and said to be unreadable", async () => {
    const top = repository();
    // dev's module call is replaced by its own legacy WAF, in a file with a syntax error inside the block.
    writeFileSync(path.join(top, "live", "dev", "main.tf"), 'resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "0da42c8d2132a9ddaf714f9e7c920712"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = = "high"\n}\n');
    const prod = path.join(top, "live", "prod");
    const tree = await repositoryTreeReader()(top);
    const dev = tree.nodes.find((n) => n.dir.dir === path.join(top, "live", "dev"))!;
    // Listed by type and name, its body not read (so its syntax error is not seen at this level).
    expect(dev.dir.resources.map((r) => `${r.type}.${r.name}`)).toEqual(["cloudflare_waf_package.owasp"]);
    expect(dev.dir.errors).toEqual([]);
    const others = await otherRootRules({ roots: [prod], cwd: top, base: top });
    const found = others.roots.find((r) => r.root === "live/dev");
    expect(found?.unreadable?.[0]).toMatch(/^live\/dev\/main\.tf:4: /);
    // Its legacy WAF is kept, its zone not known (the load that would give it failed): never dropped.
    expect(found?.legacyWaf?.map((r) => [r.address, r.file, r.line, r.zoneId])).toEqual([["cloudflare_waf_package.owasp", "live/dev/main.tf", 1, null]]);
  });

  it("another root whose legacy WAF file cannot be read even at the structure level is found from the file's text", async () => {
    const top = repository();
    // An unclosed block: the structure read cannot list it, the headers are still there to see.
    writeFileSync(
      path.join(top, "live", "dev", "main.tf"),
      '# resource "cloudflare_waf_group" "commented" {}\nresource "cloudflare_waf_rule" "sqli" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920712"\n  rule_id = "100015"\n\nresource  "cloudflare_waf_override"   "uploads" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920712"\n',
    );
    const prod = path.join(top, "live", "prod");
    const others = await otherRootRules({ roots: [prod], cwd: top, base: top });
    const found = others.roots.find((r) => r.root === "live/dev");
    expect(found?.unreadable?.[0]).toMatch(/^live\/dev\/main\.tf:\d+: /);
    expect(found?.legacyWaf?.map((r) => [r.address, r.file, r.line, r.zoneId])).toEqual([
      ["cloudflare_waf_rule.sqli", "live/dev/main.tf", 2, null],
      ["cloudflare_waf_override.uploads", "live/dev/main.tf", 6, null],
    ]);
  });

  it("another root with an unreadable file that names no Cloudflare rule or legacy WAF type is not searched", async () => {
    const top = repository();
    writeFileSync(path.join(top, "live", "dev", "main.tf"), 'resource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n');
    const others = await otherRootRules({ roots: [path.join(top, "live", "prod")], cwd: top, base: top });
    expect(others.roots).toEqual([]);
  });
});
