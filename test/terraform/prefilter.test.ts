// The pre-filter that lets big trees skip files: it may say yes for a file that holds nothing the tool
// reads, never no for one that does — including through module calls, at any depth.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mayDeclareTreeBlock, mayHoldCloudflare, resourceHeadersOf } from "../../src/terraform/hcl/prefilter.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";

const noStdin = async () => Buffer.alloc(0);

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-prefilter-"));
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return dir;
}

async function both(dir: string, paths = ["."]) {
  const fast = await loadWorkspace({ paths, statePaths: [], cwd: dir, readStdin: noStdin });
  const full = await loadWorkspace({ paths, statePaths: [], cwd: dir, readStdin: noStdin, fullParse: true });
  return { fast, full };
}

const view = (ws: Awaited<ReturnType<typeof loadWorkspace>>) => ws.resources.map((r) => [r.address, r.file, r.line, r.zoneId]);

describe("mayHoldCloudflare", () => {
  it.each([
    ['resource "cloudflare_waf_rule" "r" {}', true],
    ['{"resource": {"cloudflare_filter": {"f": {}}}}', true], // .tf.json
    ['locals {\n  doc = <<EOT\nresource "cloudflare_waf_rule" "in_a_heredoc" {}\nEOT\n}', true], // a yes that holds nothing: allowed
    ['resource "cloudflare\\u005fwaf_rule" "escaped" {}', true], // an escape could spell the type
    ['{"resource": {"\\u0063loudflare_filter": {}}}', true],
    ['resource "aws_instance" "web" {}\nmodule "cdn" { source = "../cdn" }', false], // decided by the module's own files
    ['provider "cloudflare" {}', false],
  ])("%j → %s", (text, expected) => {
    expect(mayHoldCloudflare(text)).toBe(expected);
  });
});

describe("mayDeclareTreeBlock (a directory read for its module calls skips files that answer no)", () => {
  it.each([
    ['module "cdn" {\n  source = "../cdn"\n}', true],
    ['resource "aws_instance" "a" {}\n\nmodule cdn {\n}', true], // an unquoted label
    ['  \tmodule"cdn"{}', true],
    ["terraform {\n  required_version = \">= 1.5\"\n}", true],
    ['/* the edge */ module "edge" {}', true], // after a comment that ends on the line
    ['locals {\n  doc = <<EOT\nmodule "in_a_heredoc" {}\nEOT\n}', true], // a yes that declares nothing: allowed
    ["\uFEFFterraform {}", true],
    ["removed {\n  from = module.waf\n}", true],
    ["x = 1\r\nmodule \"m\" {}\r\n", true],
    ['resource "aws_instance" "a" {\n  subnet_id = module.vpc.private_subnets[0]\n  ws        = terraform.workspace\n}', false],
    ['resource "aws_instance" "a" {\n  subnet_ids = [\n    module.vpc.a,\n  ]\n}', false], // a reference starting a line
    ['data "terraform_remote_state" "net" {}\nvariable "modules" {}', false], // longer words
    ['# module "commented" {}\n// terraform {}', false],
    ['resource "aws_s3_bucket" "b" {\n  tags = { module = "x" }\n}', false],
    ["", false],
  ])("%j → %s", (text, expected) => {
    expect(mayDeclareTreeBlock(text)).toBe(expected);
  });
});

