// The removal closure on realistic trees: what step 6 removes besides the legacy blocks, which references
// are LEGACY_REFERENCE findings, and that the edited tree has no dangling reference left.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { undeclaredReferences } from "../../src/core/references/closure.js";
import { buildRemoval } from "../../src/terraform/edit/legacy-removal.js";
import { readReferenceGraph } from "../../src/terraform/references/graph.js";
import { isLegacyBlock, legacyRemovalSet } from "../../src/terraform/references/removal-set.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const noStdin = async () => Buffer.alloc(0);
const TERRAFORM = "/usr/local/bin/terraform";

async function removalFor(dir: string, paths = ["."]) {
  const ws = await loadWorkspace({ paths, statePaths: [], cwd: dir, readStdin: noStdin });
  expect(ws.errors).toEqual([]);
  return { ws, set: await legacyRemovalSet(ws) };
}

/** Applies the step-6 edits to the copy, then checks the whole tree with the graph and `terraform fmt -check`. */
async function applyAndCheck(dir: string, paths = ["."]) {
  const { ws, set } = await removalFor(dir, paths);
  const removal = await buildRemoval(ws.base, set.targets);
  expect(removal.refused).toEqual([]);
  for (const e of removal.edits) writeFileSync(e.absolute, e.newText);
  const after = await loadWorkspace({ paths, statePaths: [], cwd: dir, readStdin: noStdin });
  expect(after.errors).toEqual([]);
  const graph = await readReferenceGraph(after, isLegacyBlock, { allDirs: true });
  expect(graph.errors).toEqual([]);
  const legacyLeft = graph.graphs.flatMap((g) => g.items.filter((i) => i.legacy).map((i) => `${g.id}: ${i.key}`));
  expect(legacyLeft).toEqual([]);
  if (existsSync(TERRAFORM)) {
    // `terraform validate` needs the provider; until its double exists, fmt is the real terraform's say.
    execFileSync(TERRAFORM, ["fmt", "-check", "-recursive", ws.base], { stdio: "pipe" });
  }
  return { removal, undeclared: undeclaredReferences(graph.graphs).map((u) => `${u.module}: ${u.item.key} -> ${u.referenced} (${u.use.file}:${u.use.line})`) };
}

describe("removal closure: a module and its examples/complete root", () => {
  it("removes the outputs and locals that only expose legacy blocks, across the module boundary", async () => {
    const dir = copyFixture("refs-module-example");
    const { set } = await removalFor(path.join(dir, "examples/complete"));
    expect(set.findings).toEqual([]);
    expect(set.exposing.map((e) => `${e.file}:${e.line} ${e.kind} ${e.name} <- ${e.exposes.join(",")}`)).toEqual([
      "../../main.tf:16 local anomaly_package_ids <- data.cloudflare_waf_packages.anomaly",
      "../../outputs.tf:1 output waf_package <- cloudflare_waf_package.package",
      "../../outputs.tf:6 output group_ids <- cloudflare_waf_group.group",
      "../../outputs.tf:10 output anomaly_package_ids <- local.anomaly_package_ids",
      "main.tf:14 output waf_package <- module.waf.waf_package",
      "main.tf:19 output waf_package_id <- module.waf.waf_package",
    ]);
    expect(set.blockConfigAddresses).toEqual(["module.waf.cloudflare_waf_group.group", "module.waf.cloudflare_waf_package.package", "module.waf.data.cloudflare_waf_packages.anomaly"]);
  });

  it("leaves no dangling reference once the patch is applied, and keeps what is not legacy", async () => {
    const dir = copyFixture("refs-module-example");
    const { removal, undeclared } = await applyAndCheck(path.join(dir, "examples/complete"));
    expect(undeclared).toEqual([]);
    const byFile = new Map(removal.edits.map((e) => [e.file, e.newText]));
    expect(byFile.get("../../outputs.tf")).toBe('output "zone_id" {\n  value = var.zone_id\n}\n');
    // The locals block keeps its other locals, re-aligned as terraform fmt wants.
    expect(byFile.get("../../main.tf")).toContain("locals {\n  enabled = var.enabled && length(var.zone_id) > 0\n\n  group_modes = { for k, g in var.groups : k => g.mode }\n}\n");
    expect(byFile.get("main.tf")).toContain('output "zone_id" {\n  value = module.waf.zone_id\n}\n');
    expect(byFile.get("main.tf")).not.toContain("waf_package");
  });
});

