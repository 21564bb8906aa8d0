// Reads the reference graph (core/references/closure.ts) of the module directories that can refer to a
// legacy block: the directories that hold one, and every directory that calls them, up to the roots.
// Other directories cannot name a legacy block (a reference never reaches into a module except through
// its outputs), so they are not read again.
//
// Each directory's files are read in full (the workspace reads only what the inventory needs); every
// resource, data source, module call, output and single local becomes an item with the
// references of its expressions, each placed on the line of the file where it is written.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { GraphItem, ItemKind, ModuleGraph, ReferenceUse } from "../../core/references/closure.js";
import { referenceKey, referencesInExpression, referencesInValue, type Reference } from "../../core/references/traversals.js";
import type { InputError } from "../../core/model.js";
import { displayPath, readText } from "../config/load.js";
import { isConfigFile } from "../config/discover.js";
import { LineIndex, parseConfigFileSelective, type BlockPosition, type ParsedFile } from "../hcl/parse.js";
import type { ModuleNode } from "../config/modules.js";
import type { Workspace } from "../inventory/workspace.js";

export interface GraphRead {
  graphs: ModuleGraph[];
  errors: InputError[];
}

/** Arguments that hold no reference to a block of the configuration. */
const NOT_REFERENCES: Record<string, Set<string>> = {
  resource: new Set(["provider"]),
  data: new Set(["provider"]),
  module: new Set(["source", "version", "providers"]),
  output: new Set(["description", "sensitive", "ephemeral"]),
  provider: new Set(["alias"]),
};

/**
 * `allDirs`: read every module directory of the tree, not only those that can refer to a legacy block
 * (to check a whole tree for undeclared references, as after the step-6 edit).
 */
export async function readReferenceGraph(ws: Workspace, isLegacy: (mode: "managed" | "data", type: string) => boolean, opts: { allDirs?: boolean } = {}): Promise<GraphRead> {
  const relevant = new Map<string, ModuleNode[]>();
  for (const node of ws.tree.nodes) {
    if (!opts.allDirs && !node.dir.resources.some((r) => isLegacy(r.mode, r.type))) continue;
    for (let n: ModuleNode | null = node; n; n = n.parent) relevant.set(n.dir.dir, [...(relevant.get(n.dir.dir) ?? []), n]);
  }
  const graphs: ModuleGraph[] = [];
  const errors: InputError[] = [];
  for (const [dir, nodes] of [...relevant].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const id = displayPath(dir, ws.base);
    const calls: Record<string, string | null> = {};
    for (const node of new Set(nodes)) {
      for (const call of node.dir.moduleCalls) calls[call.name] ??= null;
      for (const child of ws.tree.nodes) if (child.parent === node && child.call) calls[child.call.name] = displayPath(child.dir.dir, ws.base);
    }
    const items: GraphItem[] = [];
    for (const file of await configFiles(dir)) {
      const display = displayPath(file, ws.base);
      const fileErrors: InputError[] = [];
      const text = await readText(file, display, fileErrors);
      if (text === null) {
        errors.push(...fileErrors);
        continue;
      }
      // Every block, read by the fast reader where it can (same result as hcl2json, which judges the rest
      // and every syntax error), about 15 times faster than hcl2json on the whole file.
      const outcome = await parseConfigFileSelective(display, text, { select: () => true });
      if (!outcome.ok) {
        errors.push(outcome.error);
        continue;
      }
      items.push(...itemsOf(outcome.parsed, text, isLegacy));
    }
    const paths = nodes.map((n) => n.path).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    graphs.push({ id, modulePath: paths[0] ?? "", items, calls });
  }
  return { graphs, errors };
}

