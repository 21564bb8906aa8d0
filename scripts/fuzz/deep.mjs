#!/usr/bin/env node
// Probes nesting deeper than the in-process fuzz run dares, one child process per case (a stack overflow
// inside hcl2json corrupts its Go runtime for the rest of the process). Each case parses one deeply nested
// file with parseConfigFile (dist/), then a small valid file, and reports what happened as one JSON line:
//   node scripts/fuzz/deep.mjs              run every case, print a summary line per case
//   node scripts/fuzz/deep.mjs STYLE DEPTH  (internal) one case in this process
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CASES = [
  ["block", 1500],
  ["template", 2500],
  ["list", 3000],
];

const TEXT = {
  block: (d) => `resource "cloudflare_waf_rule" "deep" {\n${"n {\n".repeat(d)}x = 1\n${"}\n".repeat(d)}}\n`,
  template: (d) => `locals {\n  a = ${'"${'.repeat(d)}1${'}"'.repeat(d)}\n}\n`,
  list: (d) => `locals {\n  a = ${"[".repeat(d)}1${"]".repeat(d)}\n}\n`,
};

async function one(style, depth) {
  const { parseConfigFile } = await import(new URL("../../dist/terraform/hcl/parse.js", import.meta.url).href);
  const deep = await parseConfigFile("deep.tf", TEXT[style](depth));
  let after = "ok";
  for (let i = 0; i < 30; i++) {
    const r = await parseConfigFile("small.tf", `locals {\n  a${i} = [${i}]\n}\n`);
    if (!r.ok) after = `small file fails: ${r.error.message.slice(0, 80)}`;
  }
  // Let the WASM glue's timers run: a corrupted runtime throws from one of them.
  await new Promise((r) => setTimeout(r, 200));
  process.stdout.write(`${JSON.stringify({ style, depth, deep: deep.ok ? "parsed" : { line: deep.error.line, message: deep.error.message.slice(0, 80) }, after })}\n`);
}

/** Runs every case in its own process; returns one result per case. */
export function probeAll() {
  const self = fileURLToPath(import.meta.url);
  return CASES.map(([style, depth]) => {
    const r = spawnSync(process.execPath, [self, style, String(depth)], { encoding: "utf8", timeout: 60_000 });
    const line = r.stdout.trim().split("\n").pop();
    let result = null;
    try {
      result = JSON.parse(line ?? "");
    } catch {
      result = null;
    }
    const stderrLines = r.stderr.split("\n").length;
    const uncaught = /Go program has already exited|fatal error/.test(r.stderr);
    const positioned = result !== null && (result.deep === "parsed" || Number.isInteger(result.deep.line));
    const fine = positioned && result.after === "ok" && r.status === 0 && !uncaught;
    return { style, depth, fine, exit: r.status, result, stderrLines, uncaught };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.length > 2) await one(process.argv[2], Number(process.argv[3]));
  else for (const r of probeAll()) console.log(JSON.stringify(r));
}