describe("LEGACY_REFERENCE: references that cannot go with the legacy blocks", () => {
  it("reports a mixed local, a kept resource's depends_on and a module call argument, with file and line", async () => {
    const dir = copyFixture("refs-dangling");
    const { set } = await removalFor(dir);
    expect(set.exposing.map((e) => `${e.kind} ${e.name}`)).toEqual(["local package_id", "output package"]);
    const got = set.findings.map((f) => ({ code: f.code, severity: f.severity, file: f.file, line: f.line, referenced: f.details?.referenced, referrer: f.details?.referrer, argument: f.details?.argument }));
    expect(got).toEqual([
      { code: "LEGACY_REFERENCE", severity: "error", file: "main.tf", line: 7, referenced: "cloudflare_waf_package.owasp", referrer: "local.waf_summary", argument: "waf_summary" },
      { code: "LEGACY_REFERENCE", severity: "error", file: "main.tf", line: 31, referenced: "cloudflare_waf_rule.sqli", referrer: "cloudflare_filter.edge", argument: "depends_on" },
      { code: "LEGACY_REFERENCE", severity: "error", file: "main.tf", line: 39, referenced: "local.package_id", referrer: "module.edge", argument: "package_id" },
    ]);
    expect(set.findings[1]!.message).toContain('resource "cloudflare_filter" "edge" (argument depends_on) refers to cloudflare_waf_rule.sqli');
    expect(set.findings[1]!.address).toBeNull();
  });

  it("after the patch, the only undeclared references are exactly the reported ones", async () => {
    const dir = copyFixture("refs-dangling");
    const { set } = await removalFor(dir);
    // Lines move when blocks above are removed: compare the referring items and what they name.
    const reported = set.findings.map((f) => `${String(f.details?.referrer)} -> ${String(f.details?.written)}`).sort();
    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin });
    const removal = await buildRemoval(ws.base, set.targets);
    for (const e of removal.edits) writeFileSync(e.absolute, e.newText);
    const after = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin });
    const graph = await readReferenceGraph(after, isLegacyBlock, { allDirs: true });
    const undeclared = undeclaredReferences(graph.graphs).map((u) => `${u.item.key} -> ${u.referenced}`).sort();
    expect(undeclared).toEqual(reported);
  });
});

describe("URI overrides (deleted in step 0)", () => {
  it("an output exposing one goes with the step-0 patch; a kept reference to one is a finding that names step 0", async () => {
    const dir = tempDir("cfwm-refs-override-");
    writeFileSync(
      path.join(dir, "main.tf"),
      [
        'resource "cloudflare_waf_override" "checkout" {',
        '  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"',
        '  urls    = ["shop.example.com/checkout/*"]',
        '  rules   = { "100015" : "disable" }',
        "}",
        "",
        'output "override_id" {',
        "  value = cloudflare_waf_override.checkout.id",
        "}",
        "",
        'resource "cloudflare_filter" "after" {',
        '  zone_id     = "0da42c8d2132a9ddaf714f9e7c920711"',
        '  expression  = "true"',
        '  description = "after ${cloudflare_waf_override.checkout.id}"',
        "}",
        "",
      ].join("\n"),
    );
    const { set } = await removalFor(dir);
    expect(set.blocks).toEqual([]);
    expect(set.exposing).toEqual([]);
    expect(set.overrideExposing.map((e) => `${e.kind} ${e.name}`)).toEqual(["output override_id"]);
    expect(set.findings.map((f) => `${f.file}:${f.line} ${String(f.details?.argument)}`)).toEqual(["main.tf:14 description"]);
    expect(set.findings[0]!.message).toContain("which step 0 deletes (a URI-based override)");
  });
});

