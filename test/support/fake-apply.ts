// `apply` run against the fake terraform (test/support/fake-terraform.mjs), with the terraform commands it
// ran: for tests that check a refusal comes before any change (no import, no state rm).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { runCli, type CliResult } from "./cli.js";
import { fakeTerraformBin, tempDir } from "./workdir.js";

/** The CLI's result and each terraform command it ran, by subcommand: `version`, `state pull`, `import`, … */
export async function applyWithFakeTerraform(args: string[], cwd: string): Promise<CliResult & { commands: string[] }> {
  const log = path.join(tempDir(), "argv.log");
  const r = await runCli(["apply", ...args], { cwd, env: { PATH: `${fakeTerraformBin()}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: log } });
  const argvs = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]) : [];
  // `state` and `workspace` take a subcommand of their own (`state rm`, `workspace list`).
  const commands = argvs.map((a) => (a[0] === "state" || a[0] === "workspace" ? `${a[0]} ${a[1]}` : a[0]!));
  return { ...r, commands };
}
