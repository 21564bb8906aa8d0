// Big states, read by streaming. V8 cannot hold a string longer than ~512 MiB, so `JSON.parse` of the whole
// text stops there; and most of a big state is resources the tool does not read. This reader goes through
// the bytes once, in chunks (the next one read while this one is parsed): it reads each entry of the
// top-level `resources` array by its head (`mode` and `type`: Terraform writes them first), walks an entry
// that is not kept to its end by matching brackets (through strings and escapes), and `JSON.parse`s only
// the entries that are kept (one in Terraform's layout without a walk, see keptByLayout). Memory is bounded
// by two chunks plus the kept entries; time is linear in the size. On the bench's 100 MB state, half of it
// kept, the CPU is about that of `JSON.parse` of the whole text, mostly that parse of the kept half and
// the GC of what it keeps.
//
// What it does not do: check the JSON syntax of entries that are skipped, beyond their brackets and
// strings (a kept entry is checked by `JSON.parse`). Only the v4 state file format is streamed; a
// `terraform show -json` document is reported back (`showJson`) for the caller to read in one piece.
import { open } from "node:fs/promises";
import { parseJsonWithPositions } from "../hcl/json-positions.js";
import { addV4Resource, stateIdentity, type StateInstance, type StateOutcome } from "./v4.js";

export interface StreamOptions {
  /** Which resources to keep (by mode and type); all when absent. */
  keep?: (mode: "managed" | "data", type: string) => boolean;
  /** Bytes read at a time (default 16 MiB). */
  chunkSize?: number;
}

/** The streamed outcome, or a note that the document is `terraform show -json` output. */
export type StreamOutcome = StateOutcome | { ok: false; showJson: true };

const Q = 0x22; // "
const BS = 0x5c; // \
const LB = 0x7b; // {
const RB = 0x7d; // }
const LK = 0x5b; // [
const RK = 0x5d; // ]
const COMMA = 0x2c;
const COLON = 0x3a;
/** How Terraform ends a `resources[]` entry: `}` alone on its line, indented by four spaces. */
const ENTRY_CLOSE = Buffer.from("\n    }");
/** Bytes searched for an entry's end by layout; longer entries take the byte walk. */
const LAYOUT_WINDOW = 1 << 20;
/** Entries the layout did not fit before the fast path is given up for the file. */
const LAYOUT_MISSES = 8;

class StateSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
    readonly truncated = false,
  ) {
    super(message);
  }
}

/** Reads a v4 state file by streaming (see the file comment). */
export async function readLargeState(file: string, display: string, opts: StreamOptions = {}): Promise<StreamOutcome> {
  const fh = await open(file, "r");
  const chunkSize = opts.chunkSize ?? 16 * 1024 * 1024;
  const reader = new StateReader(display, opts.keep);
  // Two buffers in turn: the next chunk is read into one (by libuv's thread pool) while the other is
  // parsed. A chunk lands after `slack` bytes, where the unconsumed tail of the chunk before (an item cut
  // by its end) is copied, so that the two are one run of bytes; a longer tail takes a buffer of its own.
  const slack = Math.min(chunkSize, 1024 * 1024);
  const bufs = [Buffer.allocUnsafe(slack + chunkSize), Buffer.allocUnsafe(slack + chunkSize)] as const;
  let turn = 0;
  let pending: Promise<{ bytesRead: number }> | null = fh.read(bufs[turn], slack, chunkSize, null);
  try {
    let carry: Buffer = Buffer.alloc(0);
    let base = 0; // file offset of the data fed
    for (;;) {
      const { bytesRead } = await pending!;
      pending = null;
      const buf = bufs[turn];
      let data: Buffer;
      if (carry.length <= slack) {
        carry.copy(buf, slack - carry.length);
        data = buf.subarray(slack - carry.length, slack + bytesRead);
      } else {
        data = Buffer.concat([carry, buf.subarray(slack, slack + bytesRead)]);
      }
      const eof = bytesRead === 0;
      // The other buffer's tail was copied out above: it takes the next chunk while this one is parsed.
      turn ^= 1;
      if (!eof) pending = fh.read(bufs[turn], slack, chunkSize, null);
      const used = reader.feed(data, base, eof);
      if (reader.stopped) break;
      if (eof) throw new StateSyntaxError(base + data.length, "state is truncated (unexpected end of JSON)", true);
      carry = data.subarray(used);
      base += used;
    }
    return reader.result();
  } catch (e) {
    if (e instanceof StateSyntaxError) return { ok: false, error: { file: display, ...(await positionInFile(file, e.offset)), message: e.message } };
    throw e;
  } finally {
    // A read still under way writes through the handle: let it end before the handle closes.
    await pending?.catch(() => undefined);
    await fh.close();
  }
}

