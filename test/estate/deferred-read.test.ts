// A streamed estate reads each directory that matters when the first root reaching it is built, not all of
// them before the first root (terraform/config/deferred.ts): the whole tree's configuration is never in
// memory at once, a module directory several roots share is read once, and its errors are reported once.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";
import { loadEstate, streamEstate } from "../../src/estate/load.js";

const ESTATE = path.join(TESTDATA, "estate");
const noStdin = async () => Buffer.alloc(0);

const work = mkdtempSync(path.join(os.tmpdir(), "deferred-read-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("streamed estate: directories read at their roots' turn", () => {
  it("reads a root's directory at its turn, and a module its roots share once", async () => {
    // Seen from outside: a file changed while earlier roots are built is read as it is then; a shared
    // module changed after its first root was built is not read again for the next.
    const dir = path.join(work, "turns");
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    const pkg = (name: string) => `resource "cloudflare_waf_package" "${name}" {\n  zone_id    = "0123456789abcdef0123456789abcdef"\n  package_id = "p"\n}\n`;
    write("modules/waf/main.tf", pkg("shared_before"));
    write("stacks/a/main.tf", `module "waf" {\n  source = "../../modules/waf"\n}\n`);
    write("stacks/b/main.tf", `module "waf" {\n  source = "../../modules/waf"\n}\n${pkg("b_before")}`);
    const seen: string[] = [];
    const o = { paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin };
    // A tree this small is read at once unless asked (modules.ts `smallTree`), as root workers ask.
    await streamEstate({ ...o, deferReads: "always" }, (i) => {
      seen.push(`${i.root}: ${i.ws.resources.map((r) => r.address).join(", ")}`);
      if (i.root === "stacks/a") {
        write("stacks/b/main.tf", `module "waf" {\n  source = "../../modules/waf"\n}\n${pkg("b_after")}`);
        write("modules/waf/main.tf", pkg("shared_after"));
      }
    });
    expect(seen).toEqual([
      "stacks/a: module.waf.cloudflare_waf_package.shared_before",
      "stacks/b: cloudflare_waf_package.b_after, module.waf.cloudflare_waf_package.shared_before",
    ]);
    // The eager read (plan, gate) reads every file before the first root.
    write("stacks/b/main.tf", `module "waf" {\n  source = "../../modules/waf"\n}\n${pkg("b_before")}`);
    const eager = await loadEstate(o);
    expect(eager.instances.map((i) => i.ws.resources.map((r) => r.address).join(", "))).toEqual([
      "module.waf.cloudflare_waf_package.shared_after",
      "cloudflare_waf_package.b_before, module.waf.cloudflare_waf_package.shared_after",
    ]);
    // Not asked, a stream of this small tree reads it at once too (the probe would parse its files twice).
    const atOnce: string[] = [];
    await streamEstate(o, (i) => {
      atOnce.push(`${i.root}: ${i.ws.resources.map((r) => r.address).join(", ")}`);
      if (i.root === "stacks/a") write("stacks/b/main.tf", `module "waf" {\n  source = "../../modules/waf"\n}\n${pkg("b_after")}`);
    });
    expect(atOnce).toEqual([
      "stacks/a: module.waf.cloudflare_waf_package.shared_after",
      "stacks/b: cloudflare_waf_package.b_before, module.waf.cloudflare_waf_package.shared_after",
    ]);
  });

  it("builds the instances loadEstate builds (the eager read)", async () => {
    const o = { paths: ["."], statePaths: [...ESTATE_STATES], cwd: ESTATE, readStdin: noStdin };
    const eager = await loadEstate(o);
    const seen: unknown[] = [];
    const streamed = await streamEstate({ ...o, deferReads: "always" }, (i) => void seen.push({ root: i.root, workspace: i.workspace, resources: i.ws.resources, domain: i.ws.domain, findings: i.ws.findings }));
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
    const streamed = await streamEstate({ ...base, deferReads: "always" }, () => null);
    expect(streamed.errors).toEqual(eager.errors);
    // A shard that builds only stacks/a still reports stacks/c's error, as the eager read does.
    const shard = { ...base, rootFilter: (p: string) => p === "stacks/a" };
    const eagerShard = await loadEstate(shard);
    const streamedShard = await streamEstate({ ...shard, deferReads: "always" }, () => null);
    expect(streamedShard.errors).toEqual(eagerShard.errors);
    expect(streamedShard.errors.map((e) => e.file).sort()).toEqual(["modules/waf/main.tf", "stacks/c/main.tf"]);
  });
});
