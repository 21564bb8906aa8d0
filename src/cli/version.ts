// The tool's version, from the package.json two levels above this file (src/cli/ and dist/cli/ alike).
import { readFileSync } from "node:fs";

let cachedVersion: string | null = null;

export function toolVersion(): string {
  if (cachedVersion) return cachedVersion;
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
    cachedVersion = pkg.version ?? "0.0.0";
  } catch {
    cachedVersion = "0.0.0";
  }
  return cachedVersion;
}
