// `npm run demo` end to end: the real terraform, the provider double and the simulated API, from a legacy
// estate on provider 3.35.0 to a clean plan on 4.52.8. Each step of the demo checks its own outcome, so the
// narration's lines below are evidence of what happened, and the exit code is 0 only if all of it did.

import { execa } from "execa";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

describe("npm run demo", () => {
  it("migrates the demo estate and ends with terraform's 'No changes' on provider 4.52.8", async () => {
    // The script itself (what `npm run demo` runs), so the test does not depend on npm's own output.
    const res = await execa("node", ["dist/sandbox/demo/main.js"], { cwd: ROOT, reject: false, timeout: 900_000, env: { NO_COLOR: "1" } });
    const out = res.stdout;
    expect(res.exitCode, `${out}\n${res.stderr}`).toBe(0);
    expect(out).toMatch(/\[2\/8\] terraform init && terraform apply, Cloudflare provider 3\.35\.0\n\s+Apply complete! Resources: 7 added, 0 changed, 0 destroyed\./);
    expect(out).toMatch(/\[3\/8\] cf-waf-migrate gate[^\n]*\n\s+GATE FAILED: [^\n]*PROVIDER_UPGRADE_BLOCKED[^\n]*\n\s+exit 1/);
    expect(out).toMatch(/shop\.example: migrated; entry point ruleset [0-9a-f]{32} with 4 rules/);
    expect(out).toMatch(/bank\.example: migrated; entry point ruleset [0-9a-f]{32} with 2 rules/);
    expect(out).toMatch(/wrote migration\/PLAN\.md, migration\/ruleset\.tf, migration\/imports\.tf/);
    expect(out).toContain("✓ Rehearsal passed: steps 3-7 on a throwaway copy of the root");
    for (const n of [1, 2, 3, 4, 5, 6]) expect(out).toMatch(new RegExp(`✓ ${n}\\. `));
    expect(out).toContain("Installed cloudflare/cloudflare v4.52.8");
    expect(out).toContain("cf-waf-migrate gate: exit 0");
    expect(out).toMatch(/\[8\/8\] terraform plan -detailed-exitcode, Cloudflare provider 4\.52\.8\n\s+No changes\. Your infrastructure matches the configuration\./);
    expect(out).toMatch(/Done in \d+\.\d s/);
    // A successful demo leaves nothing behind: its sandbox API is stopped and its directory removed.
    const dir = /sandbox (\S+)\/sandbox: provider double/.exec(out)![1]!;
    expect(existsSync(dir)).toBe(false);
  }, 900_000);
});
