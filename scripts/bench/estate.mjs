// The estate benchmark's two corpora (issue 13): N root modules, each calling one shared module with a
// state of its own, against the same configuration and resources as ONE root (N module calls, one state
// holding every resource under `module.<root>`). Deterministic from the seed; reused while unchanged.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rng } from "./generate.mjs";

const VERSION = 1;
const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';

const MODULE = `variable "zone_id" {
  type = string
}

variable "rules" {
  type    = map(string)
  default = {}
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}

resource "cloudflare_waf_rule" "this" {
  for_each = var.rules

  zone_id    = var.zone_id
  rule_id    = each.key
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  mode       = each.value
}

resource "cloudflare_record" "www" {
  zone_id = var.zone_id
  name    = "www"
  type    = "CNAME"
  value   = "origin.example.net"
}
`;

/** One root's resources in state: the package, its rules (for_each) and DNS records, as Terraform writes them. */
function rootResources(r, zoneId, rules, records, module) {
  const at = module ? { module } : {};
  const instance = (attributes, key) => ({ ...(key !== undefined ? { index_key: key } : {}), schema_version: 0, attributes, sensitive_attributes: [] });
  return [
    { ...at, mode: "managed", type: "cloudflare_record", name: "www", provider: PROVIDER, instances: records.map((id) => instance({ id, zone_id: zoneId, name: "www", type: "CNAME", value: "origin.example.net", ttl: 1, proxied: true, allow_overwrite: false, comment: null, tags: [], hostname: "www.example.net", created_on: "2023-01-01T00:00:00Z", modified_on: "2023-01-01T00:00:00Z" })) },
    { ...at, mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: PROVIDER, instances: [instance({ id: "a25a9a7e9c00afc1fb2e0245519d725b", package_id: "a25a9a7e9c00afc1fb2e0245519d725b", zone_id: zoneId, sensitivity: "medium", action_mode: "challenge" })] },
    { ...at, mode: "managed", type: "cloudflare_waf_rule", name: "this", provider: PROVIDER, instances: Object.entries(rules).map(([id, mode]) => instance({ id, rule_id: id, zone_id: zoneId, package_id: "1e334934fd7ae32ad705667f8c1057aa", group_id: r.hex(32), mode }, id)) },
  ];
}

function state(lineage, resources) {
  return JSON.stringify({ version: 4, terraform_version: "1.9.8", serial: 1, lineage, outputs: {}, resources }, null, 2) + "\n";
}

/**
 * `dir/estate`: modules/waf + live/rNNNN/{main.tf,terraform.tfstate}; `dir/single`: the same module,
 * main.tf with one module call per root, one terraform.tfstate with everything. About `stateBytes` of
 * state per root (rules and DNS records fill it).
 */
export function ensureEstate(dir, { seed, roots, stateBytes }) {
  const params = { version: VERSION, seed, roots, stateBytes };
  const manifest = path.join(dir, ".bench-manifest.json");
  if (existsSync(manifest) && JSON.stringify(JSON.parse(readFileSync(manifest, "utf8")).params) === JSON.stringify(params)) {
    return { ...JSON.parse(readFileSync(manifest, "utf8")).stats, reused: true };
  }
  rmSync(dir, { recursive: true, force: true });
  const r = rng(seed);
  const write = (rel, text) => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    return Buffer.byteLength(text);
  };
  write("estate/modules/waf/main.tf", MODULE);
  write("single/modules/waf/main.tf", MODULE);
  // About 420 bytes of state per rule and 560 per record: half the bytes each.
  const rulesPerRoot = Math.max(1, Math.round(stateBytes / 2 / 420));
  const recordsPerRoot = Math.max(1, Math.round(stateBytes / 2 / 560));
  let stateTotal = 0;
  let resources = 0;
  const singleCalls = [];
  const singleResources = [];
  const statePaths = [];
  for (let i = 0; i < roots; i++) {
    const name = `r${String(i).padStart(4, "0")}`;
    const zoneId = r.hex(32);
    const rules = {};
    for (let k = 0; k < rulesPerRoot; k++) rules[String(100000 + k)] = r.pick(["simulate", "disable", "block"]);
    const records = Array.from({ length: recordsPerRoot }, () => r.hex(32));
    const rulesHcl = Object.entries(rules).map(([id, mode]) => `    "${id}" = "${mode}"`).join("\n");
    write(`estate/live/${name}/main.tf`, `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "${zoneId}"\n  rules = {\n${rulesHcl}\n  }\n}\n`);
    const own = rootResources(r, zoneId, rules, records, "module.waf");
    stateTotal += write(`estate/live/${name}/terraform.tfstate`, state(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, own));
    statePaths.push(`live/${name}/terraform.tfstate`);
    singleCalls.push(`module "${name}" {\n  source  = "./modules/waf"\n  zone_id = "${zoneId}"\n  rules = {\n${rulesHcl}\n  }\n}\n`);
    singleResources.push(...own.map((res) => ({ ...res, module: `module.${name}` })));
    resources += 1 + rulesPerRoot + recordsPerRoot;
  }
  write("single/main.tf", singleCalls.join("\n"));
  const singleState = write("single/terraform.tfstate", state("00000000-0000-4000-8000-ffffffffffff", singleResources));
  const stats = { roots, resources, stateBytes: stateTotal, singleStateBytes: singleState, statePaths };
  writeFileSync(manifest, JSON.stringify({ params, stats }));
  return { ...stats, reused: false };
}