async function configFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter(isConfigFile).sort().map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/** Every item of one parsed file. */
export function itemsOf(parsed: ParsedFile, text: string, isLegacy: (mode: "managed" | "data", type: string) => boolean): GraphItem[] {
  const json = parsed.file.toLowerCase().endsWith(".json");
  const locate = new Locator(text, parsed.blocks, json);
  const items: GraphItem[] = [];
  const body = parsed.body;

  for (const [blockType, mode] of [["resource", "managed"], ["data", "data"]] as const) {
    for (const [type, byName] of entries(body[blockType])) {
      for (const [name, bodies] of entries(byName)) {
        list(bodies).forEach((b, i) => {
          const at = locate.block(blockType, [type, name], i);
          const key = mode === "data" ? `data.${type}.${name}` : `${type}.${name}`;
          items.push(item(mode === "data" ? "data" : "resource", key, parsed.file, at, isLegacy(mode, type), argumentUses(b, blockType, parsed.file, at, locate, json)));
        });
      }
    }
  }
  for (const [name, bodies] of entries(body.module)) {
    list(bodies).forEach((b, i) => {
      const at = locate.block("module", [name], i);
      items.push(item("module", `module.${name}`, parsed.file, at, false, argumentUses(b, "module", parsed.file, at, locate, json)));
    });
  }
  for (const [name, bodies] of entries(body.output)) {
    list(bodies).forEach((b, i) => {
      const at = locate.block("output", [name], i);
      items.push(item("output", `output.${name}`, parsed.file, at, false, argumentUses(b, "output", parsed.file, at, locate, json)));
    });
  }
  // Blocks that only refer. `removed {}` blocks are left out on purpose (they name addresses meant to be
  // gone from the configuration: removed.tf), and so are `moved {}` blocks (history that may outlive
  // both of its addresses).
  for (const [name, bodies] of entries(body.provider)) {
    list(bodies).forEach((b, i) => {
      const at = locate.block("provider", [name], i);
      items.push(item("other", `provider "${name}" (${parsed.file}:${at.line})`, parsed.file, at, false, argumentUses(b, "provider", parsed.file, at, locate, json)));
    });
  }
  for (const [name, bodies] of entries(body.check)) {
    list(bodies).forEach((b, i) => {
      const at = locate.block("check", [name], i);
      items.push(item("other", `check "${name}" (${parsed.file}:${at.line})`, parsed.file, at, false, argumentUses(b, "check", parsed.file, at, locate, json)));
    });
  }
  list(body.import).forEach((b, i) => {
    const at = locate.block("import", [], i);
    const it = item("other", `import (${parsed.file}:${at.line})`, parsed.file, at, false, argumentUses(b, "import", parsed.file, at, locate, json));
    const into = importIntoModule(entries(b).find(([k]) => k === "to")?.[1]);
    if (into) it.importsInto = { ...into, line: locate.attribute(at, "to").line };
    items.push(it);
  });
  list(body.locals).forEach((b, i) => {
    const at = locate.block("locals", [], i);
    for (const [name, value] of entries(b)) {
      const attr = locate.attribute(at, name);
      const uses = referencesInValue(value).map((ref) => use(ref, parsed.file, locate.lineOf(ref, attr), name));
      items.push(item("local", `local.${name}`, parsed.file, { ...attr, line: attr.line }, false, uses));
    }
  });
  return items;
}

/** `to = module.waf["a"].cloudflare_waf_package.p[0]` → the module calls (`waf`), `cloudflare_waf_package.p` and the address without keys. */
function importIntoModule(to: unknown): { modules: string[]; key: string; written: string } | null {
  if (typeof to !== "string") return null;
  const text = /^\$\{([\s\S]*)\}$/.exec(to.trim())?.[1]?.trim() ?? to.trim();
  const m = /^((?:module\.[\w-]+(?:\[[^\]]*\])?\.)+)([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)(?:\[[^\]]*\])?$/.exec(text);
  if (!m || m[2] === "data") return null;
  const modules = [...m[1]!.matchAll(/module\.([\w-]+)/g)].map((x) => x[1]!);
  const key = `${m[2]}.${m[3]}`;
  return { modules, key, written: `${modules.map((n) => `module.${n}`).join(".")}.${key}` };
}

function item(kind: ItemKind, key: string, file: string, at: Span, legacy: boolean, uses: ReferenceUse[]): GraphItem {
  return { kind, key, file, line: at.line, legacy, uses };
}

function use(ref: Reference, file: string, line: number, argument: string): ReferenceUse {
  return { ref, file, line, argument };
}

