// Where the providers the root already uses are installed, for the rehearsal's `init -plugin-dir`: the
// root's own data directory (`.terraform/providers`, or `$TF_DATA_DIR/providers`) or the plugin cache
// (`TF_PLUGIN_CACHE_DIR`). Both have the unpacked layout `-plugin-dir` reads
// (`<host>/<namespace>/<type>/<version>/<os>_<arch>/`). Nothing is downloaded: without them, no rehearsal.
import { dataDirOf } from "../terraform/runner/data-dir.js";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function hasPackages(dir: string): boolean {
  try {
    // host/namespace/type/version/os_arch: at least one provider package below.
    const walk = (d: string, depth: number): boolean =>
      depth === 0 ? statSync(d).isDirectory() : readdirSync(d).some((e) => { const p = path.join(d, e); try { return statSync(p).isDirectory() && walk(p, depth - 1); } catch { return false; } });
    return walk(dir, 5);
  } catch {
    return false;
  }
}

/** The first directory holding installed providers for the root, or null. */
export function installedProviders(chdir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dataDir = dataDirOf(chdir, env);
  const candidates = [path.join(dataDir, "providers"), ...(env.TF_PLUGIN_CACHE_DIR ? [path.resolve(chdir, env.TF_PLUGIN_CACHE_DIR)] : [])];
  return candidates.find((d) => existsSync(d) && hasPackages(d)) ?? null;
}
