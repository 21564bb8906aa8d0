// The fast HCL reader against hcl2json itself: wherever the fast reader gives a value it must be exactly
// hcl2json's, and it must never accept what hcl2json refuses (it refuses — "bails" — instead).
import { parse as hcl2json } from "@cdktn/hcl2json";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assembleTopLevel, fastParse, labelShapesConflict } from "../../src/terraform/hcl/fast.js";
import { parseConfigFile, parseConfigFileSelective } from "../../src/terraform/hcl/parse.js";
// @ts-expect-error the bench generator is plain JavaScript
import { cloudflareTreeFiles, monorepoFiles, rng } from "../../scripts/bench/generate.mjs";
import { ROOT, TESTDATA } from "../support/cli.js";

type Verdict = "same" | "bailed" | "DIFFERENT" | "ACCEPTED_INVALID";

/** Fast reader (every block selected) vs hcl2json on one text. */
async function verdict(text: string): Promise<{ v: Verdict; fast?: unknown; hcl?: unknown; error?: string }> {
  let hcl: unknown = null;
  let error: string | null = null;
  try {
    hcl = await hcl2json("t.tf", text);
  } catch (e) {
    error = String((e as Error).message);
  }
  const r = fastParse(text, { select: () => true });
  if (!r.ok || r.blocks.some((b) => b.needsJudge)) return { v: "bailed" };
  if (labelShapesConflict(r.blocks)) return { v: error ? "bailed" : "DIFFERENT" };
  const body = assembleTopLevel(r.blocks.map((b) => ({ type: b.type, labels: b.labels, body: b.body! })));
  if (error !== null) return { v: "ACCEPTED_INVALID", fast: body, error };
  return JSON.stringify(body) === JSON.stringify(hcl) ? { v: "same" } : { v: "DIFFERENT", fast: body, hcl };
}

const wrapInBlock = (attrs: string) => `resource "x" "y" {\n${attrs}}\n`;

// Each case is the body of a block; the comment says what it exercises.
const ACCEPTED: string[] = [
  'a = "$${literal} %%{x} \\n \\u00e9 \\" "\n', // escapes; template sequences re-escaped as hcl2json does
  'a = "x ${ var.a } y"\n', // interpolation range without the spaces
  'a = "${var.a}"\n', // a lone interpolation is the expression itself
  'a = "${1}"\nb = "${"q"}"\nc = "${-1}"\n',
  'a = string\nb = list(string)\nc = toset(["a","b"])\n',
  "a = -1\nb = !true\nc = -var.x\nd = 1.5e3\ne = 12345678901234567890\nf = 0.1\ng = - 1\n",
  "a = (var.x)\nb = (1 +\n  2)\n",
  'a = { b = 1, "c" = 2, (var.k) = 3, d: 4 }\n', // key kinds
  'a = { z = 1\n a = 2\n "10" = 3\n "9" = 4 }\n', // Go's key order, then JavaScript's integer keys
  "a = <<EOT\n  hello ${var.x}\n    world\nEOT\n",
  "a = <<-EOT\n  hello ${var.x}\n    world\n  EOT\n", // flush heredoc
  "a = <<-EOT\n\t\tx\n\t  y\n\n   \n  EOT\n", // tabs and blank lines in a flush heredoc
  "a = <<-EOT\n    x\n  ${y}\n  EOT\n", // a line starting with an interpolation counts as its indentation
  "a = <<-EOT\n  %{if var.x}yes%{else}no%{endif}\n  EOT\n",
  'a = "%{ for k, v in var.m }${k}=${v},%{ endfor }"\n',
  'a = "p ${a ? "x" : "y"}"\nb = "p ${a ? b : "y"}"\nc = "${a ? 1 : 2} x"\n', // conditionals inside templates become %{if}
  'a = "%{if a}$${x}%{endif}"\nb = "a${b}$${c}"\nc = "a${150}"\nd = "a${true}"\n',
  "a = [for s in var.l : upper(s)]\nb = {for k, v in var.m : k => v... if v}\n",
  "a = var.x ? 1 : 2\nb = x ? y : z ? w : v\n",
  'a = x.0.y\nb = x[0]["k"]\nc = x.*.y\nd = x[*].y[0]\n',
  'a = f(\n  1,\n  2,\n)\nb = f(x...)\nc = f()\nd = upper("x")\n',
  "a = [\n  1, # one\n  2 // two\n]\nb = {\n  # c\n  b = 1,\n  c = 2\n}\n",
  'a = x # c\nb = y // d\nc = z /* e */\nd = "x" /* c\n */\n',
  "a = true\nb = false\nc = null\nd = [true, null]\ne = {}\nf = []\n",
  'a = { "$${x}" = 1 }\nb = { null = 1, true = 2, if = 3, in = 4 }\n',
  "a = 0\nc = 007\nd = 9007199254740993\n",
  "c {\n  d = 1\n}\nc {\n  d = 2\n}\ne {}\nf { g = 1 }\n", // nested blocks, single-line block
  'c "x" {\n}\nc "y" "z" {\n}\n',
  "c {\n}\nc = 1\n", // an attribute over a block of the same name
  'a = "\\U0001F600 é"\n',
  "a = <<EOT\n$${x} %%{y}\nEOT\n",
  'a = "$$ $ % %% $${"\n',
  'a = "x${"$${y}"}"\n',
  "a = [<<EOT\nx\nEOT\n, \"y\"]\n",
];

