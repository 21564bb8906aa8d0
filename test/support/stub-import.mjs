// `terraform import ADDRESS ID` without a provider: adds the resource entry an import of a
// cloudflare_ruleset would add to ./terraform.tfstate (root module only, as the plan imports), written
// atomically so that a kill leaves the old or the new state. `x[0]` (a ruleset with count, one workspace's)
// is written as terraform writes a counted instance (`each: "list"`, `index_key: 0`).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const [address, id] = args;
const m = /^([a-z0-9_]+)\.([A-Za-z0-9_-]+)(?:\[(\d+)\])?$/.exec(address ?? "");
if (!m || !id) {
  process.stderr.write(`stub import: expected ADDRESS ID, got ${JSON.stringify(process.argv.slice(2))}\n`);
  process.exit(1);
}
const [, type, name, index] = m;
// The local backend's file for the selected workspace (TF_WORKSPACE, else .terraform/environment), as
// terraform would choose it.
const workspace = process.env.TF_WORKSPACE || (existsSync(".terraform/environment") ? readFileSync(".terraform/environment", "utf8").trim() : "");
const file = workspace && workspace !== "default" ? `terraform.tfstate.d/${workspace}/terraform.tfstate` : "terraform.tfstate";
const state = JSON.parse(readFileSync(file, "utf8"));
if (state.resources.some((r) => !r.module && r.mode === "managed" && r.type === type && r.name === name)) {
  process.stderr.write(`Error: Resource already managed by Terraform: ${address}\n`);
  process.exit(1);
}
const [, zoneId, rulesetId] = id.split("/");
state.resources.push({
  mode: "managed",
  type,
  name,
  provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
  ...(index !== undefined ? { each: "list" } : {}),
  instances: [{ ...(index !== undefined ? { index_key: Number(index) } : {}), schema_version: 1, attributes: { id: rulesetId, zone_id: zoneId, kind: "zone", name: "default", phase: "http_request_firewall_managed" }, sensitive_attributes: [] }],
});
state.serial += 1;
writeFileSync(`${file}.import-tmp`, JSON.stringify(state, null, 2) + "\n");
renameSync(`${file}.import-tmp`, file);
process.stdout.write(`${address}: Import prepared!\nImport successful!\n`);
