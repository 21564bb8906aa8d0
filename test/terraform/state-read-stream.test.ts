// A state that is not a regular file (stdin, a pipe, a device) is read until it clearly is not JSON: a
// device that never ends (`--state /dev/zero`) used to be read until the kernel killed the run.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readStateSource } from "../../src/terraform/state/read.js";
import { readStateStream } from "../../src/terraform/state/read-stream.js";

async function* pieces(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.isBuffer(p) ? p : Buffer.from(p, "utf8");
}

/** Chunks of `byte` for ever (the test fails by timing out if the reader does not stop). */
async function* endless(byte: number): AsyncGenerator<Buffer> {
  for (;;) yield Buffer.alloc(1 << 16, byte);
}

describe("reading a state from a stream", () => {
  it("reads a state whole, across chunks and after leading blank lines", async () => {
    const text = '\n  {"version": 4,\n "resources": []}\n';
    expect((await readStateStream(pieces(text.slice(0, 3), text.slice(3, 10), text.slice(10)))).toString("utf8")).toBe(text);
  });

  it("stops at a NUL byte, and when the first non-blank byte is not {", async () => {
    expect((await readStateStream(endless(0))).length).toBe(1 << 16);
    expect((await readStateStream(endless(0x41))).length).toBe(1 << 16);
    expect((await readStateStream(pieces("  ", "\n", "[1,2]", "{}"))).toString("utf8")).toBe("  \n[1,2]");
    expect((await readStateStream(pieces('{"version":4', Buffer.from([0x2c, 0]), "more"))).length).toBe(14);
  });

  it.runIf(existsSync("/dev/zero"))("--state /dev/zero is an input error at 1:1, not a read without end", async () => {
    const r = await readStateSource("/dev/zero", async () => Buffer.alloc(0), path.sep);
    expect(r).toEqual({ ok: false, error: { file: "/dev/zero", line: 1, column: 1, message: 'state is not valid JSON: unexpected "\\u0000"' } });
  });
});
