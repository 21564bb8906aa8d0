// The `merge` bench case: the JSON report of a 1,000-root estate (one shared legacy-WAF module, one state
// per root, some roots with workspaces) split into N shard reports exactly as `--shard K/N` splits roots
// (dist/core/shard.js), written to DIR/shard-K.json; plus DIR/whole.json, the report merge must give back.
// Deterministic from the seed. Sizes follow a real scan of such an estate: each root lists its legacy
// package, groups and rules (from state), one zone with its generated ruleset, removals and import, and
// the findings the scan gives for them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rng } from "./generate.mjs";

// Bump when the generated reports change (their order follows dist/core, so also when its sorting does).
const VERSION = 2;

export async function ensureShardReports(dir, { seed, roots, shards, toolVersion, distDir }) {
  const stamp = path.join(dir, ".params.json");
  const params = JSON.stringify({ VERSION, seed, roots, shards, toolVersion });
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === params) return { reused: true, files: shardFiles(dir, shards), whole: path.join(dir, "whole.json") };
  const { shardOfRoot } = await import(path.join(distDir, "core/shard.js"));
  const { sortFindings } = await import(path.join(distDir, "core/findings.js"));
  mkdirSync(dir, { recursive: true });
  const r = rng(seed);
  const instances = [];
  for (let i = 0; i < roots; i++) {
    const team = r.word();
    const p = `live/${team}-${String(i).padStart(4, "0")}`;
    instances.push({ path: p, workspace: "default" });
    if (r.chance(0.1)) instances.push({ path: p, workspace: r.pick(["eu", "us", "ap"]) });
  }
  instances.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.workspace === "default" ? -1 : b.workspace === "default" ? 1 : a.workspace < b.workspace ? -1 : 1));
  const report = { schemaVersion: 1, tool: { name: "cf-waf-migrate", version: toolVersion }, root: ".", roots: [], resources: [], zones: [], findings: [], errors: [] };
  const zones = [];
  for (const inst of instances) {
    const at = { root: inst.path, workspace: inst.workspace };
    const zoneId = r.hex(32);
    const state = inst.workspace === "default" ? `${inst.path}/terraform.tfstate` : `${inst.path}/terraform.tfstate.d/${inst.workspace}/terraform.tfstate`;
    report.roots.push({ path: inst.path, workspace: inst.workspace, states: [state] });
    const removals = [];
    const add = (address, type, line) => {
      report.resources.push({ address, type, file: "modules/legacy-waf/main.tf", line, zoneId, inConfig: true, inState: true, ...at });
      removals.push(address);
      report.findings.push({ code: "LEGACY_WAF_RESOURCE", severity: "warning", message: `${type} ${address} belongs to the previous WAF`, zoneId, address, file: "modules/legacy-waf/main.tf", line, ...at });
    };
    add("module.waf.cloudflare_waf_package.owasp", "cloudflare_waf_package", 4);
    for (let g = 0; g < r.int(4, 12); g++) add(`module.waf.cloudflare_waf_group.off["${r.hex(32)}"]`, "cloudflare_waf_group", 12);
    for (let k = 0; k < r.int(2, 10); k++) add(`module.waf.cloudflare_waf_rule.rule["${r.int(100000, 999999)}"]`, "cloudflare_waf_rule", 20);
    const rules = [
      { action: "execute", expression: "true", description: "Cloudflare Managed Ruleset", enabled: true, action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee", overrides: { rules: [] } } },
      { action: "execute", expression: "true", description: "Cloudflare OWASP Core Ruleset", enabled: true, action_parameters: { id: "4814384a9e5d4991b9815dcfc25d2f1f", overrides: { categories: [{ category: "paranoia-level-3", enabled: false }, { category: "paranoia-level-4", enabled: false }], rules: [{ id: "6179ae15870a4bb7b2d480d4843b323c", action: "log", score_threshold: 40 }] } } },
    ];
    zones.push({
      zoneId, zoneName: `${r.word()}-${r.hex(6)}.example.com`, plan: "enterprise", compatible: true, migrationMode: "validation",
      phase1: { eligible: true, reasons: [] }, ruleset: { name: "default", rules },
      imports: [{ to: "module.waf.cloudflare_ruleset.waf", id: `zone/${zoneId}/<RULESET_ID>` }], stateRemovals: removals, ...at,
    });
    report.findings.push({ code: "RULESET_ID_UNKNOWN", severity: "warning", message: "the entry point ruleset id is not known yet", zoneId, address: null, file: "modules/legacy-waf/main.tf", line: 4, ...at });
    if (r.chance(0.3)) report.findings.push({ code: "PROVIDER_UPGRADE_BLOCKED", severity: "error", message: "legacy WAF resources remain while the constraint allows provider 4", zoneId: null, address: null, file: `${inst.path}/versions.tf`, line: 5, ...at });
  }
  report.zones = zones.sort((a, b) => a.zoneId.localeCompare(b.zoneId));
  report.findings = sortFindings(report.findings);
  writeFileSync(path.join(dir, "whole.json"), JSON.stringify(report, null, 2));
  for (let k = 1; k <= shards; k++) {
    const mine = (x) => shardOfRoot(x.root ?? x.path, shards) === k;
    const part = { ...report, shard: { index: k, count: shards }, roots: report.roots.filter(mine), resources: report.resources.filter(mine), zones: report.zones.filter(mine), findings: report.findings.filter(mine) };
    writeFileSync(path.join(dir, `shard-${k}.json`), JSON.stringify(part, null, 2));
  }
  writeFileSync(stamp, params);
  return { reused: false, files: shardFiles(dir, shards), whole: path.join(dir, "whole.json") };
}

function shardFiles(dir, shards) {
  return Array.from({ length: shards }, (_, i) => path.join(dir, `shard-${i + 1}.json`));
}
