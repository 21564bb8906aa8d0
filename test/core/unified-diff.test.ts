import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitLinesKeepEnds, unifiedDiff } from "../../src/core/unified-diff.js";
import { removeBlocks } from "../../src/terraform/edit/remove-blocks.js";

/** A strict applier for our own output: every context and removed line must match exactly. */
function applyPatch(oldText: string, patch: string): string {
  if (patch === "") return oldText;
  const old = splitLinesKeepEnds(oldText);
  const lines = patch.split("\n");
  expect(lines[0]).toMatch(/^--- a\//);
  expect(lines[1]).toMatch(/^\+\+\+ b\//);
  const out: string[] = [];
  let pos = 0;
  let i = 2;
  while (i < lines.length && lines[i] !== "") {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]!);
    expect(m, lines[i]).not.toBeNull();
    const oldStart = Number(m![1]);
    const oldCount = m![2] === undefined ? 1 : Number(m![2]);
    const startIdx = oldCount === 0 ? oldStart : oldStart - 1;
    while (pos < startIdx) out.push(old[pos++]!);
    i++;
    const take = (): string => {
      const body = lines[i]!.slice(1);
      i++;
      if (lines[i] === "\\ No newline at end of file") {
        i++;
        return body;
      }
      return body + "\n";
    };
    while (i < lines.length && /^[ +-]/.test(lines[i]!)) {
      const kind = lines[i]![0];
      const text = take();
      if (kind === "+") out.push(text);
      else {
        expect(old[pos]).toBe(text);
        pos++;
        if (kind === " ") out.push(text);
      }
    }
  }
  while (pos < old.length) out.push(old[pos++]!);
  return out.join("");
}

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", "x.tf")).toBe("");
    expect(unifiedDiff("", "", "x.tf")).toBe("");
  });

  it("writes a hunk with three lines of context", () => {
    const old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const neu = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(unifiedDiff(old, neu, "main.tf")).toBe(
      "--- a/main.tf\n+++ b/main.tf\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
    );
  });

  it("splits distant changes into separate hunks and merges close ones", () => {
    const old = Array.from({ length: 30 }, (_, i) => `l${i + 1}\n`).join("");
    const far = old.replace("l2\n", "L2\n").replace("l25\n", "");
    const d = unifiedDiff(old, far, "f.tf");
    expect(d.match(/^@@/gm)).toHaveLength(2);
    expect(d).toContain("@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n");
    expect(d).toContain("@@ -22,7 +22,6 @@\n l22\n l23\n l24\n-l25\n l26\n l27\n l28\n");
    const near = old.replace("l5\n", "L5\n").replace("l11\n", "L11\n");
    expect(unifiedDiff(old, near, "f.tf").match(/^@@/gm)).toHaveLength(1);
    for (const t of [far, near]) expect(applyPatch(old, unifiedDiff(old, t, "f.tf"))).toBe(t);
  });

  it("marks a missing newline at the end of either file", () => {
    expect(unifiedDiff("a\nb", "a\nb\n", "x")).toBe(
      "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
    );
    expect(unifiedDiff("a\n", "a\nc", "x")).toBe("--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+c\n\\ No newline at end of file\n");
    expect(unifiedDiff("a\nb", "c\nb", "x")).toBe(
      "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+c\n b\n\\ No newline at end of file\n",
    );
  });

  it("writes /dev/null for a created or deleted file", () => {
    expect(unifiedDiff("", "a\n", "new.tf", { create: true })).toBe("--- /dev/null\n+++ b/new.tf\n@@ -0,0 +1 @@\n+a\n");
    expect(unifiedDiff("a\n", "", "old.tf", { delete: true })).toBe("--- a/old.tf\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n");
    expect(() => unifiedDiff("x", "a\n", "new.tf", { create: true })).toThrow();
  });

  it("writes empty ranges as git does (creation from empty, deletion of all)", () => {
    expect(unifiedDiff("", "a\n", "x")).toBe("--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+a\n");
    expect(unifiedDiff("a\nb\n", "", "x")).toBe("--- a/x\n+++ b/x\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    expect(unifiedDiff("a\n", "b\na\n", "x")).toBe("--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n+b\n a\n");
  });

  it("keeps CRLF line endings and treats a changed ending as a change", () => {
    const d = unifiedDiff("a\r\nb\r\n", "a\r\nc\r\n", "w.tf");
    expect(d).toBe("--- a/w.tf\n+++ b/w.tf\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
    expect(unifiedDiff("a\r\n", "a\n", "w.tf")).toContain("-a\r\n+a\n");
  });

  it("round-trips random edits through a strict applier", () => {
    let seed = 42;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let t = 0; t < 300; t++) {
      const vocab = ["a", "b", "c", "}", "", "  x = 1"];
      const mk = (): string[] => Array.from({ length: rnd(25) }, () => vocab[rnd(vocab.length)]!);
      const a = mk();
      const b = rnd(2) ? mk() : a.filter(() => rnd(4) !== 0).map((l) => (rnd(5) ? l : l + "!"));
      const join = (ls: string[]): string => ls.join("\n") + (rnd(3) && ls.length ? "\n" : "");
      const oldText = join(a);
      const newText = join(b);
      const patch = unifiedDiff(oldText, newText, "r.tf");
      expect(applyPatch(oldText, patch)).toBe(newText);
      if (oldText === newText) expect(patch).toBe("");
    }
  });

  it("is minimal: one changed line in a long file gives one -/+ pair", () => {
    const old = Array.from({ length: 2000 }, (_, i) => `line ${i}\n`).join("");
    const neu = old.replace("line 1000\n", "LINE 1000\n");
    const d = unifiedDiff(old, neu, "big.tf");
    expect(d.split("\n").filter((l) => /^[+-](?![+-])/.test(l))).toEqual(["-line 1000", "+LINE 1000"]);
  });
});

