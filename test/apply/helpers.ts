// A multi-zone work tree ready for `apply`: the plan's artifacts written, step 0 done (the URI override's
// block removed with the plan's patch and its entry dropped from state through the fake), and steps 1–2
// done (the generated ruleset.tf copied into the root module).
import { execa } from "execa";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runCli } from "../support/cli.js";
import { copyDir, copyFixture, FAKE_TERRAFORM, fakeTerraformBin, tempDir } from "../support/workdir.js";

export const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
export const BLOG = "9a7806061c88ada191ed06f989cc3dac";
export const SHOP_RS = "6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7";
export const BLOG_RS = "2c0fc9fa937b4d3fb7a4ec1e3f9f8e21";
export const IDS = ["--ruleset-id", `${SHOP}=${SHOP_RS}`, "--ruleset-id", `${BLOG}=${BLOG_RS}`];
export const RULESET_IDS = { [SHOP]: SHOP_RS, [BLOG]: BLOG_RS };
export const OVERRIDE = "module.uri_overrides[0].cloudflare_waf_override.checkout";
export const SHOP_RULESET = "cloudflare_ruleset.waf_managed_shop_example_com";
export const BLOG_RULESET = "cloudflare_ruleset.waf_managed_blog_example_org";
/** Files whose legacy blocks the edit removes. */
export const LEGACY_FILES = ["modules/waf/main.tf", "waf-rules.tf.json"];
/** What `state list` shows of the legacy resources once step 0 is done, in its order. */
export const REMOVALS = [
  "cloudflare_waf_group.retired",
  "cloudflare_waf_rule.sqli_strict",
  'module.waf["blog"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]',
  'module.waf["blog"].cloudflare_waf_package.owasp',
  'module.waf["blog"].cloudflare_waf_rule.managed["100000356"]',
  'module.waf["blog"].cloudflare_waf_rule.managed["100008"]',
  'module.waf["blog"].data.cloudflare_waf_packages.owasp',
  'module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]',
  'module.waf["shop"].cloudflare_waf_package.owasp',
  'module.waf["shop"].cloudflare_waf_rule.managed["100000356"]',
  'module.waf["shop"].cloudflare_waf_rule.managed["100008"]',
  'module.waf["shop"].data.cloudflare_waf_packages.owasp',
];

export interface Work {
  /** The root module (a copy of testdata/multi-zone). */
  dir: string;
  /** The plan's --out-dir (shared by the tests of a file: read it, do not write there). */
  out: string;
  /** A scratch directory of this work tree's own. */
  scratch: string;
  /** A directory holding `terraform` and `tofu` that run the fake. */
  bin: string;
  /** A fresh FAKE_TF_LOG file. */
  log: string;
}

let planned: Promise<string> | null = null;

/** `plan --out-dir` on the fixture, once per test file: its artifacts are the same for every copy. */
function planArtifacts(): Promise<string> {
  planned ??= (async () => {
    const dir = copyFixture("multi-zone");
    const out = tempDir();
    const plan = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--out-dir", out, "--format", "json"], { cwd: dir });
    if (plan.exitCode !== 0) throw new Error(`plan failed: ${plan.stderr}`);
    return out;
  })();
  return planned;
}

let stepZeroDone: Promise<string> | null = null;

/**
 * The fixture with step 0 done (the plan's patch applied, the override's entry dropped through the fake),
 * once per test file: every work tree that wants it is a copy, not another `git apply` and fake run.
 */
function stepZeroTemplate(out: string): Promise<string> {
  stepZeroDone ??= (async () => {
    const dir = copyFixture("multi-zone");
    await execa("git", ["apply", path.join(out, "uri-overrides-removal.patch")], { cwd: dir });
    await execa("node", [FAKE_TERRAFORM, "state", "rm", "-backup=-", OVERRIDE], { cwd: dir });
    return dir;
  })();
  return stepZeroDone;
}

export async function prepareWork(opts: { stepZero?: boolean; ruleset?: boolean } = {}): Promise<Work> {
  const out = await planArtifacts();
  const dir = opts.stepZero !== false ? copyDir(await stepZeroTemplate(out), "multi-zone") : copyFixture("multi-zone");
  if (opts.ruleset !== false) copyFileSync(path.join(out, "ruleset.tf"), path.join(dir, "ruleset.tf"));
  const scratch = tempDir();
  return { dir, out, scratch, bin: fakeTerraformBin(), log: path.join(scratch, "argv.log") };
}

export function envFor(work: Work, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${work.bin}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: work.log, ...extra };
}

/** Every invocation of the fake since the log was last cleared. */
export function calls(work: Work): string[][] {
  if (!existsSync(work.log)) return [];
  const text = readFileSync(work.log, "utf8").trim();
  return text === "" ? [] : text.split("\n").map((l) => JSON.parse(l) as string[]);
}

/** Every file under `dir` (relative path → bytes as latin1, so any byte compares exactly). */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(dir, p)] = readFileSync(p, "latin1");
    }
  };
  walk(dir);
  return files;
}

export interface StateEntry {
  module?: string;
  mode: string;
  type: string;
  name: string;
  instances: unknown[];
}

export function readState(dir: string): { serial: number; resources: StateEntry[] } {
  return JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
}

const LEGACY = /^cloudflare_waf_(package|group|rule)s?$/;

/** Legacy packages, groups, rules and legacy data sources left in the state file. */
export function legacyInState(dir: string): string[] {
  return readState(dir)
    .resources.filter((r) => LEGACY.test(r.type))
    .map((r) => `${r.module ? `${r.module}.` : ""}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`);
}

export function hasResource(dir: string, type: string, name: string): boolean {
  return readState(dir).resources.some((r) => r.type === type && r.name === name);
}

/**
 * The invariant of every stop: a legacy block is never gone while state still holds legacy entries
 * (deleting the block first would make terraform destroy it, resetting the live WAF).
 */
export function inconsistency(dir: string, before: Record<string, string>): string | null {
  const left = legacyInState(dir);
  if (left.length === 0) return null;
  const now = snapshot(dir);
  const touched = LEGACY_FILES.filter((f) => now[f] !== before[f]);
  return touched.length ? `legacy blocks in ${touched.join(", ")} were edited while state still holds ${left.join(", ")}` : null;
}
