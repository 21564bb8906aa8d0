// Writes to Terraform files are atomic (temporary file + rename) with a backup: a failure between write and
// rename, or a process killed in the middle of a write, never leaves a half-written file.
import { spawn } from "node:child_process";
import * as nodeFs from "node:fs/promises";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic, type AtomicFs } from "../../src/terraform/edit/fs-atomic.js";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const realFs: AtomicFs = { open: nodeFs.open, rename: nodeFs.rename, unlink: nodeFs.unlink, copyFile: nodeFs.copyFile, stat: nodeFs.stat, chmod: nodeFs.chmod, link: nodeFs.link };
const OLD = 'resource "cloudflare_waf_package" "owasp" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n';
const NEW = `# edited\n${OLD.repeat(2000)}`;

describe("an injected failure between write and rename", () => {
  for (const [when, fs] of [
    ["rename fails", { ...realFs, rename: async () => Promise.reject(Object.assign(new Error("EIO: injected"), { code: "EIO" })) }],
    ["chmod fails (after the data is written)", { ...realFs, chmod: async () => Promise.reject(Object.assign(new Error("EPERM: injected"), { code: "EPERM" })) }],
    [
      "the disk fills up half way through the write",
      {
        ...realFs,
        open: (async (...args: Parameters<typeof nodeFs.open>) => {
          const handle = await nodeFs.open(...args);
          return new Proxy(handle, {
            get(target, prop) {
              if (prop === "writeFile") {
                return async (data: string) => {
                  await target.writeFile(data.slice(0, data.length / 2));
                  throw Object.assign(new Error("ENOSPC: injected"), { code: "ENOSPC" });
                };
              }
              const v = Reflect.get(target, prop);
              return typeof v === "function" ? v.bind(target) : v;
            },
          });
        }) as typeof nodeFs.open,
      },
    ],
  ] as [string, AtomicFs][]) {
    it(`${when}: main.tf keeps its old text, the backup holds it too, no temporary file is left`, async () => {
      const dir = tempDir("cfwm-atomic-");
      const file = path.join(dir, "main.tf");
      writeFileSync(file, OLD);
      await expect(writeFileAtomic(file, NEW, { backup: true, fs })).rejects.toThrow(/injected/);
      expect(readFileSync(file, "utf8")).toBe(OLD);
      expect(readFileSync(`${file}.backup`, "utf8")).toBe(OLD);
      expect(readdirSync(dir).sort()).toEqual(["main.tf", "main.tf.backup"]);
    });
  }

  it("without a failure: new text in place, old text in the backup", async () => {
    const dir = tempDir("cfwm-atomic-");
    const file = path.join(dir, "terraform.tfstate");
    writeFileSync(file, OLD);
    const { backupPath } = await writeFileAtomic(file, NEW, { backup: true });
    expect(readFileSync(file, "utf8")).toBe(NEW);
    expect(backupPath && readFileSync(backupPath, "utf8")).toBe(OLD);
  });
});

/** A child process that rewrites the file forever, alternating two large texts, through writeFileAtomic. */
const WRITER = `
import { writeFileAtomic } from ${JSON.stringify(path.join(ROOT, "dist/terraform/edit/fs-atomic.js"))};
const [file, a, b] = process.argv.slice(2);
const texts = [a, b].map((f) => (f === "A" ? "A".repeat(3_000_000) + "\\n" : "B".repeat(5_000_000) + "\\n"));
process.stdout.write("ready\\n");
for (let i = 0; ; i++) await writeFileAtomic(file, texts[i % 2]);
`;

describe("a writer killed in the middle of writes", () => {
  it("leaves the target whole (old or new text) every time, over 12 kills at random moments", async () => {
    const dir = tempDir("cfwm-kill-");
    const script = path.join(dir, "writer.mjs");
    writeFileSync(script, WRITER);
    const file = path.join(dir, "main.tf");
    const whole = new Set(["A".repeat(3_000_000) + "\n", "B".repeat(5_000_000) + "\n", OLD]);
    writeFileSync(file, OLD);
    for (let round = 0; round < 12; round++) {
      const child = spawn(process.execPath, [script, file, "A", "B"], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 120)));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const text = readFileSync(file, "utf8");
      expect(whole.has(text), `round ${round}: ${text.length} characters, not one of the whole texts`).toBe(true);
    }
    // Killed writers may leave their temporary files; never under the target's name.
    for (const name of readdirSync(dir)) expect(name === "main.tf" || name === "writer.mjs" || /^\.main\.tf\.\d+\.[0-9a-f]+\.tmp$/.test(name), name).toBe(true);
  }, 60_000);
});

describe("report files (--output, api --output)", () => {
  it("replacing a Terraform file keeps a backup; the write is atomic", async () => {
    const { writeReportFile } = await import("../../src/cli/io.js");
    const dir = tempDir("cfwm-report-");
    const tf = path.join(dir, "main.tf");
    writeFileSync(tf, OLD);
    await writeReportFile(tf, '{"schemaVersion": 1}\n');
    expect(readFileSync(tf, "utf8")).toBe('{"schemaVersion": 1}\n');
    expect(readFileSync(`${tf}.backup`, "utf8")).toBe(OLD);
    // A plain report file is replaced without a backup, and no temporary file is left.
    await writeReportFile(path.join(dir, "report.json"), "{}\n");
    await writeReportFile(path.join(dir, "report.json"), "[]\n");
    expect(readdirSync(dir).sort()).toEqual(["main.tf", "main.tf.backup", "report.json"]);
  });
});
