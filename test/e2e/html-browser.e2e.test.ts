// The HTML report in a real browser (Debian's chromium, driven by playwright-core), opened from disk as a
// reviewer would: `plan` on a copy of the multi-zone example whose firewall rule description carries
// markup, an estate-sized page (40 zones across roots and workspaces) and the certs page. Checks that no request leaves
// the page, nothing logs an error (a CSP hash that did not match would), every zone id and legacy address
// is visible, the status filter and the search work, the copy button copies the command, the injected
// markup stays text, and axe-core finds no serious or critical violation. Screenshots go to test-results/.
// One browser for the whole file.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { renderHtml } from "../../src/render/html/index.js";
import { replicateZones } from "../../scripts/bench/html-estate.mjs";
import { ROOT, runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = path.join(ROOT, "test-results");
const INJECTED = `<img src=x onerror="document.title='pwned'">`;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let browser: Browser;
let context: BrowserContext;
/** Every URL a page asked for that is not the page's own file. */
const leaked: string[] = [];
const consoleErrors: string[] = [];
let planHtml: string;
let planJson: Report;
let estateHtml: string;
let certsHtml: string;
let estate: Report;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (or set CHROMIUM)`);
  // The reviewer's input: the example with markup in a firewall rule's description (config and state).
  const dir = copyFixture("multi-zone");
  for (const file of readdirSync(dir)) {
    const abs = path.join(dir, file);
    if (!/\.(tf|tfstate)$/.test(file)) continue;
    const text = readFileSync(abs, "utf8");
    const escaped = file.endsWith(".tfstate") ? JSON.stringify(INJECTED).slice(1, -1) : INJECTED.replace(/"/g, '\\"');
    writeFileSync(abs, text.split("Let monitors through the WAF").join(`Let monitors through ${escaped}`));
  }
  const out = tempDir("cfwm-html-");
  planHtml = path.join(out, "plan.html");
  const jsonFile = path.join(out, "plan.json");
  const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--format", `html=${planHtml}`, "--format", `json=${jsonFile}`], { cwd: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  planJson = JSON.parse(readFileSync(jsonFile, "utf8")) as Report;
  certsHtml = path.join(out, "certs.html");
  const c = await runCli(["certs", path.join(ROOT, "testdata/certificates"), "--as-of", "2024-08-20", "--format", "html", "-o", certsHtml]);
  expect(c.exitCode, c.stderr).toBe(0);
  estate = replicateZones(planJson, 40, { roots: 8 }) as Report;
  estateHtml = path.join(out, "estate.html");
  writeFileSync(estateHtml, renderHtml(estate, { title: "scan" }));

  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    leaked.push(url);
    return route.abort();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function open(file: string): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  return page;
}

/** Legacy addresses the page must show for a zone: every item of `legacy` and every state removal. */
function legacyAddresses(z: Report["zones"][number]): string[] {
  const l = z.legacy!;
  return [...l.packages, ...l.groups, ...l.rules, ...l.overrides, ...l.firewallRules, ...l.pageRules].map((x) => x.address).concat(z.stateRemovals);
}

async function visibleRows(page: Page): Promise<number> {
  return page.locator("#zone-table tbody tr:visible").count();
}

describe("the plan page of the multi-zone example", () => {
  it("shows every zone id and legacy address; the injected markup stays text", async () => {
    const page = await open(planHtml);
    const text = await page.locator("body").innerText();
    expect(planJson.zones.length).toBeGreaterThan(1);
    for (const z of planJson.zones) {
      expect(text).toContain(z.zoneId);
      for (const a of legacyAddresses(z)) expect(text, a).toContain(a);
    }
    expect(text).toContain(`Let monitors through ${INJECTED}`);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.title()).not.toBe("pwned");
    await page.screenshot({ path: path.join(SHOTS, "html-overview.png") });
    await page.locator("section.zone").first().screenshot({ path: path.join(SHOTS, "html-zone.png") });
    await page.close();
  });

  it("the copy button copies the command", async () => {
    const page = await open(planHtml);
    const first = planJson.plan!.steps.find((s) => s.commands.length)!;
    const button = page.locator(`button.copy[data-copy-target="cmd-${first.number}-1"]`);
    await button.click();
    await expect.poll(() => page.locator(`#cmd-${first.number}-1-note`).innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.commands[0]);
    await page.close();
  });

  it("axe-core finds no serious or critical violation", async () => {
    const page = await open(planHtml);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("the certs page", () => {
  it("marks the as-of day on the timeline and passes axe-core", async () => {
    const page = await open(certsHtml);
    const now = page.locator("ol.timeline li.now");
    expect(await now.innerText()).toContain("2024-08-20");
    expect(await page.locator("body").innerText()).toContain("Due within 30 days");
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (the page itself runs only its own script).
  await page.evaluate(AXE_SOURCE);
  type AxeResult = { passes: unknown[]; violations: { id: string; impact: string; nodes: unknown[] }[] };
  const result = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResult> } }).axe.run(document, { resultTypes: ["violations"] });
    return { passes: r.passes.length, violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })) };
  });
  expect(result.passes).toBeGreaterThan(10); // the scan really ran over the page
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

