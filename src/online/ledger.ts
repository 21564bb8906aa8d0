// The wave ledger: one JSON line per migration request and per answer, appended and fsynced before the
// next request leaves, so a run killed at any point leaves a record the rerun can trust. Lines pass the
// credential redactor before they are written. A torn last line (the kill landed inside a write) is
// ignored when reading: its request was not sent yet, since sending waits for the fsync.

import { closeSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import type { LedgerEntry } from "../core/waves.js";

export interface LedgerFile {
  path: string;
  entries: LedgerEntry[];
  /** Lines that could not be read (line number and reason), reported, never fatal. */
  damaged: { line: number; reason: string }[];
}

export function readLedger(path: string): LedgerFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { path, entries: [], damaged: [] };
    throw e;
  }
  const entries: LedgerEntry[] = [];
  const damaged: LedgerFile["damaged"] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const e = JSON.parse(line) as LedgerEntry;
      if (e && typeof e === "object" && typeof e.zoneId === "string" && (e.type === "request" || e.type === "answer" || e.type === "reconciled")) entries.push(e);
      else damaged.push({ line: i + 1, reason: "not a ledger entry" });
    } catch {
      damaged.push({ line: i + 1, reason: i === lines.length - 1 ? "torn last line (the run was killed while writing it)" : "not JSON" });
    }
  });
  return { path, entries, damaged };
}

/** Appends one entry and fsyncs it; returns only once the line is on disk. */
export function appendLedger(path: string, entry: LedgerEntry, redact: (text: string) => string): void {
  appendLine(path, redact(JSON.stringify(entry)));
}

/** The ledger's only write: one whole line appended (never a replace), fsynced before returning. */
function appendLine(path: string, line: string): void {
  const fd = openSync(path, "a", 0o600);
  try {
    writeSync(fd, line + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A run killed inside a write leaves a line without its newline: the next entry must start on its own line. */
export function endLedgerWithNewline(path: string): void {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    return;
  }
  if (size === 0) return;
  const text = readFileSync(path, "utf8");
  if (!text.endsWith("\n")) appendLine(path, "");
}
