// --pull-state against the real terraform binary: local-backend roots whose workspaces were made with
// `terraform workspace new` (offline, no provider needed) and whose states were seeded by copying v4 JSON
// into terraform.tfstate and terraform.tfstate.d/<ws>/; a root never initialised; and fake binaries that
// print terraform's own lock and backend-credential errors.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { CliResult, TerraformCli } from "../../src/terraform/runner/cli.js";
import { flavorOf, maskInlineSecrets, parseWorkspaceList, pullErrorToInputError, pullStates, type PullRoot } from "../../src/estate/pull-state.js";
import { mapLimit } from "../../src/core/map-limit.js";
import { wafPackageState } from "../support/state.js";
import { tempDir } from "../support/workdir.js";

const TERRAFORM = existsSync("/usr/local/bin/terraform") ? "/usr/local/bin/terraform" : "terraform";
const CONFIG = `terraform {
  required_providers {
    cloudflare = { source = "cloudflare/cloudflare", version = "~> 3.35" }
  }
}
module "waf" {
  source  = "../../modules/legacy-waf"
  zone_id = var.zone_id
}
variable "zone_id" { type = string }
`;

function v4State(zoneId: string, serial: number): string {
  return JSON.stringify(wafPackageState(zoneId, { serial, sensitivity: "high" }), null, 2);
}

const ZONE_A = "0da42c8d2132a9ddaf714f9e7c920711";
const ZONE_B = "1b2c3d4e5f60718293a4b5c6d7e8f901";
const ZONE_C = "2c3d4e5f60718293a4b5c6d7e8f90112";

