// Runs @cdktn/hcl2json, the judge of HCL syntax, either on this thread or in a pool of worker threads.
// hcl2json blocks its thread while it parses (Go compiled to WASM), so a big workload goes to workers:
// each holds its own WASM instance (~60 MB, ~150 ms to start). Small workloads stay on this thread, and
// hcl2json is not even loaded until the first text needs it.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { parseWithRuntime } from "./runtime.js";

export type Hcl2JsonBody = Record<string, unknown>;

/** Parses one text; rejects with hcl2json's own error (its message names file:line,col). */
export interface HclJudge {
  parse(file: string, text: string): Promise<Hcl2JsonBody>;
  /** Stops the workers (if any were started). */
  close(): Promise<void>;
  /** Bytes handed to hcl2json so far. */
  readonly bytes: number;
}

type Hcl2Json = typeof import("@cdktn/hcl2json");

/**
 * hcl2json on this thread. `parse` goes through `parseWithRuntime`, which replaces a runtime that died;
 * the other functions are the current runtime's own.
 */
export async function loadHcl2Json(): Promise<Pick<Hcl2Json, "parse">> {
  return { parse: (file: string, text: string) => parseWithRuntime(file, text) as ReturnType<Hcl2Json["parse"]> };
}

export class Hcl2JsonError extends Error {}

export interface JudgeOptions {
  /**
   * Worker threads to use once the work is big enough; 0 keeps everything on this thread. Defaults to the
   * machine's parallelism, at most 2 (measured: a third worker on two cores gains nothing).
   */
  workers?: number;
  /** Bytes parsed on this thread before the pool starts (default 1 MB; 0 starts it on the first text). */
  poolAfterBytes?: number;
}

export function createJudge(opts: JudgeOptions = {}): HclJudge {
  const workers = Math.max(0, opts.workers ?? Math.min(2, availableParallelism()));
  const threshold = opts.poolAfterBytes ?? 1_000_000;
  let bytes = 0;
  let pool: WorkerPool | null = null;
  const workerFile = fileURLToPath(new URL("./worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker: stay on this thread.
  const canPool = workers > 0 && existsSync(workerFile);
  return {
    get bytes() {
      return bytes;
    },
    async parse(file, text) {
      bytes += text.length;
      if (canPool && (pool || bytes > threshold)) {
        // worker_threads is loaded here, not at start-up: most runs never start the pool.
        if (!pool) {
          const { Worker } = await import("node:worker_threads");
          pool ??= new WorkerPool(workerFile, workers, Worker);
        }
        return pool.parse(file, text);
      }
      const { parse } = await loadHcl2Json();
      return (await parse(file, text)) as Hcl2JsonBody;
    },
    async close() {
      await pool?.close();
      pool = null;
    },
  };
}

interface Pending {
  resolve: (b: Hcl2JsonBody) => void;
  reject: (e: Error) => void;
}

class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: { id: number; file: string; text: string }[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly owner = new Map<number, Worker>();
  private nextId = 1;

  constructor(file: string, size: number, WorkerThread: typeof Worker) {
    for (let i = 0; i < size; i++) {
      const w = new WorkerThread(file);
      w.unref();
      w.on("message", (m: { id: number; ok: boolean; body?: Hcl2JsonBody; message?: string }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        this.owner.delete(m.id);
        // An idle worker must not keep the process alive; a busy one must.
        w.unref();
        this.idle.push(w);
        this.pump();
        if (!p) return;
        if (m.ok) p.resolve(m.body!);
        else p.reject(new Hcl2JsonError(m.message));
      });
      w.on("error", (e) => this.fail(w, e));
      this.all.push(w);
      this.idle.push(w);
    }
  }

  parse(file: string, text: string): Promise<Hcl2JsonBody> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.queue.push({ id, file, text });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.owner.set(job.id, w);
      w.ref();
      w.postMessage(job);
    }
  }

  /** A worker died: fail what it was doing and what is queued; the caller reports it as an internal error. */
  private fail(w: Worker, e: Error): void {
    for (const [id, owner] of this.owner) {
      if (owner !== w) continue;
      this.pending.get(id)?.reject(e);
      this.pending.delete(id);
      this.owner.delete(id);
    }
    const i = this.all.indexOf(w);
    if (i >= 0) this.all.splice(i, 1);
    if (this.all.length === 0) {
      for (const job of this.queue.splice(0)) {
        this.pending.get(job.id)?.reject(e);
        this.pending.delete(job.id);
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