/** The same reader over a buffer already in memory (standard input). */
export function readStateBuffer(data: Buffer, display: string, opts: StreamOptions = {}): StreamOutcome {
  const reader = new StateReader(display, opts.keep);
  try {
    reader.feed(data, 0, true);
    if (!reader.stopped) throw new StateSyntaxError(data.length, "state is truncated (unexpected end of JSON)", true);
    return reader.result();
  } catch (e) {
    if (e instanceof StateSyntaxError) return { ok: false, error: { file: display, ...positionInBuffer(data, e.offset), message: e.message } };
    throw e;
  }
}

const enum Mode {
  /** Before the top-level `{`. */
  Start,
  /** In the top-level object, before a key (or `}`). */
  Key,
  /** In `resources`, before an entry (or `]`). */
  Entry,
  /** After the top-level `}`. */
  End,
}

class StateReader {
  private mode = Mode.Start;
  private afterItem = false;
  /** A `,` was read: an item must follow. */
  private needItem = false;
  done = false;
  private readonly top = new Map<string, unknown>();
  private sawResources = false;
  private readonly instances: StateInstance[] = [];
  private failure: string | null = null;
  private showJson = false;
  /** Whether entries look laid out as Terraform writes them (see keptByLayout). */
  private readonly layout = { usable: true, misses: 0 };

  constructor(
    private readonly display: string,
    private readonly keep: StreamOptions["keep"],
  ) {}

  /** Nothing more to read: the document ended, an entry was refused, or it is `show -json` output. */
  get stopped(): boolean {
    return this.done || this.failure !== null || this.showJson;
  }

