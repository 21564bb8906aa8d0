// One hcl2json instance per worker thread: each request is a file name and its text, each answer the
// parsed body or hcl2json's error message (which carries file:line,col).
import { parentPort } from "node:worker_threads";
import { parseWithRuntime } from "./runtime.js";

interface Request {
  id: number;
  file: string;
  text: string;
}

parentPort!.on("message", async (req: Request) => {
  try {
    // A Go runtime that died is replaced inside parseWithRuntime, so one bad file cannot poison the worker.
    const body = await parseWithRuntime(req.file, req.text);
    parentPort!.postMessage({ id: req.id, ok: true, body });
  } catch (e) {
    parentPort!.postMessage({ id: req.id, ok: false, message: String((e as Error)?.message ?? e) });
  }
});
