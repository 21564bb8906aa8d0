import { describe, expect, it } from "vitest";
import { evaluateExpression, pageRuleMatches } from "../../src/core/rule-expression-eval.js";
import { pageRuleTargetToExpression, parsePageRuleTarget, rawString } from "../../src/core/page-rule-pattern.js";

// Rows 1–15 of the translation table in reference/page-rule-patterns.md, section 6, verbatim.
interface Row {
  n: number;
  target: string;
  expression: string;
  exact: boolean;
  match: string[];
  noMatch: string[];
}

const E = "https://example.com";

const ROWS: Row[] = [
  {
    n: 1,
    target: "*shop.example.com/legacy-api/*",
    expression: 'http.host wildcard r"*shop.example.com" and http.request.uri.path wildcard r"/legacy-api/*"',
    exact: true,
    match: [
      "https://shop.example.com/legacy-api/",
      "http://shop.example.com/legacy-api/v1/orders?id=1",
      "https://eu.shop.example.com/legacy-api/x",
      "https://SHOP.Example.com/Legacy-API/x",
      "https://myshop.example.com/legacy-api/x",
    ],
    noMatch: [
      "https://shop.example.com/legacy-api",
      "https://shop.example.com/legacy-apis/x",
      "https://shop.example.com/v2/legacy-api/x",
      "https://www.example.com/legacy-api/x",
      "https://www.example.com/x/shop.example.com/legacy-api/y",
      "https://www.example.com/?u=shop.example.com/legacy-api/",
    ],
  },
  {
    n: 2,
    target: "shop.example.com/admin/*",
    expression: 'http.host wildcard r"shop.example.com" and http.request.uri.path wildcard r"/admin/*"',
    exact: true,
    match: [
      "https://shop.example.com/admin/",
      "http://shop.example.com/admin/users/1",
      "https://shop.example.com/ADMIN/x",
      "https://Shop.Example.com/admin/?a=b",
    ],
    noMatch: [
      "https://shop.example.com/admin",
      "https://shop.example.com/administrator",
      "https://www.shop.example.com/admin/",
      "https://shop.example.com/x/admin/",
      "https://www.example.com/?next=://shop.example.com/admin/",
    ],
  },
  {
    n: 3,
    target: "https://www.example.com/*",
    expression: 'ssl and http.host wildcard r"www.example.com"',
    exact: true,
    match: ["https://www.example.com/", "https://www.example.com/a/b?c=d", "https://WWW.example.com/x"],
    noMatch: ["http://www.example.com/", "https://example.com/", "https://api.www.example.com/"],
  },
  {
    n: 4,
    target: "example.com/",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path eq "/"',
    exact: true,
    match: ["https://example.com/", "http://example.com/", "https://example.com/?utm_source=x", "https://EXAMPLE.COM/"],
    noMatch: ["https://example.com/index.html", "https://www.example.com/", "https://example.com/a/"],
  },
  {
    n: 5,
    target: "example.com/*",
    expression: 'http.host wildcard r"example.com"',
    exact: true,
    match: ["http://example.com/", "https://example.com/a/b?x=1", "https://Example.com/Z"],
    noMatch: ["https://www.example.com/", "https://api.example.com/x"],
  },
  {
    n: 6,
    target: "*example.com/*",
    expression: 'http.host wildcard r"*example.com"',
    exact: true,
    match: ["https://example.com/", "https://www.example.com/x", "https://a.b.example.com/", "https://myexample.com/"],
    noMatch: ["https://example.com.evil.net/"],
  },
  {
    n: 7,
    target: "*.example.com/*",
    expression: 'http.host wildcard r"*.example.com"',
    exact: true,
    match: ["https://www.example.com/", "https://a.b.example.com/x?y"],
    noMatch: ["https://example.com/", "https://example.com/www.example.com/"],
  },
  {
    n: 8,
    target: "example.com/*.php",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/*.php"',
    exact: true,
    match: ["https://example.com/index.php", "https://example.com/a/b/x.PHP", "https://example.com/x.php?y=1"],
    noMatch: [
      "https://example.com/x.php5",
      "https://example.com/x.php/extra",
      "https://example.com/?f=x.php",
      "https://www.example.com/x.php",
    ],
  },
  {
    n: 9,
    target: "example.com/*/downloads/*.txt",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/*/downloads/*.txt"',
    exact: true,
    match: [
      "https://example.com/a/downloads/f.txt",
      "http://example.com/a/b/downloads/c/f.TXT",
      "https://example.com/a/downloads/f.txt?v=2",
    ],
    noMatch: [
      "https://example.com/downloads/f.txt",
      "https://example.com/a/downloads/f.txt.bak",
      "https://example.com/a/downloads/f.txt/x",
      "https://example.com/a/?q=/downloads/x.txt",
    ],
  },
  {
    n: 10,
    target: "example.com/foo*",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/foo*"',
    exact: true,
    match: ["https://example.com/foo", "https://example.com/foobar", "https://example.com/foo/", "https://example.com/FOO/bar"],
    noMatch: ["https://example.com/fo", "https://example.com/bar/foo"],
  },
  {
    n: 11,
    target: "example.com/t*st",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/t*st"',
    exact: true,
    match: ["/test", "/toast", "/trust", "/tst", "/t/a/st"].map((p) => E + p),
    noMatch: ["/tests", "/atest"].map((p) => E + p),
  },
  {
    n: 12,
    target: "example.com/old-path",
    expression: 'http.host wildcard r"example.com" and http.request.uri.path wildcard r"/old-path"',
    exact: true,
    match: ["https://example.com/old-path", "https://example.com/OLD-PATH", "https://example.com/old-path?x=1"],
    noMatch: ["https://example.com/old-path/", "https://example.com/old-path/x", "https://example.com/old-pathx"],
  },
  {
    n: 13,
    target: "http://example.com:8080/api/*",
    expression:
      'not ssl and cf.edge.server_port eq 8080 and (http.host wildcard r"example.com" or http.host wildcard r"example.com:8080") and http.request.uri.path wildcard r"/api/*"',
    exact: false,
    match: ["http://example.com:8080/api/x"],
    noMatch: ["http://example.com/api/x", "http://example.com:8880/api/x", "https://example.com/api/x"],
  },
  {
    n: 14,
    target: "example.com/search?q=*",
    expression: 'http.host wildcard r"example.com" and http.request.uri wildcard r"/search?q=*"',
    exact: false,
    match: ["https://example.com/search?q=shoes", "https://example.com/search?q=", "https://example.com/SEARCH?Q=x"],
    noMatch: [
      "https://example.com/search",
      "https://example.com/search?page=2&q=x",
      "https://example.com/search/?q=x",
    ],
  },
  {
    n: 15,
    target: "*/images/*",
    expression: 'http.request.uri.path wildcard r"*/images/*"',
    exact: false,
    match: [
      "https://a.example.com/images/x.png",
      "https://b.example.net/static/images/x.png",
      "https://a.example.com/IMAGES/",
    ],
    noMatch: ["https://a.example.com/images", "https://a.example.com/img/x", "https://a.example.com/x?p=/images/"],
  },
];

/** Checks a translation against URLs through both the evaluator and the reference matcher. */
function expectVectors(target: string, expression: string, match: string[], noMatch: string[]): void {
  for (const url of match) {
    expect(evaluateExpression(expression, { url }), `expression should match ${url}`).toBe(true);
    expect(pageRuleMatches(target, url), `page rule should match ${url}`).toBe(true);
  }
  for (const url of noMatch) {
    expect(evaluateExpression(expression, { url }), `expression should not match ${url}`).toBe(false);
    expect(pageRuleMatches(target, url), `page rule should not match ${url}`).toBe(false);
  }
}

describe("pageRuleTargetToExpression: translation table rows 1–15", () => {
  it.each(ROWS)("row $n: $target", (row) => {
    const result = pageRuleTargetToExpression(row.target);
    expect(result.expression).toBe(row.expression);
    expect(result.exact).toBe(row.exact);
    expect(result.expression).not.toContain("full_uri");
    expectVectors(row.target, result.expression, row.match, row.noMatch);
  });

  it("row 4: a bare host is saved with a trailing slash and gives the same expression", () => {
    const result = pageRuleTargetToExpression("example.com");
    expect(result.expression).toBe(ROWS[3].expression);
    expect(result.notes.join(" ")).toMatch(/no path/);
  });

  it("row 13: accepts an http.host that carries the port (port-tolerant host form)", () => {
    const { expression } = pageRuleTargetToExpression("http://example.com:8080/api/*");
    const fields = { ssl: false, host: "example.com:8080", port: 8080, path: "/api/x", uri: "/api/x" };
    expect(evaluateExpression(expression, fields)).toBe(true);
    expect(evaluateExpression(expression, { ...fields, host: "other.com:8080" })).toBe(false);
  });

  it("gives notes for every approximation and none for an exact row", () => {
    expect(pageRuleTargetToExpression("shop.example.com/admin/*").notes).toEqual([]);
    expect(pageRuleTargetToExpression("http://example.com:8080/api/*").notes.join(" ")).toMatch(/Port 8080/);
    expect(pageRuleTargetToExpression("example.com/search?q=*").notes.join(" ")).toMatch(/query/);
    expect(pageRuleTargetToExpression("*/images/*").notes.join(" ")).toMatch(/Host-less/);
  });

  it("is deterministic", () => {
    for (const row of ROWS) {
      expect(pageRuleTargetToExpression(row.target)).toEqual(pageRuleTargetToExpression(row.target));
    }
  });
});

describe("parsePageRuleTarget", () => {
  it("splits scheme, host, port, path and query", () => {
    expect(parsePageRuleTarget("http://example.com:8080/api/*?a=*")).toMatchObject({
      scheme: "http",
      host: "example.com",
      port: 8080,
      path: "/api/*",
      query: "a=*",
      hostless: false,
    });
  });

  it("uses `/` when the target has no path, also before a query", () => {
    expect(parsePageRuleTarget("example.com")).toMatchObject({ path: "/", query: null });
    expect(parsePageRuleTarget("example.com?x=1")).toMatchObject({ path: "/", query: "x=1" });
  });

  it("marks a host of just `*` as host-less", () => {
    expect(parsePageRuleTarget("*/images/*")).toMatchObject({ host: "*", hostless: true, path: "/images/*" });
  });
});

describe("pageRuleTargetToExpression: extra cases", () => {
  it("collapses `**` runs to a single `*`", () => {
    const result = pageRuleTargetToExpression("**.example.com/a/***/b**");
    expect(result.expression).toBe('http.host wildcard r"*.example.com" and http.request.uri.path wildcard r"/a/*/b*"');
    expect(result.notes.join(" ")).toMatch(/collapsed/);
    expectVectors("**.example.com/a/***/b**", result.expression, ["https://x.example.com/a/q/r/bz"], ["https://example.com/a/q/b"]);
  });

  it("escapes a literal backslash in the path for the wildcard syntax", () => {
    const target = "example.com/a\\b/*";
    const { expression } = pageRuleTargetToExpression(target);
    expect(expression).toBe('http.host wildcard r"example.com" and http.request.uri.path wildcard r"/a\\\\b/*"');
    expectVectors(target, expression, ["https://example.com/a\\b/x", "https://example.com/A\\B/"], [
      "https://example.com/a/b/x",
      "https://example.com/ab/x",
    ]);
  });

  it("keeps a backslash before a star literal and the star a wildcard", () => {
    const { expression } = pageRuleTargetToExpression("example.com/a\\*");
    expect(expression).toBe('http.host wildcard r"example.com" and http.request.uri.path wildcard r"/a\\\\*"');
    expect(evaluateExpression(expression, { url: "https://example.com/a\\xyz" })).toBe(true);
    expect(evaluateExpression(expression, { url: "https://example.com/a*" })).toBe(false);
  });

  it("uses r#\"…\"# when the value contains a double quote", () => {
    const target = 'example.com/say"hi"/*';
    const { expression } = pageRuleTargetToExpression(target);
    expect(expression).toBe('http.host wildcard r"example.com" and http.request.uri.path wildcard r#"/say"hi"/*"#');
    expectVectors(target, expression, ['https://example.com/say"hi"/x'], ["https://example.com/sayhi/x"]);
  });

  it("adds more hashes when the content contains `\"#`", () => {
    expect(rawString('a"#b')).toBe('r##"a"#b"##');
    const { expression } = pageRuleTargetToExpression('example.com/a"#b');
    expect(expression).toContain('r##"/a"#b"##');
    expect(evaluateExpression(expression, { ssl: true, host: "example.com", port: 443, path: '/a"#b', uri: '/a"#b' })).toBe(true);
  });

  it("keeps the case of the target (wildcard is case-insensitive already)", () => {
    const target = "Shop.Example.COM/Admin/*";
    const { expression } = pageRuleTargetToExpression(target);
    expect(expression).toBe('http.host wildcard r"Shop.Example.COM" and http.request.uri.path wildcard r"/Admin/*"');
    expectVectors(target, expression, ["https://shop.example.com/admin/x", "https://SHOP.EXAMPLE.COM/ADMIN/"], [
      "https://shop.example.com/other/",
    ]);
  });

  it("ignores surrounding whitespace", () => {
    expect(pageRuleTargetToExpression("  example.com/*   \n").expression).toBe('http.host wildcard r"example.com"');
  });

  it("turns an http:// scheme into `not ssl`", () => {
    const target = "http://example.com/x/*";
    const { expression, exact } = pageRuleTargetToExpression(target);
    expect(expression).toBe('not ssl and http.host wildcard r"example.com" and http.request.uri.path wildcard r"/x/*"');
    expect(exact).toBe(true);
    expectVectors(target, expression, ["http://example.com/x/1"], ["https://example.com/x/1"]);
  });

  it("drops a `*` scheme, which covers http and https", () => {
    const target = "*://example.com/x/*";
    const result = pageRuleTargetToExpression(target);
    expect(result.expression).toBe('http.host wildcard r"example.com" and http.request.uri.path wildcard r"/x/*"');
    expect(result.notes.join(" ")).toMatch(/both http and https/);
    expectVectors(target, result.expression, ["http://example.com/x/1", "https://example.com/x/1"], []);
  });

  it("resolves `https*` to https only and uppercase `HTTPS` to https", () => {
    expect(pageRuleTargetToExpression("https*://example.com/*").expression).toBe('ssl and http.host wildcard r"example.com"');
    expect(pageRuleTargetToExpression("HTTPS://example.com/*").expression).toBe('ssl and http.host wildcard r"example.com"');
  });

  it("keeps the port clause for a host-less target with a port", () => {
    const { expression, exact } = pageRuleTargetToExpression("*:8443/api/*");
    expect(expression).toBe('cf.edge.server_port eq 8443 and http.request.uri.path wildcard r"*/api/*"');
    expect(exact).toBe(false);
  });

  it("throws a clear error for an empty or whitespace-only target", () => {
    expect(() => pageRuleTargetToExpression("")).toThrow(/empty/);
    expect(() => pageRuleTargetToExpression("   \t ")).toThrow(/empty/);
  });

  it("throws for targets that cannot be translated safely", () => {
    expect(() => pageRuleTargetToExpression("ftp://example.com/*")).toThrow(/unsupported scheme/);
    expect(() => pageRuleTargetToExpression("example.com:99999/*")).toThrow(/invalid port/);
    expect(() => pageRuleTargetToExpression("example.com:*/x")).toThrow(/invalid port/);
    expect(() => pageRuleTargetToExpression("/images/*")).toThrow(/no host/);
    expect(() => pageRuleTargetToExpression("example.com/a b")).toThrow(/whitespace/);
    expect(() => pageRuleTargetToExpression("bücher.example/*")).toThrow(/punycode/);
  });
});
