// Property: on random trees of modules (count, for_each, nested calls), outputs, locals and kept resources
// referring to legacy blocks in every way, applying the step-6 edit leaves no legacy block, and the
// references left dangling are exactly the LEGACY_REFERENCE findings (none missed, none invented).
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { undeclaredReferences } from "../../src/core/references/closure.js";
import { buildRemoval } from "../../src/terraform/edit/legacy-removal.js";
import { readReferenceGraph } from "../../src/terraform/references/graph.js";
import { isLegacyBlock, legacyRemovalSet } from "../../src/terraform/references/removal-set.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { tempDir } from "../support/workdir.js";

/** mulberry32: a small deterministic generator, seeded by fast-check. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Dir {
  rel: string;
  /** Module calls: name, target dir index, meta. */
  calls: { name: string; target: number; meta: "" | "count" | "for_each" }[];
  /** Outputs this dir declares (known before callers are written). */
  outputs: string[];
  variables: string[];
}

const LEGACY = ["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"];

/** Writes a random tree under `root`; returns the root module directory. */
function writeTree(root: string, seed: number): string {
  const r = rng(seed);
  const pick = <T,>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const n = 1 + Math.floor(r() * 3); // directories: 0 is the root, the others modules/m1…
  const dirs: Dir[] = Array.from({ length: n }, (_, i) => ({ rel: i === 0 ? "root" : `modules/m${i}`, calls: [], outputs: [], variables: ["zone_id", "enabled", "extra"] }));
  // Calls go from lower to higher indexes (a DAG); every module is called by someone.
  for (let i = 1; i < n; i++) {
    const callers = [Math.floor(r() * i)];
    if (i > 1 && r() < 0.3) callers.push(Math.floor(r() * i));
    for (const c of new Set(callers)) dirs[c]!.calls.push({ name: `c${i}_${c}`, target: i, meta: pick(["", "", "count", "for_each"]) });
  }
  // Write from the leaves up, so callers know their modules' outputs.
  for (let i = n - 1; i >= 0; i--) {
    const d = dirs[i]!;
    const lines: string[] = [];
    const refs = { legacy: [] as string[], kept: [] as string[], locals: [] as string[], modules: [] as string[] };
    const k = 1 + Math.floor(r() * 3);
    for (let j = 0; j < k; j++) {
      const type = pick(LEGACY);
      const meta = pick(["", "count", "for_each"]);
      const name = `l${j}`;
      lines.push(`resource "${type}" "${name}" {`);
      if (meta === "count") lines.push("  count = var.enabled ? 1 : 0");
      if (meta === "for_each") lines.push('  for_each = toset(["a", "b"])');
      lines.push("  zone_id = var.zone_id", `  mode    = "off"`, "}", "");
      refs.legacy.push(meta === "count" ? `${type}.${name}[0]` : meta === "for_each" ? `${type}.${name}["a"]` : `${type}.${name}`);
    }
    if (r() < 0.6) {
      lines.push('data "cloudflare_waf_packages" "anomaly" {', "  zone_id = var.zone_id", "}", "");
      refs.legacy.push("data.cloudflare_waf_packages.anomaly");
    }
    lines.push('resource "cloudflare_filter" "kept0" {', "  zone_id    = var.zone_id", '  expression = "true"', "}", "");
    refs.kept.push("cloudflare_filter.kept0");
    for (const c of d.calls) {
      const idx = c.meta === "count" ? "[0]" : c.meta === "for_each" ? '["x"]' : "";
      for (const o of dirs[c.target]!.outputs) refs.modules.push(`module.${c.name}${idx}.${o}`);
    }
    const removedish = () => [...refs.legacy, ...refs.locals, ...refs.modules];
    const anyRef = (): string => {
      const x = r();
      if (x < 0.45 && removedish().length) return pick(removedish());
      if (x < 0.65) return pick(refs.kept);
      if (x < 0.8) return `var.${pick(d.variables)}`;
      return pick(removedish().length ? removedish() : refs.kept);
    };
    const shape = (ref: string): string =>
      pick([
        () => ref,
        () => `try(${ref}, null)`,
        () => `[for p in [${ref}] : p]`,
        () => `"\${${ref}}-x"`,
        () => `{ for kk, vv in { a = ${ref} } : kk => vv }`,
        () => `var.enabled ? ${ref} : null`,
        () => `<<-EOT\n    \${${ref}}\n    EOT\n`,
      ])();
    const value = (): string => {
      const parts = 1 + Math.floor(r() * 2);
      const xs = Array.from({ length: parts }, () => shape(anyRef()));
      return xs.length === 1 ? xs[0]! : `[\n    ${xs.join(",\n    ")},\n  ]`;
    };
    // Locals: each may refer to earlier ones.
    const nl = Math.floor(r() * 4);
    if (nl) {
      lines.push("locals {");
      for (let j = 0; j < nl; j++) {
        const v = value();
        lines.push(`  # local ${j}`, `  x${j} = ${v}`);
        refs.locals.push(`local.x${j}`);
      }
      lines.push("}", "");
    }
    // A kept resource with depends_on and an argument that may refer to anything.
    if (r() < 0.7) {
      // depends_on names whole resources or modules, without instance keys.
      const depAddr = pick([...refs.legacy, ...refs.kept, ...d.calls.map((c) => `module.${c.name}`)]).replace(/\[.*?\]/g, "");
      lines.push('resource "cloudflare_filter" "kept1" {', "  zone_id     = var.zone_id", `  description = ${value()}`, '  expression  = "true"', `  depends_on  = [${depAddr}]`, "}", "");
    }
    for (const c of d.calls) {
      lines.push(`module "${c.name}" {`, `  source = "${path.relative(path.join(root, d.rel), path.join(root, dirs[c.target]!.rel)).split(path.sep).join("/").replace(/^(?!\.)/, "./")}"`);
      if (c.meta === "count") lines.push("  count  = 1");
      if (c.meta === "for_each") lines.push('  for_each = toset(["x"])');
      lines.push("  zone_id = var.zone_id", "  enabled = true", `  extra   = ${value()}`, "}", "");
    }
    const no = 1 + Math.floor(r() * 3);
    for (let j = 0; j < no; j++) {
      lines.push(`output "o${j}" {`, `  value = ${value()}`, "}", "");
      d.outputs.push(`o${j}`);
    }
    for (const v of d.variables) lines.push(`variable "${v}" {`, "  default = null", "}", "");
    mkdirSync(path.join(root, d.rel), { recursive: true });
    writeFileSync(path.join(root, d.rel, "main.tf"), lines.join("\n"));
  }
  return path.join(root, "root");
}

