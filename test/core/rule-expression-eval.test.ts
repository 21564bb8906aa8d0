import { describe, expect, it } from "vitest";
import {
  compileWildcard,
  evaluateExpression,
  requestFieldsFromUrl,
  wildcardMatches,
  type RequestFields,
} from "../../src/core/rule-expression-eval.js";

const FIELDS: RequestFields = { ssl: true, host: "shop.example.com", port: 443, path: "/a/b", uri: "/a/b?x=1" };

describe("wildcard semantics", () => {
  it("is anchored at both ends", () => {
    expect(wildcardMatches("/a", "/a")).toBe(true);
    expect(wildcardMatches("/a", "/a/")).toBe(false);
    expect(wildcardMatches("/a", "x/a")).toBe(false);
    expect(wildcardMatches("/a/*", "/a/")).toBe(true);
    expect(wildcardMatches("/a/*", "/ab/")).toBe(false);
  });

  it("lets `*` match zero or more of any character, including `/`, `.`, `:` and `?`", () => {
    expect(wildcardMatches("*", "")).toBe(true);
    expect(wildcardMatches("a*b", "ab")).toBe(true);
    expect(wildcardMatches("a*b", "a/x.y:z?q=b")).toBe(true);
    expect(wildcardMatches("*.example.com", "a.b.example.com")).toBe(true);
    expect(wildcardMatches("*.example.com", "example.com")).toBe(false);
  });

  it("finds middle pieces without over-consuming the suffix", () => {
    expect(wildcardMatches("/*/downloads/*.txt", "/a/downloads/f.txt")).toBe(true);
    expect(wildcardMatches("/*/downloads/*.txt", "/downloads/f.txt")).toBe(false);
    expect(wildcardMatches("a*a*a", "aa")).toBe(false);
    expect(wildcardMatches("a*a*a", "aaa")).toBe(true);
    expect(wildcardMatches("ab*ba", "aba")).toBe(false);
    expect(wildcardMatches("*ab*ab*", "xabyab")).toBe(true);
  });

  it("treats `?` as a literal character", () => {
    expect(wildcardMatches("/search?q=*", "/search?q=1")).toBe(true);
    expect(wildcardMatches("/a?c", "/abc")).toBe(false);
    expect(wildcardMatches("/a?c", "/a?c")).toBe(true);
  });

  it("supports `\\*` and `\\\\` escapes", () => {
    expect(wildcardMatches("/a\\*", "/a*")).toBe(true);
    expect(wildcardMatches("/a\\*", "/ab")).toBe(false);
    expect(wildcardMatches("/a\\\\b", "/a\\b")).toBe(true);
    expect(wildcardMatches("/a\\\\*", "/a\\anything")).toBe(true);
    expect(wildcardMatches("\\**", "*x")).toBe(true);
  });

  it("rejects `**`, unknown escapes and a dangling backslash", () => {
    expect(() => compileWildcard("a**b")).toThrow(/\*\*/);
    expect(() => compileWildcard("*foo\\bar*")).toThrow(/escape/);
    expect(() => compileWildcard("foo\\")).toThrow(/escape/);
  });

  it("folds ASCII case only", () => {
    expect(wildcardMatches("Example.COM", "eXample.com")).toBe(true);
    expect(wildcardMatches("/ADMIN/*", "/admin/x")).toBe(true);
    expect(wildcardMatches("/é", "/É")).toBe(false);
    expect(wildcardMatches("/é", "/é")).toBe(true);
  });
});

describe("requestFieldsFromUrl", () => {
  it("splits a URL with a non-standard port", () => {
    expect(requestFieldsFromUrl("https://Shop.Example.com:8080/a/b?x=1")).toEqual({
      ssl: true,
      host: "Shop.Example.com",
      port: 8080,
      path: "/a/b",
      uri: "/a/b?x=1",
    });
  });

  it("defaults ports by scheme, the path to `/`, and leaves `?` out of uri for an empty query", () => {
    expect(requestFieldsFromUrl("http://example.com")).toEqual({
      ssl: false,
      host: "example.com",
      port: 80,
      path: "/",
      uri: "/",
    });
    expect(requestFieldsFromUrl("https://example.com/a?#frag")).toMatchObject({ port: 443, path: "/a", uri: "/a" });
    expect(requestFieldsFromUrl("https://example.com:443?q=1")).toMatchObject({ host: "example.com", path: "/", uri: "/?q=1" });
  });

  it("keeps the path raw (no percent-encoding or backslash rewriting)", () => {
    expect(requestFieldsFromUrl('https://example.com/a\\b/"c"').path).toBe('/a\\b/"c"');
  });

  it("rejects relative URLs and other schemes", () => {
    expect(() => requestFieldsFromUrl("/a/b")).toThrow(/absolute/);
    expect(() => requestFieldsFromUrl("ftp://example.com/")).toThrow(/scheme/);
  });
});

