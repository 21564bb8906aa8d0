// The realistic corpus (testdata/realworld-*) run end to end with the real terraform: a copy of a tree in
// a temporary directory (optionally inside a git repository), `terraform get` for its local modules, the
// plan's artifacts, and runs of migrate.sh or `apply` through test/support/real-terraform.sh, which passes
// everything to /usr/local/bin/terraform except `import` and `plan` (they need the provider).
import { execa } from "execa";
import { expect } from "vitest";
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { resourceOfInstance } from "../../src/core/resource-match.js";
import { BIN, ROOT, runCli, TESTDATA } from "../support/cli.js";
import { copyDir, tempDir } from "../support/workdir.js";

export const REAL_TERRAFORM = "/usr/local/bin/terraform";
export const WRAPPER = path.join(ROOT, "test/support/real-terraform.sh");
export const RULESET_ID = "6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7";

export interface CorpusTree {
  /** testdata/<name> */
  name: string;
  /** The root module inside the tree. */
  root: string;
  zones: string[];
  /** Plan with the tree's state (else from the configuration alone, as the count reproducer does). */
  planWithState: boolean;
}

export const CORPUS: CorpusTree[] = [
  { name: "realworld-module-examples", root: "examples/complete", zones: ["3f1bc18efe333337886cd2d0f6fa0000"], planWithState: true },
  { name: "realworld-staging-count", root: ".", zones: ["3f1bc18efe333337886cd2d0f6fa0000"], planWithState: false },
  { name: "realworld-nested-modules", root: ".", zones: ["0da42c8d2132a9ddaf714f9e7c920711", "9a7806061c88ada191ed06f989cc3dac"], planWithState: true },
  { name: "realworld-data-sources", root: ".", zones: ["0da42c8d2132a9ddaf714f9e7c920711"], planWithState: true },
];

const cliConfig = (() => {
  const dir = tempDir("cfwm-tfrc-");
  const file = path.join(dir, "terraformrc");
  writeFileSync(file, "");
  return file;
})();

/** The environment every terraform run gets: no CLI config, no checkpoint calls (no network). */
export function tfEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(process.env as Record<string, string>), TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", NO_COLOR: "1", ...extra };
}

export type GitLayout = "none" | "repo-top" | "repo-subdir";

export interface Copy {
  /** Where the tree was copied (the tree's top). */
  top: string;
  /** The root module. */
  root: string;
  /** Every file of the tree before anything ran (relative to top). */
  before: Record<string, string>;
}

/**
 * A copy of a corpus tree: outside any repository, as a repository's top, or in a subdirectory of one.
 * `terraform get` installs its local modules so that `state rm` can load the configuration.
 *
 * The kill tests take dozens of copies of one tree: the repository and `terraform get` are made once per
 * tree and layout (a template), and each copy is a plain copy of it. Both keep only relative paths (git's
 * objects and index; `.terraform/modules/modules.json` records `"Dir": "../.."`), so a copy is what a fresh
 * set-up would give, in its own directory.
 */
export async function copyTree(tree: CorpusTree, layout: GitLayout = "none", get = true): Promise<Copy> {
  const base = copyDir(await templateOf(tree, layout, get), tree.name);
  const top = layout === "repo-subdir" ? path.join(base, "infra", "waf") : base;
  return { top, root: path.join(top, tree.root), before: snapshot(top) };
}

const templates = new Map<string, Promise<string>>();

function templateOf(tree: CorpusTree, layout: GitLayout, get: boolean): Promise<string> {
  const key = JSON.stringify([tree.name, tree.root, layout, get]);
  let t = templates.get(key);
  if (!t) {
    t = freshTree(tree, layout, get);
    templates.set(key, t);
  }
  return t;
}

/** The set-up itself: copy the tree, make the repository, install the local modules. Returns the base. */
async function freshTree(tree: CorpusTree, layout: GitLayout, get: boolean): Promise<string> {
  const base = tempDir(`cfwm-${tree.name}-template-`);
  const top = layout === "repo-subdir" ? path.join(base, "infra", "waf") : base;
  mkdirSync(top, { recursive: true });
  cpSync(path.join(TESTDATA, tree.name), top, { recursive: true });
  if (layout !== "none") {
    const git = (args: string[]) => execa("git", ["-c", "user.email=ci@example.com", "-c", "user.name=ci", ...args], { cwd: base });
    await git(["init", "-q", "."]);
    await git(["add", "-A"]);
    await git(["commit", "-qm", "infra"]);
  }
  if (get) await execa(REAL_TERRAFORM, ["get", "-no-color"], { cwd: path.join(top, tree.root), env: tfEnv() });
  return base;
}

/** `plan --out-dir` for a copy; returns the artifacts' directory. */
export async function planArtifacts(tree: CorpusTree, copy: Copy): Promise<string> {
  const out = tempDir("cfwm-plan-");
  const ids = tree.zones.flatMap((z) => ["--ruleset-id", `${z}=${RULESET_ID}`]);
  const r = await runCli(["plan", ".", ...(tree.planWithState ? ["--state", "terraform.tfstate"] : []), ...ids, "--out-dir", out, "--force", "--format", "json"], { cwd: copy.root });
  if (r.exitCode !== 0) throw new Error(`plan failed (${r.exitCode}): ${r.stderr}`);
  return out;
}

/** Every config file under dir (relative path → text), skipping .terraform and state files. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".terraform" || e.name === ".git" || e.name === ".cf-waf-migrate") continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tf(\.json)?$/.test(e.name)) files[path.relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return files;
}

const LEGACY_TYPE = /(^|\.)(data\.)?cloudflare_waf_(package|group|rule)s?\.[^.]+$/;

/** Legacy instances in the root's state, as the real `terraform state list` prints them. */
export async function legacyInState(root: string): Promise<string[]> {
  return (await stateList(root)).filter((l) => LEGACY_TYPE.test(resourceOfInstance(l) ?? ""));
}

