// The streaming state reader (big states) against the one-piece reader: same instances, same refusals.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isRelevant } from "../../src/core/legacy-types.js";
import { readLargeState, readStateBuffer } from "../../src/terraform/state/stream.js";
import { parseStateText, readStateSource, STREAM_STATE_BYTES } from "../../src/terraform/state/read.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-state-"));
let n = 0;
function file(text: string): string {
  const f = path.join(dir, `s${n++}.tfstate`);
  writeFileSync(f, text);
  return f;
}

const resources = [
  { mode: "managed", type: "cloudflare_waf_rule", name: "r", provider: "p", instances: [{ index_key: 0, attributes: { rule_id: "1", zone_id: "z", note: 'braces } ] { [ and "quotes" \\ and é 🎉' } }] },
  { module: 'module.waf["shop"]', mode: "managed", type: "cloudflare_waf_group", name: "off", provider: "p", instances: [{ index_key: "de67", attributes: { zone_id: "z" } }] },
  { mode: "managed", type: "aws_instance", name: "web", provider: "a", instances: [{ attributes: { user_data: "}}}]]]\"\\\"", tags: { a: "b" } } }] },
  { mode: "data", type: "cloudflare_waf_packages", name: "p", provider: "p", instances: [{ attributes: { packages: [{ id: "x" }] } }] },
  { mode: "managed", type: "cloudflare_record", name: "dns", provider: "p", instances: [{ attributes: { value: "192.0.2.1" } }, { deposed: "abc", attributes: {} }] },
  { type: "cloudflare_filter", mode: "managed", name: "type_first", provider: "p", instances: [{ attributes: { expression: "(ip.src eq 192.0.2.1)" } }] },
];
const state = (res: unknown[] = resources, indent = 2) => JSON.stringify({ version: 4, terraform_version: "1.5.7", serial: 3, lineage: "l", outputs: { o: { value: "}" } }, resources: res, check_results: null }, null, indent);

describe("streaming state reader", () => {
  it.each([1, 7, 64, 1 << 20])("gives the one-piece reader's instances (chunks of %i bytes)", async (chunkSize) => {
    for (const text of [state(), state(resources, 0)]) {
      const expected = parseStateText(text, "s");
      const got = await readLargeState(file(text), "s", { chunkSize });
      expect(got).toEqual(expected);
    }
  });

  it("keeps only the wanted types, without parsing the others", async () => {
    const text = state();
    const all = parseStateText(text, "s");
    if (!all.ok) throw new Error("fixture");
    const got = await readLargeState(file(text), "s", { keep: isRelevant, chunkSize: 5 });
    expect(got.ok && got.state.instances).toEqual(all.state.instances.filter((i) => isRelevant(i.mode, i.type)));
    // A skipped entry is not parsed: broken JSON inside it goes unnoticed; in a kept one it is an error.
    const broken = text.replace('"192.0.2.1"', "tru");
    expect((await readLargeState(file(broken), "s", { keep: isRelevant })).ok).toBe(true);
    const keptBroken = text.replace('"rule_id": "1"', '"rule_id": tru');
    const bad = await readLargeState(file(keptBroken), "s", { keep: isRelevant });
    expect(bad).toMatchObject({ ok: false, error: { file: "s", line: keptBroken.slice(0, keptBroken.indexOf("tru,")).split("\n").length } });
  });

  it("reads standard input the same way", () => {
    const text = state();
    expect(readStateBuffer(Buffer.from(text), "<stdin>")).toEqual(parseStateText(text, "<stdin>"));
  });

  it.each([
    ['{"version": 4, "resources": [', /truncated/],
    ['{"version": 4, "resources": [{"type": "cloudflare_zone", "mode": "managed", "name": "z", "instances": [{"attributes": {"id": "x"', /truncated/],
    ['{"version": 3, "modules": []}', /state version 3 is not supported/],
    ["[1,2]", /expected a JSON object/],
    ['{"serial": 1}', /not a Terraform state/],
    ['{"version": 4}', /without a "resources" array/],
    ['{"version": 4, "resources": [{"type": 1}]}', /without type or name/],
    ['{"version": 4, "resources": []} x', /after the JSON value/],
    ['{"version": 4, "resources": [],}', /not valid JSON/],
    ['{"version": 4 "resources": []}', /not valid JSON/],
  ])("refuses %j with a one-line message", async (text, message) => {
    const out = await readLargeState(file(text), "bad.tfstate", { chunkSize: 3 });
    expect(out.ok).toBe(false);
    if (out.ok || "showJson" in out) throw new Error("expected an error");
    expect(out.error.file).toBe("bad.tfstate");
    expect(out.error.message).toMatch(message);
    expect(out.error.message).not.toMatch(/\n/);
  });

  it.each([
    ["type of a kept entry", '"type": "cloudflare_waf_group"', '"type": "cloudflare_waf_\u0001group"'],
    ["type of a skipped entry", '"type": "aws_instance"', '"type": "aws_\u0001instance"'],
    ["mode", '"mode": "data"', '"mode": "da\u0001ta"'],
  ])("refuses a raw control character in the %s with its line, without throwing", async (_what, from, to) => {
    // The file holds the control character raw (JSON.stringify would escape it), which JSON refuses.
    const text = state().replace(from, to);
    expect(text).toContain("\u0001");
    const line = text.split("\n").findIndex((l) => l.includes("\u0001")) + 1;
    for (const keep of [undefined, isRelevant]) {
      for (const chunkSize of [7, 1 << 20]) {
        const out = await readLargeState(file(text), "s", { keep, chunkSize });
        expect(out).toMatchObject({ ok: false, error: { file: "s", line, message: expect.stringMatching(/^state is not valid JSON/) } });
      }
      expect(readStateBuffer(Buffer.from(text), "s", { keep })).toMatchObject({ ok: false, error: { line } });
    }
  });

  it("words a syntax error inside a kept entry as the one-piece reader does, with no offset of V8's inside the entry", async () => {
    // A trailing comma in an instance's attributes: JSON.parse of the entry refuses it.
    const text = state().replace('"zone_id": "z"\n', '"zone_id": "z",\n');
    const whole = parseStateText(text, "s");
    expect(whole.ok).toBe(false);
    for (const chunkSize of [7, 1 << 20]) {
      const out = await readLargeState(file(text), "s", { chunkSize, keep: isRelevant });
      expect(out).toEqual(whole);
      if (!out.ok && "error" in out) expect(out.error.message).not.toMatch(/position \d/);
    }
  });

  it("gives the line of a syntax error", async () => {
    const out = await readLargeState(file('{\n  "version": 4,\n  "resources": [}\n'), "s");
    expect(!out.ok && "error" in out && out.error.line).toBe(3);
  });

  it("hands terraform show -json output back to the one-piece reader", async () => {
    const out = await readLargeState(file('{"format_version": "1.0", "values": {}}'), "s");
    expect(out).toEqual({ ok: false, showJson: true });
  });

  it("readStateSource streams big states and keeps the relevant types when asked", async () => {
    const entry = { mode: "managed", type: "aws_instance", name: "pad", provider: "a", instances: [{ attributes: { blob: "x".repeat(1 << 20) } }] };
    const pad = Array.from({ length: Math.ceil(STREAM_STATE_BYTES / (1 << 20)) + 1 }, (_, i) => ({ ...entry, name: `pad${i}` }));
    const text = state([...resources, ...pad], 0);
    const f = file(text);
    const streamed = await readStateSource(f, async () => Buffer.alloc(0), dir, { keepWhenStreaming: isRelevant });
    const whole = parseStateText(text, f);
    if (!whole.ok || !streamed.ok) throw new Error("read failed");
    expect(streamed.state.instances).toEqual(whole.state.instances.filter((i) => isRelevant(i.mode, i.type)));
    expect(streamed.state.terraformVersion).toBe("1.5.7");
    // Which state it is (migrate.sh checks the live state against it): both readers give it.
    expect([streamed.state.lineage, streamed.state.serial]).toEqual(["l", 3]);
    expect([whole.state.lineage, whole.state.serial]).toEqual(["l", 3]);
  });
});