describe("what the selective reading finds", () => {
  it("a module that only calls another module (through `..` sources) that holds the resources", async () => {
    const dir = tree({
      "envs/prod/main.tf": [
        'module "edge" {',
        '  source  = "../../modules/edge"',
        '  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"',
        "}",
        'resource "aws_s3_bucket" "logs" {',
        '  bucket = "logs"',
        "}",
        "",
      ].join("\n"),
      "envs/prod/variables.tf": 'variable "unused" {\n  default = "x"\n}\n',
      "modules/edge/main.tf": 'variable "zone_id" {}\n\nmodule "waf" {\n  source  = "../waf/./"\n  zone_id = var.zone_id\n}\n',
      "modules/waf/main.tf": [
        'variable "zone_id" {}',
        "",
        'resource "cloudflare_waf_package" "owasp" {',
        "  zone_id     = var.zone_id",
        '  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"',
        '  sensitivity = "low"',
        "}",
        "",
      ].join("\n"),
      "unrelated/main.tf": 'resource "aws_instance" "web" {\n  ami = "x"\n}\n',
    });
    const { fast, full } = await both(dir);
    expect(view(fast)).toEqual(view(full));
    expect(view(fast)).toEqual([["module.edge.module.waf.cloudflare_waf_package.owasp", "modules/waf/main.tf", 3, "0da42c8d2132a9ddaf714f9e7c920711"]]);
    const mode = (suffix: string) => fast.tree.nodes.find((n) => n.dir.dir.endsWith(suffix))?.dir.readAs;
    expect(mode("modules/waf")).toBe("fast");
    expect(mode("modules/edge")).toBe("fast"); // it matters: it calls a module that does
    expect(mode("envs/prod")).toBe("fast");
    expect(mode("unrelated")).toBe("modules");
  });

  it("only the scanned subtree: a module outside it is followed the same way", async () => {
    const dir = tree({
      "live/main.tf": 'module "cdn" {\n  source  = "../shared/cdn"\n  zone_id = "z1"\n}\n',
      "shared/cdn/main.tf": 'variable "zone_id" {}\nmodule "waf" {\n  source  = "../waf"\n  zone_id = var.zone_id\n}\n',
      "shared/waf/main.tf": 'variable "zone_id" {}\nresource "cloudflare_page_rule" "p" {\n  zone_id = var.zone_id\n  target  = "a.example.com/*"\n  actions {\n    waf = "off"\n  }\n}\n',
    });
    const { fast, full } = await both(dir, ["live"]);
    expect(view(fast)).toEqual(view(full));
    expect(view(fast)).toEqual([["module.cdn.module.waf.cloudflare_page_rule.p", "../shared/waf/main.tf", 2, "z1"]]);
  });

  it("a .tf.json file next to .tf files that never mention Cloudflare", async () => {
    const dir = tree({
      "main.tf": 'resource "aws_instance" "web" {\n  ami = "x"\n}\nvariable "zone" {\n  default = "z9"\n}\n',
      "exported.tf.json": JSON.stringify({ resource: { cloudflare_waf_rule: { r: { zone_id: "${var.zone}", rule_id: "100015", mode: "disable" } } } }, null, 2),
    });
    const { fast, full } = await both(dir);
    expect(view(fast)).toEqual(view(full));
    expect(view(fast)).toEqual([["cloudflare_waf_rule.r", "exported.tf.json", 4, "z9"]]);
  });

  it("a resource type in a heredoc is not a resource, and the block after it still is", async () => {
    const dir = tree({
      "main.tf": [
        "locals {",
        "  example = <<-EOT",
        '    resource "cloudflare_waf_rule" "fake" { }',
        "    }",
        "  EOT",
        "}",
        "",
        'resource "cloudflare_waf_rule" "real" {',
        '  zone_id = "z"',
        '  rule_id = "100015"',
        '  mode    = "block"',
        "}",
        "",
      ].join("\n"),
    });
    const { fast, full } = await both(dir);
    expect(view(fast)).toEqual(view(full));
    expect(view(fast)).toEqual([["cloudflare_waf_rule.real", "main.tf", 8, "z"]]);
  });

  it("a type written with an escape is found", async () => {
    const dir = tree({ "main.tf": 'resource "cloudflare\\u005fwaf_rule" "escaped" {\n  zone_id = "z"\n  rule_id = "1"\n  mode = "off"\n}\n' });
    const { fast, full } = await both(dir);
    expect(view(fast)).toEqual(view(full));
    expect(view(fast).map((r) => r[0])).toEqual(["cloudflare_waf_rule.escaped"]);
  });

  it("a file that does not mention Cloudflare: gross errors are still reported (hcl2json's message), subtle ones are not", async () => {
    const gross = tree({ "main.tf": 'resource "aws_instance" "web" {\n  ami = "x"\n', "cf.tf": 'resource "cloudflare_zone" "z" {\n  zone = "a.example"\n}\n' });
    const g = await both(gross);
    expect(g.fast.errors).toEqual(g.full.errors);
    expect(g.fast.errors).toHaveLength(1);
    const subtle = tree({ "other/main.tf": 'resource "aws_instance" "web" {\n  ami = [1 2]\n}\n' });
    const s = await both(subtle);
    expect(s.full.errors).toHaveLength(1);
    expect(s.fast.errors).toEqual([]);
  });

  it("a directory read only for its module calls: files that declare none are skimmed, still checked for gross errors", async () => {
    const dir = tree({
      "svc/main.tf": '/* the edge */ module "edge" {\n  source  = "../edge"\n  zone_id = "z2"\n}\n',
      "svc/compute.tf": 'resource "aws_instance" "a" {\n  subnet_id = module.vpc.private_subnets[0]\n}\n',
      "edge/main.tf": 'variable "zone_id" {}\nresource "cloudflare_waf_rule" "r" {\n  zone_id = var.zone_id\n  rule_id = "100015"\n  mode    = "block"\n}\n',
      "unrelated/unclosed.tf": 'resource "aws_instance" "web" {\n  ami = "x"\n',
      "unrelated/stray.tf": "hello world\n",
      "unrelated/fine.tf": 'resource "aws_s3_bucket" "b" {\n  tags = { module = "x" }\n}\n',
    });
    const { fast, full } = await both(dir);
    // The call after a comment is followed (svc matters through it) and both readings agree on what is found.
    expect(view(fast)).toEqual([["module.edge.cloudflare_waf_rule.r", "edge/main.tf", 2, "z2"]]);
    expect(view(fast)).toEqual(view(full));
    // Each gross error of the skimmed files is reported as the full parse reports it: file, line and column.
    expect(fast.errors.map((e) => e.file).sort()).toEqual(["unrelated/stray.tf", "unrelated/unclosed.tf"]);
    expect(fast.errors).toEqual(full.errors);
    for (const e of fast.errors) expect(e).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
  });

  it("a root that no longer mentions Cloudflare keeps its removed blocks (the plan's removed.tf forgetting a module)", async () => {
    const dir = tree({
      "live/main.tf": 'resource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n}\n',
      "live/removed.tf": "removed {\n  from = module.waf\n\n  lifecycle {\n    destroy = false\n  }\n}\n",
    });
    const { fast, full } = await both(dir);
    const removed = (ws: typeof fast) => ws.tree.nodes.flatMap((n) => n.dir.removed ?? []).map((r) => [r.from, r.destroy, r.file, r.line]);
    expect(removed(fast)).toEqual([["module.waf", false, "live/removed.tf", 1]]);
    expect(removed(fast)).toEqual(removed(full));
  });
});

describe("resourceHeadersOf: the headers an unparsable file shows", () => {
  it("native syntax: quoted or bare labels, at a line's start, with their lines; never a `#` comment", () => {
    const text = [
      '# resource "cloudflare_waf_group" "commented" {}',
      'resource "cloudflare_waf_rule" "waf_rule_URI-958000" {',
      "  mode = [",
      "    resource cloudflare_waf_package owasp {",
      '  x = "resource \\"a\\" \\"b\\" {"',
      "",
    ].join("\n");
    expect(resourceHeadersOf(text, false)).toEqual([
      { type: "cloudflare_waf_rule", name: "waf_rule_URI-958000", line: 2 },
      { type: "cloudflare_waf_package", name: "owasp", line: 4 },
    ]);
  });

  it("JSON syntax: the type key and the first name under it", () => {
    const text = '{\n  "resource": {\n    "cloudflare_waf_override":\n      { "uploads": { "zone_id": "x",\n';
    expect(resourceHeadersOf(text, true)).toContainEqual({ type: "cloudflare_waf_override", name: "uploads", line: 3 });
  });
});
