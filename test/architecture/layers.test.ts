// The shape of src/ that the rest of the design leans on: no runtime import cycle anywhere (a cycle makes
// the load order decide which module sees the other half-initialised), and a core that does no I/O and
// imports no other layer, so every layer (CLI, library, online, sandbox) can share it; and nothing below the
// CLI reaches up into it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

const SRC = path.join(ROOT, "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

interface ImportEdge {
  specifier: string;
  /** Only types: erased at run time, so it cannot take part in a load-order cycle. */
  typeOnly: boolean;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, "utf8");
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const names = /^\{([^}]*)\}$/.exec(m[3]!.trim());
    const allTypes = names !== null && names[1]!.split(",").map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith("type "));
    edges.push({ specifier: m[4]!, typeOnly: m[2] !== undefined || allTypes });
  }
  // A dynamic import runs later, on demand: it is how a module reaches a layer lazily, never a load-order cycle.
  for (const m of text.matchAll(DYNAMIC)) edges.push({ specifier: m[1]!, typeOnly: true });
  return edges;
}

function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  return path.resolve(path.dirname(from), specifier).replace(/\.js$/, ".ts");
}

/** Strongly connected components of more than one file (Tarjan), as paths relative to the repository. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("src/ layering", () => {
  const files = sources(SRC);

  it("has no runtime import cycle", () => {
    const graph = new Map(
      files.map((f) => [f, importsOf(f).filter((e) => !e.typeOnly).flatMap((e) => resolveLocal(f, e.specifier) ?? [])]),
    );
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it("finds a cycle when there is one (the check itself works)", () => {
    const a = path.join(SRC, "a.ts");
    const b = path.join(SRC, "b.ts");
    const c = path.join(SRC, "c.ts");
    expect(cycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([["src/a.ts", "src/b.ts"]]);
  });

  it("keeps the CLI on top: nothing outside src/cli imports it (the library export shares the layers below)", () => {
    const cli = path.join(SRC, "cli") + path.sep;
    const offenders = files
      .filter((f) => !f.startsWith(cli))
      .flatMap((f) => importsOf(f).flatMap((e) => (resolveLocal(f, e.specifier)?.startsWith(cli) ? [`${path.relative(ROOT, f)} imports ${e.specifier}`] : [])));
    expect(offenders).toEqual([]);
  });

  it("keeps src/core pure: no I/O module and no other layer imported", () => {
    // node:path, node:url and node:module (a lazy require of a pure library) compute; they do not read or write.
    const PURE_NODE = new Set(["node:path", "node:url", "node:module"]);
    const offenders: string[] = [];
    for (const f of files.filter((f) => f.startsWith(path.join(SRC, "core") + path.sep))) {
      for (const e of importsOf(f)) {
        if (e.typeOnly) continue;
        const local = resolveLocal(f, e.specifier);
        const bad = local ? !local.startsWith(path.join(SRC, "core") + path.sep) : e.specifier.startsWith("node:") && !PURE_NODE.has(e.specifier);
        if (bad) offenders.push(`${path.relative(ROOT, f)} imports ${e.specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
