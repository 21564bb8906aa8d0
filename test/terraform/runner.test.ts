import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTerraformCli,
  detectVersion,
  formatCommandLine,
  importResource,
  plan,
  stateList,
  statePull,
  stateRm,
  TerraformCommandError,
  TerraformNotFoundError,
  type TerraformCli,
} from "../../src/terraform/runner/index.js";
import { summarize } from "../../src/terraform/runner/errors.js";

const FAKE = fileURLToPath(new URL("../support/fake-terraform.mjs", import.meta.url));

function onPath(name: string): string | null {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}
// CFWM_NO_REAL_TERRAFORM=1 forces the real-binary test to be skipped (to see how a machine without it reports).
const realTerraform =
  process.env["CFWM_NO_REAL_TERRAFORM"] === "1"
    ? null
    : (onPath("terraform") ?? (existsSync("/usr/local/bin/terraform") ? "/usr/local/bin/terraform" : null));
const hasTerraform = realTerraform !== null;

const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
const inst = (key: number | string | undefined, id: string) => ({
  ...(key === undefined ? {} : { index_key: key }),
  schema_version: 0,
  attributes: { id, zone_id: "0da42c8d2132a9ddaf714f9e7c920711" },
  sensitive_attributes: [],
});

/** A state with root, count, for_each (awkward keys), keyed and nested modules and a data source. */
function generatedState() {
  return {
    version: 4,
    terraform_version: "1.11.0",
    serial: 7,
    lineage: "3f1c5a38-0b7d-4d36-9d7e-1d5bd2a1c0de",
    outputs: {},
    resources: [
      { mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: PROVIDER, instances: [inst(undefined, "a25a9a7e9c00afc1fb2e0245519d725b")] },
      { mode: "managed", type: "cloudflare_waf_group", name: "off", provider: PROVIDER, instances: [inst(0, "g0"), inst(10, "g10"), inst(2, "g2")] },
      {
        mode: "managed",
        type: "cloudflare_waf_rule",
        name: "r",
        provider: PROVIDER,
        instances: [inst('a"b\\c', "r1"), inst("100015", "r2"), inst("x${y}%{z}", "r3"), inst("\uFF21", "r4"), inst("\u{1F600}", "r5"), inst("tab\there", "r6")],
      },
      { mode: "data", type: "cloudflare_zones", name: "all", provider: PROVIDER, instances: [inst(undefined, "zones")] },
      {
        module: 'module.waf["sh\\"op"]',
        mode: "managed",
        type: "cloudflare_waf_group",
        name: "g",
        provider: PROVIDER,
        instances: [inst("de677e5818985db1285d0e80225f06e5", "de67")],
      },
      { module: "module.waf[\"blog\"]", mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: PROVIDER, instances: [inst(undefined, "p2")] },
      { module: "module.a.module.b[2]", mode: "managed", type: "cloudflare_waf_rule", name: "x", provider: PROVIDER, instances: [inst(0, "n0")] },
    ],
    check_results: null,
  };
}

/** What `terraform state list` prints for generatedState() (checked against the real binary below). */
const EXPECTED_LIST = [
  "data.cloudflare_zones.all",
  "cloudflare_waf_group.off[0]",
  "cloudflare_waf_group.off[2]",
  "cloudflare_waf_group.off[10]",
  "cloudflare_waf_package.owasp",
  'cloudflare_waf_rule.r["100015"]',
  'cloudflare_waf_rule.r["a\\"b\\\\c"]',
  'cloudflare_waf_rule.r["tab\\there"]',
  'cloudflare_waf_rule.r["x$${y}%%{z}"]',
  'cloudflare_waf_rule.r["\uFF21"]',
  'cloudflare_waf_rule.r["\u{1F600}"]',
  'module.waf["blog"].cloudflare_waf_package.owasp',
  'module.waf["sh\\"op"].cloudflare_waf_group.g["de677e5818985db1285d0e80225f06e5"]',
  "module.a.module.b[2].cloudflare_waf_rule.x[0]",
];

let dir: string;
let statePath: string;
let logPath: string;