describe("evaluateExpression", () => {
  it("evaluates ssl and not ssl", () => {
    expect(evaluateExpression("ssl", FIELDS)).toBe(true);
    expect(evaluateExpression("not ssl", FIELDS)).toBe(false);
    expect(evaluateExpression("not ssl", { url: "http://example.com/" })).toBe(true);
    expect(evaluateExpression("not not ssl", FIELDS)).toBe(true);
  });

  it("gives `not` precedence over `and`, and `and` over `or`", () => {
    expect(evaluateExpression('not ssl and http.host eq "x"', FIELDS)).toBe(false);
    expect(evaluateExpression('ssl or http.host eq "x" and not ssl', FIELDS)).toBe(true);
    expect(evaluateExpression('(ssl or http.host eq "x") and not ssl', FIELDS)).toBe(false);
    expect(evaluateExpression('not (ssl and http.host eq "x")', FIELDS)).toBe(true);
  });

  it("reads every supported field", () => {
    expect(evaluateExpression('http.host wildcard r"*.EXAMPLE.com"', FIELDS)).toBe(true);
    expect(evaluateExpression('http.request.uri.path wildcard r"/a/*"', FIELDS)).toBe(true);
    expect(evaluateExpression('http.request.uri wildcard r"/a/b?x=*"', FIELDS)).toBe(true);
    expect(evaluateExpression('http.request.uri.path wildcard r"/a/b?x=*"', FIELDS)).toBe(false);
    expect(evaluateExpression("cf.edge.server_port eq 443", FIELDS)).toBe(true);
    expect(evaluateExpression("cf.edge.server_port eq 8443", FIELDS)).toBe(false);
  });

  it("makes `eq` case-sensitive and `wildcard` case-insensitive", () => {
    expect(evaluateExpression('http.request.uri.path eq "/a/b"', FIELDS)).toBe(true);
    expect(evaluateExpression('http.request.uri.path eq "/A/B"', FIELDS)).toBe(false);
    expect(evaluateExpression('http.request.uri.path wildcard r"/A/B"', FIELDS)).toBe(true);
  });

  it("reads quoted strings with escapes and raw strings with hashes", () => {
    const fields = { ...FIELDS, path: '/say"hi"\\' };
    expect(evaluateExpression('http.request.uri.path eq "/say\\"hi\\"\\\\"', fields)).toBe(true);
    expect(evaluateExpression('http.request.uri.path wildcard r#"/say"hi"\\\\"#', fields)).toBe(true);
    expect(evaluateExpression('http.request.uri.path wildcard r##"/say"#*"##', { ...FIELDS, path: '/say"#x' })).toBe(true);
    expect(evaluateExpression('http.request.uri.path wildcard "/a/*"', FIELDS)).toBe(true);
  });

  it("rejects anything outside the supported subset", () => {
    expect(() => evaluateExpression("", FIELDS)).toThrow(/end of expression/);
    expect(() => evaluateExpression('http.request.full_uri wildcard r"*"', FIELDS)).toThrow(/Unsupported comparison/);
    expect(() => evaluateExpression('http.host contains "x"', FIELDS)).toThrow(/Unsupported comparison/);
    expect(() => evaluateExpression('cf.edge.server_port eq "443"', FIELDS)).toThrow(/Unsupported comparison/);
    expect(() => evaluateExpression("http.host wildcard 1", FIELDS)).toThrow(/Unsupported comparison/);
    expect(() => evaluateExpression('http.host wildcard r"a**"', FIELDS)).toThrow(/\*\*/);
    expect(() => evaluateExpression("(ssl", FIELDS)).toThrow(/parenthesis/);
    expect(() => evaluateExpression("ssl ssl", FIELDS)).toThrow(/trailing/);
    expect(() => evaluateExpression('http.host wildcard r#"x"', FIELDS)).toThrow(/Unterminated/);
    expect(() => evaluateExpression('http.host eq "a\\n"', FIELDS)).toThrow(/escape/);
    expect(() => evaluateExpression("ssl && ssl", FIELDS)).toThrow(/Unexpected character/);
  });
});
