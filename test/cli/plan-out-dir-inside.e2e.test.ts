// `plan . --out-dir migration` run from the root module writes its artifacts below the root. Run again (after
// fixing something, with --force), the walk used to read migration/ruleset.tf and imports.tf as a second
// root: the plan switched to an estate layout (migration/_root/, ESTATE.md) and counted the generated
// ruleset as configuration. The directory plan wrote is skipped; named on its own, it is still read.
import { cpSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

describe("plan --out-dir below the root, run twice", () => {
  it("the second run plans the same root, not the artifacts of the first", async () => {
    const root = path.join(tempDir("cfwm-outdir-inside-"), "root");
    cpSync(path.join(TESTDATA, "multi-zone"), root, { recursive: true });
    const args = ["plan", ".", "--state", "terraform.tfstate", "--out-dir", "migration", "--format", "json", "--quiet"];
    const first = await runCli(args, { cwd: root });
    expect(first.exitCode, first.stderr).toBe(0);
    const report = readFileSync(path.join(root, "migration", "report.json"), "utf8");

    const second = await runCli([...args, "--force"], { cwd: root });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(existsSync(path.join(root, "migration", "ESTATE.md"))).toBe(false);
    expect(readFileSync(path.join(root, "migration", "report.json"), "utf8")).toBe(report);

    // Named by the user, the directory is read like any other: its ruleset.tf declares the rulesets.
    const scan = await runCli(["scan", "migration", "--format", "json", "--quiet"], { cwd: root });
    const resources = (JSON.parse(scan.stdout) as { resources: { type: string }[] }).resources;
    expect(resources.filter((r) => r.type === "cloudflare_ruleset").length).toBeGreaterThan(0);
  });

  it("--out-dir . writes into the root itself: from the repository's top that root is still read, whole", async () => {
    const top = tempDir("cfwm-outdir-root-");
    const root = path.join(top, "live", "prod");
    cpSync(path.join(TESTDATA, "multi-zone"), root, { recursive: true });
    const planned = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", ".", "--format", "json", "--quiet"], { cwd: root });
    expect(planned.exitCode, planned.stderr).toBe(0);
    const scan = await runCli(["scan", ".", "--format", "json", "--quiet"], { cwd: top });
    const report = JSON.parse(scan.stdout) as { resources: { type: string; file: string }[] };
    expect(report.resources.some((r) => r.file === "live/prod/main.tf")).toBe(true);
    expect(report.resources.some((r) => r.type === "cloudflare_ruleset" && r.file === "live/prod/ruleset.tf")).toBe(true);
  });
});
