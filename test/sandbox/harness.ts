// Runs the real terraform against the provider double in tests: one mirror per test file, a temp root,
// a TF_DATA_DIR and plugin cache per root, and a hard kill of every terraform process group on teardown
// (an orphaned plugin keeps terraform's pipes open and terraform then waits forever).
//
// With `reattach`, the harness's own terraform commands (Root.tf) other than `init` attach to one
// long-lived double per harness (TF_REATTACH_PROVIDERS, src/sandbox/reattach.ts) instead of starting one
// from the mirror, which costs a node process per provider start (several per command). Terraform skips
// its lock-file checks for a reattached provider, so a command attaches only when a run that started the
// plugin itself (init, or a plan/apply/…) passed them and neither the lock file, the installed package nor
// any provider requirement changed since (reattach-check.ts); the version served is the locked one. `init`
// always installs from the mirror, and commands the tool runs (the CLI's own terraform) are untouched.
// Files that kill process groups leave it off: there the plugin must be terraform's child, killed with it.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
// The compiled double (dist/, built by `npm test`'s pretest) is what terraform starts, as from a user's mirror.
import { ACCOUNT_DIR_ENV, ACCOUNT_FILE, buildMirror, PROVIDER_SOURCE, ProviderHost, type Account, type MirrorLayout, type Zone } from "../../dist/sandbox/index.js";
import { lockedVersion, requirementsDigest } from "./reattach-check.js";

export const TERRAFORM = existsSync("/usr/local/bin/terraform") ? "/usr/local/bin/terraform" : "terraform";
export const ZONE_ID = "0da42c8d2132a9ddaf714f9e7c920711";
export const OWASP_PACKAGE = "a25a9a7e9c00afc1fb2e0245519d725b";
export const CF_PACKAGE = "1e334934fd7ae32ad705667f8c1057aa";
export const ROBOTS_GROUP = "de677e5818985db1285d0e80225f06e5";
export const WP_GROUP = "4f7f9bcdfd0d4c2ba0c8e1e4a4b0d0a1";
export const SQLI_RULE = "100000";
export const ENTRY_POINT = "4814384a9e5d4991b9815dcfc25d2f1f";

/** A hard limit per terraform command: generous, because eight people share two cores. */
const COMMAND_LIMIT_MS = 240_000;

export interface TfResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface HarnessOptions {
  /** Root.tf's commands after init attach to one long-lived double (see the top of this file). */
  reattach?: boolean;
}

export class TerraformHarness {
  readonly base: string;
  readonly mirror: MirrorLayout;
  private readonly groups = new Set<number>();
  private readonly host: ProviderHost | undefined;
  /** Per root and data directory: the requirements digest a run that started the plugin itself accepted. */
  private readonly checked = new Map<string, string>();

  /** `bin`: the binary every command runs (TERRAFORM, or `tofu` for OpenTofu). */
  constructor(
    versions: string[],
    readonly bin: string = TERRAFORM,
    options: HarnessOptions = {},
  ) {
    this.base = mkdtempSync(path.join(os.tmpdir(), "cfwm-double-"));
    this.mirror = buildMirror(path.join(this.base, "box"), versions);
    // The reattach configuration names terraform's provider address; OpenTofu's differs.
    if (options.reattach && bin === TERRAFORM) this.host = new ProviderHost(path.join(this.base, "sock"));
  }

