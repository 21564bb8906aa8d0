// A file of JSON records, one a line (or of opaque byte records, estate/spill/clone.ts), written once and then read back: sequentially (a range of lines, with
// one small buffer), or one record at a time by its span. What estate/spill/scan.ts keeps of the report's
// big lists while the estate is read. Synchronous: the report is rendered by a synchronous generator.
import { closeSync, openSync, readSync, writeSync } from "node:fs";

/** Where a record (or a run of records) sits in the file, in bytes. */
export interface Span {
  start: number;
  end: number;
}

const WRITE_BATCH = 1 << 16;

export class RecordFile {
  private readonly fd: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private size = 0;

  /** `written`: a file another thread wrote (and flushed), opened to be read by span only. */
  constructor(file: string, written = false) {
    this.fd = written ? openSync(file, "r") : openSync(file, "wx+", 0o600);
  }

  /** Current end of the file (what the next record's span starts at). */
  get offset(): number {
    return this.size;
  }

  /** Appends one record; returns its span. */
  append(value: unknown): Span {
    return this.appendBytes(Buffer.from(JSON.stringify(value) + "\n"));
  }

  /** Appends bytes that are not a JSON line (read back with `readBytes` only). */
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
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
  }

  /** The record at a span. */
  read<T>(span: Span): T {
    return JSON.parse(this.readBytes(span).toString("utf8")) as T;
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
   * The records of a span of whole lines, in order, read `bufferSize` bytes at a time (at most the span's
   * size: a small run does not hold a big buffer).
   */
  *records<T>(span: Span, bufferSize = 1 << 12): Generator<T> {
    this.flush();
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(bufferSize, span.end - span.start)));
    bufferSize = buf.length;
    let position = span.start;
    let carry: Buffer | null = null;
    while (position < span.end) {
      const n = readSync(this.fd, buf, 0, Math.min(bufferSize, span.end - position), position);
      if (n === 0) throw new Error(`spilled records at ${position} are cut short`);
      position += n;
      const chunk: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
        yield JSON.parse(chunk.toString("utf8", from, nl)) as T;
        from = nl + 1;
      }
      carry = from < chunk.length ? Buffer.from(chunk.subarray(from)) : null;
    }
    if (carry) throw new Error(`spilled records end without a newline at ${span.end}`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