/** The references of a block's arguments and nested blocks, each with the argument it sits in. */
function argumentUses(b: unknown, blockType: string, file: string, at: Span, locate: Locator, json: boolean): ReferenceUse[] {
  const out: ReferenceUse[] = [];
  const skip = NOT_REFERENCES[blockType] ?? new Set<string>();
  for (const [arg, value] of entries(b)) {
    if (skip.has(arg)) continue;
    let refs: Reference[];
    if (arg === "lifecycle") {
      // `ignore_changes` names attributes of this resource; only `replace_triggered_by` and conditions refer.
      refs = list(value).flatMap((l) => entries(l).filter(([k]) => k !== "ignore_changes").flatMap(([, v]) => referencesInValue(v)));
    } else if (json && (arg === "depends_on" || (blockType === "import" && arg === "to"))) {
      // In JSON syntax, depends_on and an import's `to` are bare addresses, not templates.
      refs = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === "string" ? referencesInExpression(v) : []));
    } else if (arg === "dynamic") {
      refs = dynamicBlockReferences(value);
    } else {
      refs = referencesInValue(value);
    }
    for (const ref of refs) out.push(use(ref, file, locate.lineOf(ref, at), arg));
  }
  return out;
}

/**
 * `dynamic "rule" { for_each = …; iterator = r; content { … r.value … } }`: inside `content`, the iterator
 * (the block label unless `iterator` names another) is a local symbol, not a resource named `rule.value`.
 * Nested dynamic blocks are read the same way.
 */
function dynamicBlockReferences(value: unknown): Reference[] {
  const out: Reference[] = [];
  for (const [label, bodies] of entries(value)) {
    for (const body of list(bodies)) {
      const named = entries(body).find(([k]) => k === "iterator")?.[1];
      const iterator = typeof named === "string" ? named.replace(/^\$\{\s*|\s*\}$/g, "") : label;
      for (const [k, v] of entries(body)) {
        if (k === "iterator") continue;
        if (k === "content") {
          const inner = list(v).flatMap((c) => entries(c).flatMap(([ck, cv]) => (ck === "dynamic" ? dynamicBlockReferences(cv) : referencesInValue(cv))));
          out.push(...inner.filter((r) => !(r.kind === "resource" && r.type === iterator)));
        } else {
          out.push(...referencesInValue(v));
        }
      }
    }
  }
  return out;
}

interface Span {
  line: number;
  /** UTF-16 range of the text to search for a reference, or null when only the line is known (JSON). */
  start: number | null;
  end: number | null;
}

/** Lines of blocks, attributes and the references written in them. */
class Locator {
  private readonly lines: LineIndex;
  constructor(
    private readonly text: string,
    private readonly blocks: BlockPosition[],
    private readonly json: boolean,
  ) {
    this.lines = new LineIndex(text);
  }

  block(type: string, labels: string[], index: number): Span {
    const hits = this.blocks.filter((b) => b.type === type && b.labels.length === labels.length && b.labels.every((l, k) => l === labels[k]));
    const b = hits[index] ?? hits[0];
    if (!b) return { line: 1, start: null, end: null };
    if (!b.structural || this.json) return { line: b.line, start: null, end: null };
    return { line: b.line, start: b.structural.start, end: b.structural.end };
  }

  /** The attribute `name = …` inside a block span (a local). */
  attribute(block: Span, name: string): Span {
    if (block.start === null || block.end === null) return block;
    const re = new RegExp(`^[ \\t]*${escape(name)}[ \\t]*=(?!=)`, "mg");
    re.lastIndex = block.start;
    const m = re.exec(this.text);
    if (!m || m.index >= block.end) return block;
    return { line: this.lineAt(m.index), start: m.index, end: block.end };
  }

  /** The line of the first place the reference is written inside the span; the span's line if not found. */
  lineOf(ref: Reference, span: Span): number {
    if (span.start === null || span.end === null) return span.line;
    const written = ref.kind === "module" ? `module.${ref.name}` : referenceKey(ref);
    const re = new RegExp(`(?<![\\w.-])${escape(written).replace(/\\\./g, "[ \\t]*\\.[ \\t]*")}(?![\\w-])`, "g");
    re.lastIndex = span.start;
    const m = re.exec(this.text);
    return m && m.index < span.end ? this.lineAt(m.index) : span.line;
  }

  private lineAt(offset: number): number {
    return this.lines.lineOf(offset);
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function entries(v: unknown): [string, unknown][] {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? Object.entries(v as Record<string, unknown>) : [];
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v !== null && typeof v === "object" ? [v] : [];
}