function fake(env: Record<string, string> = {}): TerraformCli {
  return createTerraformCli({ bin: FAKE, cwd: dir, env: { FAKE_TF_LOG: logPath, ...env } });
}

function logged(): string[][] {
  if (!existsSync(logPath)) return [];
  return readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string[]);
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cfwm-runner-"));
  statePath = join(dir, "terraform.tfstate");
  logPath = join(dir, "fake-tf.log.jsonl");
  writeFileSync(statePath, JSON.stringify(generatedState(), null, 2) + "\n");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("cli", () => {
  it("formats a command line with shell quoting for display", () => {
    expect(formatCommandLine("terraform", ["state", "rm", "-dry-run", 'module.waf["a"].cloudflare_waf_group.g["it\'s"]'])).toBe(
      `terraform state rm -dry-run 'module.waf["a"].cloudflare_waf_group.g["it'\\''s"]'`,
    );
  });

  it("reports a missing binary as TerraformNotFoundError", async () => {
    const cli = createTerraformCli({ bin: join(dir, "no-such-terraform"), cwd: dir });
    const e = await rejection(stateList(cli));
    expect(e).toBeInstanceOf(TerraformNotFoundError);
    expect((e as Error).message).toContain("no-such-terraform");
  });

  it("calls onCommand with each command line", async () => {
    const seen: string[] = [];
    const cli = createTerraformCli({ bin: FAKE, cwd: dir, onCommand: (c) => seen.push(c) });
    await stateList(cli, { addresses: ['cloudflare_waf_rule.r["a\\"b\\\\c"]'] });
    expect(seen).toEqual([`${FAKE} state list 'cloudflare_waf_rule.r["a\\"b\\\\c"]'`]);
  });
});

describe("version", () => {
  it("reads Terraform's version from version -json in one call", async () => {
    expect(await detectVersion(fake())).toEqual({ flavor: "terraform", version: "1.11.0", platform: "linux_amd64", source: "json" });
    expect(logged()).toEqual([["version", "-json"]]);
  });

  it("tells OpenTofu apart (its JSON has no terraform_outdated, the text says OpenTofu)", async () => {
    expect(await detectVersion(fake({ FAKE_TF_FLAVOR: "tofu" }))).toEqual({
      flavor: "tofu",
      version: "1.9.0",
      platform: "linux_amd64",
      source: "json",
    });
    expect(logged()).toEqual([["version", "-json"], ["version"]]);
  });

  it("falls back to the text output when -json is not supported", async () => {
    const v = await detectVersion(fake({ FAKE_TF_NO_JSON_VERSION: "1", FAKE_TF_VERSION: "0.12.31" }));
    expect(v).toEqual({ flavor: "terraform", version: "0.12.31", platform: "linux_amd64", source: "text" });
    expect(logged()).toEqual([["version", "-json"], ["version"]]);
  });

  it("surfaces a failing version command as TerraformCommandError", async () => {
    const e = await rejection(detectVersion(fake({ FAKE_TF_FAIL_ON: "version" })));
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect((e as TerraformCommandError).exitCode).toBe(1);
  });
});

