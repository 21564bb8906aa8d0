// Writing user files safely: a reader (or a crash) sees either the old content or the new, never a part.
//
// writeFileAtomic: optional backup copy of the current file, then write to a temporary file in the same
// directory, fsync it, and rename it over the target (rename is atomic within one file system). On any
// failure the temporary file is removed and the target is left as it was.
//
// Only a regular file (or a name that does not exist yet) gets that treatment. A rename replaces whatever
// the name points at, so renaming over `/dev/null` run as root (CI containers) would turn the device into
// a regular file. Character devices, FIFOs and the process's own descriptors (`/dev/stdout`,
// `/dev/fd/N`) are written in place instead; a symbolic link is followed, so a linked regular file is
// replaced at its target and the link stays a link.

import * as nodeFs from "node:fs/promises";
import { constants } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** The file-system calls used here; tests inject failures through it. */
export interface AtomicFs {
  open: typeof nodeFs.open;
  rename: typeof nodeFs.rename;
  unlink: typeof nodeFs.unlink;
  copyFile: typeof nodeFs.copyFile;
  stat: typeof nodeFs.stat;
  chmod: typeof nodeFs.chmod;
  link: typeof nodeFs.link;
  /** Optional so that older injected implementations keep working; node's own calls otherwise. */
  lstat?: typeof nodeFs.lstat;
  readlink?: typeof nodeFs.readlink;
}

/** Node's own file system: what every write goes through unless a caller (a test) injects another. */
export const NODE_ATOMIC_FS: AtomicFs = {
  open: nodeFs.open,
  rename: nodeFs.rename,
  unlink: nodeFs.unlink,
  copyFile: nodeFs.copyFile,
  stat: nodeFs.stat,
  chmod: nodeFs.chmod,
  link: nodeFs.link,
  lstat: nodeFs.lstat,
  readlink: nodeFs.readlink,
};

export interface WriteAtomicOptions {
  /** Copy the current file to `<path>.backup` (or `<path>.backup.N`, the first N free) before writing. */
  backup?: boolean;
  /** File-system implementation (tests). */
  fs?: AtomicFs;
  /** Permission bits of a file created new (an existing file keeps its own); default 0o666 less the umask. */
  newFileMode?: number;
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

/**
 * An error the system gave a file operation (ENOSPC, EDQUOT, EROFS, EACCES…: it carries an errno code), not a
 * bug of ours: what the user fixes (room, a quota, permissions), reported in one line, never as internal.
 */
export function isSystemError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code);
}

/** Copy `path` to the first free name of `<path>.backup`, `<path>.backup.1`, `<path>.backup.2`, … */
export async function backupFile(path: string, fs: AtomicFs = NODE_ATOMIC_FS): Promise<string> {
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
 * final rename never crosses file systems; an existing file's permission bits are kept. A symbolic link
 * is followed (the file at its end is replaced, the link kept); a character device, FIFO or descriptor
 * path (`/dev/stdout`) is written in place, without backup, since renaming over it would replace it.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  opts: WriteAtomicOptions = {},
): Promise<WriteAtomicResult> {
  const fs = opts.fs ?? NODE_ATOMIC_FS;
  const target = await resolveWriteTarget(path, fs);
  if (target.kind === "in-place") {
    await writeInPlace(target.path, target.flags, data, fs);
    return { backupPath: null };
  }
  return replaceRegularFile(target.path, data, opts.backup === true, fs, opts.newFileMode ?? 0o666);
}

