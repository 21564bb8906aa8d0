// A file of text records (or of opaque byte records, estate/spill/clone.ts), written once and then read back:
// sequentially (a range of records, with one buffer), or one record at a time by its span. What
// estate/spill/scan.ts keeps of the report's big lists while the estate is read: each item as the JSON
// report prints it (render/json.ts reportItemJson), so writing that report copies text. A record
// ends with a NUL byte, which JSON text never holds (JSON.stringify escapes U+0000), whereas the printed
// items span lines. Synchronous: the report is rendered by a synchronous generator.
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import { UserInputError } from "../../core/user-input-error.js";

/** Where a record (or a run of records) sits in the file, in bytes. */
export interface Span {
  start: number;
  end: number;
}

const WRITE_BATCH = 1 << 16;
const END = 0;
const END_BYTE = Buffer.from([END]);

export class RecordFile {
  private readonly fd: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private size = 0;

  /** `written`: a file another thread wrote (and flushed), opened to be read by span only. */
  constructor(
    private readonly file: string,
    written = false,
  ) {
    this.fd = written ? openSync(file, "r") : openSync(file, "wx+", 0o600);
  }

  /** The file's path (another thread opens it there to read it). */
  get path(): string {
    return this.file;
  }

  /** Current end of the file (what the next record's span starts at). */
  get offset(): number {
    return this.size;
  }

  /** Appends one text record (it must not hold a NUL character); returns its span. */
  append(text: string): Span {
    const start = this.size;
    this.appendBytes(Buffer.from(text, "utf8"));
    this.appendBytes(END_BYTE);
    return { start, end: this.size };
  }

  /** Appends bytes that are not a text record (read back with `readBytes` only). */
  appendBytes(buf: Buffer): Span {
    const start = this.size;
    this.size += buf.length;
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    if (this.pendingBytes >= WRITE_BATCH) this.flush();
    return { start, end: this.size };
  }

  /** Writes what is buffered; reading sees every record appended before. */
  flush(): void {
    if (this.pending.length === 0) return;
    const buf = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    let done = 0;
    try {
      while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
    } catch (e) {
      throw outOfRoom(e, this.file) ?? e;
    }
  }

  /** The text record at a span. */
  text(span: Span): string {
    const buf = this.readBytes(span);
    return buf.toString("utf8", 0, buf[buf.length - 1] === END ? buf.length - 1 : buf.length);
  }

  /** The bytes at a span. */
  readBytes(span: Span): Buffer {
    this.flush();
    const buf = Buffer.allocUnsafe(span.end - span.start);
    let done = 0;
    while (done < buf.length) {
      const n = readSync(this.fd, buf, done, buf.length - done, span.start + done);
      if (n === 0) throw new Error(`spilled record at ${span.start} is cut short`);
      done += n;
    }
    return buf;
  }

  /**
   * The text records of a span of whole records, in order, read `bufferSize` bytes at a time (at most the
   * span's size: a small run does not hold a big buffer).
   */
  *texts(span: Span, bufferSize = 1 << 12): Generator<string> {
    this.flush();
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(bufferSize, span.end - span.start)));
    let position = span.start;
    let carry: Buffer | null = null;
    while (position < span.end) {
      const n = readSync(this.fd, buf, 0, Math.min(buf.length, span.end - position), position);
      if (n === 0) throw new Error(`spilled records at ${position} are cut short`);
      position += n;
      const chunk: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let from = 0;
      for (let end = chunk.indexOf(END, from); end !== -1; end = chunk.indexOf(END, from)) {
        yield chunk.toString("utf8", from, end);
        from = end + 1;
      }
      carry = from < chunk.length ? Buffer.from(chunk.subarray(from)) : null;
    }
    if (carry) throw new Error(`spilled records end without their end mark at ${span.end}`);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * A full disk or quota under the temporary directory is the user's to fix, not an internal error: one line
 * naming the directory and what to do (a big estate's report takes about as much room as its JSON report).
 */
export function outOfRoom(e: unknown, file: string): UserInputError | null {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code !== "ENOSPC" && code !== "EDQUOT") return null;
  return new UserInputError(`no room left in ${path.dirname(path.dirname(file))} for the report's temporary files (${code}): set TMPDIR to a directory with more free space (about the size of the JSON report)`);
}
