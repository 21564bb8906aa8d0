import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceKey, referencesInExpression, referencesInTemplate, referencesInValue } from "../../src/core/references/traversals.js";

const keys = (refs: ReturnType<typeof referencesInExpression>): string[] => refs.map(referenceKey).sort();

describe("referencesInExpression", () => {
  it("reads the five kinds of root", () => {
    expect(keys(referencesInExpression("cloudflare_waf_package.owasp.id"))).toEqual(["cloudflare_waf_package.owasp"]);
    expect(keys(referencesInExpression("data.cloudflare_waf_packages.anomaly.packages[0].id"))).toEqual(["data.cloudflare_waf_packages.anomaly"]);
    expect(keys(referencesInExpression("local.ids"))).toEqual(["local.ids"]);
    expect(keys(referencesInExpression("var.zone_id"))).toEqual(["var.zone_id"]);
    expect(keys(referencesInExpression("module.waf.package_id"))).toEqual(["module.waf.package_id"]);
    expect(keys(referencesInExpression("module.waf"))).toEqual(["module.waf"]);
  });

  it("skips instance keys, splats and legacy numeric indexes", () => {
    expect(keys(referencesInExpression('module.waf["shop"].package_id'))).toEqual(["module.waf.package_id"]);
    expect(keys(referencesInExpression("module.waf[*].package_id"))).toEqual(["module.waf.package_id"]);
    expect(keys(referencesInExpression("cloudflare_waf_group.g[*].id"))).toEqual(["cloudflare_waf_group.g"]);
    expect(keys(referencesInExpression("cloudflare_waf_group.g.*.id"))).toEqual(["cloudflare_waf_group.g"]);
    expect(keys(referencesInExpression("cloudflare_waf_group.g.0.id"))).toEqual(["cloudflare_waf_group.g"]);
  });

  it("scans index expressions for references of their own", () => {
    expect(keys(referencesInExpression("local.staging_only[var.environment]"))).toEqual(["local.staging_only", "var.environment"]);
    expect(keys(referencesInExpression('cloudflare_waf_group.g[local.keys["a"]].id'))).toEqual(["cloudflare_waf_group.g", "local.keys"]);
  });

  it("does not take for-expression variables, function names or built-ins for references", () => {
    expect(keys(referencesInExpression("[for p in data.cloudflare_waf_packages.anomaly.packages : p.id]"))).toEqual(["data.cloudflare_waf_packages.anomaly"]);
    expect(keys(referencesInExpression("{ for k, v in var.groups : k => v.id if v.enabled && local.on }"))).toEqual(["local.on", "var.groups"]);
    expect(keys(referencesInExpression("try(cloudflare_waf_package.package[0], null)"))).toEqual(["cloudflare_waf_package.package"]);
    expect(keys(referencesInExpression("provider::terraform::encode_tfvars(local.x)"))).toEqual(["local.x"]);
    expect(keys(referencesInExpression("count.index + length(each.value) + length(path.module) + length(terraform.workspace)"))).toEqual([]);
    // The collection of a for is evaluated outside it: a variable named like the iteration one still counts.
    expect(keys(referencesInExpression("[for local in local.list : local]"))).toEqual(["local.list"]);
  });

  it("keeps nested for-expressions' scopes apart", () => {
    const e = "flatten([for z in var.zones : [for g in cloudflare_waf_group.g : { zone = z, group = g.id, other = x.y }]])";
    expect(keys(referencesInExpression(e))).toEqual(["cloudflare_waf_group.g", "var.zones", "x.y"]);
  });

  it("tells object keys from values, also in conditionals spread over lines", () => {
    const e = `{
      package = cloudflare_waf_package.p.id
      "quoted" = local.q
      mode: var.mode
      other = var.on
        ? data.cloudflare_waf_groups.g.groups
        : local.none
    }`;
    expect(keys(referencesInExpression(e))).toEqual(["cloudflare_waf_package.p", "data.cloudflare_waf_groups.g", "local.none", "local.q", "var.mode", "var.on"]);
  });

  it("reads interpolations inside strings and heredocs, and nothing else of them", () => {
    expect(keys(referencesInExpression('"${cloudflare_waf_package.p.id}-local.not_a_ref-${var.suffix}"'))).toEqual(["cloudflare_waf_package.p", "var.suffix"]);
    expect(keys(referencesInExpression('"escaped $${local.literal} and \\" quote ${local.real}"'))).toEqual(["local.real"]);
    expect(keys(referencesInExpression("jsonencode(<<EOT\nid: ${cloudflare_waf_rule.r.id}\nEOT\n  )"))).toEqual(["cloudflare_waf_rule.r"]);
    expect(keys(referencesInExpression("<<-EOT\n    ${local.a}\n    EOT\n"))).toEqual(["local.a"]);
  });

  it("skips comments", () => {
    expect(keys(referencesInExpression("[\n  local.a, # local.b\n  /* local.c */ local.d, // var.e\n]"))).toEqual(["local.a", "local.d"]);
  });

  it("reads depends_on entries and meta-arguments as plain traversals", () => {
    expect(keys(referencesInExpression("cloudflare_waf_package.p"))).toEqual(["cloudflare_waf_package.p"]);
    expect(keys(referencesInExpression("var.enabled && contains(var.anomaly_packages, local.name) ? 1 : 0"))).toEqual(["local.name", "var.anomaly_packages", "var.enabled"]);
  });

  it("handles awkward nesting: strings in interpolations, braces in strings and comments, keys as expressions", () => {
    expect(keys(referencesInExpression('"${"${local.a}"}"'))).toEqual(["local.a"]);
    expect(keys(referencesInTemplate('${lookup(var.m, "}")}-${local.b}'))).toEqual(["local.b", "var.m"]);
    expect(keys(referencesInExpression('[\n  # a comment with "quote and {brace\n  local.c,\n]'))).toEqual(["local.c"]);
    expect(keys(referencesInExpression("<<-EOT\n  %{ if local.on }${local.v}%{ endif }\n  EOT\n"))).toEqual(["local.on", "local.v"]);
    expect(keys(referencesInExpression("{ for i, z in local.zones : z.name => [for g in z.groups : g if contains(local.allowed, g)]... }"))).toEqual(["local.allowed", "local.zones"]);
    expect(keys(referencesInExpression("x.y ? { a = local.a } : { b = local.b }"))).toEqual(["local.a", "local.b", "x.y"]);
    expect(keys(referencesInExpression('{\n  (local.key) = 1\n  "${var.k}" = 2\n}'))).toEqual(["local.key", "var.k"]);
    expect(keys(referencesInExpression("-local.n + 1 > 0 && !var.x"))).toEqual(["local.n", "var.x"]);
    // A whole-module reference through a function: the module, not an output.
    expect(keys(referencesInExpression("values(module.waf)[*].package_id"))).toEqual(["module.waf"]);
    // An attribute named like a keyword is still an attribute.
    expect(keys(referencesInExpression("cloudflare_waf_group.g.in"))).toEqual(["cloudflare_waf_group.g"]);
  });

  it("never throws on garbled text", () => {
    for (const s of ["", "(", "[for", "{ a = ", '"${', "<<EOT\nno end", "a.", "module.", "]]]", "x[*", "%{ for x in", "\u{1F600}.a"]) {
      expect(() => referencesInExpression(s)).not.toThrow();
      expect(() => referencesInTemplate(s)).not.toThrow();
    }
  });
});

