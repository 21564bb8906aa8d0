// The worker of ./merge-offload.ts: merges a big scan's spilled findings (finding-list.ts mergeFindingRuns,
// as the main thread would) and writes the JSON report's text of the list to a file, piece by piece,
// publishing each piece once it is written. Any failure is published as one: the main thread merges the
// rest itself.
import { workerData } from "node:worker_threads";
import { LAST_SEVERITY } from "../../core/findings.js";
import { mapItems } from "../../core/iterate.js";
import { jsonListBody } from "../../render/json.js";
import { keyedText, mergeFindingRuns, splitRuns, type KeyedFinding } from "./finding-list.js";
import { AT, type MergeWorkerData, PIECE_CHARS, sharedViews, TABLE, TAIL_BY, WORKER } from "./merge-protocol.js";
import { RecordFile } from "./records.js";

const data = workerData as MergeWorkerData;
const { counters, ends, items } = sharedViews(data.shared);

/**
 * The tests' ways to make the worker misbehave (CFWM_MERGE_WORKER_FAULT): `throw` fails after its first
 * piece; `no-tail` never takes the list's tail (the main thread's merge of it is then what is written).
 */
const FAULT = process.env.CFWM_MERGE_WORKER_FAULT;

/** Thrown when the main thread stopped reading: nothing more to write. */
class Stopped extends Error {}

const files = new Map<string, RecordFile>();
/** The body's file: new in the spill directory, written as the scan's other record files are (./records.ts). */
let out: RecordFile | null = null;
let pieces = 0;

function publish(text: string, count: number): void {
  for (;;) {
    if (Atomics.load(counters, AT.stopped)) throw new Stopped();
    const taken = Atomics.load(counters, AT.taken);
    if (pieces - taken < TABLE) break;
    Atomics.wait(counters, AT.taken, taken);
  }
  // Each piece a record of the file: the main thread reads it back by its span.
  const span = out!.append(text);
  out!.flush();
  ends[pieces % TABLE] = span.end;
  items[pieces % TABLE] = count;
  Atomics.store(counters, AT.published, ++pieces);
  Atomics.notify(counters, AT.published);
}

function finish(state: number): void {
  Atomics.store(counters, AT.state, state);
  Atomics.notify(counters, AT.published);
}

try {
  out = new RecordFile(data.out);
  const open = (p: string) => files.get(p) ?? files.set(p, new RecordFile(p, true)).get(p)!;
  const { head, tail } = splitRuns(data.runs.map((r) => ({ file: open(r.path), span: r.span, tail: r.tail })));
  const isTail = (f: KeyedFinding) => f.key.severity === LAST_SEVERITY;
  // Split once, and let go of the data's copy: each finding is then held by its part only, until merged.
  const heads: KeyedFinding[][] = data.inMemory.map((run) => run.filter((f) => !isTail(f)));
  const tails: KeyedFinding[][] = data.inMemory.map((run) => run.filter(isTail));
  data.inMemory = [];
  let text = "";
  let count = 0;
  let total = 0;
  const emit = (merged: Iterable<KeyedFinding>) => {
    for (const chunk of jsonListBody(mapItems(merged, keyedText), total)) {
      text += chunk;
      count++;
      total++;
      if (text.length >= PIECE_CHARS) {
        publish(text, count);
        if (FAULT === "throw") throw new Error("merge worker fault injected");
        text = "";
        count = 0;
      }
    }
  };
  emit(mergeFindingRuns(head, heads.map(releasing)));
  // The tail, unless the main thread took it meanwhile (merge-offload.ts).
  if (FAULT !== "no-tail" && Atomics.compareExchange(counters, AT.tailOwner, TAIL_BY.nobody, TAIL_BY.worker) === TAIL_BY.nobody) emit(mergeFindingRuns(tail, tails.map(releasing)));
  if (count > 0) publish(text, count);
  finish(WORKER.done);
} catch (e) {
  if (!(e instanceof Stopped)) finish(WORKER.failed);
} finally {
  for (const f of files.values()) f.close();
  out?.close();
}

/** A run's findings one at a time, each let go of once it is taken (the merge holds one per run). */
function* releasing(run: KeyedFinding[]): Generator<KeyedFinding> {
  for (let i = 0; i < run.length; i++) {
    const f = run[i]!;
    run[i] = undefined as never;
    yield f;
  }
}