const noStdin = async () => Buffer.alloc(0);

describe("removal closure on random trees", () => {
  it("after the edit no legacy block is left, and the dangling references are exactly the findings", async () => {
    const stats = { runs: 0, withFindings: 0, acrossModules: 0, locals: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const dir = writeTree(tempDir("cfwm-refs-prop-"), seed);
        const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin });
        expect(ws.errors).toEqual([]);
        const set = await legacyRemovalSet(ws);
        expect(set.errors).toEqual([]);
        const removal = await buildRemoval(ws.base, set.targets);
        expect(removal.refused).toEqual([]);
        for (const e of removal.edits) writeFileSync(e.absolute, e.newText);

        const after = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: noStdin });
        expect(after.errors).toEqual([]);
        const graph = await readReferenceGraph(after, isLegacyBlock, { allDirs: true });
        expect(graph.graphs.flatMap((g) => g.items.filter((i) => i.legacy).map((i) => i.key))).toEqual([]);
        const dangling = new Set(undeclaredReferences(graph.graphs).map((u) => `${u.use.file} ${u.item.key} -> ${u.referenced}`));
        const reported = new Set(set.findings.map((f) => `${f.file} ${String(f.details?.referrer)} -> ${String(f.details?.written)}`));
        expect([...dangling].sort()).toEqual([...reported].sort());
        // Nothing that only exposed removed things is left behind: a remaining output or local whose every
        // reference dangles (variables aside) should have gone with the legacy blocks.
        const undeclared = undeclaredReferences(graph.graphs);
        for (const g of graph.graphs) {
          for (const item of g.items.filter((i) => i.kind === "output" || i.kind === "local")) {
            const judged = item.uses.filter((u) => u.ref.kind !== "var");
            const gone = judged.filter((u) => undeclared.some((x) => x.use === u));
            if (judged.length) expect(gone.length < judged.length, `${g.id} ${item.key} only exposes removed things`).toBe(true);
          }
        }
        stats.runs++;
        if (set.findings.length) stats.withFindings++;
        if (set.exposing.some((e) => e.exposes.some((x) => x.startsWith("module.")))) stats.acrossModules++;
        if (set.exposing.some((e) => e.kind === "local")) stats.locals++;
      }),
      { numRuns: 30, seed: 1207 },
    );
    // The generator reaches every case the closure handles.
    expect(stats.withFindings).toBeGreaterThan(0);
    expect(stats.withFindings).toBeLessThan(stats.runs);
    expect(stats.acrossModules).toBeGreaterThan(0);
    expect(stats.locals).toBeGreaterThan(0);
  }, 240_000);
});
