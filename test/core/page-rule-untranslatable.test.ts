// Issue 18 §2 and issue 12 §5: targets the translator cannot express are UntranslatableTargetError (a
// finding, never an internal error), translation work is linear in the target's length, and a `*` right
// after the zone name (`example.com*`) is read as Cloudflare saves it (`example.com/*`).
import { domainToASCII } from "node:url";
import { describe, expect, it } from "vitest";
import { evaluateExpression } from "../../src/core/rule-expression-eval.js";
import { pageRuleTargetToExpression, UntranslatableTargetError, type WorkMeter } from "../../src/core/page-rule-pattern.js";

function refusal(target: string): UntranslatableTargetError {
  try {
    pageRuleTargetToExpression(target);
  } catch (e) {
    expect(e).toBeInstanceOf(UntranslatableTargetError);
    return e as UntranslatableTargetError;
  }
  throw new Error(`${JSON.stringify(target)} was translated`);
}

describe("untranslatable Page Rule targets are a typed refusal with a fix", () => {
  it("a non-ASCII host names its punycode form", () => {
    const e = refusal("https://bücher.example.com/admin/*");
    expect(e.message).toMatch(/not ASCII/);
    expect(domainToASCII("bücher.example.com")).toBe("xn--bcher-kva.example.com");
    expect(e.hint).toContain("xn--bcher-kva.example.com");
    expect(e.hint).toContain("https://xn--bcher-kva.example.com/admin/*");
  });

  it("a wildcard label keeps its `*` while the other labels are converted", () => {
    expect(refusal("*.bücher.example.com/*").hint).toContain("*.xn--bcher-kva.example.com");
  });

  it("whitespace inside the target says where it is", () => {
    const e = refusal("example.com/a b/*");
    expect(e.message).toMatch(/a space at position 14/);
    expect(e.hint).toMatch(/%20/);
    expect(refusal("example.com/a\tb").message).toMatch(/U\+0009/);
  });

  it("an invalid port, a port of letters and an out-of-range port", () => {
    for (const t of ["example.com:0/*", "example.com:65536/*", "example.com:http/*", "example.com:/*", "example.com:123456789012345678901234/*"]) {
      expect(refusal(t).message, t).toMatch(/invalid port/);
    }
  });

  it("characters no hostname has (the fuzz run's `c''om`)", () => {
    expect(refusal(`HTTPS://*shop.example.c''om/"#?*`).message).toMatch(/characters a hostname cannot contain/);
  });
});

describe("translation work is linear in the target's length", () => {
  const families: Array<[string, (n: number) => string]> = [
    ["quote then #", (n) => `example.com/"${"#".repeat(n)}`],
    ["alternating quote and #", (n) => `example.com/${'"#'.repeat(n)}`],
    ["growing # runs", (n) => `example.com/${Array.from({ length: Math.ceil(Math.sqrt(n)) }, (_, i) => `"${"#".repeat(i)}`).join("")}`],
    ["$ runs", (n) => `example.com/${"$".repeat(n)}`],
    ["stars and letters", (n) => `*.example.com/${"a*".repeat(n)}`],
    ["wildcard scheme", (n) => `${"h*".repeat(n)}://example.com/*`],
    ["zone name repeated", (n) => `example.com${"example.com*".repeat(n)}`],
    ["query", (n) => `example.com/?${"?#*".repeat(n)}`],
    ["fuzz reproducer", (n) => `HTTPS://*shop.example.com/"${"#".repeat(n)}?*${"$".repeat(n)}`],
  ];
  const work = (target: string): number => {
    const meter: WorkMeter = { steps: 0 };
    try {
      pageRuleTargetToExpression(target, { zoneName: "example.com", meter });
    } catch (e) {
      if (!(e instanceof UntranslatableTargetError)) throw e;
    }
    return meter.steps;
  };

  it.each(families)("%s: steps stay within a constant times the length, and doubling the input at most doubles the work", (_, make) => {
    for (const n of [1_000, 4_000, 16_000]) {
      const small = make(n);
      const big = make(2 * n);
      expect(work(small)).toBeLessThanOrEqual(40 * (small.length + 64));
      expect(work(big)).toBeLessThanOrEqual(40 * (big.length + 64));
      expect(work(big) / work(small)).toBeLessThan(2.5);
    }
  });

  it("a long `\"###…` run gets one more hash than the run, as before", () => {
    const { expression } = pageRuleTargetToExpression(`example.com/"${"#".repeat(5_000)}`);
    expect(expression).toContain(`r${"#".repeat(5_001)}"/"`);
    expect(evaluateExpression(expression, { url: `https://example.com/"${"#".repeat(5_000)}` })).toBe(false); // `#` starts the fragment
  });
});

describe("`example.com*`: the `/` Cloudflare inserts after the zone name (issue 12 §5)", () => {
  it("with the zone's name it is row 5 of the table (every path of example.com), exact", () => {
    const r = pageRuleTargetToExpression("example.com*", { zoneName: "example.com" });
    expect(r.expression).toBe('http.host wildcard r"example.com"');
    expect(r.exact).toBe(true);
    for (const url of ["https://example.com/", "https://example.com/a/b?x=1", "http://Example.com/Z"]) {
      expect(evaluateExpression(r.expression, { url }), url).toBe(true);
    }
    for (const url of ["https://www.example.com/", "https://example.com.evil.net/"]) {
      expect(evaluateExpression(r.expression, { url }), url).toBe(false);
    }
  });

  it("`*example.com*` is row 6 and `example.com*.php` keeps its path", () => {
    expect(pageRuleTargetToExpression("*example.com*", { zoneName: "example.com" }).expression).toBe('http.host wildcard r"*example.com"');
    expect(pageRuleTargetToExpression("example.com*.php", { zoneName: "Example.COM" }).expression).toBe(
      'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/*.php"',
    );
  });

  it("an occurrence in the path gets its slash too, one before a port or a query does not", () => {
    expect(pageRuleTargetToExpression("example.com/path/example.com", { zoneName: "example.com" }).expression).toBe(
      'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/path/example.com/"',
    );
    expect(pageRuleTargetToExpression("example.com:8443/*", { zoneName: "example.com" }).expression).toContain("cf.edge.server_port eq 8443");
    expect(pageRuleTargetToExpression("example.com?a=*", { zoneName: "example.com" }).expression).toContain('r"/?a=*"');
  });

  it("without the zone's name it is not called exact, and takes the narrower reading (path `/` only)", () => {
    const r = pageRuleTargetToExpression("example.com*");
    expect(r.exact).toBe(false);
    expect(r.notes.join(" ")).toMatch(/zone's name is not known/);
    expect(evaluateExpression(r.expression, { url: "https://example.com/" })).toBe(true);
    expect(evaluateExpression(r.expression, { url: "https://example.com/admin" })).toBe(false);
  });

  it("a leading `*` alone does not make the target approximate", () => {
    expect(pageRuleTargetToExpression("*example.com").exact).toBe(true);
  });
});
