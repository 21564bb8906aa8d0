// The steps and helpers in isolation: backup names, the resume checks, the leftover-state guard, chdir.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  APPLY_STEPS,
  ApplyRefusedError,
  importStep,
  legacyLeftInState,
  resolveChdir,
  stateRmStep,
  removeBlocksStep,
  utcStamp,
  writeStateBackup,
  type ApplyContext,
  type Migration,
} from "../../src/apply/index.js";
import { tempDir } from "../support/workdir.js";

const migration = (m: Partial<Migration> = {}): Migration => ({
  imports: [],
  importNotes: [],
  stateRemovals: [],
  blockConfigAddresses: [],
  edits: [],
  patch: "",
  ...m,
});

function ctx(m: Partial<Migration>, stateList: string[]): ApplyContext {
  return {
    cli: { bin: "terraform", cwd: "/nowhere", run: () => Promise.reject(new Error("no command expected")) },
    chdir: "/nowhere",
    cwd: "/nowhere",
    dryRun: true,
    acceptChanges: false,
    terraform: { flavor: "terraform", version: "1.11.0" },
    stateText: "{}",
    stateList,
    migration: migration(m),
    redact: (t) => t,
    now: () => new Date(0),
    backupPath: null,
  };
}

describe("apply steps", () => {
  it("run in the one safe order: import, check, state rm, then blocks, then the final plan", () => {
    expect(APPLY_STEPS.map((s) => `${s.number}.${s.name}`)).toEqual(["1.backup", "2.import", "3.plan-check", "4.state-rm", "5.remove-blocks", "6.final-plan"]);
  });

  it("backup names are UTC timestamps and never overwrite", async () => {
    expect(utcStamp(new Date("2025-01-02T03:04:05.678Z"))).toBe("20250102T030405Z");
    const dir = path.join(tempDir(), ".cf-waf-migrate");
    const at = new Date("2025-01-02T03:04:05Z");
    const a = await writeStateBackup(dir, "one\n", at);
    const b = await writeStateBackup(dir, "two\n", at);
    expect(path.basename(a)).toBe("state-20250102T030405Z.json");
    expect(path.basename(b)).toBe("state-20250102T030405Z-1.json");
    expect(readFileSync(a, "utf8")).toBe("one\n");
    expect(readFileSync(b, "utf8")).toBe("two\n");
  });

  it("import is done when every target is in state; state rm when no planned address is left", async () => {
    const imports = [{ zoneId: "z", to: "cloudflare_ruleset.a", id: "zone/z/r" }];
    expect(await importStep.done(ctx({ imports }, []))).toBeNull();
    expect(await importStep.done(ctx({ imports }, ["cloudflare_ruleset.a"]))).toBe("cloudflare_ruleset.a is already in state");
    expect(await importStep.done(ctx({}, []))).toBe("no ruleset to import");
    const stateRemovals = ['module.waf["a"].cloudflare_waf_package.p'];
    expect(await stateRmStep.done(ctx({ stateRemovals }, stateRemovals))).toBeNull();
    expect(await stateRmStep.done(ctx({ stateRemovals }, ["cloudflare_zone.z"]))).toBe("no legacy address left in state");
    expect(await removeBlocksStep.done(ctx({}, []))).toBe("no legacy block left in the configuration");
  });

  it("the leftover guard matches instances of a deleted block and planned removals, nothing else", () => {
    const m = migration({ blockConfigAddresses: ["module.waf.cloudflare_waf_group.off", "module.waf.data.cloudflare_waf_packages.owasp"], stateRemovals: ["cloudflare_waf_group.retired"] });
    expect(
      legacyLeftInState(
        [
          'module.waf["x"].cloudflare_waf_group.off["de67"]',
          'module.waf["x"].data.cloudflare_waf_packages.owasp',
          "cloudflare_waf_group.retired",
          "cloudflare_waf_group.other",
          'module.other["x"].cloudflare_waf_group.off["de67"]',
          "cloudflare_ruleset.waf",
        ],
        m,
      ),
    ).toEqual(['module.waf["x"].cloudflare_waf_group.off["de67"]', 'module.waf["x"].data.cloudflare_waf_packages.owasp', "cloudflare_waf_group.retired"]);
  });

  it("--chdir defaults to the one scanned directory and is refused when that is ambiguous", async () => {
    const base = tempDir();
    mkdirSync(path.join(base, "root"));
    writeFileSync(path.join(base, "main.tf"), "");
    expect(await resolveChdir(undefined, ["root"], base)).toBe(path.join(base, "root"));
    expect(await resolveChdir("root", ["a", "b"], base)).toBe(path.join(base, "root"));
    await expect(resolveChdir(undefined, ["a", "b"], base)).rejects.toThrow(ApplyRefusedError);
    await expect(resolveChdir(undefined, ["main.tf"], base)).rejects.toThrow(/--chdir DIR/);
    await expect(resolveChdir("missing", ["."], base)).rejects.toThrow(/no such directory/);
  });
});
