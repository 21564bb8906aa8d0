// The spill's record files and the merge of sorted runs (estate/spill/records.ts, kmerge.ts).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeSorted } from "../../../src/estate/spill/kmerge.js";
import { outOfRoom, RecordFile } from "../../../src/estate/spill/records.js";
import { UserInputError } from "../../../src/core/user-input-error.js";

let dir: string;
beforeEach(() => void (dir = mkdtempSync(path.join(os.tmpdir(), "records-test-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("record file", () => {
  it("reads back every record of a span, whatever the buffer size (records and UTF-8 characters cut across reads)", () => {
    const file = new RecordFile(path.join(dir, "r.rec"));
    // Text records as the report stores them: JSON spanning lines, with characters of every UTF-8 length.
    const values = [{ a: "zoné ☃ 𝄞", n: 1 }, "line\nbreak", null, [1, 2, { b: "x".repeat(100) }], { "": -0.5, nul: "\u0000" }];
    const texts = values.map((v) => JSON.stringify(v, null, 2));
    const spans = texts.map((t) => file.append(t));
    for (const size of [1, 3, 7, 64, 1 << 14, 1 << 20]) {
      expect([...file.texts({ start: 0, end: file.offset }, size)]).toEqual(texts);
    }
    for (const size of [5, 1 << 20]) expect([...file.texts({ start: spans[1]!.start, end: spans[3]!.end }, size)]).toEqual(texts.slice(1, 4));
    expect(file.text(spans[0]!)).toBe(texts[0]);
    expect(JSON.parse(file.text(spans[4]!))).toEqual({ "": -0.5, nul: "\u0000" });
    file.close();
  });

  it("reads what was appended after an earlier read (the write buffer is flushed first)", () => {
    const file = new RecordFile(path.join(dir, "r.rec"));
    const first = file.append("one");
    expect(file.text(first)).toBe("one");
    const second = file.append("two\nlines");
    expect([...file.texts({ start: first.start, end: second.end })]).toEqual(["one", "two\nlines"]);
    file.close();
  });

  it("turns a full disk or quota into the user's one-line error naming the temporary directory", () => {
    for (const code of ["ENOSPC", "EDQUOT"]) {
      const e = outOfRoom(Object.assign(new Error("write"), { code }), "/scratch/tmp/cf-waf-migrate-x1/findings.txt");
      expect(e).toBeInstanceOf(UserInputError);
      expect(e!.exitCode).toBe(2);
      expect(e!.message).toContain(`no room left in /scratch/tmp for the report's temporary files (${code}): set TMPDIR`);
    }
    expect(outOfRoom(Object.assign(new Error("write"), { code: "EIO" }), "/tmp/x/y")).toBeNull();
  });

  it("keeps the order of records bigger than its write buffer among small ones and opaque bytes", () => {
    const file = new RecordFile(path.join(dir, "r.rec"));
    const big = `"${"é☃".repeat(150_000)}"`;
    const bytes = Buffer.alloc(300_000, 7);
    const spans = [file.append("a"), file.append(big), file.appendBytes(Buffer.from([1, 2, 3])), file.append("b"), file.appendBytes(bytes), file.append(big)];
    expect(file.text(spans[1]!)).toBe(big);
    expect([...file.readBytes(spans[2]!)]).toEqual([1, 2, 3]);
    expect(file.text(spans[3]!)).toBe("b");
    expect(file.readBytes(spans[4]!).equals(bytes)).toBe(true);
    expect([...file.texts({ start: spans[5]!.start, end: spans[5]!.end }, 1 << 12)]).toEqual([big]);
    expect(file.offset).toBe(spans[5]!.end);
    file.close();
  });

  it("says so when a span does not end at a record's end", () => {
    const file = new RecordFile(path.join(dir, "r.rec"));
    const span = file.append("whole");
    expect(() => [...file.texts({ start: span.start, end: span.end - 1 })]).toThrow(/without their end mark/);
    file.close();
  });
});

describe("merge of sorted runs", () => {
  it("gives the stable sort of the runs' concatenation: ties keep run order", () => {
    const runs = [
      [
        { k: 1, id: "a1" },
        { k: 3, id: "a3" },
        { k: 3, id: "a3b" },
      ],
      [],
      [
        { k: 1, id: "c1" },
        { k: 2, id: "c2" },
        { k: 3, id: "c3" },
      ],
      [{ k: 0, id: "d0" }],
    ];
    const cmp = (a: { k: number }, b: { k: number }) => a.k - b.k;
    const merged = [...mergeSorted(runs, cmp)].map((x) => x.id);
    expect(merged).toEqual(runs.flat().sort(cmp).map((x) => x.id));
    expect([...mergeSorted([], cmp)]).toEqual([]);
  });

  it("matches a stable sort on random runs", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let t = 0; t < 50; t++) {
      const runs = Array.from({ length: 1 + Math.floor(rand() * 6) }, (_, r) =>
        Array.from({ length: Math.floor(rand() * 20) }, (_, i) => ({ k: Math.floor(rand() * 5), id: `${r}.${i}` })).sort((a, b) => a.k - b.k),
      );
      const cmp = (a: { k: number }, b: { k: number }) => a.k - b.k;
      expect([...mergeSorted(runs, cmp)].map((x) => x.id)).toEqual(runs.flat().sort(cmp).map((x) => x.id));
    }
  });
});
