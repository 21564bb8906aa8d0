// Writing user files safely: a reader (or a crash) sees either the old content or the new, never a part.
//
// writeFileAtomic: optional backup copy of the current file, then write to a temporary file in the same
// directory, fsync it, and rename it over the target (rename is atomic within one file system). On any
// failure the temporary file is removed and the target is left as it was.

import * as nodeFs from "node:fs/promises";
import { constants } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

/** The file-system calls used here; tests inject failures through it. */
export interface AtomicFs {
  open: typeof nodeFs.open;
  rename: typeof nodeFs.rename;
  unlink: typeof nodeFs.unlink;
  copyFile: typeof nodeFs.copyFile;
  stat: typeof nodeFs.stat;
  chmod: typeof nodeFs.chmod;
  link: typeof nodeFs.link;
}

const defaultFs: AtomicFs = {
  open: nodeFs.open,
  rename: nodeFs.rename,
  unlink: nodeFs.unlink,
  copyFile: nodeFs.copyFile,
  stat: nodeFs.stat,
  chmod: nodeFs.chmod,
  link: nodeFs.link,
};

export interface WriteAtomicOptions {
  /** Copy the current file to `<path>.backup` (or `<path>.backup.N`, the first N free) before writing. */
  backup?: boolean;
  /** File-system implementation (tests). */
  fs?: AtomicFs;
}

export interface WriteAtomicResult {
  /** Where the previous content was copied, when a backup was made. */
  backupPath: string | null;
}

/** `writeNewFile` found a file where it was asked to create one. */
export class FileExistsError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`${path} already exists; refusing to overwrite it without force`);
    this.name = "FileExistsError";
    this.path = path;
  }
}

function isNotFound(e: unknown): boolean {
  return (e as NodeJS.ErrnoException)?.code === "ENOENT";
}

function isExists(e: unknown): boolean {
  return (e as NodeJS.ErrnoException)?.code === "EEXIST";
}

/** Copy `path` to the first free name of `<path>.backup`, `<path>.backup.1`, `<path>.backup.2`, … */
export async function backupFile(path: string, fs: AtomicFs = defaultFs): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? `${path}.backup` : `${path}.backup.${n}`;
    try {
      // COPYFILE_EXCL: never overwrite an earlier backup, even if one appears concurrently.
      await fs.copyFile(path, candidate, constants.COPYFILE_EXCL);
      return candidate;
    } catch (e) {
      if (!isExists(e)) throw e;
    }
  }
}

/** fsync a directory so a rename inside it is durable; not every platform allows it, so best effort. */
async function syncDir(dir: string, fs: AtomicFs): Promise<void> {
  let handle: nodeFs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
  } catch {
    // Directories cannot be opened or synced on some platforms (Windows); the rename is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Replace (or create) `path` with `data` atomically. The temporary file lives next to the target so the
 * final rename never crosses file systems; an existing file's permission bits are kept.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  opts: WriteAtomicOptions = {},
): Promise<WriteAtomicResult> {
  const fs = opts.fs ?? defaultFs;
  let mode: number | null = null;
  try {
    mode = (await fs.stat(path)).mode & 0o7777;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  const backupPath = opts.backup && mode !== null ? await backupFile(path, fs) : null;

  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    const handle = await fs.open(tmp, "wx", mode ?? 0o666);
    created = true;
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      else await writeBatched(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; give the replacement exactly the old file's bits.
    if (mode !== null) await fs.chmod(tmp, mode);
    await fs.rename(tmp, path);
    created = false;
  } finally {
    if (created) await fs.unlink(tmp).catch(() => undefined);
  }
  await syncDir(dir, fs);
  return { backupPath };
}

/** Pieces of text written in batches of about 1 MB: a large report never becomes one string. */
async function writeBatched(handle: { write(s: string): Promise<unknown> }, pieces: Iterable<string>): Promise<void> {
  let batch = "";
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= 1 << 20) {
      await handle.write(batch);
      batch = "";
    }
  }
  if (batch) await handle.write(batch);
}

export interface WriteNewFileOptions {
  /** Replace an existing file (atomically) instead of refusing. */
  force?: boolean;
  fs?: AtomicFs;
}

/**
 * Create `path` with `data`. Without `force`, an existing file is never touched: FileExistsError.
 * With `force`, the file is replaced atomically (no backup).
 *
 * Without `force` the content is written to a temporary file first and then hard-linked into place:
 * link() fails with EEXIST when the name is taken, even by a file that appeared a moment ago, and the
 * new file never appears half-written. Where hard links are not supported it falls back to an exclusive
 * create (`wx`).
 */
export async function writeNewFile(path: string, data: string | Uint8Array, opts: WriteNewFileOptions = {}): Promise<void> {
  const fs = opts.fs ?? defaultFs;
  if (opts.force) {
    await writeFileAtomic(path, data, { fs });
    return;
  }
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    const handle = await fs.open(tmp, "wx", 0o666);
    created = true;
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      else await writeBatched(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.link(tmp, path);
    } catch (e) {
      if (isExists(e)) throw new FileExistsError(path);
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw e;
      await writeExclusive(path, data, fs);
    }
  } finally {
    if (created) await fs.unlink(tmp).catch(() => undefined);
  }
  await syncDir(dir, fs);
}

async function writeExclusive(path: string, data: string | Uint8Array, fs: AtomicFs): Promise<void> {
  let handle: nodeFs.FileHandle;
  try {
    handle = await fs.open(path, "wx", 0o666);
  } catch (e) {
    if (isExists(e)) throw new FileExistsError(path);
    throw e;
  }
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
