import * as fsp from "node:fs/promises";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FileExistsError,
  backupFile,
  writeFileAtomic,
  writeNewFile,
  type AtomicFs,
} from "../../src/terraform/edit/fs-atomic.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fs-atomic-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const realFs: AtomicFs = {
  open: fsp.open,
  rename: fsp.rename,
  unlink: fsp.unlink,
  copyFile: fsp.copyFile,
  stat: fsp.stat,
  chmod: fsp.chmod,
  link: fsp.link,
};

describe("writeFileAtomic", () => {
  it("creates a new file, and replaces an existing one without leaving temporary files", async () => {
    const p = join(dir, "main.tf");
    expect(await writeFileAtomic(p, "one\n")).toEqual({ backupPath: null });
    expect(readFileSync(p, "utf8")).toBe("one\n");
    await writeFileAtomic(p, Buffer.from("two é\n"));
    expect(readFileSync(p, "utf8")).toBe("two é\n");
    expect(readdirSync(dir)).toEqual(["main.tf"]);
  });

  it("backs up the previous content to <path>.backup, then .backup.1, .backup.2", async () => {
    const p = join(dir, "main.tf");
    writeFileSync(p, "v1\n");
    expect((await writeFileAtomic(p, "v2\n", { backup: true })).backupPath).toBe(`${p}.backup`);
    expect((await writeFileAtomic(p, "v3\n", { backup: true })).backupPath).toBe(`${p}.backup.1`);
    expect((await writeFileAtomic(p, "v4\n", { backup: true })).backupPath).toBe(`${p}.backup.2`);
    expect(readFileSync(`${p}.backup`, "utf8")).toBe("v1\n");
    expect(readFileSync(`${p}.backup.1`, "utf8")).toBe("v2\n");
    expect(readFileSync(`${p}.backup.2`, "utf8")).toBe("v3\n");
    expect(readFileSync(p, "utf8")).toBe("v4\n");
  });

  it("makes no backup when the file does not exist yet", async () => {
    const p = join(dir, "new.tf");
    expect((await writeFileAtomic(p, "x", { backup: true })).backupPath).toBeNull();
    expect(existsSync(`${p}.backup`)).toBe(false);
  });

  it("keeps the existing file's permission bits", async () => {
    const p = join(dir, "script.sh");
    writeFileSync(p, "old");
    chmodSync(p, 0o750);
    await writeFileAtomic(p, "new");
    expect(statSync(p).mode & 0o777).toBe(0o750);
  });

  it("leaves the old file intact and removes the temporary file when the rename fails", async () => {
    const p = join(dir, "main.tf");
    writeFileSync(p, "old content\n");
    const failing: AtomicFs = {
      ...realFs,
      rename: async () => {
        throw Object.assign(new Error("simulated crash before rename"), { code: "EIO" });
      },
    };
    await expect(writeFileAtomic(p, "new content\n", { backup: true, fs: failing })).rejects.toThrow(/simulated crash/);
    expect(readFileSync(p, "utf8")).toBe("old content\n");
    expect(readFileSync(`${p}.backup`, "utf8")).toBe("old content\n");
    expect(readdirSync(dir).sort()).toEqual(["main.tf", "main.tf.backup"]);
  });

  it("never exposes a partly written target: the data goes to a temporary file that is renamed whole", async () => {
    const p = join(dir, "main.tf");
    writeFileSync(p, "old content\n");
    const seen: string[] = [];
    const spying: AtomicFs = {
      ...realFs,
      open: (async (path: any, flags?: any, mode?: any) => {
        const handle = await fsp.open(path, flags, mode);
        const writeFile = handle.writeFile.bind(handle);
        // While the new data is being written, the target still holds exactly the old content.
        (handle as any).writeFile = async (data: any) => {
          seen.push(readFileSync(p, "utf8"));
          await writeFile(data);
          seen.push(readFileSync(p, "utf8"));
        };
        return handle;
      }) as AtomicFs["open"],
      rename: async (from, to) => {
        seen.push(`rename ${String(from).startsWith(join(dir, ".main.tf.")) ? "tmp" : String(from)} -> ${String(to) === p ? "target" : String(to)}`);
        await fsp.rename(from, to);
      },
    };
    await writeFileAtomic(p, "new content\n", { fs: spying });
    expect(seen).toEqual(["old content\n", "old content\n", "rename tmp -> target"]);
    expect(readFileSync(p, "utf8")).toBe("new content\n");
  });

  it("leaves the old file intact when writing the data fails", async () => {
    const p = join(dir, "main.tf");
    writeFileSync(p, "old\n");
    const failing: AtomicFs = {
      ...realFs,
      open: (async (path: any, flags?: any, mode?: any) => {
        const handle = await fsp.open(path, flags, mode);
        (handle as any).sync = async () => {
          throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
        };
        return handle;
      }) as AtomicFs["open"],
    };
    await expect(writeFileAtomic(p, "new\n", { fs: failing })).rejects.toThrow(/disk full/);
    expect(readFileSync(p, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toEqual(["main.tf"]);
  });
});

describe("backupFile", () => {
  it("never overwrites an existing backup", async () => {
    const p = join(dir, "a.tf");
    writeFileSync(p, "current");
    writeFileSync(`${p}.backup`, "older");
    expect(await backupFile(p)).toBe(`${p}.backup.1`);
    expect(readFileSync(`${p}.backup`, "utf8")).toBe("older");
    expect(readFileSync(`${p}.backup.1`, "utf8")).toBe("current");
  });
});

describe("writeNewFile", () => {
  it("creates a file that does not exist", async () => {
    const p = join(dir, "waf_ruleset.tf");
    await writeNewFile(p, "resource {}\n");
    expect(readFileSync(p, "utf8")).toBe("resource {}\n");
    expect(readdirSync(dir)).toEqual(["waf_ruleset.tf"]);
  });

  it("refuses to overwrite an existing file without force, leaving it untouched", async () => {
    const p = join(dir, "waf_ruleset.tf");
    writeFileSync(p, "mine\n");
    const err = await writeNewFile(p, "generated\n").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileExistsError);
    expect((err as FileExistsError).path).toBe(p);
    expect((err as Error).message).toContain("already exists");
    expect(readFileSync(p, "utf8")).toBe("mine\n");
    expect(readdirSync(dir)).toEqual(["waf_ruleset.tf"]);
  });

  it("refuses even when the file appears between the check and the write", async () => {
    const p = join(dir, "race.tf");
    const racing: AtomicFs = {
      ...realFs,
      link: async (from, to) => {
        writeFileSync(p, "someone else\n");
        await fsp.link(from, to);
      },
    };
    await expect(writeNewFile(p, "generated\n", { fs: racing })).rejects.toBeInstanceOf(FileExistsError);
    expect(readFileSync(p, "utf8")).toBe("someone else\n");
    expect(readdirSync(dir)).toEqual(["race.tf"]);
  });

  it("falls back to an exclusive create where hard links are not supported", async () => {
    const p = join(dir, "nolink.tf");
    const noLinks: AtomicFs = {
      ...realFs,
      link: async () => {
        throw Object.assign(new Error("operation not permitted"), { code: "EPERM" });
      },
    };
    await writeNewFile(p, "x\n", { fs: noLinks });
    expect(readFileSync(p, "utf8")).toBe("x\n");
    await expect(writeNewFile(p, "y\n", { fs: noLinks })).rejects.toBeInstanceOf(FileExistsError);
    expect(readdirSync(dir)).toEqual(["nolink.tf"]);
  });

  it("replaces an existing file with force", async () => {
    const p = join(dir, "waf_ruleset.tf");
    writeFileSync(p, "old\n");
    await writeNewFile(p, "new\n", { force: true });
    expect(readFileSync(p, "utf8")).toBe("new\n");
  });
});

describe("writeFileAtomic of a report written in pieces", () => {
  it("writes batches small enough to stay out of V8's large-object space (< 128 KB), in order", async () => {
    const p = join(dir, "report.json");
    const sizes: number[] = [];
    const spying: AtomicFs = {
      ...realFs,
      open: (async (path: any, flags?: any, mode?: any) => {
        const handle = await fsp.open(path, flags, mode);
        const write = handle.write.bind(handle) as (s: string) => Promise<unknown>;
        (handle as any).write = async (s: string) => {
          sizes.push(s.length);
          return write(s);
        };
        return handle;
      }) as AtomicFs["open"],
    };
    // A 3 MB report of 300-character pieces (one JSON array element each, as renderJsonChunks yields).
    const pieces = Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(6, "0")}${"x".repeat(293)}\n`);
    await writeFileAtomic(p, pieces, { fs: spying });
    expect(readFileSync(p, "utf8")).toBe(pieces.join(""));
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThan(128 * 1024);
  });
});
