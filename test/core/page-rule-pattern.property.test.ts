import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateExpression, pageRuleMatches } from "../../src/core/rule-expression-eval.js";
import { pageRuleTargetToExpression } from "../../src/core/page-rule-pattern.js";

// The translator and the reference matcher are written independently; on generated patterns and URLs
// the emitted expression must accept exactly the URLs the (narrower-reading) Page Rule semantics accept.

interface PatternParts {
  scheme: string;
  hostPrefix: string;
  labels: string[];
  port: number | null;
  segments: string[] | null;
  query: string | null;
}

// Small alphabets so generated URLs hit the patterns often, not just miss them.
const label = fc.constantFrom("shop", "example", "com", "a", "www", "Api", "ex");
const segment = fc.constantFrom("admin", "a", "Foo", "*", "*.php", "t*st", "x*", "", "**", "downloads");
const fill = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 4 }).map((cs) => cs.join(""));
const hostFill = fill(["a", "b", ".", "-", "X"]);
const pathFill = fill(["a", "/", ".", "B", "-", "?", "t"]);

const patternParts: fc.Arbitrary<PatternParts> = fc.record({
  scheme: fc.constantFrom("", "", "http://", "https://", "*://"),
  hostPrefix: fc.constantFrom("", "", "*", "*.", "HOST-LESS"),
  labels: fc.array(label, { minLength: 1, maxLength: 3 }),
  port: fc.option(fc.constantFrom(8080, 443), { freq: 5 }),
  segments: fc.option(fc.array(segment, { minLength: 1, maxLength: 3 }), { freq: 6 }),
  query: fc.option(fc.constantFrom("q=*", "*", "a=1"), { freq: 5 }),
});

function hostPattern(p: PatternParts): string {
  return p.hostPrefix === "HOST-LESS" ? "*" : p.hostPrefix + p.labels.join(".");
}

function pathPattern(p: PatternParts): string {
  return p.segments === null ? "" : `/${p.segments.join("/")}`;
}

function render(p: PatternParts): string {
  const port = p.port === null ? "" : `:${p.port}`;
  const query = p.query === null ? "" : `?${p.query}`;
  return `${p.scheme}${hostPattern(p)}${port}${pathPattern(p)}${query}`;
}

/** Replaces each `*` with the next fill string, cycling through them. */
function substitute(pattern: string, fills: string[]): string {
  let i = 0;
  return pattern.replace(/\*+/g, () => fills[i++ % fills.length]);
}

function flipCase(text: string, upper: boolean): string {
  return upper ? text.toUpperCase() : text;
}

/** A URL built from the pattern itself, so a good share of the generated URLs should match. */
const derivedUrl = (p: PatternParts) =>
  fc
    .record({
      https: fc.boolean(),
      hostFills: fc.array(hostFill, { minLength: 1, maxLength: 3 }),
      pathFills: fc.array(pathFill, { minLength: 1, maxLength: 3 }),
      upper: fc.boolean(),
      extraQuery: fc.option(fc.constantFrom("x=1", "q=1", "a=1&q=2"), { freq: 3 }),
      keepPort: fc.boolean(),
      pathPrefix: fc.constantFrom("", "/static", "/x/y"),
    })
    .map((d) => {
      const scheme = d.https ? "https" : "http";
      const host = hostPattern(p) === "*" ? `h${d.hostFills[0]}.example.net` : substitute(hostPattern(p), d.hostFills);
      const port = p.port !== null && d.keepPort ? `:${p.port}` : "";
      // Host-less: the leading `*` also covers the start of the path, so sometimes put something there.
      const prefix = hostPattern(p) === "*" ? d.pathPrefix : "";
      const path = flipCase(prefix + substitute(pathPattern(p) || "/", d.pathFills), d.upper);
      const query = p.query !== null ? `?${substitute(p.query, d.pathFills)}` : d.extraQuery ? `?${d.extraQuery}` : "";
      return `${scheme}://${host}${port}${path}${query}`;
    });

/** An unrelated URL from the same small alphabets. */
const randomUrl = fc
  .record({
    https: fc.boolean(),
    labels: fc.array(label, { minLength: 1, maxLength: 4 }),
    port: fc.constantFrom("", "", ":8080", ":443", ":80"),
    segments: fc.array(fc.constantFrom("admin", "a", "foo", "test", "x.php", "downloads", "q=1"), { maxLength: 3 }),
    query: fc.constantFrom("", "?q=1", "?x=/admin/", "?q="),
  })
  .map((u) => `${u.https ? "https" : "http"}://${u.labels.join(".")}${u.port}/${u.segments.join("/")}${u.query}`);

describe("pageRuleTargetToExpression agrees with the Page Rule reference matcher", () => {
  it("on generated patterns and URLs", () => {
    const caseArb = patternParts.chain((p) => fc.tuple(fc.constant(p), fc.oneof(derivedUrl(p), randomUrl)));
    fc.assert(
      fc.property(caseArb, ([parts, url]) => {
        const target = render(parts);
        const { expression } = pageRuleTargetToExpression(target);
        expect(expression).not.toContain("full_uri");
        expect(evaluateExpression(expression, { url })).toBe(pageRuleMatches(target, url));
      }),
      { seed: 20240731, numRuns: 300 },
    );
  });

  it("URLs derived from a pattern mostly match it (the generator exercises the positive side)", () => {
    let matched = 0;
    fc.assert(
      fc.property(
        patternParts.chain((p) => fc.tuple(fc.constant(p), derivedUrl(p))),
        ([parts, url]) => {
          if (pageRuleMatches(render(parts), url)) matched++;
        },
      ),
      { seed: 7, numRuns: 300 },
    );
    expect(matched).toBeGreaterThan(100);
  });
});
