// A big tree's first read shared with a worker (the built pool: the worker runs compiled JavaScript) gives,
// directory by directory, what this thread alone gives: module calls, resources, errors, records without a
// prototype; a worker that dies hands its directories back.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

type ProbeModule = typeof import("../../src/terraform/config/probe-pool.js");
type DiscoverModule = typeof import("../../src/terraform/config/discover.js");

const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, "dist", rel)).href)) as T;
const work = mkdtempSync(path.join(os.tmpdir(), "probe-pool-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A monorepo in miniature: services calling shared modules, one of which holds the legacy WAF. */
function monorepo(): string {
  const dir = path.join(work, "repo");
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  put("modules/waf/main.tf", 'variable "zone_id" {}\nresource "cloudflare_waf_package" "owasp" {\n  count      = var.enabled ? 1 : 0\n  zone_id    = var.zone_id\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n');
  put("modules/waf/examples/basic/main.tf", 'module "waf" {\n  source  = "../../"\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n');
  put("modules/network/main.tf", 'resource "aws_vpc" "this" {\n  cidr_block = "10.0.0.0/16"\n}\n');
  for (let i = 0; i < 40; i++) {
    const calls = i % 3 === 0 ? `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "0da42c8d2132a9ddaf714f9e7c92${String(i).padStart(4, "0")}"\n}\n` : "";
    put(`services/s${i}/main.tf`, `${calls}module "net" {\n  source = "../../modules/network"\n}\nlocals {\n  name = "s${i}"\n}\nresource "aws_s3_bucket" "b" {\n  bucket = local.name\n}\n`);
  }
  // Input errors: gross syntax errors in a file that may hold a Cloudflare resource and in an unrelated one
  // (which a structure read skips: it can declare neither a module call nor a Cloudflare resource), and a
  // file that is not UTF-8.
  put("services/s7/broken.tf", 'resource "aws_s3_bucket" "c" {\n  bucket = "x"\n');
  put("services/s9/broken-rules.tf", 'resource "cloudflare_filter" "c" {\n  zone_id = "x"\n');
  writeFileSync(path.join(dir, "services/s8/latin1.tf"), Buffer.from('locals {\n  x = "caf\xe9"\n}\n', "latin1"));
  return dir;
}

describe("the first read shared with a worker", () => {
  it("gives every directory as this thread reads it, in both read modes", async () => {
    const { readDirsShared } = await load<ProbeModule>("terraform/config/probe-pool.js");
    const { discover } = await load<DiscoverModule>("terraform/config/discover.js");
    const dir = monorepo();
    const found = await discover([dir], dir);
    expect(found.dirs.length).toBeGreaterThan(40);
    for (const mode of ["probe", "structure"] as const) {
      const sizes: Record<string, number[]> = { alone: [], shared: [] };
      const alone = await readDirsShared(found.dirs, { base: dir, mode, onFile: (s) => sizes["alone"]!.push(s) }, { CFWM_PROBE_WORKER: "0" });
      const shared = await readDirsShared(found.dirs, { base: dir, mode, onFile: (s) => sizes["shared"]!.push(s) }, { CFWM_PROBE_WORKER: "1" });
      expect(alone.byWorker).toBe(0);
      expect(shared.byWorker, mode).toBeGreaterThan(0);
      expect(shared.byWorker, mode).toBeLessThan(found.dirs.length);
      // Records without a prototype come back without one (toStrictEqual compares prototypes).
      expect(shared.modules, mode).toStrictEqual(alone.modules);
      expect(sizes["shared"]!.sort()).toEqual(sizes["alone"]!.sort());
      const errors = alone.modules.flatMap((m) => m.errors.map((e) => `${e.file}:${e.line}`));
      if (mode === "structure") expect(errors.sort()).toEqual(["services/s8/latin1.tf:2", "services/s9/broken-rules.tf:1"]);
    }
  });

  it("reads here what a worker that dies held", async () => {
    const { readDirsShared } = await load<ProbeModule>("terraform/config/probe-pool.js");
    const { discover } = await load<DiscoverModule>("terraform/config/discover.js");
    const dir = path.join(work, "repo");
    const found = await discover([dir], dir);
    const alone = await readDirsShared(found.dirs, { base: dir, mode: "probe" }, { CFWM_PROBE_WORKER: "0" });
    process.env["CFWM_PROBE_WORKER_FAULT"] = "exit";
    try {
      const shared = await readDirsShared(found.dirs, { base: dir, mode: "probe" }, { CFWM_PROBE_WORKER: "1" });
      expect(shared.byWorker).toBe(0);
      expect(shared.modules).toStrictEqual(alone.modules);
    } finally {
      delete process.env["CFWM_PROBE_WORKER_FAULT"];
    }
  });
});
