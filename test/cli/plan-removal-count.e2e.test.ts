// The zone's "Remove from state" count and step 5's list agree: a root reading legacy data sources had its
// zone say "Remove from state (5)" while step 5 removed 8 addresses (3 data source instances, which belong
// to no one zone). Both now say what they count.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { countRemovals, removalCountText } from "../../src/core/removal-count.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

describe("removal counts", () => {
  it("text: the zone counts its resources, step 5 counts resources and data sources", async () => {
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--ruleset-id", `${ZONE}=6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7`, "--format", "text"], {
      cwd: path.join(TESTDATA, "realworld-data-sources"),
    });
    expect(r.stdout).toContain("Remove from state (5 resources):");
    expect(r.stdout).toContain("note: removes 8 addresses: 5 resources and 3 data sources (legacy data sources belong to no one zone");
    expect(r.stdout).not.toMatch(/Remove from state \(\d+\)/);
  });

  it("markdown: the zone heading and PLAN.md's summary say the same", async () => {
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--ruleset-id", `${ZONE}=6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7`, "--format", "markdown"], {
      cwd: path.join(TESTDATA, "realworld-data-sources"),
    });
    expect(r.stdout).toContain("8 state addresses to remove (5 resources and 3 data sources)");
  });

  it("counts module and keyed addresses by mode", () => {
    expect(countRemovals(['module.w["a"].data.cloudflare_waf_groups.g["x"]', "cloudflare_waf_rule.r[0]"])).toEqual({ resources: 1, dataSources: 1 });
    expect(removalCountText(["cloudflare_waf_rule.r[0]"])).toBe("1 resource");
    expect(removalCountText(["data.cloudflare_waf_packages.p"])).toBe("1 data source");
    expect(removalCountText(["a.b", "c.d", "data.e.f"])).toBe("2 resources and 1 data source");
  });
});
