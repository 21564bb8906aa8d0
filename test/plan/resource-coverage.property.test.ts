// Property: on random trees of modules, count and for_each (module calls and resources, nested, with
// nasty instance keys), the resources step 5 and the step-6 guard look for, derived from the
// configuration alone (a plan without state), cover every legacy instance a matching state holds, and
// the sed expression of migrate.sh reduces each instance line to one of them. A plan made with the state
// covers the same. Seeded: the same trees every run.
import { execa } from "execa";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatAddress, type AddressStep, type IndexKey } from "../../src/core/address.js";
import { instancesOfResources, legacyResourceSet } from "../../src/core/resource-match.js";
import { STRIP_INSTANCE_KEYS_SED } from "../../src/plan/migrate-script.js";
import { blockTargets, isLegacyBlock } from "../../src/terraform/references/removal-set.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { seeded } from "../e2e/helpers.js";
import { tempDir } from "../support/workdir.js";

const TYPES = ["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"];
const KEYS = ["shop", "a\"]b", "x[0]", "tab\there", "${x}", "ünï", "100015", "", "k.k"];

type Repeat = { kind: "none" } | { kind: "count"; n: number } | { kind: "for_each"; keys: string[] };

interface Block {
  mode: "managed" | "data";
  type: string;
  name: string;
  repeat: Repeat;
}
interface Call {
  name: string;
  repeat: Repeat;
  module: ModuleSpec;
}
interface ModuleSpec {
  dir: string;
  blocks: Block[];
  calls: Call[];
}

function generate(random: () => number): ModuleSpec {
  let dirs = 0;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const repeat = (): Repeat => {
    const r = random();
    if (r < 0.35) return { kind: "none" };
    if (r < 0.65) return { kind: "count", n: Math.floor(random() * 3) };
    return { kind: "for_each", keys: [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(KEYS)))] };
  };
  const module = (depth: number, dir: string): ModuleSpec => {
    const blocks: Block[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) =>
      random() < 0.2 ? { mode: "data" as const, type: "cloudflare_waf_packages", name: `d${i}`, repeat: repeat() } : { mode: "managed" as const, type: pick(TYPES), name: `r${i}`, repeat: repeat() },
    );
    const calls: Call[] = depth >= 2 ? [] : Array.from({ length: Math.floor(random() * 3) }, (_, i) => ({ name: `m${i}`, repeat: repeat(), module: module(depth + 1, `modules/m${++dirs}`) }));
    return { dir, blocks, calls };
  };
  return module(0, ".");
}

function meta(r: Repeat): string {
  if (r.kind === "count") return `  count = ${r.n}\n`;
  if (r.kind === "for_each") return `  for_each = toset(${JSON.stringify(r.keys)})\n`.replace(/\$\{/g, "$${");
  return "";
}

function write(root: string, m: ModuleSpec): void {
  const dir = path.join(root, m.dir);
  mkdirSync(dir, { recursive: true });
  let text = 'variable "zone_id" {\n  type    = string\n  default = "3f1bc18efe333337886cd2d0f6fa0000"\n}\n\n';
  for (const b of m.blocks) {
    text += `${b.mode === "data" ? "data" : "resource"} "${b.type}" "${b.name}" {\n${meta(b.repeat)}  zone_id = var.zone_id\n}\n\n`;
  }
  for (const c of m.calls) {
    text += `module "${c.name}" {\n  source = "${path.posix.relative(m.dir, c.module.dir).replace(/^(?!\.)/, "./")}"\n${meta(c.repeat)}}\n\n`;
    write(root, c.module);
  }
  writeFileSync(path.join(dir, "main.tf"), text);
}

function keysOf(r: Repeat): (IndexKey | undefined)[] {
  if (r.kind === "count") return Array.from({ length: r.n }, (_, i) => i);
  if (r.kind === "for_each") return r.keys;
  return [undefined];
}

/** Every instance address a state of this tree holds. */
function instances(m: ModuleSpec, path: AddressStep[] = []): string[] {
  const out: string[] = [];
  for (const b of m.blocks) {
    for (const key of keysOf(b.repeat)) out.push(formatAddress({ modules: path, mode: b.mode, type: b.type, name: b.name, ...(key === undefined ? {} : { key }) }));
  }
  for (const c of m.calls) {
    for (const key of keysOf(c.repeat)) out.push(...instances(c.module, [...path, key === undefined ? { name: c.name } : { name: c.name, key }]));
  }
  return out;
}

describe("resource coverage on random trees (seeded)", () => {
  it("the configured resources cover every legacy instance of a matching state, in TypeScript and in migrate.sh's sed", async () => {
    const random = seeded(2026);
    let checked = 0;
    for (let i = 0; i < 25; i++) {
      const spec = generate(random);
      const dir = tempDir("cfwm-prop-");
      write(dir, spec);
      const ws = await loadWorkspace({ paths: [dir], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
      expect(ws.errors, `tree ${i}`).toEqual([]);
      const resources = blockTargets(ws.tree, (r) => isLegacyBlock(r.mode, r.type)).configAddresses;
      const state = instances(spec);
      expect(instancesOfResources(state, resources), `tree ${i}`).toEqual(state);
      // With the state known, the set only grows by what state adds (nothing here).
      expect(legacyResourceSet(resources, state)).toEqual(resources);
      if (state.length) {
        const sed = await execa("sed", ["-E", STRIP_INSTANCE_KEYS_SED], { input: state.join("\n") + "\n" });
        const set = new Set(resources);
        for (const line of sed.stdout.split("\n")) expect(set.has(line), line).toBe(true);
        checked += state.length;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
