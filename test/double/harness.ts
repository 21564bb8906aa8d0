// The whole migration on the real terraform and the provider double, shared by test/double/*: a legacy root
// applied on 3.35.0, the zone migrated through the simulated API with the tool's own `api` commands
// (CLOUDFLARE_BASE_URL), `plan --out-dir` from the pulled state, the ruleset put in place, and helpers that
// end every path the way a user would check it: `terraform plan -detailed-exitcode` returning 0.
import { execa } from "execa";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { startApiServer, type ApiServer } from "../../dist/sandbox/index.js";
import { BIN } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { OWASP_PACKAGE, ROBOTS_GROUP, TERRAFORM, TerraformHarness, ZONE_ID, type HarnessOptions, type Root } from "../sandbox/harness.js";

export { legacyZone, providerBlock, TerraformHarness, ZONE_ID, OWASP_PACKAGE, CF_PACKAGE, ROBOTS_GROUP, WP_GROUP, SQLI_RULE, type Root } from "../sandbox/harness.js";

/** The smallest legacy WAF: the OWASP package and one group turned off, in the zone of the double's account. */
export const PACKAGE_AND_GROUP = `resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "block"
}

resource "cloudflare_waf_group" "bad_robots" {
  zone_id    = "${ZONE_ID}"
  package_id = "${OWASP_PACKAGE}"
  group_id   = "${ROBOTS_GROUP}"
  mode       = "off"
}
`;

/** Generous: apply --yes runs terraform several times, and two cores are shared by many. */
const TOOL_LIMIT_MS = 600_000;

export interface ToolResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The built CLI in the root, with the root's terraform environment (and the simulated API's, when given). */
export async function tool(root: Root, args: string[], extraEnv: Record<string, string> = {}): Promise<ToolResult> {
  const r = await execa("node", [BIN, ...args], {
    cwd: root.dir,
    env: { NO_COLOR: "1", ...root.env, ...extraEnv },
    stdin: "ignore",
    reject: false,
    timeout: TOOL_LIMIT_MS,
  });
  return { stdout: r.stdout as string, stderr: r.stderr as string, exitCode: r.exitCode ?? -1 };
}

/** The simulated API over the root's account; its env points the tool (and the provider) at it. */
export async function startApi(root: Root): Promise<{ api: ApiServer; env: Record<string, string> }> {
  const token = root.env.CLOUDFLARE_API_TOKEN!;
  const api = await startApiServer({ accountDir: root.accountDir, credentials: { token } });
  return { api, env: { CLOUDFLARE_BASE_URL: api.baseUrl, CLOUDFLARE_API_TOKEN: token } };
}

/** `terraform init` then `apply` of the legacy configuration; both must succeed. */
export async function initAndApply(root: Root): Promise<void> {
  const init = await root.tf("init", "-input=false");
  expect(init.code, init.stderr).toBe(0);
  const applied = await root.tf("apply", "-auto-approve", "-input=false");
  expect(applied.code, applied.stderr).toBe(0);
}

/**
 * Migrates each zone on the simulated service with `api config` + `api migrate --yes` (the mode given) and
 * reads its entry point ruleset id with `api entrypoint`; returns the `--config-json`/`--ruleset-id` flags.
 */
export async function migrateZones(root: Root, apiEnv: Record<string, string>, zones: string[], mode: "pending" | "validation"): Promise<{ configs: string[]; rulesetIds: string[]; ids: Record<string, string> }> {
  const dir = tempDir("cfwm-double-config-");
  const configs: string[] = [];
  const rulesetIds: string[] = [];
  const ids: Record<string, string> = {};
  for (const zone of zones) {
    const file = path.join(dir, `${zone}.json`);
    const config = await tool(root, ["api", "config", "--zone", zone, "--output", file], apiEnv);
    expect(config.exitCode, config.stderr).toBe(0);
    const migrated = await tool(root, ["api", "migrate", "--zone", zone, "--mode", mode, "--yes", "--config-json", file, "--poll-interval", "1"], apiEnv);
    expect(migrated.exitCode, migrated.stdout + migrated.stderr).toBe(0);
    const entry = await tool(root, ["api", "entrypoint", "--zone", zone, "--format", "json"], apiEnv);
    expect(entry.exitCode, entry.stderr).toBe(0);
    const id = (JSON.parse(entry.stdout) as { rulesetId: string }).rulesetId;
    ids[zone] = id;
    configs.push("--config-json", `${zone}=${file}`);
    rulesetIds.push("--ruleset-id", `${zone}=${id}`);
  }
  return { configs, rulesetIds, ids };
}

/** `plan --out-dir` from the pulled state; returns the output directory. */
export async function planMigration(root: Root, flags: string[], extra: string[] = []): Promise<string> {
  const pulled = await root.tf("state", "pull");
  expect(pulled.code, pulled.stderr).toBe(0);
  const out = tempDir("cfwm-double-plan-");
  const state = path.join(out, "state.json");
  writeFileSync(state, pulled.stdout);
  const plan = await tool(root, ["plan", ".", "--state", state, ...flags, "--out-dir", path.join(out, "plan"), "--format", "json", ...extra]);
  expect(plan.exitCode, plan.stdout.slice(0, 4000) + plan.stderr).toBe(0);
  return path.join(out, "plan");
}

/** Puts the generated ruleset.tf into the root under the name a user would give it. */
export function placeRuleset(root: Root, planDir: string, name = "cf-waf-migrate-ruleset.tf"): void {
  root.write(name, readFileSync(path.join(planDir, "ruleset.tf"), "utf8"));
}

/** `terraform plan -detailed-exitcode` must return 0 (no changes). */
export async function expectCleanPlan(root: Root): Promise<void> {
  const plan = await root.tf("plan", "-detailed-exitcode", "-input=false");
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(plan.stdout).toContain("No changes.");
}

/** The root's provider constraint moves to VERSION; `terraform init -upgrade` installs it. */
export async function upgradeProvider(root: Root, file: string, from: string, to: string): Promise<void> {
  const text = root.read(file);
  expect(text).toContain(`"${from}"`);
  root.write(file, text.replace(`"${from}"`, `"${to}"`));
  const init = await root.tf("init", "-upgrade", "-input=false");
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain(`Installed cloudflare/cloudflare v${to}`);
}

/** `reattach`: the harness's own terraform commands attach to one long-lived double (test/sandbox/harness.ts). */
export function newHarness(versions: string[], options: HarnessOptions = {}): TerraformHarness {
  return new TerraformHarness(versions, TERRAFORM, options);
}
