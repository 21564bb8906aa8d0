// The roots around a plan loaded on this thread and on a worker (estate/other-root-pool.ts, the built
// code: the worker runs compiled JavaScript) give, root by root and in order, what this thread alone gives.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

type PoolModule = typeof import("../../src/estate/other-root-pool.js");
const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, "dist", rel)).href)) as T;

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

/** Roots configuring rules and legacy WAF in the shapes the checks read; one has a file that does not parse. */
function roots(): { top: string; dirs: string[] } {
  const top = tempDir("cfwm-other-roots-");
  const dirs: string[] = [];
  for (let i = 0; i < 9; i++) {
    const dir = path.join(top, "stacks", `s${i}`);
    mkdirSync(dir, { recursive: true });
    dirs.push(dir);
    const zone = i % 2 === 0 ? `"${ZONE}"` : "var.zone_id";
    writeFileSync(path.join(dir, "variables.tf"), `variable "zone_id" {\n  type = string\n}\n`);
    writeFileSync(path.join(dir, "terraform.tfvars"), `zone_id = "${String(i).repeat(32).slice(0, 32)}"\n`);
    writeFileSync(
      path.join(dir, "rules.tf"),
      [
        `resource "cloudflare_filter" "f" {\n  zone_id    = ${zone}\n  expression = "(http.request.uri.path contains \\"/admin${i}\\")"\n}\n`,
        `resource "cloudflare_firewall_rule" "allow" {\n  zone_id   = ${zone}\n  filter_id = cloudflare_filter.f.id\n  action    = "bypass"\n  products  = ["waf"]\n}\n`,
        i % 3 === 0 ? `resource "cloudflare_page_rule" "p" {\n  zone_id = ${zone}\n  target  = "example.com/${i}/*"\n  actions {\n    waf = "off"\n  }\n}\n` : "",
        i % 4 === 1 ? `resource "cloudflare_waf_package" "owasp" {\n  zone_id    = ${zone}\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "high"\n}\n` : "",
        i === 5 ? `resource "cloudflare_ruleset" "managed" {\n  zone_id = ${zone}\n  name    = "m"\n  kind    = "zone"\n  phase   = "http_request_firewall_managed"\n}\n` : "",
      ].join("\n"),
    );
  }
  // A file that does not parse: the load reports it, and the legacy WAF the structure showed is kept.
  writeFileSync(path.join(dirs[6]!, "broken.tf"), `resource "cloudflare_waf_group" "g" {\n  zone_id = "${ZONE}"\n`);
  return { top, dirs };
}

describe("the roots around a plan, loaded with a worker", () => {
  it("gives each root's rules as this thread alone does, in the same order", async () => {
    const { loadOtherRoots } = await load<PoolModule>("estate/other-root-pool.js");
    const { top, dirs } = roots();
    const where = { cwd: top, base: top };
    const declared = new Map([[dirs[6]!, [{ address: "cloudflare_waf_group.g", configAddress: "cloudflare_waf_group.g", type: "cloudflare_waf_group", file: "stacks/s6/broken.tf", line: 1, zoneId: null, inConfig: true, inState: false }]]]);
    const alone = await loadOtherRoots(dirs, where, declared, { CFWM_ROOT_WORKERS: "0" });
    const shared = await loadOtherRoots(dirs, where, declared, { CFWM_ROOT_WORKERS: "1" });
    const [here, both] = [alone.roots, shared.roots];
    expect(alone.byWorker).toBe(0);
    expect(shared.byWorker).toBeGreaterThan(0);
    expect(both).toStrictEqual(here);
    // The premise: the roots give what the checks read, errors and kept declarations included.
    expect(here.map((r) => r.root)).toEqual(dirs.map((d) => path.relative(top, d)));
    expect(here.every((r) => r.firewallRules.length === 1)).toBe(true);
    expect(here.filter((r) => r.pageRules.length > 0)).toHaveLength(3);
    expect(here.filter((r) => r.legacyWaf?.length)).toHaveLength(3);
    expect(here[5]!.entryPoints).toHaveLength(1);
    expect(here[6]!.unreadable).toEqual([expect.stringMatching(/^stacks\/s6\/broken\.tf:\d+: /)]);
    expect(here[6]!.legacyWaf!.map((r) => r.address)).toContain("cloudflare_waf_group.g");
  });

  it("starts no worker for a few roots unless asked to", async () => {
    const { loadOtherRoots, OTHER_ROOT_WORKER_MIN_ROOTS } = await load<PoolModule>("estate/other-root-pool.js");
    const { top, dirs } = roots();
    expect(dirs.length).toBeLessThan(OTHER_ROOT_WORKER_MIN_ROOTS);
    const loaded = await loadOtherRoots(dirs, { cwd: top, base: top }, new Map(), {});
    expect(loaded.byWorker).toBe(0);
    expect(loaded.roots).toHaveLength(dirs.length);
  });
});
