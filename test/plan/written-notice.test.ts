// The one line a plan prints about the files it wrote or found in its way: every name while they are few,
// a count past that (an estate of 200 roots wrote 1,401 files, named in one 64 KB line).
import { describe, expect, it } from "vitest";
import { estateWritten, someFiles } from "../../src/plan/written-notice.js";

const files = (roots: number) => [
  ...Array.from({ length: roots }, (_, i) => ["PLAN.md", "ruleset.tf", "migrate.sh"].map((f) => `out/stacks/s${i}/${f}`)).flat(),
  "out/ESTATE.md",
];

describe("someFiles", () => {
  it("names up to ten files, then the first ten and how many more", () => {
    expect(someFiles(["a", "b"])).toBe("a, b");
    const twelve = Array.from({ length: 12 }, (_, i) => `f${i}`);
    expect(someFiles(twelve.slice(0, 10))).toBe(twelve.slice(0, 10).join(", "));
    expect(someFiles(twelve)).toBe(`${twelve.slice(0, 10).join(", ")} and 2 more`);
  });
});

describe("estateWritten", () => {
  it("lists every file of a small estate's plan, ESTATE.md last as written", () => {
    expect(estateWritten("out", "ESTATE.md", files(3))).toBe(`wrote ${files(3).join(", ")}`);
  });

  it("names ESTATE.md and counts the rest for a big one: files, directories, where", () => {
    const line = estateWritten("out", "ESTATE.md", files(200));
    expect(line).toBe("wrote out/ESTATE.md and 600 files in 200 directories under out, one per root and workspace (ESTATE.md lists them in the order to run them)");
  });
});
