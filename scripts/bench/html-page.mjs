#!/usr/bin/env node
// Bench driver for `--format html` at estate size: the multi-zone example's plan report copied to N zones
// across roots and workspaces (html-estate.mjs), rendered by the built renderer; then the page is opened
// from disk in chromium (playwright-core) and timed until its load event, and once more with every zone
// expanded. Prints one JSON line: zones, bytes, renderMs, loadMs, expandMs.
//
//   node scripts/bench/html-page.mjs [ZONES] [OUT.html]
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { replicateZones } from "./html-estate.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const zones = Number(process.argv[2] ?? 1000);
const out = process.argv[3] ?? path.join(ROOT, ".bench", `html-${zones}.html`);
const { renderHtml } = await import(pathToFileURL(path.join(ROOT, "dist/render/html/index.js")).href);

const json = execFileSync(
  process.execPath,
  [path.join(ROOT, "dist/cli/main.js"), "plan", "testdata/multi-zone", "--state", "testdata/multi-zone/terraform.tfstate", "--format", "json", "--quiet"],
  { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 },
);
const report = replicateZones(JSON.parse(json), zones);
const t0 = performance.now();
const page = renderHtml(report, { title: "scan" });
const renderMs = performance.now() - t0;
writeFileSync(out, page);

const result = { zones, bytes: Buffer.byteLength(page), renderMs: Math.round(renderMs), loadMs: null, expandMs: null };
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(chromiumPath)) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const t1 = performance.now();
  await tab.goto(pathToFileURL(out).href, { waitUntil: "load" });
  // The first frame after load: the page has been laid out and painted once.
  await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  result.loadMs = Math.round(performance.now() - t1);
  const t2 = performance.now();
  await tab.click("#expand-all");
  await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  result.expandMs = Math.round(performance.now() - t2);
  await browser.close();
}
console.log(JSON.stringify(result));