describe("JSON syntax (.tf.json)", () => {
  it("reads bare depends_on addresses and removes an output that only exposes a legacy block", async () => {
    const dir = tempDir("cfwm-refs-json-");
    const doc = {
      resource: {
        cloudflare_waf_package: { owasp: { zone_id: "3f1bc18efe333337886cd2d0f6fa0000", package_id: "c504870194831cd12c3fc0284f294abb", sensitivity: "low", action_mode: "block" } },
        cloudflare_filter: { f: { zone_id: "3f1bc18efe333337886cd2d0f6fa0000", expression: "true", depends_on: ["cloudflare_waf_package.owasp"] } },
      },
      output: { pkg: { value: "${cloudflare_waf_package.owasp.id}" } },
      locals: { package_id: "${cloudflare_waf_package.owasp.id}", zone: "3f1bc18efe333337886cd2d0f6fa0000" },
    };
    writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(doc, null, 2) + "\n");
    const { ws, set } = await removalFor(dir);
    expect(set.exposing.map((e) => `${e.kind} ${e.name}`).sort()).toEqual(["local package_id", "output pkg"]);
    expect(set.findings.map((f) => `${f.file} ${String(f.details?.referrer)} ${String(f.details?.argument)} -> ${String(f.details?.referenced)}`)).toEqual([
      "main.tf.json cloudflare_filter.f depends_on -> cloudflare_waf_package.owasp",
    ]);
    const removal = await buildRemoval(ws.base, set.targets);
    expect(removal.refused).toEqual([]);
    const after = JSON.parse(removal.edits[0]!.newText) as typeof doc;
    expect(Object.keys(after.resource)).toEqual(["cloudflare_filter"]);
    expect(after).not.toHaveProperty("output");
    expect(after.locals).toEqual({ zone: "3f1bc18efe333337886cd2d0f6fa0000" });
  });
});

describe("blocks that only refer", () => {
  it("judges provider, check and import blocks; leaves removed and moved blocks alone", async () => {
    const dir = tempDir("cfwm-refs-other-");
    writeFileSync(
      path.join(dir, "main.tf"),
      [
        'resource "cloudflare_waf_package" "owasp" {',
        '  zone_id     = "3f1bc18efe333337886cd2d0f6fa0000"',
        '  package_id  = "c504870194831cd12c3fc0284f294abb"',
        '  sensitivity = "low"',
        '  action_mode = "block"',
        "}",
        "",
        'provider "cloudflare" {',
        '  alias   = "legacy"',
        "  api_key = cloudflare_waf_package.owasp.id",
        "}",
        "",
        'check "waf" {',
        "  assert {",
        '    condition     = cloudflare_waf_package.owasp.sensitivity != "off"',
        '    error_message = "the WAF is off"',
        "  }",
        "}",
        "",
        "import {",
        "  to = cloudflare_waf_package.owasp",
        '  id = "3f1bc18efe333337886cd2d0f6fa0000/c504870194831cd12c3fc0284f294abb"',
        "}",
        "",
        "moved {",
        "  from = cloudflare_waf_package.old",
        "  to   = cloudflare_waf_package.owasp",
        "}",
        "",
        "removed {",
        "  from = cloudflare_waf_package.owasp",
        "}",
        "",
      ].join("\n"),
    );
    const { set } = await removalFor(dir);
    expect(set.findings.map((f) => `${f.line} ${String(f.details?.referrer)} ${String(f.details?.argument)}`)).toEqual([
      '10 provider "cloudflare" (main.tf:8) api_key',
      '15 check "waf" (main.tf:13) assert',
      "21 import (main.tf:20) to",
    ]);
  });
});

