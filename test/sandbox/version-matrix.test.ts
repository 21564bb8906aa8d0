// Issue 21's matrix with the real terraform: provider constraints and lock files × the legacy settings the
// migration keeps. For each, `plan --out-dir` writes ruleset.tf (and imports.tf); then the real `terraform
// init` installs, from the double's mirror, the version the constraint or lock admits (every version of the
// matrix is served with the schemas transcribed from the provider's source at its tag), and `terraform
// validate` loads the generated files next to the legacy resources:
// - at the version the root runs today, validate passes exactly when the feature table says every construct
//   of ruleset.tf exists there (so the double's transcribed schemas and the table agree, and a file written
//   for a newer provider is seen to fail where the table says it would);
// - a refusal is asserted (construct, minimum version, the constraint's or lock's file:line), then the plan's
//   first step is followed (raise the constraint to ~> 3.35, terraform init -upgrade) and validate passes;
// - a root that the tool accepts validates as is.
import { parse } from "@cdktn/hcl2json";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageHash, servedVersions } from "../../dist/sandbox/index.js";
import { admittedReleases, hasConstruct } from "../../src/core/ruleset-features.js";
import { hclConstructs } from "../core/hcl-constructs.js";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { type Root, TERRAFORM, TerraformHarness, ZONE_ID } from "./harness.js";

const OWASP = "a25a9a7e9c00afc1fb2e0245519d725b";
const CF_MANAGED = "1e334934fd7ae32ad705667f8c1057aa";
const WORDPRESS_GROUP = "4f7f9bcdfd0d4c2ba0c8e1e4a4b0d0a1";
const CLOUDFLARE_MANAGED_RULESET = "efb7b8c949ac4650a09736fc376e9aee";

/** One legacy setting per zone, so one plan and one terraform root per row cover them all. */
interface Setting {
  name: string;
  zoneId: string;
  waf: string;
  /** A construct its generated ruleset must use (what keeps the setting). */
  uses: string;
  /** The service's equivalent configuration (`api config --format json`), when offline mapping cannot say. */
  config?: unknown;
}

const SETTINGS: Setting[] = [
  {
    name: "package sensitivity low",
    zoneId: ZONE_ID,
    uses: "rules.action_parameters.overrides.rules.score_threshold",
    waf: `resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP}"
  sensitivity = "low"
  action_mode = "block"
}
`,
  },
  {
    // A Cloudflare Managed group's mode has no offline mapping: the service's configuration supplies it.
    name: "group mode off",
    zoneId: "1b2c3d4e5f60718293a4b5c6d7e8f901",
    uses: "rules.action_parameters.overrides.categories.enabled",
    waf: `resource "cloudflare_waf_group" "wordpress" {
  zone_id    = "1b2c3d4e5f60718293a4b5c6d7e8f901"
  group_id   = "${WORDPRESS_GROUP}"
  package_id = "${CF_MANAGED}"
  mode       = "off"
}
`,
    config: {
      result: {
        name: "default",
        rules: [
          {
            id: "",
            version: "",
            ref: "",
            action: "execute",
            expression: "true",
            description: "",
            enabled: true,
            action_parameters: { id: CLOUDFLARE_MANAGED_RULESET, overrides: { categories: [{ category: "wordpress", enabled: false }] } },
          },
        ],
      },
      success: true,
      errors: [],
      messages: [],
    },
  },
  {
    name: "bypass firewall rule",
    zoneId: "2c3d4e5f60718293a4b5c6d7e8f90a12",
    uses: "rules.logging.enabled",
    waf: `resource "cloudflare_filter" "monitors" {
  zone_id     = "2c3d4e5f60718293a4b5c6d7e8f90a12"
  description = "Uptime monitors"
  expression  = "(ip.src in {192.0.2.10 192.0.2.11} and http.request.uri.path eq \\"/healthz\\")"
}

resource "cloudflare_firewall_rule" "monitors" {
  zone_id     = "2c3d4e5f60718293a4b5c6d7e8f90a12"
  description = "Let monitors through the WAF"
  filter_id   = cloudflare_filter.monitors.id
  action      = "bypass"
  products    = ["waf"]
  priority    = 10
}
`,
  },
];

interface Row {
  name: string;
  /** null: no cloudflare entry in required_providers; "": an entry with a source and no version. */
  constraint: string | null;
  lock?: string;
  /** Whether the tool refuses (a required construct, here the ruleset import of 3.29.0, is missing). */
  refused: boolean;
}

