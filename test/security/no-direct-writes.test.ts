// Every file the tool writes goes through an atomic helper (temporary file + rename): src/ has no direct
// write call outside the allow-listed helpers, so no `.tf` or state file can be left half-written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

/** The helpers that write to a temporary file and rename it (or hard-link it) into place. */
const ALLOWED: Record<string, string> = {
  "src/terraform/edit/fs-atomic.ts": "writeFileAtomic / writeNewFile: temporary file, fsync, rename or link, backups",
  "src/sandbox/fs-sync.ts": "the provider double's account, mirror and RPC trace: temporary file, fsync, rename (sync: one RPC per event-loop turn); whole-line appends",
  "src/apply/rehearsal-copy.ts": "the rehearsal's throwaway copy: two files created in a fresh mkdtemp directory (its local state and backend override), never in the user's tree",
  "src/online/ledger.ts": "the migration ledger: append-only JSON lines, each fsynced before the next request (an append never replaces what is there)",
  "src/estate/spill/records.ts": "the scan's spill: records appended to new files (wx) of a fresh private mkdtemp directory (0700) under the system's temporary directory, removed at the end; never in the user's tree",
};

/**
 * Calls that write file contents directly: bare calls of the node:fs functions (as imported), or calls on a
 * node:fs namespace. `deps.writeFile(…)` (an injected writer) is checked where its default is defined.
 */
const DIRECT_WRITE =
  /(?<![\w$.])(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|writeSync|ftruncateSync|ftruncate|truncateSync)\s*\(|\b(?:fs|fsp|promises|nodeFs)\.(writeFile\w*|appendFile\w*|createWriteStream|truncate\w*|ftruncate\w*|write\w*)\s*\(/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : /\.(ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

describe("no direct file writes in src/", () => {
  it("only the atomic helpers call writeFile and friends", () => {
    const offenders: string[] = [];
    for (const file of sources(path.join(ROOT, "src"))) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (rel in ALLOWED) continue;
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(DIRECT_WRITE)) {
        const line = text.slice(0, m.index).split("\n").length;
        const src = text.split("\n")[line - 1]!.trim();
        // An import line names the function without calling it; a comment is not a call.
        if (/^(import|\/\/|\*)/.test(src)) continue;
        offenders.push(`${rel}:${line}: ${src}`);
      }
    }
    expect(offenders, "write through writeFileAtomic/writeNewFile (src/terraform/edit/fs-atomic.ts) or writeReportFile (src/cli/io.ts)").toEqual([]);
  });

  it("the allow-listed helpers do write through a temporary file and a rename or link", () => {
    const atomic = readFileSync(path.join(ROOT, "src/terraform/edit/fs-atomic.ts"), "utf8");
    expect(atomic).toMatch(/\.tmp`/);
    expect(atomic).toMatch(/fs\.rename\(tmp, path\)/);
    expect(atomic).toMatch(/fs\.link\(tmp, path\)/);
  });
});
