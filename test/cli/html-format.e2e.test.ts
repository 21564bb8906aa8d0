// `--format html` from the built CLI for each command that reports (and merge): one page each, written with
// --output or as FORMAT=FILE beside another format, carrying what that command is for (the zones, the
// plan's steps, the gate's verdict, the certificate timeline). The browser test opens such pages.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const MZ = ["testdata/multi-zone", "--state", "testdata/multi-zone/terraform.tfstate"];

function page(file: string): string {
  const text = readFileSync(file, "utf8");
  expect(text.startsWith("<!doctype html>")).toBe(true);
  expect(text).toContain('http-equiv="Content-Security-Policy"');
  return text;
}

describe("--format html", () => {
  const out = tempDir("cfwm-htmlfmt-");

  it("scan: the estate overview and every zone; the exit code is the command's", async () => {
    const file = path.join(out, "scan.html");
    const r = await runCli(["scan", ...MZ, "--format", "html", "--output", file, "--fail-on", "error"]);
    expect(r.exitCode).toBe(1);
    const html = page(file);
    expect(html).toContain("Estate overview");
    for (const id of ["0da42c8d2132a9ddaf714f9e7c920711", "9a7806061c88ada191ed06f989cc3dac"]) expect(html).toContain(id);
  });

  it("plan: the steps with copy buttons, beside a JSON report from the same run", async () => {
    const file = path.join(out, "plan.html");
    const json = path.join(out, "plan.json");
    const r = await runCli(["plan", ...MZ, "--format", `html=${file}`, "--format", `json=${json}`]);
    expect(r.exitCode).toBe(0);
    const html = page(file);
    const steps = JSON.parse(readFileSync(json, "utf8")).plan.steps as { number: number; commands: string[] }[];
    for (const s of steps) if (s.commands.length) expect(html).toContain(`data-copy-target="cmd-${s.number}-1"`);
    expect(html).toContain("Why this order:");
  });

  it("gate: the verdict first", async () => {
    const file = path.join(out, "gate.html");
    const r = await runCli(["gate", "testdata/provider-upgrade", "--format", "html", "-o", file]);
    expect(r.exitCode).toBe(1);
    const html = page(file);
    expect(html.indexOf("GATE FAILED")).toBeGreaterThan(-1);
    expect(html.indexOf("GATE FAILED")).toBeLessThan(html.indexOf("Estate overview"));
  });

  it("merge: the page of a merged report is the page of the scan it came from (zones[].legacy travels in the JSON)", async () => {
    const json = path.join(out, "scan-for-merge.json");
    const scanHtml = path.join(out, "scan-for-merge.html");
    const mergedHtml = path.join(out, "merged.html");
    const s = await runCli(["scan", ...MZ, "--format", `json=${json}`, "--format", `html=${scanHtml}`]);
    expect(s.exitCode).toBe(0);
    const m = await runCli(["merge", json, "--format", "html", "-o", mergedHtml, "--fail-on", "never"]);
    expect(m.exitCode, m.stderr).toBe(0);
    const merged = page(mergedHtml);
    expect(merged).toContain("Before: the previous WAF as configured");
    expect(merged.split("cf-waf-migrate merge").join("cf-waf-migrate scan")).toBe(page(scanHtml));
  });

  it("certs: the timeline with the as-of day and the certificates", async () => {
    const file = path.join(out, "certs.html");
    const r = await runCli(["certs", "testdata/certificates", "--as-of", "2024-08-20", "--format", "html", "-o", file]);
    expect(r.exitCode).toBe(0);
    const html = page(file);
    expect(html).toContain("Certificates as of 2024-08-20");
    expect(html).toContain("2024-08-20 · as of");
    expect(html).toContain("cloudflare_certificate_pack.");
  });
});