describe("an import {} of a legacy resource", () => {
  it("says it is an import that cannot work after the migration and to delete the block, not '(argument to) refers to'", async () => {
    const dir = tempDir("cfwm-refs-import-");
    writeFileSync(
      path.join(dir, "main.tf"),
      [
        'resource "cloudflare_waf_override" "admin" {',
        '  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"',
        '  urls    = ["example.com/admin/*"]',
        '  rules = {',
        '    "100015" = "disable"',
        "  }",
        "}",
        "",
        "import {",
        "  to = cloudflare_waf_override.admin",
        '  id = "3f1bc18efe333337886cd2d0f6fa0000/de677e5818985db1285d0e80225f06e5"',
        "}",
        "",
        'resource "cloudflare_waf_package" "owasp" {',
        '  zone_id     = "3f1bc18efe333337886cd2d0f6fa0000"',
        '  package_id  = "c504870194831cd12c3fc0284f294abb"',
        '  sensitivity = "low"',
        '  action_mode = "block"',
        "}",
        "",
        "import {",
        "  to = cloudflare_waf_package.owasp",
        '  id = "3f1bc18efe333337886cd2d0f6fa0000/c504870194831cd12c3fc0284f294abb"',
        "}",
        "",
      ].join("\n"),
    );
    const { set } = await removalFor(dir);
    const messages = set.findings.map((f) => `${f.code} ${f.line}: ${f.message}`);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^LEGACY_REFERENCE 10: the import block at main\.tf:9 imports cloudflare_waf_override\.admin, a legacy WAF resource: after the migration that import can no longer work \(step 0 deletes the URI-based override, /);
    expect(messages[1]).toMatch(/^LEGACY_REFERENCE 22: the import block at main\.tf:21 imports cloudflare_waf_package\.owasp, a legacy WAF resource: after the migration that import can no longer work \(step 6 deletes the legacy WAF blocks, /);
    for (const m of messages) {
      expect(m).toContain("delete the import block");
      expect(m).toContain("importing the zone's cloudflare_ruleset (step 3)");
      expect(m).not.toContain("(argument to)");
    }
  });
});

describe("an import {} of a legacy resource inside a module", () => {
  it("to = module.waf.cloudflare_waf_package.owasp is judged in the module the call reads: a LEGACY_REFERENCE at `to`", async () => {
    const dir = tempDir("cfwm-refs-import-module-");
    mkdirSync(path.join(dir, "modules/waf"), { recursive: true });
    writeFileSync(
      path.join(dir, "modules/waf/main.tf"),
      [
        'variable "zone_id" {',
        "  type = string",
        "}",
        "",
        'resource "cloudflare_waf_package" "owasp" {',
        "  zone_id     = var.zone_id",
        '  package_id  = "c504870194831cd12c3fc0284f294abb"',
        '  sensitivity = "low"',
        '  action_mode = "block"',
        "}",
        "",
        'resource "cloudflare_filter" "health" {',
        "  zone_id    = var.zone_id",
        '  expression = "true"',
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync(
      path.join(dir, "main.tf"),
      [
        'module "waf" {',
        '  source  = "./modules/waf"',
        '  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"',
        "}",
        "",
        "import {",
        '  to = module.waf.cloudflare_waf_package.owasp',
        '  id = "3f1bc18efe333337886cd2d0f6fa0000/c504870194831cd12c3fc0284f294abb"',
        "}",
        "",
        "import {",
        '  to = module.waf.cloudflare_filter.health',
        '  id = "3f1bc18efe333337886cd2d0f6fa0000/0123"',
        "}",
        "",
      ].join("\n"),
    );
    const { set } = await removalFor(dir);
    expect(set.findings.map((f) => `${f.code} ${f.file}:${f.line} ${String(f.details?.referenced)}`)).toEqual(["LEGACY_REFERENCE main.tf:7 module.waf.cloudflare_waf_package.owasp"]);
    expect(set.findings[0]!.message).toMatch(/^the import block at main\.tf:6 imports module\.waf\.cloudflare_waf_package\.owasp, a legacy WAF resource: after the migration that import can no longer work/);
  });
});

describe("dynamic blocks", () => {
  it("reads for_each and content, and takes the iterator for a local symbol, not a resource", async () => {
    const dir = tempDir("cfwm-refs-dynamic-");
    writeFileSync(
      path.join(dir, "main.tf"),
      [
        'data "cloudflare_waf_groups" "owasp" {',
        '  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"',
        "}",
        "",
        'resource "cloudflare_ruleset" "waf" {',
        '  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"',
        '  name    = "default"',
        '  kind    = "zone"',
        '  phase   = "http_request_firewall_managed"',
        "",
        '  dynamic "rules" {',
        "    for_each = data.cloudflare_waf_groups.owasp.groups",
        "    iterator = group",
        "    content {",
        '      action      = "execute"',
        "      description = group.value.name",
        '      expression  = "true"',
        "    }",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    const { set } = await removalFor(dir);
    expect(set.findings.map((f) => `${f.line} ${String(f.details?.referrer)} ${String(f.details?.argument)} -> ${String(f.details?.referenced)}`)).toEqual([
      "12 cloudflare_ruleset.waf dynamic -> data.cloudflare_waf_groups.owasp",
    ]);
    const graph = await readReferenceGraph((await removalFor(dir)).ws, isLegacyBlock, { allDirs: true });
    expect(undeclaredReferences(graph.graphs)).toEqual([]);
  });
});
