// Random estate layouts (roots at random depths, workspaces, one shared module with identical addresses
// in every root, zones dealt at random): loadEstate + analyzeEstate never join two instances. Every
// (root, workspace, zone) dealt comes back as its own zone entry with exactly its own state removals.
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeEstate } from "../../src/estate/analyze.js";
import { loadEstate } from "../../src/estate/load.js";
import { instanceInputs } from "../../src/estate/report.js";
import { tempDir } from "../support/workdir.js";

const MODULE = `variable "zone_id" {\n  type = string\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id    = var.zone_id\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n`;
const P = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
const hex = (n: number) => n.toString(16).padStart(32, "0");

const layout = fc
  .uniqueArray(fc.tuple(fc.constantFrom("live", "teams", "envs"), fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/), fc.boolean()), { minLength: 1, maxLength: 5, selector: ([a, b, nested]) => `${a}/${b}/${nested}` })
  .chain((roots) =>
    fc.tuple(
      fc.constant(roots),
      // Per root: its workspaces ([] = the default workspace's terraform.tfstate).
      fc.tuple(...roots.map(() => fc.uniqueArray(fc.constantFrom("eu", "us", "ap", "dev"), { maxLength: 3 }))),
    ),
  );

describe("estate property: identical addresses in different instances never collapse", () => {
  it("one zone entry and one state removal per (root, workspace) dealt", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(layout, async ([roots, workspaces]) => {
        const top = tempDir("cfwm-estate-prop-");
        writeFile(top, "modules/waf/main.tf", MODULE);
        const states: string[] = [];
        const expected: string[] = [];
        let zone = ++run * 100;
        roots.forEach(([group, name, nested], i) => {
          const root = nested ? `${group}/${name}/stack` : `${group}/${name}`;
          const up = root.split("/").map(() => "..").join("/");
          writeFile(top, `${root}/main.tf`, `module "waf" {\n  source  = "${up}/modules/waf"\n  zone_id = var.zone_id\n}\n\nvariable "zone_id" {\n  type    = string\n  default = "${hex(0)}"\n}\n`);
          const wss = workspaces[i]!.length ? workspaces[i]! : ["default"];
          for (const ws of wss) {
            const z = hex(++zone);
            const file = ws === "default" ? `${root}/terraform.tfstate` : `${root}/terraform.tfstate.d/${ws}/terraform.tfstate`;
            writeFile(top, file, JSON.stringify({ version: 4, terraform_version: "1.9.8", serial: 1, lineage: `l-${zone}`, outputs: {}, resources: [{ module: "module.waf", mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: P, instances: [{ schema_version: 0, attributes: { id: "a25a9a7e9c00afc1fb2e0245519d725b", zone_id: z, package_id: "a25a9a7e9c00afc1fb2e0245519d725b" }, sensitive_attributes: [] }] }] }));
            states.push(file);
            expected.push(`${root}|${ws}|${z}`);
          }
        });
        const estate = await loadEstate({ paths: ["."], statePaths: states, cwd: top, readStdin: async () => Buffer.alloc(0) });
        expect(estate.errors).toEqual([]);
        const analysis = analyzeEstate(instanceInputs(estate.instances));
        const got = analysis.zones.map((z) => `${z.zone.root}|${z.zone.workspace}|${z.zone.zoneId}`);
        expect(got.sort()).toEqual(expected.sort());
        for (const z of analysis.zones) expect(z.zone.stateRemovals).toEqual(["module.waf.cloudflare_waf_package.owasp"]);
        expect(analysis.findings.some((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS")).toBe(false);
      }),
      { numRuns: 15, seed: 13 },
    );
  });
});

function writeFile(top: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
  writeFileSync(path.join(top, rel), text);
}