describe("state list", () => {
  it("lists every instance exactly as Terraform prints it", async () => {
    expect(await stateList(fake())).toEqual(EXPECTED_LIST);
    expect(logged()).toEqual([["state", "list"]]);
  });

  it("passes filter addresses and -state as single arguments", async () => {
    const addr = 'module.waf["sh\\"op"].cloudflare_waf_group.g["de677e5818985db1285d0e80225f06e5"]';
    const list = await stateList(fake({ FAKE_TF_STATE: "elsewhere.tfstate" }), { state: "terraform.tfstate", addresses: [addr, "module.a"] });
    expect(list).toEqual([addr, "module.a.module.b[2].cloudflare_waf_rule.x[0]"]);
    expect(logged()).toEqual([["state", "list", "-state=terraform.tfstate", addr, "module.a"]]);
  });

  it("a module address without a key covers all its instances", async () => {
    expect(await stateList(fake(), { addresses: ["module.waf"] })).toEqual([
      'module.waf["blog"].cloudflare_waf_package.owasp',
      'module.waf["sh\\"op"].cloudflare_waf_group.g["de677e5818985db1285d0e80225f06e5"]',
    ]);
  });

  it("an unknown address is a TerraformCommandError with Terraform's diagnostic", async () => {
    const e = (await rejection(stateList(fake(), { addresses: ["cloudflare_waf_group.off[7]"] }))) as TerraformCommandError;
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(e.exitCode).toBe(1);
    expect(e.args).toEqual(["state", "list", "cloudflare_waf_group.off[7]"]);
    expect(e.command).toBe(`${FAKE} state list 'cloudflare_waf_group.off[7]'`);
    expect(e.stderr).toContain("Error: Unknown resource instance");
    expect(e.message).toContain("Unknown resource instance (The current state contains no resource instance cloudflare_waf_group.off[7].");
  });

  it("refuses an address that Terraform would read as a flag", async () => {
    await expect(stateList(fake(), { addresses: ["-id=x"] })).rejects.toThrow(TypeError);
    expect(logged()).toEqual([]);
  });
});

describe("state rm", () => {
  const quoted = 'cloudflare_waf_rule.r["a\\"b\\\\c"]';
  const moduleGroup = 'module.waf["sh\\"op"].cloudflare_waf_group.g["de677e5818985db1285d0e80225f06e5"]';

  it("dry run reports what would go and leaves the state file byte for byte", async () => {
    const before = readFileSync(statePath, "utf8");
    const r = await stateRm(fake(), [quoted, moduleGroup, "cloudflare_waf_group.off"], { dryRun: true });
    expect(r).toMatchObject({
      dryRun: true,
      removed: [quoted, moduleGroup, "cloudflare_waf_group.off[0]", "cloudflare_waf_group.off[2]", "cloudflare_waf_group.off[10]"],
      unmatched: [],
    });
    expect(r.stdout).toBe(r.removed.map((a) => `Would remove ${a}\n`).join(""));
    expect(logged()).toEqual([["state", "rm", "-dry-run", quoted, moduleGroup, "cloudflare_waf_group.off"]]);
    expect(readFileSync(statePath, "utf8")).toBe(before);
    expect(existsSync(`${statePath}.backup`)).toBe(false);
  });

  it("dry run of an address that is not in state removes nothing and says so", async () => {
    const r = await stateRm(fake(), ["cloudflare_waf_group.nope"], { dryRun: true });
    expect(r).toMatchObject({ removed: [], unmatched: ["cloudflare_waf_group.nope"], stdout: "Would have removed nothing.\n" });
  });

  it("real removal changes the state and writes a backup equal to the state before", async () => {
    const before = readFileSync(statePath, "utf8");
    const backup = join(dir, "before-rm.tfstate");
    const r = await stateRm(fake(), [quoted, "cloudflare_waf_group.off", "module.waf"], { backup });
    expect(r.removed).toEqual([
      quoted,
      "cloudflare_waf_group.off[0]",
      "cloudflare_waf_group.off[2]",
      "cloudflare_waf_group.off[10]",
      'module.waf["blog"].cloudflare_waf_package.owasp',
      moduleGroup,
    ]);
    expect(r.unmatched).toEqual([]);
    expect(r.stdout).toContain("Successfully removed 6 resource instance(s).\n");
    expect(readFileSync(backup, "utf8")).toBe(before);
    const remaining = await stateList(fake());
    expect(remaining).toEqual(EXPECTED_LIST.filter((a) => !r.removed.includes(a)));
    const after = JSON.parse(readFileSync(statePath, "utf8")) as { serial: number; resources: { type: string }[] };
    expect(after.serial).toBe(8);
    expect(after.resources.some((x) => x.type === "cloudflare_waf_group")).toBe(false); // empty resources go too
    expect(logged()[0]).toEqual(["state", "rm", `-backup=${backup}`, quoted, "cloudflare_waf_group.off", "module.waf"]);
  });

  it("without -backup, Terraform's default backup next to the state is written", async () => {
    const before = readFileSync(statePath, "utf8");
    await stateRm(fake(), ["cloudflare_waf_package.owasp"]);
    expect(readFileSync(`${statePath}.backup`, "utf8")).toBe(before);
    expect(logged()[0]).toEqual(["state", "rm", "cloudflare_waf_package.owasp"]);
  });

  it("backup: false passes -backup=- and -state is passed through", async () => {
    await stateRm(fake(), ["cloudflare_waf_package.owasp"], { backup: false, state: "terraform.tfstate" });
    expect(logged()[0]).toEqual(["state", "rm", "-backup=-", "-state=terraform.tfstate", "cloudflare_waf_package.owasp"]);
    expect(existsSync(`${statePath}.backup`)).toBe(false);
  });

  it("an address that is not in state fails with Terraform's error and changes nothing", async () => {
    const before = readFileSync(statePath, "utf8");
    const e = (await rejection(stateRm(fake(), ["cloudflare_waf_group.nope"]))) as TerraformCommandError;
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(e.exitCode).toBe(1);
    expect(e.stderr).toContain("Error: Invalid target address");
    expect(e.stderr).toContain('No matching objects found. To view the available instances, use "terraform\nstate list".');
    expect(readFileSync(statePath, "utf8")).toBe(before);
  });

  it("an injected state rm failure surfaces as a typed error and leaves the state alone", async () => {
    const before = readFileSync(statePath, "utf8");
    const e = await rejection(stateRm(fake({ FAKE_TF_FAIL_ON: "state rm" }), ["cloudflare_waf_package.owasp"]));
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect((e as TerraformCommandError).message).toContain("Injected failure");
    expect(readFileSync(statePath, "utf8")).toBe(before);
    expect(existsSync(`${statePath}.backup`)).toBe(false);
  });

  it("needs at least one address", async () => {
    await expect(stateRm(fake(), [])).rejects.toThrow(TypeError);
  });
});