const REFUSED: string[] = [
  "a = 0x10\n",
  "a = 1 +\n  2\n",
  "a = { b = 1 c = 2 }\n",
  "a = x ? y :\n  z\n",
  "b {\n a = 1 }\n",
  "b { a = 1\n}\n",
  "b = 1 c = 2\n",
  "a = 1\na = 2\n",
  'a = "\\q"\n',
  "a = { for = 1 }\n",
  "a = [for = 1]\n",
  'a = "\\ud800"\n',
  "a = 1.\n",
  "a = .5\n",
  "a = !1\n",
  "a = <<EOT \nx\nEOT\n",
  'a = "x" "y"\n',
  "a = x y\n",
  "a = [1 2]\n",
  "a = [1,,2]\n",
  "a = f(,)\n",
  "a = ()\n",
  "a = {,}\n",
  "a = {\n\n a = 1\n\n, b = 2 }\n",
  "a = x.\ny\n",
  'b "${x}" {\n}\n',
  'b "x" {\n}\nb {\n}\n',
  "a = <<EOT\nno end\nEOT",
  'a = "unterminated\n',
];

describe("fast HCL reader", () => {
  it.each(ACCEPTED)("gives exactly hcl2json's value: %j", async (attrs) => {
    const r = await verdict(wrapInBlock(attrs));
    expect(r).toEqual({ v: "same" });
  });

  it.each(REFUSED)("does not accept what hcl2json refuses: %j", async (attrs) => {
    for (const text of [wrapInBlock(attrs), attrs.startsWith("b ") || attrs.startsWith("a =") ? `locals {\n${attrs}}\n` : attrs]) {
      const r = await verdict(text);
      expect(r.v, JSON.stringify(r)).not.toBe("ACCEPTED_INVALID");
      expect(r.v).not.toBe("DIFFERENT");
    }
  });

  it("reads the bench corpora and the repository's own .tf files exactly as hcl2json does", async () => {
    const files: [string, string][] = [
      ...(cloudflareTreeFiles({ seed: 11, files: 14, bytes: 400_000 }) as Map<string, string>),
      ...(monorepoFiles({ seed: 11, files: 40, bytes: 400_000 }) as Map<string, string>),
    ].filter(([name]) => name.endsWith(".tf"));
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const abs = path.join(dir, name);
        if (statSync(abs).isDirectory()) walk(abs);
        else if (name.endsWith(".tf")) files.push([abs, readFileSync(abs, "utf8")]);
      }
    };
    walk(TESTDATA);
    walk(path.join(ROOT, "test"));
    let same = 0;
    for (const [name, text] of files) {
      const r = await verdict(text);
      expect(r.v === "same" || r.v === "bailed", `${name}: ${JSON.stringify(r).slice(0, 400)}`).toBe(true);
      if (r.v === "same") same++;
    }
    expect(same).toBeGreaterThan(files.length * 0.9);
  });

  it("survives random damage: a damaged block is either read exactly or left to hcl2json", async () => {
    const text = [...(cloudflareTreeFiles({ seed: 5, files: 12, bytes: 200_000 }) as Map<string, string>).values()].join("\n");
    const blocks = text.split(/\n(?=resource |data |locals |variable |module |output )/);
    const r = rng(42);
    const alphabet = ['"', "{", "}", "[", "]", "(", ")", "=", ",", "\n", " ", "$", "%", "~", "\\", "<", "#", "/", "*", ":", "?", ".", "a", "1", "-", "!", "\t", "é", "${", "%{", "<<EOT\n", "\nEOT\n", "\\u", "for ", "=>", "...", "\r"];
    for (let k = 0; k < 400; k++) {
      let t = r.pick(blocks) as string;
      for (let j = r.int(1, 3); j > 0; j--) {
        const i = r.int(0, t.length - 1);
        const op = r.int(0, 2);
        if (op === 0) t = t.slice(0, i) + t.slice(i + r.int(1, 3));
        else if (op === 1) t = t.slice(0, i) + r.pick(alphabet) + t.slice(i);
        else t = t.slice(0, i) + r.pick(alphabet) + t.slice(i + 1);
      }
      const v = await verdict(t + "\n");
      expect(v.v === "same" || v.v === "bailed", JSON.stringify({ text: t, ...v }).slice(0, 1200)).toBe(true);
    }
  });
});