const ROWS: Row[] = [
  { name: "~> 2.26.0", constraint: "~> 2.26.0", refused: true },
  { name: "~> 3.4.0", constraint: "~> 3.4.0", refused: true },
  { name: "~> 3.9.1", constraint: "~> 3.9.1", refused: true },
  { name: "~> 3.12", constraint: "~> 3.12", refused: true },
  { name: ">= 3.13, < 4", constraint: ">= 3.13, < 4", refused: true },
  { name: "lock 3.20.0 under >= 3.0", constraint: ">= 3.0", lock: "3.20.0", refused: true },
  { name: "~> 3.35", constraint: "~> 3.35", refused: false },
  { name: "an entry without a version", constraint: "", refused: false },
  { name: "none at all", constraint: null, refused: false },
];

const CONSTRAINT_LINE = 7;
const LOCK_LINE = 4;

function versionsTf(constraint: string | null): string {
  const lines = ["terraform {", '  required_version = ">= 1.5"', ""];
  if (constraint !== null) {
    const version = constraint === "" ? [] : [`      version = "${constraint}"`];
    lines.push("  required_providers {", "    cloudflare = {", '      source  = "cloudflare/cloudflare"', ...version, "    }", "  }");
  }
  lines.push("}", "", 'provider "cloudflare" {}', "");
  return lines.join("\n");
}

function lockFile(version: string, constraint: string): string {
  return [
    '# This file is maintained automatically by "terraform init".',
    "# Manual edits may be lost in future updates.",
    "",
    'provider "registry.terraform.io/cloudflare/cloudflare" {',
    `  version     = "${version}"`,
    // Terraform records constraints normalized (">= 3.0" as ">= 3.0.0") and refuses a lock file that does not.
    `  constraints = "${constraint.replace(/(\d+)\.(\d+)(?![.\d])/g, "$1.$2.0")}"`,
    "  hashes = [",
    `    "${packageHash(h.mirror.mirrorDir, version)}",`,
    "  ]",
    "}",
    "",
  ].join("\n");
}

/** The version `terraform init` installed, from the lock file it wrote. */
function installed(root: Root): string {
  return /version\s+=\s+"([^"]+)"/.exec(root.read(".terraform.lock.hcl"))![1]!;
}

/** The newest served version a constraint admits: what init picks from the mirror without a lock. */
function newestServed(constraint: string): string {
  const admitted = new Set(admittedReleases(constraint));
  return servedVersions().filter((v) => admitted.has(v)).at(-1)!;
}

let h: TerraformHarness;
beforeAll(() => {
  // One mirror with every served version, built once for all rows. Each root keeps its own plugin cache:
  // Terraform does not promise that concurrent inits may share one, and installing from the local mirror
  // (a wrapper script per version) costs nothing a shared cache would save.
  h = new TerraformHarness(servedVersions(), TERRAFORM, { reattach: true });
});
afterAll(() => h?.teardown());

type F = { code: string; message: string; file: string | null; line: number | null; severity: string };

