// The scan progress bar (src/cli/progress.ts): terminal only, not in CI, not with --quiet, and not before
// a scan has taken a second.
import { describe, expect, it } from "vitest";
import { ProgressBar } from "../../src/cli/progress.js";

function fakeStream(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns, write: (s: string) => (writes.push(s), true) } };
}

describe("ProgressBar", () => {
  const p = (filesDone: number, filesTotal = 10) => ({ filesDone, filesTotal, bytesDone: filesDone * 1_000_000 });

  it("draws on a terminal once a second has passed, at most every 100 ms, and clears its line at the end", () => {
    let t = 0;
    const { writes, stream } = fakeStream(true);
    const bar = new ProgressBar({ stream, env: {}, now: () => t });
    bar.update(p(1));
    t = 900;
    bar.update(p(2));
    expect(writes).toEqual([]);
    t = 1001;
    bar.update(p(3));
    t = 1050;
    bar.update(p(4)); // too soon
    t = 1200;
    bar.update(p(5));
    expect(writes).toHaveLength(2);
    expect(writes[0]).toMatch(/^\rscanning \[#+-+\]  30% 3\/10 files 3\.0 MB 1s\x1b\[K$/);
    t = 1210;
    bar.update(p(10)); // the last file is always drawn
    bar.done();
    expect(writes.at(-2)).toMatch(/100% 10\/10 files/);
    expect(writes.at(-1)).toBe("\r\x1b[K");
  });

  it.each([
    ["not a terminal", false, {}, false],
    ["CI", true, { CI: "true" }, false],
    ["--quiet", true, {}, true],
  ])("stays silent: %s", (_name, isTTY, env, quiet) => {
    let t = 0;
    const { writes, stream } = fakeStream(isTTY);
    const bar = new ProgressBar({ stream, env, quiet, now: () => t });
    t = 5000;
    bar.update(p(5));
    bar.done();
    expect(bar.enabled).toBe(false);
    expect(writes).toEqual([]);
  });

  it("CI=false or CI=0 is not CI; a short scan never draws and so never clears", () => {
    for (const CI of ["false", "0", ""]) expect(new ProgressBar({ stream: fakeStream(true).stream, env: { CI } }).enabled).toBe(true);
    const { writes, stream } = fakeStream(true);
    const bar = new ProgressBar({ stream, env: {}, now: () => 10 });
    bar.update(p(10));
    bar.done();
    expect(writes).toEqual([]);
  });

  it("fits a narrow terminal", () => {
    const bar = new ProgressBar({ stream: fakeStream(true, 40).stream, env: {}, now: () => 0 });
    expect(bar.line({ filesDone: 1234, filesTotal: 10000, bytesDone: 123e6 }, 65_000).length).toBeLessThanOrEqual(39);
  });
});
