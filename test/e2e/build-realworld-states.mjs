#!/usr/bin/env node
// Writes the terraform.tfstate of each testdata/realworld-* tree: state v4 as Terraform 1.11 writes it
// (reference: domain-facts.md section 6), legacy resources with provider 3.x attributes. Run it after
// changing a tree: `node test/e2e/build-realworld-states.mjs`. The e2e test checks that real
// `terraform state list` reads every one.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TESTDATA = fileURLToPath(new URL("../../testdata", import.meta.url));
const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
const OWASP = "a25a9a7e9c00afc1fb2e0245519d725b";
const CF_MANAGED = "1e334934fd7ae32ad705667f8c1057aa";

function resource(module, mode, type, name, instances) {
  return { ...(module ? { module } : {}), mode, type, name, provider: PROVIDER, instances };
}
function instance(indexKey, attributes, extra = {}) {
  return { ...(indexKey === undefined ? {} : { index_key: indexKey }), schema_version: 0, attributes, sensitive_attributes: [], ...extra };
}
const pkg = (zone, sensitivity, action) => ({ id: OWASP, package_id: OWASP, zone_id: zone, sensitivity, action_mode: action });
const group = (zone, groupId, mode, packageId = OWASP) => ({ id: groupId, group_id: groupId, zone_id: zone, package_id: packageId, mode });
const rule = (zone, ruleId, mode) => ({ id: ruleId, rule_id: ruleId, zone_id: zone, package_id: CF_MANAGED, group_id: "de677e5818985db1285d0e80225f06e5", mode });
const packagesData = (zone) => ({ id: `${zone}-owasp`, zone_id: zone, filter: [{ name: "OWASP ModSecurity Core Rule Set", detection_mode: "", sensitivity: "", action_mode: "" }], packages: [{ id: OWASP, name: "OWASP ModSecurity Core Rule Set", description: "", detection_mode: "anomaly", sensitivity: "high", action_mode: "challenge" }] });
const groupsData = (zone, name, groupId) => ({ id: `${zone}-${name}`, zone_id: zone, package_id: OWASP, filter: [{ name, mode: "" }], groups: [{ id: groupId, name, description: "", mode: "on", rules_count: 10, modified_rules_count: 0 }] });

function state(lineage, resources, outputs = {}) {
  return { version: 4, terraform_version: "1.11.4", serial: 7, lineage, outputs, resources, check_results: null };
}

const trees = {
  "realworld-module-examples/examples/complete": state("5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e01", [
    resource("module.waf", "data", "cloudflare_waf_packages", "owasp", [instance(0, packagesData("3f1bc18efe333337886cd2d0f6fa0000"))]),
    resource("module.waf", "managed", "cloudflare_waf_group", "this", [
      instance("owasp-cfda825dfda411ea218cb70e6c88e82e", group("3f1bc18efe333337886cd2d0f6fa0000", "cfda825dfda411ea218cb70e6c88e82e", "off")),
      instance("owasp-de677e5818985db1285d0e80225f06e5", group("3f1bc18efe333337886cd2d0f6fa0000", "de677e5818985db1285d0e80225f06e5", "off")),
    ]),
    resource("module.waf", "managed", "cloudflare_waf_package", "owasp", [instance(0, pkg("3f1bc18efe333337886cd2d0f6fa0000", "low", "simulate"))]),
  ]),
  "realworld-staging-count": state("5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e02", [
    resource(null, "managed", "cloudflare_waf_group", "noisy", [instance(0, group("3f1bc18efe333337886cd2d0f6fa0000", "de677e5818985db1285d0e80225f06e5", "off", CF_MANAGED))]),
    resource(null, "managed", "cloudflare_waf_rule", "sqli", [instance(undefined, rule("3f1bc18efe333337886cd2d0f6fa0000", "100000356", "simulate"))]),
  ]),
  "realworld-nested-modules": state("5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e03", [
    resource('module.zones["blog.example.org"].module.waf[0]', "managed", "cloudflare_waf_package", "owasp", [instance(undefined, pkg("9a7806061c88ada191ed06f989cc3dac", "medium", "challenge"))]),
    resource('module.zones["blog.example.org"].module.waf[0]', "managed", "cloudflare_waf_rule", "this", [instance('odd "]key[ ${x}', rule("9a7806061c88ada191ed06f989cc3dac", "100015", "block"))]),
    resource('module.zones["shop"].module.waf[0]', "managed", "cloudflare_waf_package", "owasp", [instance(undefined, pkg("0da42c8d2132a9ddaf714f9e7c920711", "medium", "challenge"))]),
    resource('module.zones["shop"].module.waf[0]', "managed", "cloudflare_waf_rule", "this", [
      instance("100000356", rule("0da42c8d2132a9ddaf714f9e7c920711", "100000356", "simulate")),
      instance("URI-958000", rule("0da42c8d2132a9ddaf714f9e7c920711", "URI-958000", "disable")),
    ]),
  ]),
  "realworld-data-sources": state("5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e04", [
    resource(null, "data", "cloudflare_waf_groups", "by_name", [
      instance("SQL Injection Attack", groupsData("0da42c8d2132a9ddaf714f9e7c920711", "SQL Injection Attack", "de677e5818985db1285d0e80225f06e5")),
      instance("XSS Attack", groupsData("0da42c8d2132a9ddaf714f9e7c920711", "XSS Attack", "cfda825dfda411ea218cb70e6c88e82e")),
    ]),
    resource(null, "data", "cloudflare_waf_packages", "owasp", [instance(undefined, packagesData("0da42c8d2132a9ddaf714f9e7c920711"))]),
    resource(null, "managed", "cloudflare_waf_group", "by_domain", [
      instance("api-SQL Injection Attack", group("0da42c8d2132a9ddaf714f9e7c920711", "de677e5818985db1285d0e80225f06e5", "off")),
      instance("api-XSS Attack", group("0da42c8d2132a9ddaf714f9e7c920711", "cfda825dfda411ea218cb70e6c88e82e", "off")),
      instance("shop-SQL Injection Attack", group("0da42c8d2132a9ddaf714f9e7c920711", "de677e5818985db1285d0e80225f06e5", "on")),
      instance("shop-XSS Attack", group("0da42c8d2132a9ddaf714f9e7c920711", "cfda825dfda411ea218cb70e6c88e82e", "on")),
    ]),
    resource(null, "managed", "cloudflare_waf_package", "owasp", [instance(undefined, pkg("0da42c8d2132a9ddaf714f9e7c920711", "high", "block"))]),
  ]),
  "realworld-root-outputs": state(
    "5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e05",
    [
      resource(null, "managed", "cloudflare_waf_group", "xss", [instance(0, group("7c5dae5552338874e5053f2534d2767a", "cfda825dfda411ea218cb70e6c88e82e", "off"))]),
      resource(null, "managed", "cloudflare_waf_package", "owasp", [instance(undefined, pkg("7c5dae5552338874e5053f2534d2767a", "medium", "challenge"))]),
    ],
    {
      waf_package_id: { value: OWASP, type: "string" },
      xss_group_ids: { value: ["cfda825dfda411ea218cb70e6c88e82e"], type: ["tuple", ["string"]] },
      zone_id: { value: "7c5dae5552338874e5053f2534d2767a", type: "string" },
    },
  ),
};

for (const [dir, s] of Object.entries(trees)) {
  writeFileSync(path.join(TESTDATA, dir, "terraform.tfstate"), JSON.stringify(s, null, 2) + "\n");
}
