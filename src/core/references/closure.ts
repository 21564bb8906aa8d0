// The removal closure: which blocks go with the legacy ones, and which references would dangle.
//
// The graph is per module *directory* (one set of blocks, however many times the module is called). Each
// item is a block (resource, data source, output, module call) or a single `locals` attribute, with the
// references its expressions make. Starting from the legacy blocks, an output or a local is removed too
// when its only job is to expose or feed removed things: at least one of its references is removed (for an
// output, one in its `value`) and none names something that stays. References to variables and built-ins are neutral (the value only
// passes through them). A module output removed in a module's directory makes `module.<call>.<output>`
// in every caller a removed reference too, so the closure climbs from modules to the roots that call them.
//
// Every other reference to a removed item (an argument of a kept resource, a kept resource's `depends_on`,
// a module call argument, a mixed local or output) would dangle after step 6: it is returned as a
// dangling reference, for a LEGACY_REFERENCE finding. Pure: no I/O.
import { referenceKey, type Reference } from "./traversals.js";

/** `other`: a block that only refers (provider, check, import, moved): never removed, only judged. */
export type ItemKind = "resource" | "data" | "output" | "local" | "module" | "other";

export interface ReferenceUse {
  ref: Reference;
  /** Display path and 1-based line of the referring expression. */
  file: string;
  line: number;
  /** Where in the item the reference sits: `value`, `depends_on`, `zone_id`, `count`, … */
  argument: string;
}

export interface GraphItem {
  kind: ItemKind;
  /**
   * Address inside the module: `cloudflare_waf_package.p`, `data.t.n`, `output.o`, `local.x`, `module.m`;
   * for `other` items a description that cannot clash with those (`provider "cloudflare"`, `moved #1`).
   */
  key: string;
  file: string;
  line: number;
  /** A legacy block: removed whatever refers to it. */
  legacy: boolean;
  uses: ReferenceUse[];
  /**
   * An `import {}` whose `to` is a resource inside a module (`module.waf.cloudflare_waf_package.p`): the
   * module call names down to it, the resource's key there, and the line of `to`. A reference to a module
   * output has no such form, so it is judged here rather than as a use.
   */
  importsInto?: { modules: string[]; key: string; written: string; line: number };
}

export interface ModuleGraph {
  /** The module directory (display path). */
  id: string;
  /** Module path of one instance of this directory (`""` for a root, `module.waf`): for messages. */
  modulePath: string;
  items: GraphItem[];
  /** Module call name → the called directory's id, or null when it is not read (remote, missing). */
  calls: Record<string, string | null>;
}

export interface RemovedItem {
  module: string;
  item: GraphItem;
  /** Why it goes: `legacy`, or the removed references it only exposes. */
  because: string[];
}

export interface DanglingReference {
  module: string;
  modulePath: string;
  /** The kept item that refers. */
  item: GraphItem;
  use: ReferenceUse;
  /** The referenced removed item, as written (`cloudflare_waf_package.p`, `module.waf.package_id`). */
  referenced: string;
}

export interface RemovalClosure {
  removed: RemovedItem[];
  dangling: DanglingReference[];
}

type Status = "removed" | "kept" | "neutral";