  /**
   * Consumes complete items of `data` (whose first byte is at file offset `base`); returns how many bytes
   * were consumed. What is left is an incomplete item, to be fed again with more bytes after it.
   */
  feed(data: Buffer, base: number, eof: boolean): number {
    let i = 0;
    const n = data.length;
    for (;;) {
      i = skipWs(data, i);
      if (this.done || this.failure || this.showJson) return i;
      if (i >= n) return i;
      const c = data[i]!;
      switch (this.mode) {
        case Mode.Start:
          if (c !== LB) throw new StateSyntaxError(base + i, c === LK ? "not a Terraform state: expected a JSON object" : `state is not valid JSON: unexpected ${describe(c)}`);
          this.mode = Mode.Key;
          this.afterItem = false;
          i++;
          break;
        case Mode.Key: {
          if (c === RB) {
            if (this.needItem) throw new StateSyntaxError(base + i, "state is not valid JSON: unexpected '}' after ','");
            this.mode = Mode.End;
            this.done = true;
            i++;
            const rest = skipWs(data, i);
            if (rest < n) throw new StateSyntaxError(base + rest, `state is not valid JSON: unexpected ${describe(data[rest]!)} after the JSON value`);
            return rest;
          }
          if (this.afterItem) {
            if (c !== COMMA) throw new StateSyntaxError(base + i, "state is not valid JSON: expected ',' or '}' after a property value");
            this.afterItem = false;
            this.needItem = true;
            i++;
            break;
          }
          // A whole `"key": value` pair, or `"resources": [` which switches to entries.
          const start = i;
          if (data[i] !== Q) throw new StateSyntaxError(base + i, "state is not valid JSON: expected a property name in double quotes");
          const keyEnd = stringEnd(data, i);
          if (keyEnd < 0) return eof ? this.truncated(base + n) : this.rewind(start);
          const key = decodeString(data, i, keyEnd, base);
          let j = skipWs(data, keyEnd);
          if (j >= n) return eof ? this.truncated(base + n) : this.rewind(start);
          if (data[j] !== COLON) throw new StateSyntaxError(base + j, "state is not valid JSON: expected ':' after a property name");
          j = skipWs(data, j + 1);
          if (j >= n) return eof ? this.truncated(base + n) : this.rewind(start);
          if (key === "format_version") {
            this.showJson = true;
            return j;
          }
          this.needItem = false;
          if (key === "resources" && data[j] === LK) {
            this.sawResources = true;
            this.mode = Mode.Entry;
            this.afterItem = false;
            i = j + 1;
            break;
          }
          const end = valueEnd(data, j, base);
          if (end < 0) return eof ? this.truncated(base + n) : this.rewind(start);
          if (key === "version" || key === "terraform_version" || key === "lineage" || key === "serial" || key === "resources") this.top.set(key, parseSlice(data, j, end, base));
          this.afterItem = true;
          i = end;
          break;
        }
        case Mode.Entry: {
          if (c === RK) {
            if (this.needItem) throw new StateSyntaxError(base + i, "state is not valid JSON: unexpected ']' after ','");
            this.mode = Mode.Key;
            this.afterItem = true;
            i++;
            break;
          }
          if (this.afterItem) {
            if (c !== COMMA) throw new StateSyntaxError(base + i, "state is not valid JSON: expected ',' or ']' in an array");
            this.afterItem = false;
            this.needItem = true;
            i++;
            break;
          }
          const start = i;
          this.needItem = false;
          if (data[i] !== LB) {
            // Not an object: let the model say what is wrong with it.
            const end = valueEnd(data, i, base);
            if (end < 0) return eof ? this.truncated(base + n) : this.rewind(start);
            this.failure = addV4Resource(parseSlice(data, i, end, base) as Record<string, unknown>, this.instances) ?? "malformed resource entry in state";
            return end;
          }
          // Most entries are told by their head (`mode` and `type` come first): one that is not kept is
          // walked to its end without looking at its keys; a kept one in Terraform's own layout is parsed
          // once, without walking its bytes first.
          const head = scanEntry(data, i, true);
          const kept = head === null || head.type === null ? null : !this.keep || this.keep(head.mode === "data" ? "data" : "managed", head.type);
          const skip = kept === false ? skippedEntryEnd(data, head!.end) : NOT_SKIPPED;
          if (skip !== NOT_SKIPPED) {
            this.afterItem = true;
            i = skip;
            break;
          }
          const byLayout = kept === true && this.layout.usable ? this.keptByLayout(data, i) : null;
          if (byLayout) {
            const err = addV4Resource(byLayout.value, this.instances);
            if (err) {
              this.failure = err;
              return byLayout.end;
            }
            this.afterItem = true;
            i = byLayout.end;
            break;
          }
          const entry = scanEntry(data, i);
          if (entry === null) return eof ? this.truncated(base + n) : this.rewind(start);
          const mode = entry.mode === "data" ? "data" : "managed";
          // Without a type we cannot tell: parse it, and let the model judge it.
          if (!this.keep || entry.type === null || this.keep(mode, entry.type)) {
            const value = parseSlice(data, i, entry.end, base) as Record<string, unknown>;
            const err = addV4Resource(value, this.instances);
            if (err) {
              this.failure = err;
              return entry.end;
            }
          }
          this.afterItem = true;
          i = entry.end;
          break;
        }
        case Mode.End:
          throw new StateSyntaxError(base + i, `state is not valid JSON: unexpected ${describe(c)} after the JSON value`);
      }
    }
  }

  /**
   * The entry at `i` when it is kept and ends the way Terraform writes it (`\n    }`: a line of its own,
   * indented by four spaces), parsed; else null and the byte walk (`scanEntry`) decides. JSON strings
   * cannot hold a raw newline, so that line is structure; and `JSON.parse` accepts the slice only when it
   * is one whole value, so a slice that ends early or late is refused rather than misread. A file laid
   * out otherwise stops the fast path after a few misses, so no entry is searched twice for long.
   */
  private keptByLayout(d: Buffer, i: number): { value: Record<string, unknown>; end: number } | null {
    const close = d.indexOf(ENTRY_CLOSE, i);
    if (close < 0 || close - i > LAYOUT_WINDOW) {
      // Cut by the chunk's end (read again with the next chunk), or not Terraform's layout.
      if (i + LAYOUT_WINDOW <= d.length && ++this.layout.misses > LAYOUT_MISSES) this.layout.usable = false;
      return null;
    }
    const end = close + ENTRY_CLOSE.length;
    let value: unknown;
    try {
      value = JSON.parse(d.toString("utf8", i, end));
    } catch {
      if (++this.layout.misses > LAYOUT_MISSES) this.layout.usable = false;
      return null;
    }
    return value !== null && typeof value === "object" && !Array.isArray(value) ? { value: value as Record<string, unknown>, end } : null;
  }

  /** An item was cut by the end of the chunk: stop before it, and read it again with the next chunk. */
  private rewind(start: number): number {
    return start;
  }

  private truncated(offset: number): never {
    throw new StateSyntaxError(offset, "state is truncated (unexpected end of JSON)", true);
  }