describe("streaming state reader: entries in Terraform's layout", () => {
  // Terraform writes `resources[]` entries indented by four spaces, each ending with `}` alone on its line;
  // kept entries in that layout are parsed without a byte walk. Any other layout must read the same.
  const layouts: [string, string][] = [
    ["Terraform's (2 spaces)", state()],
    ["minified", state(resources, 0)],
    ["4 spaces", state(resources, 4)],
    ["tabs", state(resources, "\t" as unknown as number)],
    ["CRLF", state().replace(/\n/g, "\r\n")],
  ];
  it.each(layouts)("gives the one-piece reader's instances, %s", async (_name, text) => {
    for (const chunkSize of [5, 97, 1 << 20]) {
      expect(await readLargeState(file(text), "s", { chunkSize })).toEqual(parseStateText(text, "s"));
      const kept = await readLargeState(file(text), "s", { chunkSize, keep: isRelevant });
      const all = parseStateText(text, "s");
      if (!kept.ok || "showJson" in kept || !all.ok) throw new Error("fixture");
      expect(kept.state.instances).toEqual(all.state.instances.filter((i) => isRelevant(i.mode, i.type)));
    }
  });

  it("does not take a nested `}` at four spaces for the entry's end", async () => {
    // An attribute object laid out so that one of its lines closes at four spaces: the slice up to it is
    // not one JSON value, so the entry is read by the byte walk, whole.
    const text = state().replace('"tags": {\n              "a": "b"\n            }', '"tags": {\n    "a": "b"\n    }');
    expect(text).toContain('\n    "a": "b"\n    }');
    expect(await readLargeState(file(text), "s", { chunkSize: 1 << 20 })).toEqual(parseStateText(text, "s"));
  });

  it("skips an entry by its head only when no later `type` or `mode` can change it", async () => {
    // JSON.parse keeps the last of a key given twice: an entry whose head names a skipped type but whose
    // later "type" names a kept one is kept, as the one-piece reader keeps it.
    const text = state().replace('"name": "web",', '"name": "web",\n      "type": "cloudflare_zone",');
    const all = parseStateText(text, "s");
    if (!all.ok) throw new Error("fixture");
    const wanted = all.state.instances.filter((i) => isRelevant(i.mode, i.type));
    expect(wanted.map((i) => i.address)).toContain("cloudflare_zone.web");
    for (const chunkSize of [5, 97, 1 << 20]) {
      const kept = await readLargeState(file(text), "s", { chunkSize, keep: isRelevant });
      expect(kept.ok && kept.state.instances).toEqual(wanted);
    }
  });

  it("reports a syntax error in a kept entry where the byte walk does", async () => {
    const text = state().replace('"rule_id": "1"', '"rule_id": "1",,');
    const out = await readLargeState(file(text), "s", { keep: isRelevant });
    const line = text.split("\n").findIndex((l) => l.includes(",,")) + 1;
    expect(!out.ok && "error" in out && out.error.line).toBe(line);
  });
});