/** Temporary file next to `path`, then rename over it: the atomic path, for regular files only. */
async function replaceRegularFile(path: string, data: string | Uint8Array | Iterable<string>, backup: boolean, fs: AtomicFs, newFileMode: number): Promise<WriteAtomicResult> {
  let mode: number | null = null;
  try {
    mode = (await fs.stat(path)).mode & 0o7777;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  const backupPath = backup && mode !== null ? await backupFile(path, fs) : null;

  await viaTempFile(path, data, mode ?? newFileMode, fs, async (tmp) => {
    // open() applies the umask; give the replacement exactly the old file's bits.
    if (mode !== null) await fs.chmod(tmp, mode);
    await fs.rename(tmp, path);
    return "consumed";
  });
  await syncDir(dirname(path), fs);
  return { backupPath };
}

/** Where and how a write lands: replaced atomically as a regular file, or written into what is there. */
type WriteTarget = { kind: "regular"; path: string } | { kind: "in-place"; path: string; flags: number };

/** `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor this process already has open. */
const DESCRIPTOR_PATH = /^(?:\/dev\/(?:stdout|stderr|fd\/\d+)|\/proc\/(?:self|thread-self|\d+)\/fd\/\d+)$/;
/** The kernel's own limit on symbolic links followed in one lookup (ELOOP beyond it). */
const MAX_LINK_HOPS = 40;

/**
 * Follows symbolic links by hand (realpath cannot: `/proc/self/fd/1` of a pipe points at `pipe:[…]`, which
 * is no path) and decides how to write: a missing name or a regular file is replaced atomically at the
 * end of the chain; a device, FIFO or descriptor is written in place.
 */
async function resolveWriteTarget(path: string, fs: AtomicFs): Promise<WriteTarget> {
  const lstat = fs.lstat ?? nodeFs.lstat;
  const readlink = fs.readlink ?? nodeFs.readlink;
  let current = resolve(path);
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    // Appending, never truncating: `--output /dev/stdout` while stdout is a log file opened with `>>`
    // must add to the log, not empty it.
    if (DESCRIPTOR_PATH.test(current)) return { kind: "in-place", path: current, flags: constants.O_WRONLY | constants.O_APPEND };
    let st;
    try {
      st = await lstat(current);
    } catch (e) {
      if (isNotFound(e)) return { kind: "regular", path: current };
      throw e;
    }
    if (st.isSymbolicLink()) {
      current = resolve(dirname(current), await readlink(current));
      continue;
    }
    if (st.isFile()) return { kind: "regular", path: current };
    // No O_CREAT: if the device disappears between the check and the open, fail instead of creating a file.
    if (st.isCharacterDevice() || st.isFIFO() || st.isBlockDevice()) return { kind: "in-place", path: current, flags: constants.O_WRONLY };
    if (st.isDirectory()) throw Object.assign(new Error(`${path} is a directory, not a file`), { code: "EISDIR", path });
    throw Object.assign(new Error(`${path} is not a regular file, device or FIFO: refusing to replace it`), { code: "EINVAL", path });
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: "ELOOP", path });
}

/** Open what is there and write into it (devices, FIFOs, descriptors): no temporary file, no rename, no backup. */
async function writeInPlace(path: string, flags: number, data: string | Uint8Array | Iterable<string>, fs: AtomicFs): Promise<void> {
  // Opening a FIFO for writing waits for a reader, as a shell redirection does.
  const handle = await fs.open(path, flags);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
    else await writeBatched(handle, data);
  } finally {
    await handle.close();
  }
}

/**
 * Pieces of text written in batches of about 64 KB: a large report never becomes one string. A batch stays
 * below V8's large-object size (128 KB), so it is born and dies in the young generation; 1 MB batches went
 * to the old generation, where a 330 MB report left 330 MB of garbage only a full collection frees.
 */
async function writeBatched(handle: { write(s: string): Promise<unknown> }, pieces: Iterable<string>): Promise<void> {
  let batch = "";
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= 1 << 16) {
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
  const fs = opts.fs ?? NODE_ATOMIC_FS;
  if (opts.force) {
    await writeFileAtomic(path, data, { fs });
    return;
  }
  await viaTempFile(path, data, 0o666, fs, async (tmp) => {
    try {
      await fs.link(tmp, path);
    } catch (e) {
      if (isExists(e)) throw new FileExistsError(path);
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw e;
      await writeExclusive(path, data, fs);
    }
    return "left"; // the link is a second name: the temporary one goes
  });
  await syncDir(dirname(path), fs);
}

/**
 * Writes `data` to a new temporary file next to `path` (created exclusively, fsynced) and hands it to
 * `place` (rename it over `path`, or link it to `path`). The temporary name is removed afterwards unless
 * `place` consumed it, and whenever anything failed.
 */
async function viaTempFile(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  mode: number,
  fs: AtomicFs,
  place: (tmp: string) => Promise<"consumed" | "left">,
): Promise<void> {
  // node:crypto is loaded on the first write, not by every command that might write.
  const { randomBytes } = await import("node:crypto");
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let left = false;
  try {
    const handle = await fs.open(tmp, "wx", mode);
    left = true;
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      else await writeBatched(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    left = (await place(tmp)) === "left";
  } finally {
    if (left) await fs.unlink(tmp).catch(() => undefined);
  }
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
