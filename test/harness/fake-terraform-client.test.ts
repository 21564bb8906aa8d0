// The fake terraform on PATH is a shell client of a long-lived server (test/support/workdir.ts): every
// invocation must answer exactly as `node fake-terraform.mjs` does, whichever of the two ran it.
import { execa } from "execa";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TESTDATA } from "../support/cli.js";
import { FAKE_TERRAFORM, fakeTerraformBin, tempDir } from "../support/workdir.js";

const INVOCATIONS: { args: string[]; env?: Record<string, string> }[] = [
  { args: ["version"] },
  { args: ["version", "-json"], env: { FAKE_TF_FLAVOR: "tofu" } },
  { args: ["state", "list"] },
  { args: ["-chdir=sub", "state", "list"] },
  { args: ["state", "pull"] },
  { args: ["state", "rm", "-dry-run", "cloudflare_waf_package.owasp"] },
  { args: ["workspace", "show"], env: { TF_WORKSPACE: "eu west" } },
  { args: ["plan", "-detailed-exitcode"], env: { FAKE_TF_PLAN_EXIT: "2" } },
  { args: ["import", "cloudflare_ruleset.x", "zone/a/b"], env: { FAKE_TF_FAIL_ON: "import", FAKE_TF_FAIL_MESSAGE: "it's 'quoted'\n\\ and \"more\"\n\n" } },
  { args: ["no-such-command", "with spaces", ""] },
];

function tree(): string {
  const dir = tempDir("cfwm-fake-client-");
  mkdirSync(path.join(dir, "sub"));
  copyFileSync(path.join(TESTDATA, "multi-zone/terraform.tfstate"), path.join(dir, "terraform.tfstate"));
  copyFileSync(path.join(TESTDATA, "realworld-staging-count/terraform.tfstate"), path.join(dir, "sub/terraform.tfstate"));
  return dir;
}

async function until(ready: () => boolean): Promise<void> {
  // The server writes its port once it listens; until then the client runs the fake itself.
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe("the fake terraform's shell client", () => {
  it("answers each invocation exactly as the fake run directly: stdout, stderr, exit code, argv log", async () => {
    const bin = fakeTerraformBin();
    const portFile = readFileSync(path.join(bin, "terraform"), "utf8").match(/read -r port < '([^']+)'/)![1]!;
    await until(() => existsSync(portFile));
    expect(existsSync(portFile)).toBe(true);
    for (const { args, env = {} } of INVOCATIONS) {
      const [served, direct] = [tree(), tree()];
      const a = await execa(path.join(bin, "terraform"), args, { cwd: served, env: { ...env, FAKE_TF_LOG: path.join(served, "log") }, reject: false, stripFinalNewline: false });
      const b = await execa("node", [FAKE_TERRAFORM, ...args], { cwd: direct, env: { ...env, FAKE_TF_LOG: path.join(direct, "log") }, reject: false, stripFinalNewline: false });
      const what = args.join(" ");
      expect(a.stdout, what).toBe(b.stdout);
      expect(a.stderr, what).toBe(b.stderr);
      expect(a.exitCode, what).toBe(b.exitCode);
      expect(readFileSync(path.join(served, "log"), "utf8"), what).toBe(readFileSync(path.join(direct, "log"), "utf8"));
    }
  });

  it("runs the fake itself when the server cannot be reached", async () => {
    const bin = fakeTerraformBin();
    const client = path.join(bin, "terraform");
    const unreachable = tempDir();
    const copy = path.join(unreachable, "terraform");
    const text = readFileSync(client, "utf8").replace(/read -r port < '[^']+'/, `read -r port < '${path.join(unreachable, "no-port")}'`);
    writeFileSync(copy, text, { mode: 0o755 });
    const r = await execa(copy, ["version"], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Terraform v1.11.0\non linux_amd64");
  });
});