async function planFor(dir: string) {
  const out = tempDir("cfwm-matrix-out-");
  const args = ["plan", ".", "--out-dir", path.join(out, "plan"), "--format", "json"];
  for (const setting of SETTINGS) {
    if (!setting.config) continue;
    const file = path.join(out, `${setting.zoneId}.json`);
    writeFileSync(file, JSON.stringify(setting.config));
    args.push("--config-json", `${setting.zoneId}=${file}`);
  }
  const r = await runCli(args, { cwd: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  const read = (f: string) => readFileSync(path.join(out, "plan", f), "utf8");
  return { report: JSON.parse(r.stdout) as { findings: F[] }, ruleset: read("ruleset.tf"), imports: existsSync(path.join(out, "plan", "imports.tf")) ? read("imports.tf") : null };
}

/** The constructs of the zone's generated cloudflare_ruleset (resources are named after the zone id). */
function constructsFor(parsed: { resource?: { cloudflare_ruleset?: Record<string, unknown[]> } }, zoneId: string): string[] {
  const all = parsed.resource?.cloudflare_ruleset ?? {};
  const name = Object.keys(all).find((n) => n.includes(zoneId.slice(0, 8)));
  expect(name, `a cloudflare_ruleset for zone ${zoneId}`).toBeDefined();
  return hclConstructs({ resource: { cloudflare_ruleset: { [name!]: all[name!] } } });
}

/** The outermost constructs missing at a version (a missing block makes its contents noise). */
function outermostMissing(used: string[], version: string): string[] {
  const missing = used.filter((c) => !hasConstruct(c, version));
  return missing.filter((c) => !missing.some((m) => c.startsWith(`${m}.`)));
}

/** init picks the version the constraint or lock admits; validate with the generated files, as the table predicts. */
async function validateToday(row: Row & { constraint: string }, root: Root, ruleset: string, imports: string, used: Map<Setting, string[]>): Promise<void> {
  const init = await root.tf("init", "-input=false");
  expect(init.code, init.stderr).toBe(0);
  const today = installed(root);
  expect(today).toBe(row.lock ?? newestServed(row.constraint));

  // Next to the legacy resources, with the generated files.
  root.write("ruleset.tf", ruleset);
  root.write("imports.tf", imports);
  const v = await root.tf("validate");
  const missing = [...used.values()].flatMap((list) => outermostMissing(list, today));
  if (!/^[23]\./.test(today)) {
    // No constraint: the newest provider has no cloudflare_waf_* (the warning's point).
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/does not support resource type "cloudflare_(waf_package|waf_group|firewall_rule|filter)"/);
  } else if (missing.length === 0) {
    expect(v.stderr).toBe("");
    expect(v.code).toBe(0);
  } else {
    // Written for the version the plan's first step installs; the version of today rejects, where the
    // feature table says it lacks them, exactly those constructs.
    expect(ruleset.split("\n")[0]).toContain("Written for provider ~> 3.35");
    expect(v.code).toBe(1);
    for (const c of missing) expect(v.stderr, `${c} at ${today}`).toMatch(new RegExp(`(Blocks of type|An argument named) "${c.split(".").at(-1)}" (are|is) not expected here`));
    expect(v.stderr.match(/Error: Unsupported (block type|argument)/g)).toHaveLength(missing.length);
  }
}

async function matrixRow(row: Row): Promise<void> {
  const slug = row.name.replace(/\W+/g, "-");
  const files: Record<string, string> = { "versions.tf": versionsTf(row.constraint), "waf.tf": SETTINGS.map((s) => `# ${s.name}\n${s.waf}`).join("\n") };
  if (row.lock) files[".terraform.lock.hcl"] = lockFile(row.lock, row.constraint ?? "");
  const root = h.root(slug, files);
  const { report, ruleset, imports } = await planFor(root.dir);
  const parsed = await parse("ruleset.tf", ruleset);
  const used = new Map(SETTINGS.map((s) => [s, constructsFor(parsed, s.zoneId)]));
  for (const [s, list] of used) expect(list, `${s.name} is kept`).toContain(s.uses);
  expect(imports, "required_version >= 1.5 gives imports.tf").toContain("import {");

  // What the root installs today. Without any entry, terraform looks for hashicorp/cloudflare, which the
  // mirror does not carry (offline, the registry's answer for it cannot be known): that row goes straight
  // to following the warning.
  if (row.constraint !== null) await validateToday({ ...row, constraint: row.constraint }, root, ruleset, imports!, used);

  const refusals = report.findings.filter((f) => f.code === "PROVIDER_FEATURE_MISSING");
  if (row.refused) {
    expect(refusals).toHaveLength(1);
    const f = refusals[0]!;
    expect(f.severity).toBe("error");
    expect(f.message).toContain("the migration needs provider 3.29.0 or later for importing an existing cloudflare_ruleset (step 3)");
    expect(f.message).toContain("raise the constraint to ~> 3.35 and run terraform init -upgrade");
    if (row.lock) {
      expect([f.file, f.line]).toEqual([".terraform.lock.hcl", LOCK_LINE]);
      expect(f.message).toContain(`the lock file (.terraform.lock.hcl:${LOCK_LINE}) selects provider ${row.lock}`);
    } else {
      expect([f.file, f.line]).toEqual(["versions.tf", CONSTRAINT_LINE]);
      expect(f.message).toContain(`"${row.constraint}" (versions.tf:${CONSTRAINT_LINE}) admits provider ${admittedReleases(row.constraint!)[0]}`);
    }
  } else {
    expect(refusals).toEqual([]);
  }
  const warned = report.findings.filter((f) => f.code === "PROVIDER_CONSTRAINT_MISSING");
  expect(warned).toHaveLength(row.constraint ? 0 : 1);
  if (!row.constraint) expect([warned[0]!.file, warned[0]!.line]).toEqual(row.constraint === "" ? ["versions.tf", 5] : ["versions.tf", 1]);

  if (row.refused || !row.constraint) {
    // Follow the plan's first step (or the warning): the constraint ~> 3.35, then terraform init -upgrade.
    root.write("versions.tf", versionsTf("~> 3.35"));
    const up = await root.tf("init", "-input=false", "-upgrade");
    expect(up.code, up.stderr).toBe(0);
    expect(installed(root)).toBe("3.35.0");
    const again = await root.tf("validate");
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
  }
}

describe.concurrent("the version matrix with the real terraform validate against the provider double", () => {
  for (const row of ROWS) {
    it(`${row.name} × ${SETTINGS.map((s) => s.name).join(", ")}`, () => matrixRow(row), 600_000);
  }
});
