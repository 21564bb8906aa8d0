// --from-cf-terraforming: the instance of a kept resource with count or for_each that the import goes to,
// known offline from literals, terraform.workspace and each/count.index only; else the reason (never a guess).
import { describe, expect, it } from "vitest";
import { extractedInstance, extractedInstances } from "../../src/core/extracted-instance.js";

const EU = "1b2c3d4e5f60718293a4b5c6d7e8f901";
const US = "2c3d4e5f60718293a4b5c6d7e8f90112";

describe("extractedInstance", () => {
  it("no count or for_each: the resource itself", () => {
    expect(extractedInstance({ count: undefined, forEach: undefined, zoneId: US }, US, "us")).toEqual({ ok: true, suffix: "" });
  });

  it("for_each over a literal map keyed by workspace: the key whose zone_id is the zone", () => {
    const forEach = { eu: EU, us: US };
    expect(extractedInstance({ count: undefined, forEach, zoneId: "${each.value}" }, US, "us")).toEqual({ ok: true, suffix: '["us"]' });
    expect(extractedInstance({ count: undefined, forEach, zoneId: "${each.value}" }, EU, "eu")).toEqual({ ok: true, suffix: '["eu"]' });
  });

  it("for_each over a set of zone ids (zone_id = each.key)", () => {
    expect(extractedInstance({ count: undefined, forEach: `\${toset(["${EU}", "${US}"])}`, zoneId: "${each.key}" }, EU, "default")).toEqual({ ok: true, suffix: `["${EU}"]` });
  });

  it("count on terraform.workspace: [0] in its workspace, no instance in another", () => {
    const count = '${terraform.workspace == "us" ? 1 : 0}';
    expect(extractedInstance({ count, forEach: undefined, zoneId: US }, US, "us")).toEqual({ ok: true, suffix: "[0]" });
    const other = extractedInstance({ count, forEach: undefined, zoneId: US }, US, "eu");
    expect(other.ok).toBe(false);
    expect(!other.ok && other.reason).toContain("no instance in workspace eu");
  });

  it("count over a list of zones: the index whose zone_id is the zone", () => {
    expect(extractedInstance({ count: 2, forEach: undefined, zoneId: `\${["${EU}", "${US}"][count.index]}` }, US, "default")).toEqual({ ok: true, suffix: "[1]" });
  });

  it("refuses what is not known offline, and instances it cannot tell apart", () => {
    const unknown = extractedInstance({ count: undefined, forEach: "${var.zones}", zoneId: "${each.value}" }, US, "us");
    expect(unknown).toEqual({ ok: false, reason: expect.stringContaining("for_each is not known offline (var.zones") });
    const unknownWorkspace = extractedInstance({ count: '${terraform.workspace == "us" ? 1 : 0}', forEach: undefined, zoneId: US }, US, null);
    expect(unknownWorkspace).toEqual({ ok: false, reason: expect.stringContaining("its count is not known offline (terraform.workspace is not known offline: pass the workspace's state") });
    const noMatch = extractedInstance({ count: undefined, forEach: { a: "${var.a}", b: "${var.b}" }, zoneId: "${each.value}" }, US, "us");
    expect(noMatch).toEqual({ ok: false, reason: expect.stringContaining('gives 2 instances (["a"], ["b"]) and none has a zone_id known offline') });
    const both = extractedInstance({ count: undefined, forEach: { a: US, b: US }, zoneId: "${each.value}" }, US, "us");
    expect(both).toEqual({ ok: false, reason: expect.stringContaining("2 instances with zone_id") });
    expect(extractedInstance({ count: undefined, forEach: '${["a"]}', zoneId: US }, US, "us").ok).toBe(false);
  });
});

describe("extractedInstances", () => {
  it("every instance with its zone_id when known offline; null when the instances are not known", () => {
    expect(extractedInstances({ count: undefined, forEach: { eu: EU, us: "${var.us}" }, zoneId: "${each.value}" }, "us")).toEqual([
      { suffix: '["eu"]', zone: EU },
      { suffix: '["us"]', zone: null },
    ]);
    const filtered = `\${{ for ws, zone in { eu = "${EU}", us = "${US}" } : ws => zone if ws == terraform.workspace }}`;
    expect(extractedInstances({ count: undefined, forEach: filtered, zoneId: "${each.value}" }, "us")).toEqual([{ suffix: '["us"]', zone: US }]);
    expect(extractedInstances({ count: 2, forEach: undefined, zoneId: `\${["${EU}", "${US}"][count.index]}` }, null)).toEqual([
      { suffix: "[0]", zone: EU },
      { suffix: "[1]", zone: US },
    ]);
    expect(extractedInstances({ count: undefined, forEach: "${var.zones}", zoneId: "${each.value}" }, "us")).toBeNull();
    expect(extractedInstances({ count: undefined, forEach: undefined, zoneId: US }, "us")).toBeNull();
  });
});