describe("state pull", () => {
  it("returns the state JSON", async () => {
    const r = await statePull(fake());
    expect(r.state).toEqual(generatedState());
    expect(logged()).toEqual([["state", "pull"]]);
  });

  it("returns null when there is no state", async () => {
    rmSync(statePath);
    expect(await statePull(fake())).toEqual({ text: "", state: null });
  });

  it("an injected failure is a typed error", async () => {
    await expect(statePull(fake({ FAKE_TF_FAIL_ON: "state pull" }))).rejects.toBeInstanceOf(TerraformCommandError);
  });
});

describe("import", () => {
  const to = 'cloudflare_ruleset.waf["zone \\"shop\\""]';
  const id = "zone/0da42c8d2132a9ddaf714f9e7c920711/2c0fc9fa937b11eaa1b71c4d701ab86e";

  it("imports once, then fails like Terraform when the address is already managed", async () => {
    const r = await importResource(fake(), to, id);
    expect(r.stdout).toContain("Import successful!");
    expect(logged()).toEqual([["import", "-input=false", "-no-color", to, id]]);
    expect(await stateList(fake(), { addresses: ["cloudflare_ruleset.waf"] })).toEqual([to]);
    const pulled = (await statePull(fake())).state as { resources: { type: string; instances: { attributes: { id: string } }[] }[] };
    const rs = pulled.resources.find((x) => x.type === "cloudflare_ruleset")!;
    expect(rs.instances[0]!.attributes.id).toBe("2c0fc9fa937b11eaa1b71c4d701ab86e");

    const before = readFileSync(statePath, "utf8");
    const e = (await rejection(importResource(fake(), to, id))) as TerraformCommandError;
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(e.message).toContain("Resource already managed by Terraform");
    expect(e.stderr).toContain(`Terraform is already managing a remote object for\n${to}.`);
    expect(readFileSync(statePath, "utf8")).toBe(before);
  });

  it("passes -state and keeps a module address one argument", async () => {
    const addr = 'module.waf["sh\\"op"].cloudflare_ruleset.managed';
    await importResource(fake(), addr, "zones/0da42c8d2132a9ddaf714f9e7c920711/abc", { state: "terraform.tfstate" });
    expect(logged()).toEqual([["import", "-input=false", "-no-color", "-state=terraform.tfstate", addr, "zones/0da42c8d2132a9ddaf714f9e7c920711/abc"]]);
    expect(await stateList(fake(), { addresses: [addr] })).toEqual([addr]);
  });

  it("an injected import failure is a typed error and imports nothing", async () => {
    const before = readFileSync(statePath, "utf8");
    const e = await rejection(importResource(fake({ FAKE_TF_FAIL_ON: "import" }), to, id));
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(readFileSync(statePath, "utf8")).toBe(before);
  });
});

