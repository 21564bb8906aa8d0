// One hcl2json instance per worker thread: each request is a file name and its text, each answer the
// parsed body or hcl2json's error message (which carries file:line,col).
import { parentPort } from "node:worker_threads";

interface Request {
  id: number;
  file: string;
  text: string;
}

const { parse } = await import("@cdktn/hcl2json");

parentPort!.on("message", async (req: Request) => {
  try {
    const body = await parse(req.file, req.text);
    parentPort!.postMessage({ id: req.id, ok: true, body });
  } catch (e) {
    parentPort!.postMessage({ id: req.id, ok: false, message: String((e as Error)?.message ?? e) });
  }
});
