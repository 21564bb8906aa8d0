// terraform empties a local state file before it writes the new state, so a terraform command killed in that
// moment (a cancelled CI job; one of apply-kills' random-delay kills landed there) leaves 0 bytes, and the
// state it replaced in a backup beside it. The same moment, made on purpose with the real terraform: a real
// `state rm` (which writes its timestamped backup), then the file emptied as the kill leaves it. apply and
// migrate.sh refuse with nothing changed and name the backup; restored as told, the migration finishes.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { execa } from "execa";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyTree, corpusTree, expectFinished, planArtifacts, REAL_TERRAFORM, runApplyCli, runScript, snapshot, tfEnv } from "./helpers.js";

const t = corpusTree("realworld-module-examples");

async function interruptedCopy() {
  const copy = await copyTree(t);
  const out = await planArtifacts(t, copy);
  copyFileSync(path.join(out, "ruleset.tf"), path.join(copy.root, "cf-waf-migrate-ruleset.tf"));
  copy.before = snapshot(copy.top);
  const before = readFileSync(path.join(copy.root, "terraform.tfstate"), "utf8");
  await execa(REAL_TERRAFORM, ["state", "rm", "module.waf.cloudflare_waf_package.owasp[0]"], { cwd: copy.root, env: tfEnv() });
  const backups = readdirSync(copy.root).filter((n) => /^terraform\.tfstate\.\d+\.backup$/.test(n));
  expect(backups).toHaveLength(1);
  // terraform's backup is the state before the write; the kill leaves the file itself empty.
  expect(readFileSync(path.join(copy.root, backups[0]!), "utf8")).toBe(before);
  writeFileSync(path.join(copy.root, "terraform.tfstate"), "");
  return { copy, out, backup: backups[0]! };
}

describe("a state file left empty by a terraform command killed while writing it", { timeout: 300_000 }, () => {
  it("apply refuses, names terraform's backup, changes nothing; restored as told, it finishes", async () => {
    const { copy, backup } = await interruptedCopy();
    const r = await runApplyCli(t, copy);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("terraform.tfstate is empty (0 bytes): a terraform command was stopped while it wrote the state");
    expect(r.stderr).toContain(`\`cp ${backup} terraform.tfstate\``);
    expect(snapshot(copy.top)).toEqual(copy.before);
    expect(readFileSync(path.join(copy.root, "terraform.tfstate"), "utf8")).toBe("");
    expect(existsSync(path.join(copy.root, ".cf-waf-migrate"))).toBe(false);

    copyFileSync(path.join(copy.root, backup), path.join(copy.root, "terraform.tfstate"));
    const again = await runApplyCli(t, copy);
    expect(again.code, again.stderr).toBe(0);
    await expectFinished(t, copy);
  });

  it("migrate.sh stops at step 0 with the same words and the backup's name; restored, it finishes", async () => {
    const { copy, out, backup } = await interruptedCopy();
    const r = await runScript(copy, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("migrate.sh: terraform.tfstate is empty (0 bytes): a terraform command was stopped while it wrote the state");
    expect(r.stderr).toContain(`cp ${backup} terraform.tfstate`);
    expect(snapshot(copy.top)).toEqual(copy.before);

    copyFileSync(path.join(copy.root, backup), path.join(copy.root, "terraform.tfstate"));
    const again = await runScript(copy, out);
    expect(again.code, again.stderr).toBe(0);
    await expectFinished(t, copy);
  });
});
