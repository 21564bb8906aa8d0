// `scan` offline keeps its report's big lists in a private temporary directory until it writes them
// (estate/spill): every format and the summary file are byte for byte what the in-memory report gives (the
// path taken when no temporary directory can be made), and the directory is gone after success, after an
// error, and after SIGTERM.
import { execa } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";

const ESTATE = path.join(TESTDATA, "estate");
const work = mkdtempSync(path.join(os.tmpdir(), "scan-spill-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const states = ESTATE_STATES.flatMap((s) => ["--state", s]);
const FORMATS = ["json", "text", "markdown", "sarif", "junit", "compact"];

/** One scan writing every format to files, with TMPDIR as given; returns the files' text and stderr. */
async function scanAll(label: string, tmpdir: string) {
  const out = path.join(work, label);
  const r = await runCli(["scan", ".", ...states, ...FORMATS.flatMap((f) => ["--format", `${f}=${path.join(out, f)}`]), "--summary-file", path.join(out, "summary.json"), "--quiet"], {
    cwd: ESTATE,
    env: { TMPDIR: tmpdir },
  });
  const files = Object.fromEntries([...FORMATS, "summary.json"].map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
  // The summary records when the run started and ended.
  files["summary.json"] = files["summary.json"]!.replace(/"(Started|Ended)": [^,\n]+/g, '"$1": "-"');
  return { exitCode: r.exitCode, stderr: r.stderr, files };
}

describe("scan's spilled report", () => {
  it("gives every format and the summary file the in-memory report gives, and leaves no temporary directory", async () => {
    const tmp = mkdtempSync(path.join(work, "tmp-"));
    const spilled = await scanAll("spilled", tmp);
    const inMemory = await scanAll("in-memory", path.join(work, "no-such-dir"));
    expect(readdirSync(tmp)).toEqual([]);
    expect(spilled.exitCode).toBe(inMemory.exitCode);
    expect(spilled.stderr).toBe(inMemory.stderr);
    expect(spilled.files["json"]).toContain('"ZONE_SPLIT_ACROSS_ROOTS"');
    for (const f of Object.keys(inMemory.files)) expect(spilled.files[f], f).toBe(inMemory.files[f]);
  });

  it("removes its temporary directory when the run fails after the scan started", async () => {
    const tmp = mkdtempSync(path.join(work, "tmp-"));
    const r = await runCli(["scan", ".", ...states, "--ruleset-root", "0f1e2d3c4b5a69788796a5b4c3d2e1f0=live/nope", "--format", "json", "--quiet"], { cwd: ESTATE, env: { TMPDIR: tmp } });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("live/nope");
    expect(readdirSync(tmp)).toEqual([]);
    const out = await runCli(["scan", ".", ...states, "--format", "json", "--output", work, "--quiet"], { cwd: ESTATE, env: { TMPDIR: tmp } });
    // --output names a directory: the report cannot be written.
    expect(out.exitCode).not.toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("removes its temporary directory on SIGTERM, then dies of the signal", async () => {
    const tmp = mkdtempSync(path.join(work, "tmp-"));
    const script = `import { createSpillDir } from ${JSON.stringify(path.join(ROOT, "dist/estate/spill/temp-dir.js"))}; const d = createSpillDir(); console.log(d.path); setInterval(() => {}, 1000);`;
    const child = execa("node", ["--input-type=module", "-e", script], { env: { TMPDIR: tmp }, reject: false });
    const dir = await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
    expect(path.dirname(dir)).toBe(tmp);
    expect(readdirSync(tmp)).toHaveLength(1);
    child.kill("SIGTERM");
    const r = await child;
    expect(r.signal).toBe("SIGTERM");
    expect(readdirSync(tmp)).toEqual([]);
  });
});
