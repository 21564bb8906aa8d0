import path from "node:path";
import { describe, expect, it } from "vitest";
import { comparePaths } from "../../src/estate/instances.js";
import { loadEstate } from "../../src/estate/load.js";
import { TESTDATA } from "../support/cli.js";

const ESTATE = path.join(TESTDATA, "estate");
const noStdin = async () => Buffer.alloc(0);
const STATES = [
  "live/prod/terraform.tfstate",
  "live/staging/terraform.tfstate.d/eu/terraform.tfstate",
  "live/staging/terraform.tfstate.d/us/terraform.tfstate",
  "live/edge/terraform.tfstate",
];

describe("estate instances", () => {
  it("lists every root (a module's example calling ../../ included) and never a called module", async () => {
    const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: ESTATE, readStdin: noStdin });
    expect(estate.roots.map((r) => r.path)).toEqual(["live/dns", "live/edge", "live/migrated", "live/prod", "live/staging", "modules/legacy-waf/examples/basic"]);
    // Without state, each root is one configuration-only instance in the default workspace.
    expect(estate.instances.map((i) => [i.root, i.workspace, i.ws.stateKnown])).toEqual(estate.roots.map((r) => [r.path, "default", false]));
  });

  it("makes one instance per (root, workspace) and never joins identical addresses across them", async () => {
    const estate = await loadEstate({ paths: ["."], statePaths: STATES, cwd: ESTATE, readStdin: noStdin });
    expect(estate.errors).toEqual([]);
    const of = (root: string, ws: string) => estate.instances.find((i) => i.root === root && i.workspace === ws)!;
    const address = "module.waf.cloudflare_waf_package.owasp";
    const zones = [of("live/prod", "default"), of("live/staging", "eu"), of("live/staging", "us")].map((i) => i.ws.resources.find((r) => r.address === address)!.zoneId);
    expect(zones).toEqual(["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "1b2c3d4e5f60718293a4b5c6d7e8f901", "2c3d4e5f60718293a4b5c6d7e8f90112"]);
    expect(of("live/staging", "eu").stateFiles).toEqual(["live/staging/terraform.tfstate.d/eu/terraform.tfstate"]);
    // A root with state in workspaces only has no extra configuration-only default instance.
    expect(estate.instances.filter((i) => i.root === "live/staging").map((i) => i.workspace)).toEqual(["eu", "us"]);
    // The module shared by three roots is one parsed directory object.
    const dirs = new Set(estate.tree.nodes.filter((n) => n.path === "module.waf").map((n) => n.dir));
    expect(dirs.size).toBe(1);
  });

  it("reports a state outside every root as an input error naming ROOT=FILE, and reads the rest", async () => {
    const estate = await loadEstate({ paths: ["."], statePaths: ["../../multi-zone/terraform.tfstate", "prod/terraform.tfstate"], cwd: path.join(ESTATE, "live"), readStdin: noStdin });
    expect(estate.errors).toHaveLength(1);
    expect(estate.errors[0]!.message).toContain("--state ROOT=../../multi-zone/terraform.tfstate");
    expect(estate.instances.find((i) => i.root === "prod")!.ws.stateKnown).toBe(true);
  });

  it("orders paths segment by segment", () => {
    expect(["live/staging", "live/prod-eu", ".", "live/prod", "live"].sort(comparePaths)).toEqual([".", "live", "live/prod", "live/prod-eu", "live/staging"]);
  });
});
