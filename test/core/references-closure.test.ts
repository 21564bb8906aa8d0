import { describe, expect, it } from "vitest";
import { removalClosure, undeclaredReferences, type GraphItem, type ModuleGraph } from "../../src/core/references/closure.js";
import { referencesInExpression } from "../../src/core/references/traversals.js";

/** An item whose uses are the references of one expression per argument. */
function item(kind: GraphItem["kind"], key: string, args: Record<string, string> = {}, legacy = false): GraphItem {
  const uses = Object.entries(args).flatMap(([argument, expr]) => referencesInExpression(expr).map((ref) => ({ ref, file: "main.tf", line: 1, argument })));
  return { kind, key, file: "main.tf", line: 1, legacy, uses };
}

const removedKeys = (graphs: ModuleGraph[]) => removalClosure(graphs).removed.map((r) => `${r.module}:${r.item.key}`).sort();
const dangling = (graphs: ModuleGraph[]) => removalClosure(graphs).dangling.map((d) => `${d.module}:${d.item.key}.${d.use.argument} -> ${d.referenced}`).sort();

describe("removalClosure", () => {
  const module: ModuleGraph = {
    id: "modules/waf",
    modulePath: "module.waf",
    calls: {},
    items: [
      item("resource", "cloudflare_waf_package.p", { count: "var.enabled ? 1 : 0" }, true),
      item("data", "data.cloudflare_waf_packages.a", {}, true),
      item("local", "local.ids", { ids: "[for p in data.cloudflare_waf_packages.a.packages : p.id]" }),
      item("local", "local.mode", { mode: "var.mode" }),
      item("output", "output.package", { value: "try(cloudflare_waf_package.p[0], null)" }),
      item("output", "output.ids", { value: "var.enabled ? local.ids : []" }),
      item("output", "output.mode", { value: "local.mode" }),
    ],
  };
  const root: ModuleGraph = {
    id: ".",
    modulePath: "",
    calls: { waf: "modules/waf", remote: null },
    items: [
      item("module", "module.waf", { zone_id: "var.zone" }),
      item("output", "output.package", { value: "module.waf.package" }),
      item("output", "output.both", { value: '"${module.waf.package.id}-${module.waf.mode}"' }),
      item("output", "output.whole", { value: "module.waf" }),
      item("output", "output.remote", { value: "module.remote.package" }),
      item("resource", "cloudflare_filter.f", { depends_on: "module.waf.ids", description: "module.waf.mode" }),
    ],
  };

  it("removes what only exposes legacy blocks, through locals and across module outputs; variables are neutral", () => {
    expect(removedKeys([module, root])).toEqual([
      ".:output.package",
      "modules/waf:cloudflare_waf_package.p",
      "modules/waf:data.cloudflare_waf_packages.a",
      "modules/waf:local.ids",
      "modules/waf:output.ids",
      "modules/waf:output.package",
    ]);
  });

  it("reports every other reference to a removed item: mixed values and kept resources", () => {
    expect(dangling([module, root])).toEqual([".:cloudflare_filter.f.depends_on -> module.waf.ids", ".:output.both.value -> module.waf.package"]);
  });

  it("keeps whole-module references and modules that are not read", () => {
    const kept = removalClosure([module, root]).removed.map((r) => r.item.key);
    expect(kept).not.toContain("output.whole");
    expect(kept).not.toContain("output.remote");
  });

  it("keeps an output whose value is not legacy even when its depends_on or precondition names a legacy block", () => {
    const g: ModuleGraph = {
      id: ".",
      modulePath: "",
      calls: {},
      items: [
        item("resource", "cloudflare_waf_package.p", {}, true),
        item("output", "output.zone", { value: '"3f1b"', depends_on: "cloudflare_waf_package.p" }),
        item("output", "output.team", { value: "var.team", precondition: 'cloudflare_waf_package.p.sensitivity != "off"' }),
        item("output", "output.id", { value: "cloudflare_waf_package.p.id", depends_on: "cloudflare_waf_package.p" }),
      ],
    };
    expect(removedKeys([g])).toEqual([".:cloudflare_waf_package.p", ".:output.id"]);
    expect(dangling([g])).toEqual([".:output.team.precondition -> cloudflare_waf_package.p", ".:output.zone.depends_on -> cloudflare_waf_package.p"]);
  });

  it("without legacy blocks, removes nothing", () => {
    const plain: ModuleGraph = { id: ".", modulePath: "", calls: {}, items: [item("local", "local.a", { a: "local.b" }), item("local", "local.b", { b: "1" })] };
    expect(removalClosure([plain])).toEqual({ removed: [], dangling: [] });
  });
});

describe("undeclaredReferences", () => {
  it("names references to blocks, locals and module outputs that are not declared", () => {
    const child: ModuleGraph = { id: "m", modulePath: "module.m", calls: {}, items: [item("output", "output.kept", { value: "var.x" })] };
    const root: ModuleGraph = {
      id: ".",
      modulePath: "",
      calls: { m: "m", remote: null },
      items: [
        item("output", "output.a", { value: "cloudflare_waf_package.gone.id" }),
        item("output", "output.b", { value: "module.m.gone" }),
        item("output", "output.c", { value: "module.m.kept" }),
        item("output", "output.d", { value: "module.remote.anything" }),
        item("output", "output.e", { value: "local.nothing" }),
        item("output", "output.f", { value: "module.nocall.x" }),
      ],
    };
    expect(undeclaredReferences([child, root]).map((u) => `${u.item.key} -> ${u.referenced}`)).toEqual([
      "output.a -> cloudflare_waf_package.gone",
      "output.b -> module.m.gone",
      "output.e -> local.nothing",
      "output.f -> module.nocall.x",
    ]);
  });
});
