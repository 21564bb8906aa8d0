// The default, selective reading of a tree must give the same report as reading every file with hcl2json
// (`fullParse`): on every fixture tree, and on small trees from the bench generator.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyze } from "../../src/core/analyze.js";
import { buildReport } from "../../src/core/report.js";
import { loadWorkspace, type Workspace } from "../../src/terraform/inventory/workspace.js";
// @ts-expect-error the bench generator is plain JavaScript
import { cloudflareTreeFiles, monorepoFiles } from "../../scripts/bench/generate.mjs";
import { TESTDATA } from "../support/cli.js";

const noStdin = async () => Buffer.alloc(0);

/** Every state file of a tree (`*.tfstate`, and `show.json` from `terraform show -json`). */
function statesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name.endsWith(".tfstate") || name === "show.json") out.push(path.relative(dir, abs));
    }
  };
  walk(dir);
  return out;
}

function report(ws: Workspace) {
  const analysis = analyze(ws.domain, { stateKnown: ws.stateKnown, unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path) });
  return buildReport({ version: "test", root: ".", resources: ws.resources, analysis, extraFindings: ws.findings, errors: ws.errors });
}

async function both(dir: string, statePaths: string[] = []) {
  const opts = { paths: ["."], statePaths, cwd: dir, readStdin: noStdin };
  const fast = await loadWorkspace(opts);
  const full = await loadWorkspace({ ...opts, fullParse: true });
  return { fast, full };
}

function expectSame(fast: Workspace, full: Workspace) {
  expect(report(fast)).toEqual(report(full));
  // Beyond the report: what the readers saw.
  expect(fast.resources).toEqual(full.resources);
  expect(fast.domain).toEqual(full.domain);
  expect(fast.errors).toEqual(full.errors);
  expect(fast.remoteModules).toEqual(full.remoteModules);
  expect(fast.tree.nodes.map((n) => [n.path, n.dir.dir])).toEqual(full.tree.nodes.map((n) => [n.path, n.dir.dir]));
  // Every resource of a directory that matters is listed either way (bodies of types the tool does not read
  // are skipped). A directory read only for its module calls keeps nothing of a file that declares none.
  const matters = (n: Workspace["tree"]["nodes"][number]) => n.dir.readAs !== "modules";
  const list = (ws: Workspace, only: Set<string>) => ws.tree.nodes.filter((n) => only.has(n.dir.dir)).flatMap((n) => n.dir.resources.map((r) => [n.path, r.mode, r.type, r.name, r.file, r.line]));
  const mattering = new Set(fast.tree.nodes.filter(matters).map((n) => n.dir.dir));
  expect(list(fast, mattering)).toEqual(list(full, mattering));
  for (const n of fast.tree.nodes) for (const r of n.dir.resources) if (r.skipped) expect(r.body).toEqual({});
  for (const n of fast.tree.nodes.filter((m) => !matters(m))) expect(n.dir.resources.every((r) => r.skipped)).toBe(true);
}

const fixtures = readdirSync(TESTDATA).filter((d) => statSync(path.join(TESTDATA, d)).isDirectory());

describe("selective reading gives the full parse's report", () => {
  it.each(fixtures)("testdata/%s, without state", async (name) => {
    const { fast, full } = await both(path.join(TESTDATA, name));
    expectSame(fast, full);
  });

  it.each(fixtures.filter((f) => statesIn(path.join(TESTDATA, f)).length > 0))("testdata/%s, with its states", async (name) => {
    const dir = path.join(TESTDATA, name);
    const { fast, full } = await both(dir, statesIn(dir));
    expectSame(fast, full);
  });

  it("a syntax error in a Cloudflare file is the same error, with file, line and column", async () => {
    const { fast } = await both(path.join(TESTDATA, "broken"));
    const e = fast.errors.find((x) => x.file === "broken.tf");
    expect(e).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
  });

  it("CRLF line endings and a byte order mark", async () => {
    const files = new Map<string, string>();
    const walk = (d: string, rel: string) => {
      for (const name of readdirSync(d)) {
        const abs = path.join(d, name);
        if (statSync(abs).isDirectory()) walk(abs, path.join(rel, name));
        else if (name.endsWith(".tf") || name.endsWith(".tfstate")) files.set(path.join(rel, name), readFileSync(abs, "utf8"));
      }
    };
    walk(path.join(TESTDATA, "multi-zone"), "");
    const crlf = new Map([...files].map(([k, v]) => [k, k.endsWith(".tf") ? v.replace(/\n/g, "\r\n") : v]));
    crlf.set("main.tf", "\uFEFF" + crlf.get("main.tf")!);
    const dir = writeTree("crlf", crlf);
    const { fast, full } = await both(dir, ["terraform.tfstate"]);
    expect(fast.errors).toEqual([]);
    expectSame(fast, full);
  });

  it("a small generated Cloudflare tree (bench generator)", async () => {
    const dir = writeTree("cf", cloudflareTreeFiles({ seed: 3, files: 24, bytes: 600_000 }) as Map<string, string>);
    const { fast, full } = await both(dir);
    expect(fast.resources.length).toBeGreaterThan(100);
    expectSame(fast, full);
  });

  it("a small generated monorepo (bench generator): most directories give only their module calls", async () => {
    const dir = writeTree("mono", monorepoFiles({ seed: 3, files: 120, bytes: 1_200_000, cfShare: 0.05 }) as Map<string, string>);
    const { fast, full } = await both(dir);
    expect(fast.resources.length).toBeGreaterThan(10);
    expectSame(fast, full);
    const modes = fast.tree.nodes.map((n) => n.dir.readAs);
    expect(modes.filter((m) => m === "modules").length).toBeGreaterThan(modes.length / 2);
  });
});

function writeTree(prefix: string, files: Map<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cfwm-${prefix}-`));
  for (const [rel, text] of files) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return dir;
}