describe("plan", () => {
  it("exit 0: no changes", async () => {
    const r = await plan(fake(), { refresh: false });
    expect(r.changes).toBe(false);
    expect(r.stdout).toContain("No changes. Your infrastructure matches the configuration.");
    expect(logged()).toEqual([["plan", "-detailed-exitcode", "-refresh=false", "-input=false", "-no-color"]]);
  });

  it("exit 2: changes", async () => {
    const r = await plan(fake({ FAKE_TF_PLAN_EXIT: "2" }));
    expect(r.changes).toBe(true);
    expect(r.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    expect(logged()).toEqual([["plan", "-detailed-exitcode", "-input=false", "-no-color"]]);
  });

  it("exit 1: a typed error with the command line and stderr", async () => {
    const e = (await rejection(plan(fake({ FAKE_TF_PLAN_EXIT: "1" })))) as TerraformCommandError;
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(e.exitCode).toBe(1);
    expect(e.command).toBe(`${FAKE} plan -detailed-exitcode -input=false -no-color`);
    expect(e.stderr).toContain("Error: ");
  });

  it("passes targets and -out as single arguments", async () => {
    await plan(fake(), { targets: ['module.waf["a b"].cloudflare_ruleset.x'], out: "step4.tfplan" });
    expect(logged()).toEqual([
      ["plan", "-detailed-exitcode", "-input=false", "-no-color", '-target=module.waf["a b"].cloudflare_ruleset.x', "-out=step4.tfplan"],
    ]);
  });
});

describe("errors never carry environment values", () => {
  it("masks secret-looking environment values in stderr and the message, and holds no env", async () => {
    const token = "cf-token-1234567890abcdef";
    const cli = createTerraformCli({
      bin: FAKE,
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: token, FAKE_TF_FAIL_ON: "import", FAKE_TF_FAIL_MESSAGE: `Error: auth failed with token ${token}` },
    });
    const e = (await rejection(importResource(cli, "cloudflare_ruleset.waf", "zone/a/b"))) as TerraformCommandError;
    expect(e).toBeInstanceOf(TerraformCommandError);
    expect(e.stderr).toContain("auth failed with token ***");
    const everything = JSON.stringify({ ...e, message: e.message, stack: e.stack });
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("FAKE_TF_FAIL_ON");
    expect(Object.keys(e)).not.toContain("env");
  });
});

