// How many root workers a spilled scan starts (src/estate/parallel/pool.ts): the caller's number, else
// CFWM_ROOT_WORKERS, else one worker beside the main thread on two cores or more, and only when the deferred
// directories hold enough configuration to pay for its start-up; and how many jobs wait in a worker: three,
// more while they are light (what the first read found of their files that may hold Cloudflare resources).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildConfigTree } from "../../../src/terraform/config/modules.js";
import { discover } from "../../../src/terraform/config/discover.js";
import { deferredBytesReach, hasRoom, jobWeight, rootWorkerCount, ROOT_WORKERS_ENV } from "../../../src/estate/parallel/pool.js";

const work = mkdtempSync(path.join(os.tmpdir(), "root-worker-count-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("rootWorkerCount", () => {
  it("takes the caller's number first, then the environment's, else the estate's size decides", () => {
    const big = () => true;
    const small = () => false;
    expect(rootWorkerCount(0, big, { [ROOT_WORKERS_ENV]: "2" })).toBe(0);
    expect(rootWorkerCount(3, small, {})).toBe(3);
    expect(rootWorkerCount(undefined, small, { [ROOT_WORKERS_ENV]: "2" })).toBe(2);
    expect(rootWorkerCount(undefined, big, { [ROOT_WORKERS_ENV]: "0" })).toBe(0);
    expect(rootWorkerCount(undefined, small, {})).toBe(0);
    expect(rootWorkerCount(undefined, big, {})).toBe(Math.min(2, availableParallelism()) - 1);
    // Not a whole number: as if unset.
    expect(rootWorkerCount(undefined, small, { [ROOT_WORKERS_ENV]: "many" })).toBe(0);
  });
});

describe("deferredBytesReach", () => {
  it("adds up the deferred directories' files until the limit, skipping what cannot be read", () => {
    const a = path.join(work, "a.tf");
    const b = path.join(work, "b.tf");
    writeFileSync(a, "x".repeat(600));
    writeFileSync(b, "x".repeat(500));
    const deferred = new Map([
      [work, { files: [a, path.join(work, "missing.tf")], reported: true }],
      [path.join(work, "outside"), { files: null, reported: false }],
      [path.join(work, "b"), { files: [b], reported: true }],
    ]);
    expect(deferredBytesReach(deferred, 1100)).toBe(true);
    expect(deferredBytesReach(deferred, 1101)).toBe(false);
  });
});

describe("jobs waiting in a worker", () => {
  it("are three whatever their weight, and up to eight while those waiting weigh under 1,000,000 characters", () => {
    const slot = (size: number, weight: number) => ({ busy: { size }, weight });
    expect(hasRoom(slot(0, 5_000_000))).toBe(true);
    expect(hasRoom(slot(2, 5_000_000))).toBe(true);
    expect(hasRoom(slot(3, 1_000_000))).toBe(false);
    expect(hasRoom(slot(3, 999_999))).toBe(true);
    expect(hasRoom(slot(7, 10_000))).toBe(true);
    expect(hasRoom(slot(8, 0))).toBe(false);
  });

  it("weigh what the first read found in their directories' files that may hold Cloudflare resources", async () => {
    const tree = path.join(work, "weights");
    const files = {
      "root/main.tf": 'module "waf" {\n  source = "../modules/waf"\n}\n',
      "root/vpc.tf": 'resource "aws_vpc" "v" {\n  cidr_block = "10.0.0.0/16"\n}\n',
      "modules/waf/main.tf": 'resource "cloudflare_waf_group" "g" {\n  zone_id  = "0123456789abcdef0123456789abcdef"\n  group_id = "de677e5818985db1285d0e80225f06e5"\n  mode     = "off"\n}\n',
      "modules/waf/aws.tf": 'resource "aws_s3_bucket" "b" {}\n',
    };
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(tree, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    const built = await buildConfigTree(await discover(["."], tree), tree, { mode: "auto", defer: "always" });
    const deferred = built.deferred!;
    // Both directories wait (the root matters for the module it calls); only the module's main.tf weighs.
    expect([...deferred.keys()].sort()).toEqual([path.join(tree, "modules/waf"), path.join(tree, "root")]);
    expect(jobWeight(built, deferred)).toBe(files["modules/waf/main.tf"].length);
    // A directory read already weighs nothing; one whose weight is unknown weighs the whole budget.
    expect(jobWeight(built, new Map([[path.join(tree, "root"), deferred.get(path.join(tree, "root"))!]]))).toBe(0);
    const unknown = { ...built, nodes: built.nodes.map(({ dir: { relevantChars: _, ...dir }, ...n }) => ({ ...n, dir })) };
    expect(jobWeight(unknown, deferred)).toBe(2 * 1_000_000);
  });
});
