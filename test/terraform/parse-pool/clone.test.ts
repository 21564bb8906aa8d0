// estate/spill/clone.ts: a zone's inventory to bytes and back, exactly (what the join of a split zone reads).
import { describe, expect, it } from "vitest";
import { fromBytes, toBytes } from "../../../src/terraform/parse-pool/clone.js";

describe("exact clone through bytes", () => {
  it("keeps null prototypes, shared references, undefined, -0 and holes", () => {
    const bare = Object.setPrototypeOf({ constructor: "c", toString: "t", __proto__x: 1 }, null) as Record<string, unknown>;
    const shared = { id: "s" };
    // eslint-disable-next-line no-sparse-arrays
    const value = { a: bare, list: [shared, shared, 1, , undefined], z: -0, nested: [Object.setPrototypeOf({ k: [bare] }, null)], u: undefined };
    const back = fromBytes<typeof value>(toBytes(value)!);
    expect(Object.getPrototypeOf(back.a)).toBeNull();
    expect(back.a["constructor"]).toBe("c");
    expect(Object.getPrototypeOf(back.nested[0])).toBeNull();
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back.list[0]).toBe(back.list[1]);
    expect(3 in back.list).toBe(false);
    expect(Object.is(back.z, -0)).toBe(true);
    expect("u" in back).toBe(true);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
  });

  it("refuses what it cannot give back as it was (the caller keeps it in memory)", () => {
    expect(toBytes({ m: new Map([[1, 2]]) })).toBeNull();
    expect(toBytes({ f: () => 1 })).toBeNull();
    expect(toBytes({ d: new (class Thing {})() })).toBeNull();
    expect(toBytes({ s: Symbol("x") })).toBeNull();
  });
});
