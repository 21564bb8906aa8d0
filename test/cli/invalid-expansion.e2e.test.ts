// count / for_each values known offline that terraform itself rejects (`for_each = null` from an empty YAML
// key, a list or tuple instead of a set, `count = -1`) are positioned input errors (exit 2), not
// VALUE_UNRESOLVED: only a value not known offline is unresolved. Sets (toset, a `set(...)` variable) pass.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0123456789abcdef0123456789abcdef";

function tree(files: Record<string, string>): string {
  const dir = tempDir("cfwm-invalid-expansion-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

interface Report {
  errors: { file: string; line: number; column: number; message: string }[];
  findings: { code: string; address: string | null }[];
  resources: { address: string }[];
}

async function scan(dir: string): Promise<{ report: Report; exitCode: number; stderr: string }> {
  const r = await runCli(["scan", dir, "--format", "json"]);
  return { report: JSON.parse(r.stdout) as Report, exitCode: r.exitCode, stderr: r.stderr };
}

const rule = (name: string, meta: string, mode = '"block"') => `
resource "cloudflare_waf_rule" "${name}" {
  ${meta}
  zone_id = local.cfg.zone_id
  rule_id = "100000"
  mode    = ${mode}
}
`;

describe("count / for_each that terraform rejects", () => {
  it("for_each over an empty YAML key (null) and over a tuple are input errors at the argument; toset and set(...) variables are accepted", async () => {
    const dir = tree({
      "waf.yml": `zone_id: ${ZONE}\nrules:\ngroups: []\nhosts: [a, b]\n`,
      "main.tf": [
        'locals {\n  cfg = yamldecode(file("${path.module}/waf.yml"))\n}\n',
        rule("from_null", "for_each = local.cfg.rules", "each.value"),
        rule("from_tuple", "for_each = local.cfg.groups", "each.value"),
        rule("from_set", "for_each = toset(local.cfg.groups)"),
        rule("from_literal", 'for_each = ["x"]'),
        'variable "hosts" {\n  type    = set(string)\n  default = ["a", "b"]\n}\n',
        rule("from_set_var", "for_each = var.hosts"),
        'variable "enabled" {\n  type    = bool\n  default = false\n}\n',
        // Terraform unifies a conditional's results: `[]` next to a set is an empty set, next to a tuple a tuple.
        rule("flag_set", 'for_each = var.enabled ? toset(["a"]) : []'),
        rule("flag_tuple", 'for_each = var.enabled ? ["a"] : []'),
        // Object types unify attribute by attribute (terraform 1.11 accepts this one); tolist makes a set a list.
        rule("flag_object", 'for_each = (var.enabled ? { a = ["x"] } : { a = toset([]) }).a'),
        rule("to_list", 'for_each = tolist(toset(["a"]))'),
        // A set of numbers: terraform takes only strings. split() gives a list: its message says so.
        rule("number_set", "for_each = toset([1])"),
        rule("split_list", 'for_each = split(",", "a,b")'),
        // A list(string) variable is a list, even given a set; a set inside a list type stays a set.
        'variable "list_var" {\n  type    = list(string)\n  default = ["a"]\n}\n',
        rule("list_var", "for_each = var.list_var"),
        'variable "list_of_sets" {\n  type    = list(set(string))\n  default = [["a"]]\n}\n',
        rule("list_of_sets", "for_each = var.list_of_sets[0]"),
        // lookup's default and coalesce's arguments take the type of the set they go with.
        'variable "by_env" {\n  type    = map(set(string))\n  default = { prod = ["a"] }\n}\n',
        rule("lookup_default", 'for_each = lookup(var.by_env, "staging", [])'),
        rule("coalesced", 'for_each = coalesce([], toset(["q"]))'),
        'variable "unset" {\n  type = map(string)\n}\n',
        rule("from_unknown", "for_each = var.unset", "each.value"),
      ].join(""),
    });
    const { report, exitCode, stderr } = await scan(dir);
    expect(exitCode).toBe(2);
    const byAddress = (a: string) => report.errors.filter((e) => e.message.startsWith(`${a}:`));
    const nullError = byAddress("cloudflare_waf_rule.from_null");
    expect(nullError).toHaveLength(1);
    expect(nullError[0]).toMatchObject({ file: "main.tf", line: 6, column: 14 });
    expect(nullError[0]!.message).toContain('the given "for_each" argument value is null');
    expect(stderr).toContain("main.tf:6:14: cloudflare_waf_rule.from_null: for_each is null");
    expect(byAddress("cloudflare_waf_rule.from_tuple")[0]!.message).toContain("you have provided a value of type tuple");
    expect(byAddress("cloudflare_waf_rule.from_literal")).toHaveLength(1);
    expect(byAddress("cloudflare_waf_rule.from_set")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.from_set_var")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.from_unknown")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.flag_set")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.flag_tuple")).toHaveLength(1);
    expect(byAddress("cloudflare_waf_rule.lookup_default")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.coalesced")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.flag_object")).toEqual([]);
    expect(byAddress("cloudflare_waf_rule.to_list")[0]!.message).toContain("you have provided a value of type list of string.");
    expect(byAddress("cloudflare_waf_rule.number_set")[0]!.message).toContain('"for_each" supports maps and sets of strings, but you have provided a set containing type number.');
    expect(byAddress("cloudflare_waf_rule.split_list")[0]!.message).toContain("for_each is a list, not a set");
    expect(byAddress("cloudflare_waf_rule.list_var")[0]!.message).toContain("you have provided a value of type list of string.");
    expect(byAddress("cloudflare_waf_rule.list_of_sets")).toEqual([]);
    expect(report.errors).toHaveLength(8);
    // The blocks stay listed; nothing about the rejected ones is reported unknown.
    const unresolved = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED").map((f) => f.address);
    expect(unresolved).not.toContain("cloudflare_waf_rule.from_null");
    expect(unresolved).not.toContain("cloudflare_waf_rule.from_tuple");
    expect(unresolved).toContain("cloudflare_waf_rule.from_unknown");
    const addresses = report.resources.map((r) => r.address);
    expect(addresses).toContain("cloudflare_waf_rule.from_null");
    expect(addresses).toContain('cloudflare_waf_rule.from_set_var["a"]');
  });

  it("count = null, negative, fractional or not a number is an input error; a numeric string is a count", async () => {
    const dir = tree({
      "main.tf": [
        `locals {\n  cfg = { zone_id = "${ZONE}" }\n}\n`,
        rule("null_count", "count = null"),
        rule("negative", "count = -1"),
        rule("fraction", "count = 1.5"),
        rule("word", 'count = "abc"'),
        rule("numeric", 'count = "2"'),
      ].join(""),
    });
    const { report, exitCode } = await scan(dir);
    expect(exitCode).toBe(2);
    const messages = report.errors.map((e) => e.message);
    expect(messages).toHaveLength(4);
    expect(messages.find((m) => m.startsWith("cloudflare_waf_rule.null_count:"))).toContain('The given "count" argument value is null');
    expect(messages.find((m) => m.startsWith("cloudflare_waf_rule.negative:"))).toContain("must be greater than or equal to zero");
    expect(messages.find((m) => m.startsWith("cloudflare_waf_rule.fraction:"))).toContain("whole number");
    expect(messages.find((m) => m.startsWith("cloudflare_waf_rule.word:"))).toContain("a number is required");
    expect(report.resources.map((r) => r.address)).toContain("cloudflare_waf_rule.numeric[1]");
  });

  it("a module call whose for_each is a tuple is an input error at the call; a set(string) variable of the module takes the caller's tuple", async () => {
    const dir = tree({
      "main.tf": `locals {\n  hosts = ["a", "b"]\n}\n\nmodule "waf" {\n  source   = "./modules/waf"\n  for_each = local.hosts\n}\n\nmodule "one" {\n  source = "./modules/waf"\n  hosts  = local.hosts\n}\n`,
      "modules/waf/main.tf": `variable "hosts" {\n  type    = set(string)\n  default = []\n}\n\nresource "cloudflare_waf_rule" "r" {\n  for_each = var.hosts\n  zone_id  = "${ZONE}"\n  rule_id  = each.key\n  mode     = "block"\n}\n`,
    });
    const { report, exitCode } = await scan(dir);
    expect(exitCode).toBe(2);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatchObject({ file: "main.tf", line: 7, column: 14 });
    expect(report.errors[0]!.message).toMatch(/^module\.waf: for_each is a tuple, not a set: .*value of type tuple\./);
    expect(report.resources.map((r) => r.address)).toEqual(expect.arrayContaining(['module.one.cloudflare_waf_rule.r["a"]', 'module.one.cloudflare_waf_rule.r["b"]']));
  });

  it("keys() of a map(...) variable and setproduct of lists are lists, told as terraform tells them; instance keys hold numbers in full", async () => {
    // terraform console: type(keys(tomap({a=1}))) is list(string), type(setproduct(["a"], ["b"])) is
    // list(tuple([string, string])), "z${1e21}" is "z1000000000000000000000", "z${1.5e-7}" is "z0.00000015".
    const dir = tree({
      "main.tf": [
        `variable "zones" {\n  type    = map(string)\n  default = { shop = "${ZONE}" }\n}\n`,
        rule("by_key", "for_each = keys(var.zones)"),
        rule("by_tomap_values", "for_each = values(tomap(var.zones))"),
        rule("by_object_key", `for_each = keys({ shop = "${ZONE}" })`),
        rule("product", 'for_each = setproduct(["a"], ["b"])'),
        rule("big", 'for_each = toset(["z${1e21}", "z${1.5e-7}"])'),
        rule("inexact", 'for_each = toset(["z${9007199254740992 + 1}"])'),
        `locals {\n  cfg = { zone_id = "${ZONE}" }\n}\n`,
      ].join(""),
    });
    const { report, exitCode } = await scan(dir);
    expect(exitCode).toBe(2);
    const message = (a: string) => report.errors.find((e) => e.message.startsWith(`cloudflare_waf_rule.${a}:`))?.message;
    expect(message("by_key")).toContain("for_each is a list, not a set: ");
    expect(message("by_key")).toContain("you have provided a value of type list of string.");
    expect(message("by_tomap_values")).toContain("you have provided a value of type list of string.");
    expect(message("by_object_key")).toContain("you have provided a value of type tuple.");
    expect(message("product")).toContain("you have provided a value of type list of tuple.");
    expect(report.errors).toHaveLength(4);
    const addresses = report.resources.map((r) => r.address);
    expect(addresses).toEqual(expect.arrayContaining(['cloudflare_waf_rule.big["z1000000000000000000000"]', 'cloudflare_waf_rule.big["z0.00000015"]']));
    // 2^53 + 1 is not a double: its text is not known offline, so no instance key is made up.
    expect(addresses.filter((a) => a.startsWith("cloudflare_waf_rule.inexact"))).toEqual(["cloudflare_waf_rule.inexact"]);
  });
});
