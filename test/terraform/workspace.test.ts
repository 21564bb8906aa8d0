import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { TESTDATA } from "../support/cli.js";

const noStdin = async () => Buffer.alloc(0);
const MZ = path.join(TESTDATA, "multi-zone");

describe("workspace: config + state joined", () => {
  it("follows local modules with for_each and count and gives every instance its address, file and line", async () => {
    const ws = await loadWorkspace({ paths: ["."], statePaths: ["terraform.tfstate"], cwd: MZ, readStdin: noStdin });
    expect(ws.errors).toEqual([]);
    const byAddr = new Map(ws.resources.map((r) => [r.address, r]));
    expect(byAddr.get('module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]')).toMatchObject({
      file: "modules/waf/main.tf",
      line: 16,
      zoneId: "0da42c8d2132a9ddaf714f9e7c920711",
      inConfig: true,
      inState: true,
    });
    expect(byAddr.get("module.uri_overrides[0].cloudflare_waf_override.checkout")).toMatchObject({ file: "modules/uri-overrides/main.tf", line: 5 });
    expect(byAddr.get("cloudflare_firewall_rule.partners[1]")).toMatchObject({ file: "firewall.tf", line: 26 });
    // The .tf.json file: one resource applied, one not.
    expect(byAddr.get("cloudflare_waf_rule.sqli_strict")).toMatchObject({ file: "waf-rules.tf.json", line: 5, inState: true });
    expect(byAddr.get("cloudflare_waf_rule.owasp_uri")).toMatchObject({ file: "waf-rules.tf.json", line: 10, inState: false, zoneId: "9a7806061c88ada191ed06f989cc3dac" });
    // In state only: removed from config.
    expect(byAddr.get("cloudflare_waf_group.retired")).toMatchObject({ inConfig: false, inState: true, file: null });
    // The commented-out block is not a resource.
    expect([...byAddr.keys()].some((a) => a.includes("commented_out"))).toBe(false);
  });

  it("reads the domain: JSON-style override keys, heredoc filter expressions, toset products, one rule per count instance", async () => {
    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: MZ, readStdin: noStdin });
    const o = ws.domain.overrides[0]!;
    expect(o.rules).toEqual({ "100015": "disable", "100016": "simulate" });
    expect(o.urls).toEqual(["shop.example.com/checkout/*", "shop.example.com/cart"]);
    const hc = ws.domain.firewallRules.find((f) => f.ref.address === "cloudflare_firewall_rule.health_checks")!;
    expect(hc.expression).toBe('(ip.src in {192.0.2.10 192.0.2.11} and http.request.uri.path eq "/healthz")');
    // count = 2 is known offline: two instances, each paired with its own filter instance.
    const partners = ws.domain.firewallRules.filter((f) => f.ref.configAddress === "cloudflare_firewall_rule.partners");
    expect(partners.map((p) => [p.ref.address, [...p.products].sort(), p.expression])).toEqual([
      ["cloudflare_firewall_rule.partners[0]", ["uaBlock", "waf"], '(http.request.uri.path contains "/partner-api/v1/")'],
      ["cloudflare_firewall_rule.partners[1]", ["uaBlock", "waf"], '(http.request.uri.path contains "/partner-api/v2/")'],
    ]);
  });

  it("config only: zone ids resolve through module inputs to the zone resource; a count known offline names the instance", async () => {
    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: MZ, readStdin: noStdin });
    const o = ws.resources.find((r) => r.type === "cloudflare_waf_override")!;
    expect(o.zoneId).toBe("cloudflare_zone.shop.id");
    // count = var.enable_uri_overrides ? 1 : 0, and the variable defaults to true: the address state would list.
    expect(o.address).toBe("module.uri_overrides[0].cloudflare_waf_override.checkout");
    expect(o.instancesUnknown).toBeUndefined();
  });

  it("reports file paths relative to the working directory when several paths are given", async () => {
    const ws = await loadWorkspace({ paths: ["testdata/multi-zone/main.tf", "testdata/multi-zone/firewall.tf"], statePaths: [], cwd: path.dirname(TESTDATA), readStdin: noStdin });
    expect(ws.resources.find((r) => r.address === "cloudflare_zone.shop")?.file).toBe("testdata/multi-zone/main.tf");
  });
});

describe("rootModuleOnly: one root module, as terraform reads it", () => {
  const NESTED = path.join(TESTDATA, "nested-roots");

  it("reads the directory's own files and no directory below it; without it, the roots below are read too", async () => {
    const alone = await loadWorkspace({ paths: ["."], statePaths: [], cwd: NESTED, readStdin: noStdin, rootModuleOnly: true });
    expect(alone.errors).toEqual([]);
    expect(alone.tree.roots.map((r) => path.relative(NESTED, r.dir.dir))).toEqual([""]);
    expect(alone.resources.map((r) => r.address)).toEqual(["cloudflare_page_rule.admin_no_waf"]);
    const whole = await loadWorkspace({ paths: ["."], statePaths: [], cwd: NESTED, readStdin: noStdin });
    expect(whole.tree.roots.map((r) => path.relative(NESTED, r.dir.dir)).sort()).toEqual(["", "envs/production", "envs/staging"]);
  });

  it("still follows the root's module calls into directories below it", async () => {
    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: MZ, readStdin: noStdin, rootModuleOnly: true });
    expect(ws.resources.find((r) => r.address === "module.uri_overrides[0].cloudflare_waf_override.checkout")).toMatchObject({ file: "modules/uri-overrides/main.tf" });
  });
});

describe("modules installed by terraform init", () => {
  it("a registry module is followed where .terraform/modules/modules.json puts it", async () => {
    const { copyFixture } = await import("../support/workdir.js");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const work = copyFixture("split-stacks");
    const root = path.join(work, "legacy-waf");
    mkdirSync(path.join(root, ".terraform/modules/waf_exceptions"), { recursive: true });
    writeFileSync(
      path.join(root, ".terraform/modules/modules.json"),
      JSON.stringify({ Modules: [{ Key: "", Source: "", Dir: "." }, { Key: "waf_exceptions", Source: "app.terraform.io/example/waf-exceptions/cloudflare", Version: "1.4.2", Dir: ".terraform/modules/waf_exceptions" }] }),
    );
    writeFileSync(
      path.join(root, ".terraform/modules/waf_exceptions/main.tf"),
      'variable "zone_id" {\n  type = string\n}\n\nresource "cloudflare_waf_rule" "exception" {\n  zone_id = var.zone_id\n  rule_id = "100008"\n  mode    = "disable"\n}\n',
    );
    const ws = await loadWorkspace({ paths: ["."], statePaths: ["terraform.tfstate"], cwd: root, readStdin: noStdin });
    expect(ws.errors).toEqual([]);
    expect(ws.remoteModules).toEqual([]);
    const r = ws.resources.find((x) => x.address === "module.waf_exceptions.cloudflare_waf_rule.exception")!;
    expect(r).toMatchObject({ inConfig: true, inState: true, file: ".terraform/modules/waf_exceptions/main.tf", line: 5 });
  });
});