  /** A fresh root module directory with its own account, data dir and plugin cache. */
  root(name: string, files: Record<string, string>, zones: Zone[] = []): Root {
    const dir = path.join(this.base, name);
    mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(files)) writeFileSync(path.join(dir, f), text);
    const accountDir = path.join(this.base, `${name}.account`);
    mkdirSync(accountDir, { recursive: true });
    const account: Account = { zones: Object.fromEntries(zones.map((z) => [z.id, z])) };
    writeFileSync(path.join(accountDir, ACCOUNT_FILE), JSON.stringify(account, null, 2));
    const cache = path.join(this.base, `${name}.plugin-cache`);
    mkdirSync(cache, { recursive: true });
    return new Root(this, dir, accountDir, {
      ...this.mirror.env,
      TF_DATA_DIR: path.join(this.base, `${name}.tf-data`),
      TF_PLUGIN_CACHE_DIR: cache,
      [ACCOUNT_DIR_ENV]: accountDir,
      CLOUDFLARE_API_TOKEN: "double-token-not-a-secret-0123456789abcdef",
    });
  }

  /**
   * TF_REATTACH_PROVIDERS for a command, when this harness reattaches and terraform would start the double:
   * not for init (it installs from the mirror), and only while terraform's own lock-file checks are known
   * to pass (see the top of this file); otherwise terraform starts the plugin and checks for itself.
   */
  private async reattachFor(cwd: string, args: string[], env: Record<string, string>): Promise<Record<string, string>> {
    // A global option first (-chdir=DIR) would move the lock file and data directory read below: not attached.
    if (!this.host || NO_PROVIDER.has(args[0]!) || args[0]!.startsWith("-")) return {};
    const version = lockedVersion(cwd, PROVIDER_SOURCE);
    if (!version || !this.mirror.versions.includes(version)) return {};
    const dataDir = path.resolve(cwd, env.TF_DATA_DIR ?? ".terraform");
    if (this.checked.get(`${cwd}\0${dataDir}`) !== requirementsDigest(cwd, dataDir, PROVIDER_SOURCE)) return {};
    return { TF_REATTACH_PROVIDERS: await this.host.reattachConfig(version, env) };
  }

  /** After a command that started the plugin itself: its success says the lock-file checks passed. */
  private noteChecked(cwd: string, args: string[], env: Record<string, string>, code: number | null): void {
    if (!this.host || !CHECKS_LOCK.has(args[0]!) || !(code === 0 || (code === 2 && args.includes("-detailed-exitcode")))) return;
    const dataDir = path.resolve(cwd, env.TF_DATA_DIR ?? ".terraform");
    this.checked.set(`${cwd}\0${dataDir}`, requirementsDigest(cwd, dataDir, PROVIDER_SOURCE));
  }

  async run(cwd: string, args: string[], env: Record<string, string>): Promise<TfResult> {
    const fullEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: this.base, ...env };
    const reattach = await this.reattachFor(cwd, args, fullEnv);
    const result = await this.spawn(cwd, args, { ...fullEnv, ...reattach });
    if (!reattach.TF_REATTACH_PROVIDERS) this.noteChecked(cwd, args, fullEnv, result.code);
    return result;
  }

  private spawn(cwd: string, args: string[], env: Record<string, string>): Promise<TfResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.bin, args, {
        cwd,
        // Its own process group, so that teardown can kill terraform and every plugin it started at once.
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env,
      });
      if (child.pid) this.groups.add(child.pid);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const limit = setTimeout(() => killGroup(child.pid), COMMAND_LIMIT_MS);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(limit);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Kills every process group this harness started (finished ones too: a plugin may outlive terraform). */
  teardown(): void {
    this.host?.stop();
    for (const pid of this.groups) killGroup(pid);
    this.groups.clear();
    rmSync(this.base, { recursive: true, force: true });
  }
}

/** Commands that start no provider plugin (or must install it): never reattached. */
const NO_PROVIDER = new Set(["init", "providers", "version", "fmt", "get", "workspace", "output"]);
/** Commands whose success means terraform checked the lock file against the configuration and the installed package. */
const CHECKS_LOCK = new Set(["init", "plan", "apply", "import", "validate", "refresh", "destroy"]);

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export class Root {
  constructor(
    private readonly harness: TerraformHarness,
    readonly dir: string,
    readonly accountDir: string,
    readonly env: Record<string, string>,
  ) {}

  /** Runs `terraform ARGS` with -no-color after the (sub)command words; stderr's line wrapping is undone. */
  async tf(...args: string[]): Promise<TfResult> {
    const words = args[0] === "state" || args[0] === "workspace" || args[0] === "providers" ? 2 : 1;
    const r = await this.harness.run(this.dir, [...args.slice(0, words), "-no-color", ...args.slice(words)], this.env);
    return { ...r, stderr: r.stderr.replace(/\s*\n\s*(?=\S)/g, (m) => (m.includes("\n\n") ? m : " ")) };
  }

  write(file: string, text: string): void {
    writeFileSync(path.join(this.dir, file), text);
  }

  read(file: string): string {
    return readFileSync(path.join(this.dir, file), "utf8");
  }

  account(): Account {
    return JSON.parse(readFileSync(path.join(this.accountDir, ACCOUNT_FILE), "utf8")) as Account;
  }

  editAccount(change: (a: Account) => void): void {
    const a = this.account();
    change(a);
    writeFileSync(path.join(this.accountDir, ACCOUNT_FILE), JSON.stringify(a, null, 2));
  }
}

/** An Enterprise zone with the previous WAF's two packages, a group in each and one rule. */
export function legacyZone(overrides: Partial<Zone> = {}): Zone {
  return {
    id: ZONE_ID,
    name: "example.com",
    plan: "enterprise",
    status: "active",
    settings: { waf: "on", security_level: "medium" },
    waf: {
      packages: [
        { id: OWASP_PACKAGE, name: "OWASP ModSecurity Core Rule Set", detection_mode: "anomaly", sensitivity: "high", action_mode: "challenge", default_sensitivity: "high", default_action_mode: "challenge" },
        { id: CF_PACKAGE, name: "CloudFlare", detection_mode: "traditional", sensitivity: "", action_mode: "", default_sensitivity: "", default_action_mode: "" },
      ],
      groups: [
        { id: ROBOTS_GROUP, package_id: OWASP_PACKAGE, name: "OWASP Bad Robots", mode: "on", default_mode: "on", rules_count: 12, modified_rules_count: 0 },
        { id: WP_GROUP, package_id: CF_PACKAGE, name: "Cloudflare WordPress", mode: "off", default_mode: "off", rules_count: 20, modified_rules_count: 0 },
      ],
      rules: [
        { id: SQLI_RULE, package_id: CF_PACKAGE, group_id: WP_GROUP, description: "SQLi in the login form", priority: "5", mode: "default", default_mode: "block", allowed_modes: ["default", "disable", "simulate", "block", "challenge"] },
      ],
    },
    ...overrides,
  };
}

export function providerBlock(version: string): string {
  return `terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "${version}"
    }
  }
}

provider "cloudflare" {}
`;
}
