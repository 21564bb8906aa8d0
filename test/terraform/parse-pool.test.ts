// hcl2json in worker threads (the built pool: workers run compiled JavaScript) gives what it gives on the
// main thread, errors included.
import { parse } from "@cdktn/hcl2json";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

type PoolModule = typeof import("../../src/terraform/parse-pool/pool.js");

describe("hcl2json worker pool", () => {
  it("parses in workers, in any order, with hcl2json's own errors", async () => {
    const { createJudge } = (await import(pathToFileURL(path.join(ROOT, "dist/terraform/parse-pool/pool.js")).href)) as PoolModule;
    const judge = createJudge({ workers: 2, poolAfterBytes: 0 });
    const texts = Array.from({ length: 12 }, (_, i) => `resource "cloudflare_waf_rule" "r${i}" {\n  rule_id = "${100000 + i}"\n  mode    = "${i % 2 ? "block" : "off"}"\n}\n`);
    texts[5] = 'resource "x" "y" {\n  a = [1,\n}\n';
    const results = await Promise.allSettled(texts.map((t, i) => judge.parse(`f${i}.tf`, t)));
    await judge.close();
    for (let i = 0; i < texts.length; i++) {
      const local = await parse(`f${i}.tf`, texts[i]!).then(
        (v) => ({ status: "fulfilled", value: v }),
        (e: Error) => ({ status: "rejected", message: e.message }),
      );
      const r = results[i]!;
      if (r.status === "fulfilled") expect(local).toEqual({ status: "fulfilled", value: r.value });
      else expect(local).toEqual({ status: "rejected", message: (r.reason as Error).message });
    }
    expect(results[5]!.status).toBe("rejected");
    expect(judge.bytes).toBe(texts.reduce((n, t) => n + t.length, 0));
  });
});
