// The findings' last severity (core/findings.ts LAST_SEVERITY) merged on the main thread while it would
// otherwise wait for the merge worker (./merge-offload.ts says when): a piece at a time into a file of its
// own, written after the worker's pieces.
import { mapItems } from "../../core/iterate.js";
import { jsonListBody } from "../../render/json.js";
import { keyedText, type KeyedFinding } from "./finding-list.js";
import { PIECE_CHARS } from "./merge-protocol.js";
import { RecordFile, type Span } from "./records.js";

/** The list's tail as this thread merges it: its own merge, and whether any finding comes before it. */
export interface TailMerge {
  merged: () => Iterable<KeyedFinding>;
  afterOthers: boolean;
  /** A new file in the spill directory for what this thread merges while the worker is busy. */
  file: string;
}

/** The list's tail as this thread merges it while it would wait: pieces in a file, then the rest. */
export class HeldTail {
  private readonly file: RecordFile;
  private readonly pieces: Span[] = [];
  private readonly rest: Iterator<string>;
  private done = false;

  constructor(tail: TailMerge) {
    this.file = new RecordFile(tail.file);
    this.rest = jsonListBody(mapItems(tail.merged(), keyedText), tail.afterOthers ? 1 : 0)[Symbol.iterator]();
  }

  /** One piece more into the file; false when the tail is all there. */
  mergePiece(): boolean {
    if (this.done) return false;
    let text = "";
    while (text.length < PIECE_CHARS) {
      const next = this.rest.next();
      if (next.done) {
        this.done = true;
        break;
      }
      text += next.value;
    }
    if (text) this.pieces.push(this.file.append(text));
    return true;
  }

  /** What it merged, then the rest of the tail. */
  *texts(): Generator<string> {
    try {
      for (const span of this.pieces) yield this.file.text(span);
      for (let next = this.rest.next(); !next.done; next = this.rest.next()) yield next.value;
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.file.close();
  }

  private closed = false;
}
