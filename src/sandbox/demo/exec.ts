// Runs one command of the demo: its own process group (so a stuck terraform and the plugins it started can
// be killed together), output captured, a generous time limit.

import { spawn } from "node:child_process";

export interface Ran {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

const LIMIT_MS = 300_000;

export function run(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; label?: string }): Promise<Ran> {
  const command = opts.label ?? [file, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const limit = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, LIMIT_MS);
    child.on("error", (e) => {
      clearTimeout(limit);
      reject(new Error(`${command}: ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(limit);
      resolve({ command, code, stdout, stderr });
    });
  });
}
