// How a plan names the files it wrote, or found in its way, in one line on stderr. An estate's plan writes
// seven files per root and workspace: on the 200-root bench tree the list was one 64 KB line.
import path from "node:path";

/** Files named in full up to this many. */
const NAMED_MOST = 10;

/** `a, b, c`; past NAMED_MOST, the first ones and how many more. */
export function someFiles(files: readonly string[]): string {
  if (files.length <= NAMED_MOST) return files.join(", ");
  return `${files.slice(0, NAMED_MOST).join(", ")} and ${files.length - NAMED_MOST} more`;
}

/**
 * What an estate's plan wrote: every file when they are few; else its index (`estateFile`, under `outDir`)
 * and how many files in how many directories, which the index lists in the order to run them.
 */
export function estateWritten(outDir: string, estateFile: string, written: readonly string[]): string {
  if (written.length <= NAMED_MOST) return `wrote ${written.join(", ")}`;
  const index = path.join(outDir, estateFile);
  const others = written.filter((f) => f !== index);
  const dirs = new Set(others.map((f) => path.dirname(f))).size;
  return `wrote ${index} and ${others.length} files in ${dirs} directories under ${outDir}, one per root and workspace (${estateFile} lists them in the order to run them)`;
}
