// Which local state file is empty and which backups hold the state it replaced (src/apply/interrupted-state.ts).
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyLocalState, emptyStateMessage } from "../../src/apply/interrupted-state.js";
import { localStateFile } from "../../src/terraform/state/local-backend.js";
import { tempDir } from "../support/workdir.js";

const at = (file: string, text: string, seconds: number) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, seconds, seconds);
};

describe("emptyLocalState", () => {
  it("finds the selected workspace's empty file and terraform's backups beside it, newest first, empty ones left out", async () => {
    const root = tempDir("cfwm-empty-");
    const dir = path.join(root, "terraform.tfstate.d", "prod");
    at(path.join(dir, "terraform.tfstate"), "\n", 1_700_000_300);
    at(path.join(dir, "terraform.tfstate.1700000100.backup"), "{}", 1_700_000_100);
    at(path.join(dir, "terraform.tfstate.backup"), "{}", 1_700_000_200);
    at(path.join(dir, "terraform.tfstate.1700000250.backup"), "", 1_700_000_250);
    at(path.join(root, ".cf-waf-migrate", "state-20231114T221320Z.json"), "{}", 1_700_000_000);
    const found = await emptyLocalState(root, "prod");
    expect(found).toEqual({
      file: path.join(dir, "terraform.tfstate"),
      terraformBackups: [path.join(dir, "terraform.tfstate.backup"), path.join(dir, "terraform.tfstate.1700000100.backup")],
      applyBackup: path.join(root, ".cf-waf-migrate", "state-20231114T221320Z.json"),
    });
    // The default workspace's file is another one, and it does not exist.
    expect(await emptyLocalState(root, "default")).toBeNull();
  });

  it("a state with content, or none at all, is not an interrupted write", async () => {
    const root = tempDir("cfwm-empty-");
    expect(await emptyLocalState(root, "default")).toBeNull();
    at(path.join(root, "terraform.tfstate"), '{"version":4}', 1);
    expect(await emptyLocalState(root, "default")).toBeNull();
  });

  it("follows the backend init recorded: a local backend's own path, and no local file at all for s3", async () => {
    const root = tempDir("cfwm-empty-");
    const backend = (b: object) => at(path.join(root, ".terraform", "terraform.tfstate"), JSON.stringify({ version: 3, backend: b }), 1);
    at(path.join(root, "terraform.tfstate"), "", 1_700_000_300);
    at(path.join(root, "state", "prod.tfstate"), "", 1_700_000_300);
    at(path.join(root, "state", "prod.tfstate.1700000100.backup"), "{}", 1_700_000_100);
    backend({ type: "local", config: { path: "state/prod.tfstate", workspace_dir: "envs" } });
    expect(await emptyLocalState(root, "default")).toMatchObject({ file: path.join(root, "state", "prod.tfstate"), terraformBackups: [path.join(root, "state", "prod.tfstate.1700000100.backup")] });
    expect(await localStateFile(root, "x")).toBe(path.join(root, "envs", "x", "terraform.tfstate"));
    // With s3, terraform never reads the terraform.tfstate lying here: an empty one says nothing.
    backend({ type: "s3", config: { bucket: "b", key: "k" } });
    expect(await emptyLocalState(root, "default")).toBeNull();
    expect(await localStateFile(root, "default")).toBeNull();
  });

  it("says which backup to restore, and what is left when terraform kept none", () => {
    const shown = (f: string) => path.basename(f);
    const withBackup = emptyStateMessage({ file: "/r/terraform.tfstate", terraformBackups: ["/r/terraform.tfstate.1.backup"], applyBackup: null }, shown);
    expect(withBackup).toContain("`cp terraform.tfstate.1.backup terraform.tfstate`");
    expect(withBackup).not.toContain("\n");
    const onlyOurs = emptyStateMessage({ file: "/r/terraform.tfstate", terraformBackups: [], applyBackup: "/r/.cf-waf-migrate/state-X.json" }, shown);
    expect(onlyOurs).toContain("state-X.json holds the state as the last run of apply found it, before its first change: restore it");
    const none = emptyStateMessage({ file: "/r/terraform.tfstate", terraformBackups: [], applyBackup: null }, shown);
    expect(none).toContain("no backup was found beside it");
  });
});