export function removalClosure(graphs: readonly ModuleGraph[]): RemovalClosure {
  const byId = new Map(graphs.map((g) => [g.id, g]));
  const itemsOf = new Map(graphs.map((g) => [g.id, new Map(g.items.map((i) => [i.key, i]))]));
  const removed = new Map<string, RemovedItem>();
  const id = (module: string, key: string): string => `${module}\u0000${key}`;
  for (const g of graphs) for (const item of g.items) if (item.legacy) removed.set(id(g.id, item.key), { module: g.id, item, because: ["legacy"] });

  /** What a reference made in module `m` names, and whether that goes. */
  const status = (m: string, ref: Reference): Status => {
    let module = m;
    let key: string;
    switch (ref.kind) {
      case "var":
        return "neutral";
      case "resource":
      case "data":
      case "local":
        key = referenceKey(ref);
        break;
      case "module": {
        const child = byId.get(m)?.calls[ref.name];
        // A whole-module reference, or a module that is not read: the module stays, so does the reference.
        if (ref.output === null || child === undefined || child === null) return "kept";
        module = child;
        key = `output.${ref.output}`;
        break;
      }
    }
    // Something not declared (a dynamic block's iterator, a typo): not ours to judge; it stays.
    if (!itemsOf.get(module)?.has(key)) return "kept";
    return removed.has(id(module, key)) ? "removed" : "kept";
  };

  for (let changed = true; changed; ) {
    changed = false;
    for (const g of graphs) {
      for (const item of g.items) {
        if ((item.kind !== "output" && item.kind !== "local") || removed.has(id(g.id, item.key))) continue;
        const statuses = item.uses.map((u) => status(g.id, u.ref));
        // An output goes only when its value exposes something removed: one whose value comes from
        // elsewhere (a literal, a variable) and only orders or checks itself on a legacy block through
        // `depends_on` or a `precondition` is read by other stacks; deleting it would lose that value.
        const exposes = item.kind !== "output" || item.uses.some((u, k) => u.argument === "value" && statuses[k] === "removed");
        if (exposes && statuses.includes("removed") && !statuses.includes("kept")) {
          const because = item.uses.filter((_, k) => statuses[k] === "removed").map((u) => referenceKey(u.ref));
          removed.set(id(g.id, item.key), { module: g.id, item, because: [...new Set(because)] });
          changed = true;
        }
      }
    }
  }

  const dangling: DanglingReference[] = [];
  for (const g of graphs) {
    for (const item of g.items) {
      if (removed.has(id(g.id, item.key))) continue;
      for (const use of item.uses) {
        if (status(g.id, use.ref) === "removed") dangling.push({ module: g.id, modulePath: g.modulePath, item, use, referenced: referenceKey(use.ref) });
      }
    }
  }
  // An import into a module's resource that goes: after step 6 its target no longer exists.
  for (const g of graphs) {
    for (const item of g.items) {
      const into = item.importsInto;
      if (!into) continue;
      let module: string | null | undefined = g.id;
      for (const name of into.modules) module = module === null || module === undefined ? module : byId.get(module)?.calls[name];
      if (typeof module !== "string" || !removed.has(id(module, into.key))) continue;
      const dot = into.key.indexOf(".");
      const ref: Reference = { kind: "resource", type: into.key.slice(0, dot), name: into.key.slice(dot + 1) };
      dangling.push({ module: g.id, modulePath: g.modulePath, item, use: { ref, file: item.file, line: into.line, argument: "to" }, referenced: into.written });
    }
  }
  return { removed: [...removed.values()], dangling };
}

/**
 * References to blocks a read module does not declare: what `terraform validate` reports as "Reference to
 * undeclared resource" (or local value, or output). The check the removal closure is tested against.
 * Modules that are not read (remote) and references to variables are not judged.
 */
export function undeclaredReferences(graphs: readonly ModuleGraph[]): { module: string; item: GraphItem; use: ReferenceUse; referenced: string }[] {
  const byId = new Map(graphs.map((g) => [g.id, g]));
  const keys = new Map(graphs.map((g) => [g.id, new Set(g.items.map((i) => i.key))]));
  const out: { module: string; item: GraphItem; use: ReferenceUse; referenced: string }[] = [];
  for (const g of graphs) {
    for (const item of g.items) {
      for (const use of item.uses) {
        const r = use.ref;
        let declared = true;
        if (r.kind === "resource" || r.kind === "data" || r.kind === "local") declared = keys.get(g.id)!.has(referenceKey(r));
        else if (r.kind === "module") {
          if (!(r.name in g.calls)) declared = false;
          else {
            const child = g.calls[r.name];
            if (r.output !== null && child && byId.has(child)) declared = keys.get(child)!.has(`output.${r.output}`);
          }
        }
        if (!declared) out.push({ module: g.id, item, use, referenced: referenceKey(r) });
      }
    }
  }
  return out;
}