/** `terraform state list -state=FILE`: a state file read where it lies. */
async function stateListOf(file: string): Promise<string[]> {
  const r = await execa(REAL_TERRAFORM, ["state", "list", `-state=${file}`], { cwd: path.dirname(file), env: tfEnv() });
  return r.stdout.split("\n").filter((l) => l !== "");
}

export async function stateList(root: string): Promise<string[]> {
  const r = await execa(REAL_TERRAFORM, ["state", "list"], { cwd: root, env: tfEnv() });
  return r.stdout.split("\n").filter((l) => l !== "");
}

const LEGACY_BLOCK = /^\s*(resource|data)\s+"cloudflare_waf_(package|group|rule)s?"/m;

/** Files of the copy that still declare a legacy block. */
export function filesWithLegacyBlocks(copy: Copy): string[] {
  return Object.entries(snapshot(copy.top))
    .filter(([, text]) => LEGACY_BLOCK.test(text))
    .map(([f]) => f);
}

/**
 * When the root's state file is empty, the newest of terraform's backups beside it (else null). terraform
 * empties the file before writing a new state: a kill in that moment (the random-delay kills can land there,
 * inside the real `state rm`) leaves 0 bytes and the state that write replaced in a backup.
 */
export function interruptedStateWrite(copy: Copy): string | null {
  const file = path.join(copy.root, "terraform.tfstate");
  if (!existsSync(file) || readFileSync(file, "utf8").trim() !== "") return null;
  const backups = readdirSync(copy.root)
    .filter((n) => /^terraform\.tfstate(\.\d+)?\.backup$/.test(n))
    .map((n) => path.join(copy.root, n))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (backups.length === 0) throw new Error(`${file} is empty and no terraform backup is beside it`);
  return backups[0]!;
}

/**
 * The safety invariant at any stop: while state holds a legacy instance, every configuration file is
 * exactly as it was (every legacy block in place). Returns a description of a violation, or null. A state
 * file left empty by a killed terraform write is judged by the state that write replaced (its backup).
 */
export async function violation(copy: Copy): Promise<string | null> {
  const backup = interruptedStateWrite(copy);
  const left = backup ? (await stateListOf(backup)).filter((l) => LEGACY_TYPE.test(resourceOfInstance(l) ?? "")) : await legacyInState(copy.root);
  if (left.length === 0) return null;
  const now = snapshot(copy.top);
  const changed = Object.keys(copy.before).filter((f) => now[f] !== copy.before[f]);
  return changed.length ? `state still holds ${left.join(", ")} but ${changed.join(", ")} changed` : null;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in its own process group (so the wrapper's kill hook can kill all of it) and waits. */
export function runGroup(cmd: string, args: string[], cwd: string, env: Record<string, string>, killAfterMs?: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer =
      killAfterMs === undefined
        ? null
        : setTimeout(() => {
            try {
              process.kill(-child.pid!, "SIGKILL");
            } catch {
              // already gone
            }
          }, killAfterMs);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      // Whatever the group left running (a wrapper sleeping after its kill) goes too.
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // none left
      }
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** migrate.sh --yes with the wrapper as TF. */
/**
 * PLAN.md step 2 (ruleset.tf copied into the root, where it is not yet), then migrate.sh --yes with the
 * wrapper as terraform: the script refuses to start without the ruleset it imports declared.
 */
export function runScript(copy: Copy, out: string, env: Record<string, string> = {}, killAfterMs?: number): Promise<RunResult> {
  const copied = path.join(copy.root, "cf-waf-migrate-ruleset.tf");
  if (existsSync(path.join(out, "ruleset.tf")) && !existsSync(copied)) copyFileSync(path.join(out, "ruleset.tf"), copied);
  return runGroup("bash", [path.join(out, "migrate.sh"), "--yes"], copy.root, tfEnv({ TF: WRAPPER, ...env }), killAfterMs);
}

/** cf-waf-migrate apply --yes with the wrapper as terraform; the generated ruleset must be in the root. */
export function runApplyCli(tree: CorpusTree, copy: Copy, env: Record<string, string> = {}, killAfterMs?: number): Promise<RunResult> {
  const ids = tree.zones.flatMap((z) => ["--ruleset-id", `${z}=${RULESET_ID}`]);
  return runGroup("node", [BIN, "apply", ...ids, "--terraform-bin", WRAPPER, "--yes"], copy.root, tfEnv(env), killAfterMs);
}

/** A small seeded PRNG (mulberry32): the same kill points on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const corpusTree = (name: string): CorpusTree => CORPUS.find((t) => t.name === name)!;

/** The end of a migration: no legacy instance in state, no legacy block in the files, one ruleset per zone. */
export async function expectFinished(t: CorpusTree, copy: Copy): Promise<void> {
  const list = await stateList(copy.root);
  expect(list.filter((a) => LEGACY_TYPE.test(resourceOfInstance(a) ?? ""))).toEqual([]);
  expect(filesWithLegacyBlocks(copy)).toEqual([]);
  expect(list.filter((a) => a.startsWith("cloudflare_ruleset.")).length).toBe(t.zones.length);
}

/** How many terraform invocations a whole run makes (the kill points). */
export async function countInvocations(run: (env: Record<string, string>) => Promise<{ code: number | null }>): Promise<number> {
  const counter = path.join(tempDir("cfwm-count-"), "n");
  const r = await run({ TF_COUNTER: counter });
  expect(r.code).toBe(0);
  return Number(readFileSync(counter, "utf8").trim());
}
