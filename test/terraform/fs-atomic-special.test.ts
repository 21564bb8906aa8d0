// writeFileAtomic never replaces what is not a regular file: `--output /dev/null` run as root used to
// rename a temporary file over the device. These tests make real device nodes, FIFOs and links.
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic, writeNewFile, FileExistsError } from "../../src/terraform/edit/fs-atomic.js";
import { ROOT } from "../support/cli.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fs-special-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A character device like /dev/null (major 1, minor 3), made with mknod; false when this machine refuses. */
function makeNullDevice(p: string): boolean {
  return spawnSync("mknod", [p, "c", "1", "3"]).status === 0;
}

function makeFifo(p: string): void {
  const r = spawnSync("mkfifo", [p]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

/** Starts `cat FIFO` and resolves with what it read once the writer closes. */
function readFifo(p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const cat = spawn("cat", [p]);
    let out = "";
    cat.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    cat.on("error", reject);
    cat.on("close", () => resolve(out));
  });
}

describe("writeFileAtomic on what is not a regular file", () => {
  it("writes into a character device in place: the device node stays a device (mknod, or a FIFO where mknod is refused)", async () => {
    const dev = join(dir, "null");
    if (makeNullDevice(dev)) {
      const before = lstatSync(dev);
      expect(before.isCharacterDevice()).toBe(true);
      await writeFileAtomic(dev, '{"report":1}\n', { backup: true });
      const after = lstatSync(dev);
      expect(after.isCharacterDevice()).toBe(true);
      expect(after.rdev).toBe(before.rdev);
      expect(after.ino).toBe(before.ino);
      // No temporary file and no backup next to it.
      expect(readdirSync(dir)).toEqual(["null"]);
    } else {
      // This machine cannot make device nodes: the same guarantee, shown on a FIFO.
      makeFifo(dev);
      const read = readFifo(dev);
      await writeFileAtomic(dev, "through the fifo\n");
      expect(await read).toBe("through the fifo\n");
      expect(lstatSync(dev).isFIFO()).toBe(true);
    }
  });

  it("writes into a FIFO that has a reader, in order, and leaves the FIFO in place", async () => {
    const fifo = join(dir, "report.fifo");
    makeFifo(fifo);
    const read = readFifo(fifo);
    const pieces = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`);
    await writeFileAtomic(fifo, pieces);
    expect(await read).toBe(pieces.join(""));
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(["report.fifo"]);
  });

  it("replaces a symlinked regular file at its target; the link stays a link", async () => {
    const real = join(dir, "real.json");
    const link = join(dir, "link.json");
    writeFileSync(real, "old\n");
    symlinkSync("real.json", link);
    const r = await writeFileAtomic(link, "new\n", { backup: true });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("real.json");
    expect(readFileSync(real, "utf8")).toBe("new\n");
    // The backup is of the file that was replaced, next to it.
    expect(r.backupPath).toBe(`${real}.backup`);
    expect(readFileSync(`${real}.backup`, "utf8")).toBe("old\n");
  });

  it("follows a chain of links, and creates the target of a dangling link instead of replacing the link", async () => {
    const link1 = join(dir, "a");
    const link2 = join(dir, "b");
    symlinkSync("b", link1);
    symlinkSync("sub/../c.txt", link2);
    // `sub/..` resolves only when `sub` exists, as in the kernel.
    spawnSync("mkdir", [join(dir, "sub")]);
    await writeFileAtomic(link1, "created\n");
    expect(lstatSync(link1).isSymbolicLink()).toBe(true);
    expect(lstatSync(link2).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "c.txt"), "utf8")).toBe("created\n");
  });

  it("writes through a symlink to a device in place", async () => {
    const dev = join(dir, "null");
    const link = join(dir, "out.json");
    const isDevice = makeNullDevice(dev);
    if (!isDevice) makeFifo(dev);
    symlinkSync(dev, link);
    const read = isDevice ? null : readFifo(dev);
    await writeFileAtomic(link, "x\n");
    if (read) expect(await read).toBe("x\n");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const st = lstatSync(dev);
    expect(isDevice ? st.isCharacterDevice() : st.isFIFO()).toBe(true);
  });

  it("writes /dev/stdout (and a link to it) into the process's descriptor, appending, never replacing", async () => {
    // A child process whose stdout is a log file opened for appending, as CI runners do.
    const log = join(dir, "ci.log");
    writeFileSync(log, "earlier log line\n");
    const link = join(dir, "stdout-link");
    symlinkSync("/dev/stdout", link);
    const script = [
      // The built module (npm test builds first): the child is plain node, like the CLI.
      `const { writeFileAtomic } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/terraform/edit/fs-atomic.js")).href)});`,
      `await writeFileAtomic("/dev/stdout", "report via /dev/stdout\\n");`,
      `await writeFileAtomic(${JSON.stringify(link)}, "report via a link\\n");`,
    ].join("\n");
    const { openSync, closeSync } = await import("node:fs");
    const fd = openSync(log, "a");
    try {
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", fd, "pipe"] });
      expect(r.stderr.toString()).toBe("");
      expect(r.status).toBe(0);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(log, "utf8")).toBe("earlier log line\nreport via /dev/stdout\nreport via a link\n");
    expect(lstatSync(log).isFile()).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("refuses a directory without touching it", async () => {
    const sub = join(dir, "reports");
    spawnSync("mkdir", [sub]);
    await expect(writeFileAtomic(sub, "x")).rejects.toThrow(/is a directory/);
    expect(statSync(sub).isDirectory()).toBe(true);
  });

  it("writeNewFile still refuses to write over an existing device or link without force", async () => {
    const dev = join(dir, "null");
    if (!makeNullDevice(dev)) makeFifo(dev);
    await expect(writeNewFile(dev, "x")).rejects.toBeInstanceOf(FileExistsError);
    const isLinkTarget = join(dir, "t");
    writeFileSync(isLinkTarget, "keep\n");
    symlinkSync("t", join(dir, "l"));
    await expect(writeNewFile(join(dir, "l"), "x")).rejects.toBeInstanceOf(FileExistsError);
    expect(readFileSync(isLinkTarget, "utf8")).toBe("keep\n");
  });
});
