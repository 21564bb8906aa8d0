// A list of jobs shared between this thread and one worker thread (./shared-list-worker.ts answers there):
// this thread does the jobs in order and, once the worker has started, the worker takes jobs from the same
// list, a few waiting there at a time. Each result comes back to its place, so what the caller builds does
// not depend on who did what. A job the worker cannot answer exactly (it failed, or its result has no exact
// copy: ./clone.ts), or held when the worker died, is done again here. Used for a big tree's first read
// (config/probe-pool.ts) and for the roots around a plan (estate/other-root-pool.ts).
import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import { fromBytes } from "./clone.js";

/** What a job's worker answers: its result as ./clone.ts bytes, or `again` (do it on the main thread). */
export type SharedReply = { index: number; kind: "done"; value: Uint8Array } | { index: number; kind: "again" };

/** Jobs sent to the worker before its answers come: one worked on there, the next waiting. */
const IN_FLIGHT = 2;

export interface SharedList<R, W> {
  /** Job `i` on this thread. */
  here(i: number): Promise<R>;
  /** Job `i` as the worker's message (a structured-clone value holding `index: i`). */
  message(i: number): { index: number };
  /**
   * Asked before each job done here (with the next job's index): the worker to start now, or null (not yet,
   * or never).
   */
  startWorker(next: number): { file: string; workerData?: unknown } | null;
  /** The result of job `i` from the worker's answer (by default the answer itself). */
  fromWorker?(i: number, answer: W): R;
}

/** Every job's result in order, and how many of them the worker did. */
export async function shareWithWorker<R, W = R>(count: number, list: SharedList<R, W>): Promise<{ results: R[]; byWorker: number }> {
  const results = new Array<R>(count);
  let next = 0;
  let byWorker = 0;
  let helper: OneWorker<W> | null = null;
  const onWorker: Promise<void>[] = [];
  const feed = () => {
    while (helper && !helper.failed && helper.busy < IN_FLIGHT && next < count) {
      const i = next++;
      const done = helper.send(list.message(i)).then(async (answer) => {
        if (answer === null) {
          results[i] = await list.here(i);
          return;
        }
        results[i] = list.fromWorker ? list.fromWorker(i, answer) : (answer as unknown as R);
        byWorker++;
        feed();
      });
      // Awaited with the others below; when a job here fails first, this one's failure must not go unhandled.
      done.catch(() => undefined);
      onWorker.push(done);
    }
  };
  try {
    while (next < count) {
      if (!helper) {
        const start = list.startWorker(next);
        if (start) {
          helper = new OneWorker<W>(start.file, start.workerData);
          feed();
        }
      }
      if (next >= count) break;
      results[next] = await list.here(next++);
      // The worker's answers are events: let them in between two jobs done here (a job may read files
      // synchronously), so that it gets its next ones.
      if (helper) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(onWorker);
  } finally {
    await helper?.close();
  }
  return { results, byWorker };
}

/** The worker and the jobs it holds; an answer it cannot give is `null` (do the job here). */
class OneWorker<W> {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (answer: W | null) => void>();
  failed = false;

  constructor(file: string, workerData: unknown) {
    this.worker = new (requireWorker())(file, { workerData });
    this.worker.on("message", (m: SharedReply) => {
      const done = this.waiting.get(m.index);
      if (!done) return;
      this.waiting.delete(m.index);
      if (m.kind === "again") return done(null);
      let answer: W;
      try {
        answer = fromBytes<W>(Buffer.from(m.value));
      } catch {
        return done(null);
      }
      done(answer);
    });
    // A worker that dies hands back what it held: this thread does those jobs itself.
    const fail = () => {
      this.failed = true;
      for (const done of this.waiting.values()) done(null);
      this.waiting.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", fail);
  }

  get busy(): number {
    return this.waiting.size;
  }

  send(message: { index: number }): Promise<W | null> {
    if (this.failed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting.set(message.index, resolve);
      this.worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }
}

// worker_threads is loaded only when a worker starts: most runs never start one.
function requireWorker(): typeof Worker {
  return (createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads")).Worker;
}