describe("unifiedDiff with git apply", () => {
  it("applies in a git repository; untouched files stay byte-identical", async () => {
    const dir = mkdtempSync(join(tmpdir(), "udiff-"));
    try {
      const git = (...args: string[]): string =>
        execFileSync("git", args, {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: dir },
        });
      git("init", "-q");

      const main = [
        'resource "cloudflare_zone" "shop" {',
        '  zone = "shop.example.com" # café 🎉',
        "}",
        "",
        "# OWASP",
        'resource "cloudflare_waf_package" "owasp" {',
        "  zone_id    = cloudflare_zone.shop.id",
        '  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"',
        "}",
        "",
        'resource "cloudflare_waf_rule" "r" {',
        '  rule_id = "100000"',
        "}",
      ].join("\n"); // no trailing newline
      const crlf = 'locals {\r\n  a = 1\r\n}\r\n\r\nresource "cloudflare_waf_group" "g" {\r\n  mode = "off"\r\n}\r\n';
      const files: Record<string, string> = {
        "main.tf": main,
        "modules/waf/crlf.tf": crlf,
        "dir with space/it's \"q\".tf": 'resource "cloudflare_waf_rule" "r" {\n}\n\nlocals {}\n',
        "untouched.tf": "variable \"v\" {\n  default = \"é\"\n}\n",
        "binaryish.bin": "\u0000\u0001 not text\n",
        "legacy.tf": 'resource "cloudflare_waf_package" "p" {\n}\n',
      };
      const before = new Map<string, Buffer>();
      for (const [p, text] of Object.entries(files)) {
        mkdirSync(join(dir, dirname(p)), { recursive: true });
        writeFileSync(join(dir, p), text);
        before.set(p, readFileSync(join(dir, p)));
      }

      const edits: Record<string, string> = {
        "main.tf": (
          await removeBlocks(main, [
            { type: "resource", labels: ["cloudflare_waf_package", "owasp"] },
            { type: "resource", labels: ["cloudflare_waf_rule", "r"] },
          ])
        ).text,
        "modules/waf/crlf.tf": (await removeBlocks(crlf, [{ type: "resource", labels: ["cloudflare_waf_group", "g"] }])).text,
        "dir with space/it's \"q\".tf": (
          await removeBlocks(files["dir with space/it's \"q\".tf"]!, [{ type: "resource", labels: ["cloudflare_waf_rule", "r"] }])
        ).text,
      };
      expect(edits["main.tf"]).toBe(main.slice(0, main.indexOf("\n\n# OWASP") + 1)); // ends "}\n", no blank line

      const patch = Object.entries(edits)
        .map(([p, text]) => unifiedDiff(files[p]!, text, p))
        .join("");
      const created = "waf_ruleset.tf";
      const createdText = 'resource "cloudflare_ruleset" "waf" {\n}\n';
      const patchAll = patch + unifiedDiff("", createdText, created, { create: true }) + unifiedDiff(files["legacy.tf"]!, "", "legacy.tf", { delete: true });
      writeFileSync(join(dir, "change.patch"), patchAll);
      git("apply", "--check", "change.patch");
      git("apply", "--whitespace=nowarn", "change.patch");

      for (const [p, text] of Object.entries(edits)) expect(readFileSync(join(dir, p), "utf8")).toBe(text);
      expect(readFileSync(join(dir, created), "utf8")).toBe(createdText);
      for (const p of ["untouched.tf", "binaryish.bin"]) expect(readFileSync(join(dir, p)).equals(before.get(p)!)).toBe(true);
      expect(readdirSync(dir).sort()).toEqual([".git", "binaryish.bin", "change.patch", "dir with space", "main.tf", "modules", "untouched.tf", created]);

      // And back again: the reverse patch restores every original byte.
      git("apply", "-R", "--whitespace=nowarn", "change.patch");
      for (const [p, bytes] of before) expect(readFileSync(join(dir, p)).equals(bytes)).toBe(true);
      expect(readdirSync(dir)).not.toContain(created);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