describe("real terraform", () => {
  it.skipIf(!hasTerraform)(
    hasTerraform
      ? `${realTerraform}: state list and state rm -dry-run print exactly the addresses the fake prints`
      : "SKIPPED, no terraform on PATH: real state list / state rm -dry-run vs the fake",
    async () => {
      const real = createTerraformCli({ bin: realTerraform!, cwd: dir });
      const before = readFileSync(statePath, "utf8");
      const realList = await stateList(real, { state: "terraform.tfstate" });
      const fakeList = await stateList(fake(), { state: "terraform.tfstate" });
      expect(realList).toEqual(EXPECTED_LIST);
      expect(fakeList).toEqual(realList);

      // every address state list prints is one that state rm -dry-run accepts, and it prints the same
      const realRm = await stateRm(real, realList, { dryRun: true, state: "terraform.tfstate" });
      const fakeRm = await stateRm(fake(), fakeList, { dryRun: true, state: "terraform.tfstate" });
      expect(realRm.removed).toEqual(realList);
      expect(fakeRm.removed).toEqual(realRm.removed);
      expect(fakeRm.stdout).toBe(realRm.stdout);

      // resource and module addresses expand to their instances the same way
      const wide = ["cloudflare_waf_group.off", "module.waf", "cloudflare_waf_rule.r", "module.a.module.b"];
      const realWide = await stateRm(real, wide, { dryRun: true, state: "terraform.tfstate" });
      const fakeWide = await stateRm(fake(), wide, { dryRun: true, state: "terraform.tfstate" });
      expect(fakeWide.removed).toEqual(realWide.removed);
      expect(realWide.unmatched).toEqual([]);

      // a missing instance: both fail with the same diagnostic summary
      const realErr = (await rejection(stateList(real, { state: "terraform.tfstate", addresses: ["cloudflare_waf_group.off[7]"] }))) as TerraformCommandError;
      expect(realErr).toBeInstanceOf(TerraformCommandError);
      expect(realErr.message).toContain("Error: Unknown resource instance");

      expect(readFileSync(statePath, "utf8")).toBe(before);
    },
  );
});

describe("the fake itself", () => {
  it("fmt -check succeeds; unknown commands fail", async () => {
    const cli = fake();
    expect((await cli.run(["fmt", "-check"])).exitCode).toBe(0);
    const unknown = await cli.run(["destroy"]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('Terraform has no command named "destroy".');
    expect((await cli.run(["state", "mv", "a.b", "a.c"])).exitCode).toBe(1);
    expect((await cli.run(["state", "list", "-bogus"])).stderr).toContain("flag provided but not defined: -bogus");
    expect(logged()).toEqual([["fmt", "-check"], ["destroy"], ["state", "mv", "a.b", "a.c"], ["state", "list", "-bogus"]]);
  });

  it("prints OpenTofu's version text when FAKE_TF_FLAVOR=tofu", async () => {
    expect((await fake({ FAKE_TF_FLAVOR: "tofu" }).run(["version"])).stdout).toBe("OpenTofu v1.9.0\non linux_amd64\n");
    expect((await fake().run(["version"])).stdout).toBe("Terraform v1.11.0\non linux_amd64\n");
  });

  it("state list without a state file fails like Terraform", async () => {
    rmSync(statePath);
    const e = (await rejection(stateList(fake()))) as TerraformCommandError;
    expect(e.stderr).toContain("No state file was found!");
  });

  it("FAKE_TF_STATE points at another state file", async () => {
    writeFileSync(join(dir, "other.tfstate"), JSON.stringify({ ...generatedState(), resources: [] }));
    expect(await stateList(fake({ FAKE_TF_STATE: "other.tfstate" }))).toEqual([]);
  });
});

describe("summarize", () => {
  it("a warning printed before the error (CLI configuration, provider overrides) is never the summary", () => {
    // terraform 1.11 `state pull` of a truncated local state with TF_CLI_CONFIG_FILE naming a missing file.
    const stderr = [
      "There are some problems with the CLI configuration:",
      "╷",
      "│ Warning: Unable to open CLI configuration file",
      "│",
      '│ The CLI configuration file at "/root/.terraformrc" does not exist.',
      "╵",
      "",
      "Failed to refresh state: 2 problems:",
      "",
      "- Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 200.",
      "- Unsupported state file format: The state file does not have a \"version\" attribute, which is required to identify the format version.",
      "",
    ].join("\n");
    expect(summarize(stderr)).toBe(
      'Failed to refresh state: 2 problems: - Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 200. - Unsupported state file format: The state file does not have a "version" attribute, which is required to identify the format version.',
    );
    // An Error: diagnostic still wins; a plain first line is still the answer.
    expect(summarize("╷\n│ Warning: Provider development overrides are in effect\n╵\n╷\n│ Error: Backend initialization required\n│\n│ Run terraform init.\n╵\n")).toBe("Error: Backend initialization required (Run terraform init.)");
    expect(summarize("something went wrong\n")).toBe("something went wrong");
  });
});
