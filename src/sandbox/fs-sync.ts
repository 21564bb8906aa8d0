// The provider double's only file writes (its account, its mirror, its RPC trace). Synchronous on purpose:
// the plugin answers each RPC in one turn of the event loop, so a read-modify-write of the account cannot
// interleave with another RPC of the same process. Whole files go through a temporary file, fsync and
// rename, so a Terraform process killed mid-apply never leaves a half-written account or wrapper.

import { appendFileSync, closeSync, fsyncSync, openSync, renameSync, writeSync, chmodSync } from "node:fs";

export function writeFileAtomicSync(path: string, data: string, mode?: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", mode ?? 0o644);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Appends one line with a single write (O_APPEND), so lines from concurrent plugins never interleave. */
export function appendLineSync(path: string, line: string): void {
  appendFileSync(path, line.endsWith("\n") ? line : `${line}\n`);
}
