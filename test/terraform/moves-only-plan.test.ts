// A final plan (migrate.sh step 7, apply's final plan) that only moves addresses: a `moved` block, or
// terraform's implicit `x` → `x[0]` after a user added count. It exits 2 and was treated as "changes remain,
// never apply it", though applying it only rewrites addresses in the state. On real terraform output
// (builtin provider, offline): moves alone and moves with output changes are accepted; a move with an
// update, a create or a data read is not.
import { execa } from "execa";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalPlanStep } from "../../src/apply/final-plan.js";
import type { ApplyContext } from "../../src/apply/types.js";
import { renderMigrateScript } from "../../src/plan/migrate-script.js";
import { onlyAddressMoves, onlyOutputChanges } from "../../src/terraform/runner/plan.js";
import { tempDir } from "../support/workdir.js";

const TERRAFORM = "/usr/local/bin/terraform";
const tfEnv = { TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };

interface Recorded {
  code: number;
  /** Without colour (apply runs plan with -no-color). */
  stdout: string;
  /** With colour, as migrate.sh's step 7 captures it. */
  colored: string;
}

const BEFORE = 'resource "terraform_data" "x" {\n  input = 1\n}\n\nresource "terraform_data" "y" {\n  input = 1\n}\n\noutput "legacy" {\n  value = 1\n}\n';
const MOVES = 'resource "terraform_data" "x" {\n  count = 1\n  input = 1\n}\n\nresource "terraform_data" "z" {\n  input = 1\n}\n\nmoved {\n  from = terraform_data.y\n  to   = terraform_data.z\n}\n';
const plans = {
  movesOnly: `${MOVES}\noutput "legacy" {\n  value = 1\n}\n`,
  movesAndOutputs: MOVES,
  moveAndUpdate: MOVES.replace('count = 1\n  input = 1', "count = 1\n  input = 2") + '\noutput "legacy" {\n  value = 1\n}\n',
  moveAndCreate: `${MOVES}\nresource "terraform_data" "new" {\n  input = 1\n}\n\noutput "legacy" {\n  value = 1\n}\n`,
};

let recorded: Promise<Record<keyof typeof plans, Recorded>> | null = null;
/** Real `terraform plan -detailed-exitcode -refresh=false` of each configuration after applying BEFORE. */
function realPlans(): Promise<Record<keyof typeof plans, Recorded>> {
  recorded ??= (async () => {
    const dir = tempDir("cfwm-moveplan-");
    const tf = (...args: string[]) => execa(TERRAFORM, args, { cwd: dir, env: tfEnv, reject: false });
    writeFileSync(path.join(dir, "main.tf"), BEFORE);
    expect((await tf("init", "-input=false")).exitCode).toBe(0);
    expect((await tf("apply", "-auto-approve", "-input=false")).exitCode).toBe(0);
    const out = {} as Record<keyof typeof plans, Recorded>;
    for (const [name, text] of Object.entries(plans) as [keyof typeof plans, string][]) {
      writeFileSync(path.join(dir, "main.tf"), text);
      const plain = await tf("plan", "-detailed-exitcode", "-refresh=false", "-input=false", "-no-color");
      const colored = await tf("plan", "-detailed-exitcode", "-refresh=false", "-input=false");
      out[name] = { code: plain.exitCode!, stdout: plain.stdout, colored: colored.stdout };
    }
    return out;
  })();
  return recorded;
}

describe.runIf(existsSync(TERRAFORM))("a final plan that only moves addresses", { timeout: 240_000 }, () => {
  it("is told apart on real terraform output", async () => {
    const p = await realPlans();
    for (const r of Object.values(p)) expect(r.code).toBe(2);
    expect(p.movesOnly.stdout).toContain("terraform_data.x has moved to terraform_data.x[0]");
    expect(onlyAddressMoves(p.movesOnly.stdout)).toBe(true);
    expect(onlyAddressMoves(p.movesAndOutputs.stdout)).toBe(true);
    expect(onlyOutputChanges(p.movesAndOutputs.stdout)).toBe(false);
    expect(onlyAddressMoves(p.moveAndUpdate.stdout)).toBe(false);
    expect(onlyAddressMoves(p.moveAndCreate.stdout)).toBe(false);
  });

  it("a data source read during apply is not counted by terraform's summary, and is refused", () => {
    const text = [
      "Terraform will perform the following actions:",
      "",
      "  # data.cloudflare_waf_packages.owasp will be read during apply",
      "  # (config refers to values not yet known)",
      ' <= data "cloudflare_waf_packages" "owasp" {',
      "    }",
      "",
      "  # terraform_data.x has moved to terraform_data.x[0]",
      "",
      "Plan: 0 to add, 0 to change, 0 to destroy.",
    ].join("\n");
    expect(onlyAddressMoves(text)).toBe(false);
  });

  it("migrate.sh step 7 ends well on moves (with or without output changes), and stops on anything else", async () => {
    const p = await realPlans();
    const script = renderMigrateScript({ version: "test", zones: [], legacyResources: [], patchDir: ".", legacyPatch: null, overridesPatch: null });
    const dir = tempDir("cfwm-step7-moves-");
    writeFileSync(path.join(dir, "migrate.sh"), script);
    const run = async (plan: Recorded) => {
      writeFileSync(path.join(dir, "plan.txt"), plan.colored);
      const tf = path.join(dir, "tf");
      writeFileSync(tf, `#!/usr/bin/env bash\nif [ "$1" = plan ] && [ "$2" = -detailed-exitcode ]; then cat ${JSON.stringify(path.join(dir, "plan.txt"))}; exit ${plan.code}; fi\nexit 0\n`);
      chmodSync(tf, 0o755);
      return execa("bash", [path.join(dir, "migrate.sh"), "--yes"], { cwd: dir, env: { TF: tf }, reject: false });
    };
    for (const ok of [p.movesOnly, p.movesAndOutputs]) {
      const r = await run(ok);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain("done: no resource changes; only resource addresses move in the state");
    }
    for (const bad of [p.moveAndUpdate, p.moveAndCreate]) {
      const r = await run(bad);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("the plan still shows changes");
    }
  });

  it("apply's final plan applies the saved plan on moves, and fails on anything else", async () => {
    const p = await realPlans();
    const dir = tempDir("cfwm-finalplan-moves-");
    const applied: string[][] = [];
    const ctx = (plan: Recorded) =>
      ({
        cli: {
          bin: "terraform",
          cwd: "/",
          run: async (args: string[]) => {
            if (args[0] === "apply") applied.push(args);
            return args[0] === "apply" ? { exitCode: 0, stdout: "", stderr: "", timedOut: false } : { exitCode: plan.code, stdout: plan.stdout, stderr: "", timedOut: false };
          },
        },
        chdir: dir,
        cwd: dir,
        now: () => new Date(0),
        dryRun: false,
        terraform: { flavor: "terraform", version: "1.11.0" },
        redact: (t: string) => t,
      }) as unknown as ApplyContext;
    const done = await finalPlanStep.run(ctx(p.movesOnly));
    expect(done.status).toBe("done");
    expect(done.detail).toContain("only resource addresses move in the state");
    expect(applied).toHaveLength(1);
    const withOutputs = await finalPlanStep.run(ctx(p.movesAndOutputs));
    expect(withOutputs.detail).toContain("root outputs change too");
    await expect(finalPlanStep.run(ctx(p.moveAndUpdate))).rejects.toThrow(/changes remain/);
    await expect(finalPlanStep.run(ctx(p.moveAndCreate))).rejects.toThrow(/changes remain/);
    expect(applied).toHaveLength(2);
  });
});
