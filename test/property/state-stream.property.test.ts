// The streaming state reader against the one-piece reader, on generated states: any layout, any chunk size,
// strings holding brackets, quotes, escapes and characters outside the BMP, keys in any order. And on a cut
// or damaged copy, it ends with an error (never a throw, never a state the one-piece reader refuses).
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRelevant } from "../../src/core/legacy-types.js";
import { readLargeState, readStateBuffer } from "../../src/terraform/state/stream.js";
import { parseStateText } from "../../src/terraform/state/read.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-state-prop-"));
let n = 0;
function file(text: string): string {
  const f = path.join(dir, `s${n++}.tfstate`);
  writeFileSync(f, text);
  return f;
}

// Strings that try the byte walk: brackets, quotes, backslashes, newlines, four-space `}` lines, astral characters.
const tricky = fc.oneof(
  fc.string({ unit: fc.constantFrom("{", "}", "[", "]", '"', "\\", "\n", "    }", ",", ":", "é", "🎉", "a", " ") }),
  fc.string({ unit: "grapheme" }),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, tricky, fc.integer(), fc.boolean(), fc.constant(null), tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 3 }),
  // Keys named `type` and `mode` inside attributes must not be taken for the entry's own.
  object: fc.dictionary(fc.oneof(fc.constantFrom("type", "mode", "id", "zone_id"), tricky), tie("value"), { maxKeys: 3 }),
})).value;

const TYPES = ["cloudflare_waf_rule", "cloudflare_waf_group", "cloudflare_waf_package", "cloudflare_ruleset", "cloudflare_record", "aws_instance"];
const instance = fc.record({ index_key: fc.option(fc.oneof(fc.integer({ min: 0, max: 9 }), tricky), { nil: undefined }), attributes: fc.dictionary(tricky, json, { maxKeys: 4 }) }, { requiredKeys: ["attributes"] });
const resource = fc
  .record({
    module: fc.option(fc.constantFrom("module.waf", 'module.waf["shop"]'), { nil: undefined }),
    mode: fc.constantFrom("managed", "data"),
    type: fc.constantFrom(...TYPES),
    name: fc.constantFrom("a", "b-c", "URI-958000"),
    provider: fc.constant('provider["registry.terraform.io/cloudflare/cloudflare"]'),
    instances: fc.array(instance, { maxLength: 3 }),
    typeFirst: fc.boolean(),
  }, { requiredKeys: ["mode", "type", "name", "provider", "instances", "typeFirst"] })
  .map(({ typeFirst, ...r }) => {
    const { mode, type, ...rest } = r;
    // Terraform writes `mode` then `type`; hand-written or other tools' states may not.
    return typeFirst ? { type, mode, ...rest } : { ...(r.module ? { module: r.module } : {}), mode, type, ...rest };
  });
const stateText = fc
  .tuple(fc.array(resource, { maxLength: 6 }), fc.constantFrom(0, 2, 4), json)
  .map(([resources, indent, output]) => JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "l", outputs: { o: { value: output } }, resources, check_results: null }, null, indent));

const runs = { numRuns: 100 };

describe("streaming state reader on generated states", () => {
  it("gives the one-piece reader's outcome, whatever the layout and chunk size", async () => {
    await fc.assert(
      fc.asyncProperty(stateText, fc.integer({ min: 1, max: 300 }), fc.boolean(), async (text, chunkSize, relevantOnly) => {
        const whole = parseStateText(text, "s");
        expect(whole.ok).toBe(true);
        if (!whole.ok) return;
        const expected = relevantOnly ? { ...whole, state: { ...whole.state, instances: whole.state.instances.filter((i) => isRelevant(i.mode, i.type)) } } : whole;
        const keep = relevantOnly ? { keep: isRelevant } : {};
        expect(await readLargeState(file(text), "s", { chunkSize, ...keep })).toEqual(expected);
        expect(readStateBuffer(Buffer.from(text), "s", keep)).toEqual(expected);
      }),
      runs,
    );
  });

  it("a cut copy is an error, never a throw nor a state", async () => {
    await fc.assert(
      fc.asyncProperty(stateText, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 300 }), async (text, at, chunkSize) => {
        const cut = text.slice(0, Math.floor((text.trimEnd().length - 1) * at));
        const got = await readLargeState(file(cut), "s", { chunkSize, keep: isRelevant });
        expect(got.ok).toBe(false);
      }),
      runs,
    );
  });

  // Values outside `resources` (outputs, check results) are walked over, not parsed (see stream.ts): damage
  // there is not this reader's to find. Inside `resources`, with no `keep`, every entry is parsed. The damage
  // is to a byte of the file (it may break a UTF-8 sequence, as a real damaged file would).
  it("a file damaged inside `resources` is refused exactly when the one-piece reader refuses it, else the same state", async () => {
    await fc.assert(
      fc.asyncProperty(stateText, fc.nat(), fc.constantFrom("{", "}", "[", "]", '"', "\\", ",", ":", "x"), async (text, pos, ch) => {
        const bytes = Buffer.from(text);
        const from = bytes.indexOf('"resources":') + '"resources":'.length;
        const to = bytes.lastIndexOf('"check_results"');
        bytes[from + (pos % (to - from))] = ch.charCodeAt(0);
        const whole = parseStateText(bytes.toString("utf8"), "s");
        const got = readStateBuffer(bytes, "s");
        if (whole.ok) expect(got).toEqual(whole);
        else expect(got.ok).toBe(false);
      }),
      runs,
    );
  });
});