function tf(dir: string, ...args: string[]): void {
  execFileSync(TERRAFORM, [`-chdir=${dir}`, ...args], { stdio: "pipe", env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
}

let base: string;
let roots: PullRoot[];

beforeAll(() => {
  base = tempDir("cfwm-pull-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    writeFileSync(path.join(base, rel), text);
  };
  write("modules/legacy-waf/main.tf", 'variable "zone_id" {}\nresource "cloudflare_waf_package" "owasp" {\n  zone_id    = var.zone_id\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n');
  // live/prod: the default workspace only.
  write("live/prod/main.tf", CONFIG);
  write("live/prod/terraform.tfstate", v4State(ZONE_A, 4));
  // `state pull` loads the configuration: its modules must be installed (`terraform get` works offline).
  tf(path.join(base, "live/prod"), "get");
  // live/staging: workspaces eu and us, made by terraform itself; default has no state.
  write("live/staging/main.tf", CONFIG);
  tf(path.join(base, "live/staging"), "workspace", "new", "eu");
  tf(path.join(base, "live/staging"), "workspace", "new", "us");
  tf(path.join(base, "live/staging"), "get");
  write("live/staging/terraform.tfstate.d/eu/terraform.tfstate", v4State(ZONE_B, 7));
  write("live/staging/terraform.tfstate.d/us/terraform.tfstate", v4State(ZONE_C, 9));
  // live/new: a local backend declared but `terraform init` never run.
  write("live/new/main.tf", CONFIG + 'terraform {\n  backend "local" {}\n}\n');
  roots = ["live/new", "live/prod", "live/staging"].map((p) => ({ path: p, dir: path.join(base, p) }));
}, 60_000);

describe("--pull-state with the real terraform", () => {
  it("pulls every workspace of every root, tagged with root and workspace, and reports the uninitialised root", async () => {
    const selectedBefore = readFileSync(path.join(base, "live/staging/.terraform/environment"), "utf8");
    const out = await pullStates({ roots, bin: TERRAFORM, cwd: base, jobs: 2 });

    const pulled = out.states.map((s) => ({
      root: s.root,
      workspace: s.workspace,
      zones: s.state?.instances.map((i) => i.attributes["zone_id"]) ?? null,
      addresses: s.state?.instances.map((i) => i.address) ?? null,
    }));
    expect(pulled).toEqual([
      { root: "live/prod", workspace: "default", zones: [ZONE_A], addresses: ["module.waf.cloudflare_waf_package.owasp"] },
      { root: "live/staging", workspace: "default", zones: null, addresses: null },
      { root: "live/staging", workspace: "eu", zones: [ZONE_B], addresses: ["module.waf.cloudflare_waf_package.owasp"] },
      { root: "live/staging", workspace: "us", zones: [ZONE_C], addresses: ["module.waf.cloudflare_waf_package.owasp"] },
    ]);
    expect(out.states.find((s) => s.workspace === "eu")!.source).toBe(`TF_WORKSPACE=eu ${TERRAFORM} -chdir=live/staging state pull`);

    expect(out.errors).toHaveLength(1);
    const [err] = out.errors;
    expect(err).toMatchObject({ root: "live/new", workspace: null, kind: "not-initialized" });
    expect(err!.message).toContain('Backend initialization required, please run "terraform init"');
    expect(err!.fix).toBe(`run \`terraform -chdir=live/new init\` (with the backend's credentials), then retry`);
    const line = pullErrorToInputError(err!);
    expect(line.file).toBe("live/new");
    expect(line.message).not.toMatch(/\n|\u001b/);

    // Nothing on disk changed: the selected workspace is still the one `workspace new` left, no state written.
    expect(readFileSync(path.join(base, "live/staging/.terraform/environment"), "utf8")).toBe(selectedBefore);
    expect(readdirSync(path.join(base, "live/staging/terraform.tfstate.d")).sort()).toEqual(["eu", "us"]);
    expect(existsSync(path.join(base, "live/staging/terraform.tfstate"))).toBe(false);
    expect(existsSync(path.join(base, "live/new/.terraform"))).toBe(false);
  }, 60_000);

  it("runs terragrunt in the root's directory without -chdir (terragrunt run -- workspace list, terragrunt state pull)", async () => {
    const bin = tempDir("cfwm-tg-");
    const log = path.join(bin, "argv.log");
    // A terragrunt stand-in that records its directory and arguments and hands the command to terraform.
    const script = path.join(bin, "terragrunt");
    writeFileSync(
      script,
      `#!/usr/bin/env bash\nprintf '%s|%s|%s\\n' "$PWD" "\${TF_WORKSPACE:-}" "$*" >> ${JSON.stringify(log)}\nif [ "$1" = run ] && [ "$2" = -- ]; then shift 2; fi\nexec ${TERRAFORM} "$@"\n`,
    );
    chmodSync(script, 0o755);
    const out = await pullStates({ roots: roots.slice(1), bin: script, cwd: base, jobs: 1 });
    expect(out.errors).toEqual([]);
    expect(out.states.map((s) => `${s.root}:${s.workspace}:${s.state?.instances.length ?? "none"}`)).toEqual([
      "live/prod:default:1",
      "live/staging:default:none",
      "live/staging:eu:1",
      "live/staging:us:1",
    ]);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toEqual([
      `${path.join(base, "live/prod")}||run -- workspace list`,
      `${path.join(base, "live/prod")}|default|state pull`,
      `${path.join(base, "live/staging")}||run -- workspace list`,
      `${path.join(base, "live/staging")}|default|state pull`,
      `${path.join(base, "live/staging")}|eu|state pull`,
      `${path.join(base, "live/staging")}|us|state pull`,
    ]);
  }, 60_000);
});

// Terraform's own texts (internal/command/clistate/state.go LockErrorMessage; the s3 backend's credential error).
const LOCK_ERROR = `╷
│ Error: Error acquiring the state lock
│
│ Error message: ConditionalCheckFailedException: The conditional request failed
│ Lock Info:
│   ID:        4f2a9c1e-6b7d-4e8f-9a0b-1c2d3e4f5a6b
│   Path:      acme-tfstate/live/prod/terraform.tfstate
│   Operation: OperationTypeApply
│   Who:       ci@runner-7
│   Version:   1.11.4
│   Created:   2026-11-24 09:12:44.123456 +0000 UTC
│   Info:
│
│
│ Terraform acquires a state lock to protect the state from being written
│ by multiple users at the same time. Please resolve the issue above and try
│ again. For most commands, you can disable locking with the "-lock=false"
│ flag, but this is not recommended.
╵`;
const AUTH_ERROR = `╷
│ Error: No valid credential sources found
│
│   with terraform.backend "s3",
│   on main.tf line 2, in terraform:
│    2:   backend "s3" {
│
│ Please see https://www.terraform.io/docs/language/settings/backends/s3.html
│ for more information about providing credentials.
│
│ Error: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, request canceled, context deadline exceeded
│ (token=s3cr3t-T0KEN-value-123456)
╵`;

function fakeBin(dir: string, behaviour: Record<string, string>): string {
  // Per root (the -chdir directory): what `state pull` prints on stderr before exiting 1.
  const script = path.join(dir, "terraform");
  const cases = Object.entries(behaviour)
    .map(([root, file]) => `  -chdir=${root}) if [ "$2" = state ]; then cat ${JSON.stringify(file)} >&2; exit 1; fi ;;`)
    .join("\n");
  writeFileSync(script, `#!/usr/bin/env bash\ncase "$1" in\n${cases}\nesac\nif [ "$2" = workspace ]; then echo '* default'; exit 0; fi\necho '{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"x","outputs":{},"resources":[]}'\n`);
  chmodSync(script, 0o755);
  return script;
}

describe("--pull-state errors", () => {
  it("classifies a locked state and missing backend credentials per root, masks secrets, and keeps pulling the others", async () => {
    const dir = tempDir("cfwm-fake-tf-");
    writeFileSync(path.join(dir, "lock.txt"), LOCK_ERROR);
    writeFileSync(path.join(dir, "auth.txt"), AUTH_ERROR);
    const bin = fakeBin(dir, { "live/locked": path.join(dir, "lock.txt"), "live/auth": path.join(dir, "auth.txt") });
    const cwd = tempDir("cfwm-fake-cwd-");
    const rootsHere = ["live/auth", "live/locked", "live/ok"].map((p) => ({ path: p, dir: path.join(cwd, p) }));
    for (const r of rootsHere) mkdirSync(path.join(r.dir, ".terraform"), { recursive: true });
    const out = await pullStates({ roots: rootsHere, bin, cwd, jobs: 3, env: { AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" } });

    expect(out.states.map((s) => s.root)).toEqual(["live/ok"]);
    expect(out.errors.map((e) => [e.root, e.workspace, e.kind])).toEqual([
      ["live/auth", "default", "auth"],
      ["live/locked", "default", "locked"],
    ]);
    const [auth, locked] = out.errors;
    expect(locked!.message).toContain("Error acquiring the state lock");
    expect(locked!.fix).toContain(`terraform -chdir=live/locked force-unlock 4f2a9c1e-6b7d-4e8f-9a0b-1c2d3e4f5a6b`);
    expect(auth!.message).toContain("No valid credential sources found");
    expect(auth!.fix).toMatch(/backend's credentials/);
    for (const e of out.errors) {
      const text = JSON.stringify(e) + JSON.stringify(pullErrorToInputError(e));
      expect(text).not.toContain("s3cr3t");
      expect(text).not.toContain("wJalrXUtnFEMI");
      expect(pullErrorToInputError(e).message).not.toContain("\n");
    }
  }, 30_000);

  it("reports a binary that cannot be started once per root, without throwing", async () => {
    const cwd = tempDir("cfwm-nobin-");
    const out = await pullStates({ roots: [{ path: "a", dir: path.join(cwd, "a") }], bin: path.join(cwd, "no-such-terraform"), cwd });
    expect(out.states).toEqual([]);
    expect(out.errors).toMatchObject([{ root: "a", workspace: null, kind: "not-found" }]);
    expect(out.errors[0]!.fix).toMatch(/--terraform-bin/);
  });

  it("masks secrets a backend error spells out", () => {
    expect(maskInlineSecrets('access_key = "AKIAIOSFODNN7EXAMPLE" and sas_token=sv2020abc&x, https://user:hunter22@example.com/state')).toBe(
      'access_key = "***" and sas_token=***&x, https://user:***@example.com/state',
    );
  });
});

describe("--pull-state pieces", () => {
  it("reads `workspace list` output: marker removed, default first, then by name", () => {
    expect(parseWorkspaceList("  default\n* us\n  eu\n\n")).toEqual(["default", "eu", "us"]);
    expect(parseWorkspaceList("* prod\n")).toEqual(["prod"]);
  });

  it("tells terragrunt and tofu from terraform by the binary's name", () => {
    expect(flavorOf("terragrunt")).toBe("terragrunt");
    expect(flavorOf("/opt/bin/terragrunt")).toBe("terragrunt");
    expect(flavorOf("tofu")).toBe("tofu");
    expect(flavorOf("/usr/local/bin/terraform")).toBe("terraform");
  });

  it("runs at most --jobs roots at once", async () => {
    let inFlight = 0;
    let peak = 0;
    const cli = (cwd: string): TerraformCli => ({
      bin: "terraform",
      cwd,
      async run(args) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        const stdout = args.includes("workspace") ? "* default\n" : "";
        return { args: [...args], command: args.join(" "), exitCode: 0, stdout, stderr: "", timedOut: false } satisfies CliResult;
      },
    });
    const many = Array.from({ length: 12 }, (_, i) => ({ path: `r${i}`, dir: `/x/r${i}` }));
    const out = await pullStates({ roots: many, jobs: 3, cwd: "/x", createCli: (o) => cli(o.cwd) });
    expect(out.states).toHaveLength(12);
    expect(peak).toBe(3);
    expect(await mapLimit([3, 1, 2], 2, async (n) => n * 2)).toEqual([6, 2, 4]);
  });
});