describe("referencesInTemplate", () => {
  it("reads interpolations and directives; directive for-variables are scoped to their endfor", () => {
    expect(keys(referencesInTemplate("a-${var.b}-%{ if var.c }yes%{ endif }"))).toEqual(["var.b", "var.c"]);
    expect(keys(referencesInTemplate("%{ for ip in local.ips }${ip.cidr}%{ endfor }${ip.x}"))).toEqual(["ip.x", "local.ips"]);
    expect(keys(referencesInTemplate("plain text with local.x"))).toEqual([]);
    expect(keys(referencesInTemplate("$${local.escaped}"))).toEqual([]);
  });
});

describe("referencesInValue", () => {
  it("walks hcl2json values: arrays, objects and expression keys", () => {
    const v = { a: "${local.x}", b: [1, "${data.x.y.z}"], "${local.k}": true, n: 5, nested: [{ depends_on: ["${cloudflare_waf_group.g}"] }] };
    expect(keys(referencesInValue(v))).toEqual(["cloudflare_waf_group.g", "data.x.y", "local.k", "local.x"]);
  });
});

describe("referencesInExpression on generated expressions", () => {
  // Expressions built from known references and every construct the extractor must see through; the
  // answer is the set of references that went in (iteration variables never count).
  type Gen = { text: string; refs: string[] };
  const REFS = ["local.a", "var.b", "cloudflare_waf_package.p", "data.cloudflare_waf_groups.g", "module.m.o", "cloudflare_filter.f"];
  const leaf: fc.Arbitrary<Gen> = fc.oneof(
    fc.constantFrom(...REFS).map((r) => ({ text: `${r}.id`, refs: [r] })),
    fc.constantFrom(...REFS).map((r) => ({ text: r, refs: [r] })),
    fc.constantFrom("1", "true", "null", '"text with local.z"', '"$${var.escaped}"').map((text) => ({ text, refs: [] })),
  );
  const expr: fc.Arbitrary<Gen> = fc.letrec<{ e: Gen }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `try(${a.text}, ${b.text})`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `[\n  ${a.text}, # note {\n  ${b.text},\n]`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `{\n  key = ${a.text}\n  other: ${b.text}\n}`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(tie("e"), tie("e"), tie("e")).map(([a, b, c]) => ({ text: `${a.text} ? ${b.text} : ${c.text}`, refs: [...a.refs, ...b.refs, ...c.refs] })),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `"\${${a.text}}-x-\${${b.text}}"`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `[for it, v in ${a.text} : { k = it.name, v = ${b.text} } if v != null]`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => ({ text: `{ for it in ${a.text} : it.key => ${b.text}... }`, refs: [...a.refs, ...b.refs] })),
      fc.tuple(fc.constantFrom(...REFS), tie("e")).map(([r, b]) => ({ text: `${r}[${b.text}].id`, refs: [r, ...b.refs] })),
      fc.constantFrom(...REFS.filter((r) => !r.startsWith("module."))).map((r) => ({ text: `${r}[*].id`, refs: [r] })),
      tie("e").map((a) => ({ text: `<<-EOT\n  value: \${${a.text}}\n  EOT\n`, refs: a.refs })),
    ),
  })).e;

  it("finds exactly the references that went in", () => {
    fc.assert(
      fc.property(expr, (g) => {
        expect(keys(referencesInExpression(g.text))).toEqual([...new Set(g.refs)].sort());
      }),
      { numRuns: 400, seed: 12 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        referencesInExpression(s);
        referencesInTemplate(s);
      }),
      { numRuns: 500, seed: 13 },
    );
  });
});
