// indentedJson must give exactly what re-indenting JSON.stringify's text gives, at every depth the
// streaming renderers use: the reports are compared byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indentedJson } from "../../src/render/indented-json.js";

const reindented = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${"  ".repeat(depth)}`);

describe("indentedJson", () => {
  it.each([1, 2, 3, 4])("depth %i: the same text as JSON.stringify re-indented, for any JSON value", (depth) => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
          expect(indentedJson(value, depth)).toBe(reindented(value, depth));
        }), { numRuns: 300 });
  });

  it("keeps empty containers and strings holding brackets and newlines as they are", () => {
    const value = { a: [], b: {}, c: "[\n  ]", d: [[], [{}]] };
    expect(indentedJson(value, 2)).toBe(reindented(value, 2));
  });
});
