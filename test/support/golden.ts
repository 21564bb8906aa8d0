// Golden files: compared exactly; `UPDATE_GOLDEN=1 npm test` rewrites them (review the diff before committing).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

export function expectGolden(file: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.CI && process.env.UPDATE_GOLDEN !== "1") throw new Error(`golden file ${file} was missing (written now; commit it)`);
    return;
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}

export function expectGoldenJson(file: string, actual: unknown): void {
  expectGolden(file, JSON.stringify(actual, null, 2) + "\n");
}