  result(): StreamOutcome {
    if (this.showJson) return { ok: false, showJson: true };
    const fail = (message: string): StateOutcome => ({ ok: false, error: { file: this.display, line: null, column: null, message } });
    if (this.failure) return fail(this.failure);
    const version = this.top.get("version");
    if (version === undefined) return fail('not a Terraform state: no "version" (state file) or "format_version" (terraform show -json)');
    if (version !== 4) {
      return fail(`state version ${JSON.stringify(version)} is not supported: only version 4 (Terraform 0.12 and later); run \`terraform state pull\` with a current Terraform`);
    }
    if (!this.sawResources) return fail('state version 4 without a "resources" array');
    const tv = this.top.get("terraform_version");
    const identity = stateIdentity({ lineage: this.top.get("lineage"), serial: this.top.get("serial") });
    return { ok: true, state: { source: this.display, instances: this.instances, terraformVersion: typeof tv === "string" ? tv : null, ...identity } };
  }
}

function skipWs(d: Buffer, i: number): number {
  const n = d.length;
  while (i < n) {
    const c = d[i]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  return i;
}

/** Offset just past the closing quote of the string starting at `i`, or -1 when the data ends first. */
function stringEnd(d: Buffer, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = d.indexOf(Q, j);
    if (q < 0) return -1;
    // An escaped quote has an odd number of backslashes before it.
    let k = q - 1;
    while (k > i && d[k] === BS) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Offset just past the JSON value starting at `i` (brackets matched through strings), or -1. */
function valueEnd(d: Buffer, i: number, base: number): number {
  const c = d[i]!;
  if (c === Q) return stringEnd(d, i);
  if (c !== LB && c !== LK) {
    // A number or a literal: up to the next delimiter.
    let j = i;
    while (j < d.length) {
      const x = d[j]!;
      if (x === COMMA || x === RB || x === RK || x === 0x20 || x === 0x0a || x === 0x0d || x === 0x09) return j;
      j++;
    }
    return -1;
  }
  let depth = 0;
  let j = i;
  const n = d.length;
  while (j < n) {
    const x = d[j]!;
    if (x === Q) {
      j = stringEnd(d, j);
      if (j < 0) return -1;
      continue;
    }
    if (x === LB || x === LK) depth++;
    else if (x === RB || x === RK) {
      depth--;
      if (depth === 0) return j + 1;
      if (depth < 0) throw new StateSyntaxError(base + j, `state is not valid JSON: unexpected ${describe(x)}`);
    }
    j++;
  }
  return -1;
}

/**
 * One `resources[]` entry (an object at `i`): its end, and its `mode` and `type` when they are plain
 * strings at the entry's own level. null when the data ends first. `headOnly`: stop as soon as both are
 * known (`end` is then just past them, inside the entry), or give null when a nested value comes first.
 */
function scanEntry(d: Buffer, i: number, headOnly = false): { end: number; mode: string | null; type: string | null } | null {
  let depth = 0;
  let j = i;
  const n = d.length;
  let expectKey = false;
  let key: string | null = null;
  let mode: string | null = null;
  let type: string | null = null;
  let undecodable = false;
  while (j < n) {
    const x = d[j]!;
    if (x === Q) {
      const e = stringEnd(d, j);
      if (e < 0) return null;
      if (depth === 1) {
        if (expectKey) {
          // Compared as bytes: an escaped spelling is another key, as it was when it was read as latin1.
          key = e - j === 6 ? (isBytes(d, j + 1, "type") ? "type" : isBytes(d, j + 1, "mode") ? "mode" : null) : null;
          expectKey = false;
        } else if (key === "type" || key === "mode") {
          const raw = d.toString("latin1", j + 1, e - 1);
          // Escapes (or non-ASCII) in a type name: decode properly. A string JSON refuses (a raw control
          // character) names no type: the entry is parsed whole, and the parse says where it is wrong.
          const v = raw.includes("\\") || /[^\x20-\x7e]/.test(raw) ? decodedOrNull(d, j, e) : raw;
          if (v === null) {
            if (headOnly) return null;
            undecodable = true;
          } else if (key === "type") type = v;
          else mode = v;
          // Terraform writes `mode` and `type` first: the head is all a caller deciding what to keep needs.
          if (headOnly && mode !== null && type !== null) return { end: e, mode, type };
        }
      }
      j = e;
      continue;
    }
    if (x === LB || x === LK) {
      depth++;
      if (depth === 1) expectKey = true;
      // Past the head without both: only the whole walk can tell.
      else if (headOnly) return null;
    } else if (x === RB || x === RK) {
      depth--;
      if (depth === 0) return { end: j + 1, mode, type: undecodable ? null : type };
    } else if (x === COMMA && depth === 1) expectKey = true;
    j++;
  }
  return null;
}

/** The JSON string from `s` to `e` decoded, or null when JSON refuses it. */
function decodedOrNull(d: Buffer, s: number, e: number): string | null {
  try {
    return JSON.parse(d.toString("utf8", s, e)) as string;
  } catch {
    return null;
  }
}

function isBytes(d: Buffer, at: number, word: "type" | "mode"): boolean {
  return d[at] === word.charCodeAt(0) && d[at + 1] === word.charCodeAt(1) && d[at + 2] === word.charCodeAt(2) && d[at + 3] === word.charCodeAt(3);
}

/** The entry is to be read by the whole walk (`scanEntry`). */
const NOT_SKIPPED = -1;

/** What a byte is to the walk of a skipped entry: 0 nothing, 1 a string's quote, 2 an opening bracket, 3 a closing one. */
const STRUCTURE = new Uint8Array(256);
STRUCTURE[Q] = 1;
STRUCTURE[LB] = STRUCTURE[LK] = 2;
STRUCTURE[RB] = STRUCTURE[RK] = 3;

/**
 * The end of an entry that its head says is not kept, walked from `i` just past the head: one table
 * look-up per byte outside strings, strings jumped over by `stringEnd` (a native search for the quote).
 * NOT_SKIPPED when the data ends first, or when a string "type" or "mode" comes later at the entry's own
 * level: a key given twice counts with its last value (as in JSON.parse), so the whole walk decides.
 */
function skippedEntryEnd(d: Buffer, i: number): number {
  const n = d.length;
  let depth = 1;
  let j = i;
  while (j < n) {
    const c = STRUCTURE[d[j]!]!;
    if (c === 0) {
      j++;
      continue;
    }
    if (c === 1) {
      if (depth === 1 && d[j + 5] === Q && (isBytes(d, j + 1, "type") || isBytes(d, j + 1, "mode"))) return NOT_SKIPPED;
      j = stringEnd(d, j);
      if (j < 0) return NOT_SKIPPED;
      continue;
    }
    j++;
    if (c === 2) depth++;
    else if (--depth === 0) return j;
  }
  return NOT_SKIPPED;
}

function decodeString(d: Buffer, s: number, e: number, base: number): string {
  const raw = d.toString("latin1", s + 1, e - 1);
  if (!raw.includes("\\") && !/[^\x20-\x7e]/.test(raw)) return raw;
  return parseSlice(d, s, e, base) as string;
}

function parseSlice(d: Buffer, s: number, e: number, base: number): unknown {
  const text = d.toString("utf8", s, e);
  try {
    return JSON.parse(text);
  } catch {
    // V8's message gives an offset inside this slice, not the file's line and column: the positional reader
    // finds the place and words it as the one-piece reader (read.ts) does for the same file.
    const pos = parseJsonWithPositions(text);
    let at = 0;
    if (!pos.ok) {
      let lineStart = 0;
      for (let l = 1; l < pos.line; l++) lineStart = text.indexOf("\n", lineStart) + 1;
      at = Buffer.byteLength(text.slice(0, lineStart + pos.column - 1));
    }
    throw new StateSyntaxError(base + s + at, `state is not valid JSON: ${pos.ok ? "rejected by JSON.parse" : pos.message}`);
  }
}

function describe(c: number): string {
  return JSON.stringify(String.fromCharCode(c));
}

function positionInBuffer(d: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  let i = d.indexOf(0x0a);
  while (i !== -1 && i < offset) {
    line++;
    lineStart = i + 1;
    i = d.indexOf(0x0a, i + 1);
  }
  return { line, column: offset - lineStart + 1 };
}

/** Line and column of a byte offset, counted by reading the file again (only on errors). */
async function positionInFile(file: string, offset: number): Promise<{ line: number; column: number }> {
  const fh = await open(file, "r");
  try {
    let line = 1;
    let lineStart = 0;
    let pos = 0;
    const buf = Buffer.allocUnsafe(16 * 1024 * 1024);
    while (pos < offset) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, offset - pos), pos);
      if (bytesRead === 0) break;
      let i = buf.indexOf(0x0a);
      while (i !== -1 && i < bytesRead) {
        line++;
        lineStart = pos + i + 1;
        i = buf.indexOf(0x0a, i + 1);
      }
      pos += bytesRead;
    }
    return { line, column: offset - lineStart + 1 };
  } finally {
    await fh.close();
  }
}
