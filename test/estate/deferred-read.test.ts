// A streamed estate reads each directory that matters when the first root reaching it is built, not all of
// them before the first root (terraform/config/deferred.ts): the whole tree's configuration is never in
// memory at once, a module directory several roots share is read once, and its errors are reported once.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";

const reads: string[] = [];
vi.mock("../../src/terraform/config/load.js", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../src/terraform/config/load.js")>();
  return {
    ...orig,
    loadModuleDir: async (dir: string, files: string[], opts: Parameters<typeof orig.loadModuleDir>[2]) => {
      reads.push(`${opts.mode ?? "full"} ${dir}`);
      return orig.loadModuleDir(dir, files, opts);
    },
  };
});

const { loadEstate, streamEstate } = await import("../../src/estate/load.js");

const ESTATE = path.join(TESTDATA, "estate");
const noStdin = async () => Buffer.alloc(0);
const rel = (line: string) => line.replace(ESTATE + path.sep, "").replace(ESTATE, ".");

const work = mkdtempSync(path.join(os.tmpdir(), "deferred-read-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("streamed estate: directories read at their roots' turn", () => {
  it("reads a root's directories after the previous root's instances are handed over, a shared module once", async () => {
    reads.length = 0;
    const order: string[] = [];
    await streamEstate({ paths: ["."], statePaths: [...ESTATE_STATES], cwd: ESTATE, readStdin: noStdin }, (i) => {
      order.push(`instance ${i.root}:${i.workspace}`);
      reads.push(`instance ${i.root}:${i.workspace}`);
      return null;
    });
    const log = reads.map(rel);
    // Before any instance, directories are only probed for their module calls.
    const first = log.findIndex((l) => l.startsWith("instance"));
    expect(log.slice(0, first).every((l) => l.startsWith("probe "))).toBe(true);
    // Each root's own directory is read (fast) right before its first instance.
    for (const root of ["live/edge", "live/prod", "live/staging", "modules/legacy-waf/examples/basic"]) {
      const at = log.indexOf(`fast ${root}`);
      expect(at, root).toBeGreaterThan(first - 1);
      expect(log.slice(at).find((l) => l.startsWith("instance")), root).toMatch(new RegExp(`^instance ${root}:`));
    }
    // The module prod, staging and basic share is read once, with prod (the first of them).
    expect(log.filter((l) => l === "fast modules/legacy-waf")).toHaveLength(1);
    expect(log.indexOf("fast modules/legacy-waf")).toBeLessThan(log.indexOf("instance live/prod:default"));
  });

  it("builds the instances loadEstate builds (the eager read)", async () => {
    const o = { paths: ["."], statePaths: [...ESTATE_STATES], cwd: ESTATE, readStdin: noStdin };
    const eager = await loadEstate(o);
    const seen: unknown[] = [];
    const streamed = await streamEstate(o, (i) => void seen.push({ root: i.root, workspace: i.workspace, resources: i.ws.resources, domain: i.ws.domain, findings: i.ws.findings }));
    expect(JSON.stringify(seen)).toBe(JSON.stringify(eager.instances.map((i) => ({ root: i.root, workspace: i.workspace, resources: i.ws.resources, domain: i.ws.domain, findings: i.ws.findings }))));
    expect(streamed.errors).toEqual(eager.errors);
  });

  it("reports a shared module's errors once, and those of roots another shard builds", async () => {
    const dir = path.join(work, "errors");
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write("modules/waf/main.tf", 'resource "cloudflare_waf_group" "g" {\n  zone_id = var.zone_id\n  group_id = "x"\n  mode = \n}\nvariable "zone_id" {}\n');
    for (const r of ["a", "b"]) write(`stacks/${r}/main.tf`, `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "${r === "a" ? "0123456789abcdef0123456789abcdef" : "fedcba9876543210fedcba9876543210"}"\n}\n`);
    write("stacks/c/main.tf", 'resource "cloudflare_waf_package" "p" {\n  zone_id = "0123456789abcdef0123456789abcdef"\n  package_id = \n}\n');
    const base = { paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin };
    const eager = await loadEstate(base);
    expect(eager.errors.length).toBe(2);
    const streamed = await streamEstate(base, () => null);
    expect(streamed.errors).toEqual(eager.errors);
    // A shard that builds only stacks/a still reports stacks/c's error, as the eager read does.
    const shard = { ...base, rootFilter: (p: string) => p === "stacks/a" };
    const eagerShard = await loadEstate(shard);
    const streamedShard = await streamEstate(shard, () => null);
    expect(streamedShard.errors).toEqual(eagerShard.errors);
    expect(streamedShard.errors.map((e) => e.file).sort()).toEqual(["modules/waf/main.tf", "stacks/c/main.tf"]);
  });
});
