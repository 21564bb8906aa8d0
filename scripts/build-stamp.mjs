// What dist/ was built from: a hash of the sources, the build scripts, the dependency lock, the compiler's
// settings, the code cache's training input and the Node that ran the build. `npm run build` writes it into
// dist/ last (scripts/postbuild.mjs); `npm test` builds only when it differs (scripts/build-if-stale.mjs).
// Why: `npm ci` already builds (the `prepare` script) and `npm test` built everything again right after, ~10 s
// of a CI run that must stay under five minutes, for the same bytes.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const STAMP_FILE = path.join(ROOT, "dist", ".build-stamp");

const INPUTS = ["src", "scripts", "package.json", "package-lock.json", "tsconfig.json", "testdata/multi-zone"];

/** Every regular file under `p` (relative to the repository), in a stable order. */
function files(p) {
  const abs = path.join(ROOT, p);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [p];
  return readdirSync(abs, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? files(path.join(p, e.name)) : e.isFile() ? [path.join(p, e.name)] : []));
}

export function currentStamp() {
  const hash = createHash("sha256");
  hash.update(`node ${process.version}\n`);
  for (const f of INPUTS.flatMap(files)) {
    hash.update(`${f}\n`);
    hash.update(readFileSync(path.join(ROOT, f)));
    hash.update("\n");
  }
  return hash.digest("hex");
}

/** The stamp dist/ carries, or null (never built, or a build that did not finish: it deletes dist/ first). */
export function builtStamp() {
  try {
    return readFileSync(STAMP_FILE, "utf8").trim();
  } catch {
    return null;
  }
}
