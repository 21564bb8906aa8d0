// Reads a state that is not a regular file (standard input, a pipe such as `--state <(terraform state pull)`,
// a device) whole, but stops as soon as it clearly is not JSON: a NUL byte (JSON text never holds one) or a
// first non-blank byte other than `{`. A regular file has a size; these may never end (`--state /dev/zero`
// read until memory ran out and the kernel killed the run). What was read is returned: parsing it gives the
// positioned error.
const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d]);

export async function readStateStream(chunks: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const read: Buffer[] = [];
  let started = false;
  for await (const piece of chunks) {
    const chunk = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
    read.push(chunk);
    if (chunk.includes(0)) break;
    if (!started) {
      const first = chunk.findIndex((b) => !BLANK.has(b));
      if (first !== -1) {
        started = true;
        if (chunk[first] !== 0x7b) break;
      }
    }
  }
  return Buffer.concat(read);
}
