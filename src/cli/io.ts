// Process-facing helpers of the CLI: standard input, writing the report, the tool's version.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../terraform/edit/fs-atomic.js";

export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

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

/**
 * Writes a report file atomically (temp file + rename), so a reader never sees half a report; replacing a
 * Terraform configuration or state file (a mistyped --output) keeps a `.backup` copy of it first.
 */
export async function writeReportFile(file: string, content: string | Iterable<string>): Promise<void> {
  const abs = path.resolve(file);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFileAtomic(abs, content, { backup: /\.(tf|tf\.json|tfstate|tfstate\.backup)$/.test(abs) });
}

/** The report's `root`: the base directory relative to the working directory, with forward slashes. */
export function relativeRoot(base: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, base).split(path.sep).join("/");
  return rel === "" ? "." : rel;
}