// The estate fixture of issue #13 (several roots, workspaces, a split zone, a migrated root), scanned by
// the built CLI with every state it holds, when this checkout has it.
const ESTATE = path.join(ROOT, "testdata/estate");
describe.skipIf(!existsSync(ESTATE))("the scan page of testdata/estate", () => {
  it("shows every zone entry, its root and legacy addresses, and passes axe-core", async () => {
    const states = findStates(ESTATE).flatMap((s) => ["--state", path.relative(ROOT, s)]);
    const out = tempDir("cfwm-html-estate-");
    const file = path.join(out, "estate.html");
    const json = path.join(out, "estate.json");
    const r = await runCli(["scan", "testdata/estate", ...states, "--format", `html=${file}`, "--format", `json=${json}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report & { roots?: { path: string }[] };
    expect((report.roots ?? []).length).toBeGreaterThan(1);
    const page = await open(file);
    await page.click("#expand-all");
    const text = await page.locator("body").innerText();
    for (const z of report.zones) {
      expect(text).toContain(z.zoneId);
      expect(text).toContain((z as { root?: string }).root ?? "");
      if (z.legacy) for (const a of legacyAddresses(z)) expect(text, a).toContain(a);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 120_000);
});

/** Every terraform.tfstate under a directory (workspaces' included). */
function findStates(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === "terraform.tfstate")
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

describe("an estate page of 40 zones", () => {
  it("filters by status and searches by zone name or id; zones open from their link", async () => {
    const page = await open(estateHtml);
    expect(await visibleRows(page)).toBe(40);
    const blocked = estate.zones.filter((z) => !z.compatible).length;
    expect(blocked).toBeGreaterThan(0);
    await page.selectOption("#status-filter", "blocked");
    expect(await visibleRows(page)).toBe(blocked);
    for (const s of await page.locator("#zone-table tbody tr:visible td:first-child").allInnerTexts()) expect(s).toContain("Blocked");
    expect(await page.locator("section.zone:visible").count()).toBe(blocked);
    await page.selectOption("#status-filter", "all");

    const target = estate.zones[17]!;
    await page.fill("#zone-search", target.zoneId.slice(0, 12).toUpperCase());
    expect(await visibleRows(page)).toBe(1);
    expect(await page.locator("#zones-shown").innerText()).toBe("1 zone shown");
    await page.fill("#zone-search", target.zoneName!);
    expect(await visibleRows(page)).toBe(1);

    // Zones start closed in a page this size; the overview's link opens the zone it points at.
    const zoneText = page.locator("#zone-18 .zone-body");
    expect(await zoneText.isVisible()).toBe(false);
    await page.locator('#zone-table a[href="#zone-18"]').click();
    await expect.poll(() => zoneText.isVisible()).toBe(true);
    const body = await zoneText.innerText();
    for (const a of legacyAddresses(target)) expect(body).toContain(a);
    await page.screenshot({ path: path.join(SHOTS, "html-estate.png") });

    // On a phone the before/after columns stack and nothing widens the page.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS, "html-phone.png") });
    await page.close();
  });

  it("prints every zone open, without the controls", async () => {
    const page = await open(estateHtml);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator(".controls").isVisible()).toBe(false);
    // What the browser fires before printing (Ctrl+P or a PDF export).
    await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
    expect(await page.locator("section.zone > details:not([open])").count()).toBe(0);
    await page.close();
  });

  it("every page load: no request left the page and nothing logged an error", () => {
    expect(leaked).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