describe("parseConfigFileSelective", () => {
  const file = [
    'resource "cloudflare_waf_rule" "r" {',
    '  zone_id = "z"',
    '  rule_id = "100015"',
    "}",
    "",
    'resource "aws_instance" "web" {',
    "  ami = data.aws_ami.x.id",
    "}",
    "",
    'module "m" {',
    '  source = "./m"',
    "}",
    "",
  ].join("\n");
  const select = (type: string, labels: string[]) => type === "module" || (type === "resource" && labels[0]!.startsWith("cloudflare_"));

  it("converts the selected blocks only, and lists every block with its position", async () => {
    const out = await parseConfigFileSelective("main.tf", file, { select });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const full = await parseConfigFile("main.tf", file);
    if (!full.ok) throw new Error("full parse failed");
    const fullBody = full.parsed.body as { resource: Record<string, unknown>; module: unknown };
    expect(out.parsed.body).toEqual({ resource: { cloudflare_waf_rule: fullBody.resource.cloudflare_waf_rule }, module: fullBody.module });
    expect(out.parsed.blocks.map((b) => [b.type, b.labels, b.line, b.structural?.start])).toEqual(full.parsed.blocks.map((b) => [b.type, b.labels, b.line, b.structural?.start]));
  });

  it("reports a syntax error in a block it cannot read with hcl2json's own file, line and column", async () => {
    const broken = file.replace("  ami = data.aws_ami.x.id", "  ami = [data.aws_ami.x.id,\n  tags = {}");
    const fast = await parseConfigFileSelective("main.tf", broken, { select });
    const full = await parseConfigFile("main.tf", broken);
    expect(fast.ok).toBe(false);
    expect(full.ok).toBe(false);
    if (fast.ok || full.ok) return;
    expect(fast.error).toEqual(full.error);
    expect(fast.error.line).toBe(8);
  });

  it("skimming does not look inside unselected blocks, but still sees an unclosed brace", async () => {
    const subtle = file.replace("  ami = data.aws_ami.x.id", "  ami = [1 2]");
    const skimmed = await parseConfigFileSelective("main.tf", subtle, { select, skim: true });
    expect(skimmed.ok).toBe(true);
    const gross = file.replace("  ami = data.aws_ami.x.id\n}", "  ami = data.aws_ami.x.id\n");
    const out = await parseConfigFileSelective("main.tf", gross, { select, skim: true });
    const full = await parseConfigFile("main.tf", gross);
    expect(out.ok).toBe(false);
    if (out.ok || full.ok) return;
    expect(out.error).toEqual(full.error);
  });
});
