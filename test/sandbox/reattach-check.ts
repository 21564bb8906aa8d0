// What a harness reads before it lets a terraform command attach to the long-lived double: a reattached
// provider is exempt from terraform's own checks of the lock file (the version selected, and that the
// configuration's constraints still accept it: "Inconsistent dependency lock file"), so the harness
// reattaches only where those checks passed on a run that started the plugin itself and nothing they read
// changed since.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The version of `source` the lock file in `dir` selected, if any. */
export function lockedVersion(dir: string, source: string): string | undefined {
  let lock: string;
  try {
    lock = readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8");
  } catch {
    return undefined;
  }
  const escaped = source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`provider "${escaped}" \\{\\s*version\\s*=\\s*"([^"]+)"`).exec(lock)?.[1];
}

/** The `required_providers { … }` blocks of an HCL text (braces counted, strings and comments not parsed). */
function requiredProviders(text: string): string[] {
  const blocks: string[] = [];
  for (const m of text.matchAll(/required_providers\s*\{/g)) {
    let depth = 0;
    let end = m.index;
    for (let i = m.index; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    blocks.push(end > m.index ? text.slice(m.index, end) : text.slice(m.index));
  }
  return blocks;
}

/** The module directories `terraform init`/`get` recorded (relative to the root), the root's own first. */
function moduleDirs(root: string, dataDir: string): string[] {
  const dirs = [root];
  try {
    const manifest = JSON.parse(readFileSync(path.join(dataDir, "modules", "modules.json"), "utf8")) as { Modules?: { Dir?: string }[] };
    for (const m of manifest.Modules ?? []) if (m.Dir) dirs.push(path.resolve(root, m.Dir));
  } catch {
    // no modules installed
  }
  return [...new Set(dirs)];
}

/**
 * A digest of everything terraform's lock-file checks read: the lock file, the installed package of the
 * locked `source` version, and the provider requirements of the root and of every installed module (whole
 * .tf.json files, whose requirements are not cut out).
 */
export function requirementsDigest(root: string, dataDir: string, source: string): string {
  const hash = createHash("sha256");
  const lock = path.join(root, ".terraform.lock.hcl");
  hash.update(existsSync(lock) ? readFileSync(lock) : "(no lock file)");
  const version = lockedVersion(root, source);
  const pkg = version && path.join(dataDir, "providers", source, version, "linux_amd64");
  if (pkg && existsSync(pkg)) for (const f of readdirSync(pkg).sort()) hash.update(`\0${f}\0`).update(readFileSync(path.join(pkg, f)));
  else hash.update("(not installed)");
  for (const dir of moduleDirs(root, dataDir)) {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".tf") || f.endsWith(".tf.json")).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), "utf8");
      const parts = f.endsWith(".tf.json") ? [text] : requiredProviders(text);
      if (parts.length) hash.update(`\0${path.join(dir, f)}\0${parts.join("\0")}`);
    }
  }
  return hash.digest("hex");
}
