// testdata/split-stacks (edge: Page Rules of the docs zone; legacy-waf: its legacy WAF) copied as a
// repository of its own (a `.git` marker at its top), for the one-root searches of other roots.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

export const DOCS = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7";
export const DOCS_RS = "4814384a9e5d4991b9815dcfc25d2f1f";

export interface Finding {
  code: string;
  severity: string;
  file: string | null;
  line: number | null;
  zoneId: string | null;
  message: string;
  root?: string;
  workspace?: string;
  details?: Record<string, unknown>;
}

/**
 * The copy's top. `git: false`: outside any repository. `pinLegacy`: legacy-waf pinned to ~> 3.35, so that
 * its only error is the one under test.
 */
export function splitStacksRepository(opts: { git?: boolean; pinLegacy?: boolean } = {}): string {
  const top = tempDir("cfwm-split-stacks-");
  for (const d of ["edge", "legacy-waf"]) cpSync(path.join(TESTDATA, "split-stacks", d), path.join(top, d), { recursive: true });
  if (opts.git !== false) mkdirSync(path.join(top, ".git"));
  if (opts.pinLegacy) {
    const main = path.join(top, "legacy-waf/main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace('">= 3.20, < 4.0"', '"~> 3.35"'));
  }
  return top;
}

export const byCode = (report: { findings: Finding[] }, code: string) => report.findings.filter((f) => f.code === code);
