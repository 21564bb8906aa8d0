// The response cache of the online commands: one JSON file per (base URL, path, query, credential) under
// --cache-dir, so a CI rerun within --max-age sends nothing. The file name is a hash; the credential enters
// it only as a fingerprint that is itself hashed again, and every stored text goes through the credential
// redactor, so no cache byte carries a token or key (test/online/secrets.test.ts greps for every form).
// Writes are atomic (temporary file + rename): a killed run leaves whole entries or none.

import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeFileAtomic } from "../terraform/edit/fs-atomic.js";
import { compareText } from "../core/text-order.js";

export const DEFAULT_CACHE_DIR = ".cf-waf-migrate/cache";
/** Long enough for a CI rerun, short enough that a zone migrated meanwhile is seen soon. */
export const DEFAULT_MAX_AGE = "15m";

export interface CacheKeyParts {
  baseUrl: string;
  path: string;
  query?: Record<string, string>;
  zoneId: string;
}

export interface CacheEntry<T> {
  fetchedAt: string;
  result: T;
}

// Every scan imports this module (through the online options); only online runs hash. node:crypto is
// loaded by the first hash, not at start-up.
const requireBuiltin = createRequire(import.meta.url);
const sha256 = (text: string): string => (requireBuiltin("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(text).digest("hex");

/**
 * A fingerprint of the auth headers: which credential answered matters (two tokens may see different
 * accounts), but the stored key must not let anyone recover or even test a guess of it cheaply offline,
 * so it is a salted hash that only ever enters another hash.
 */
export function credentialFingerprint(authHeaders: Record<string, string>): string {
  const canonical = Object.keys(authHeaders)
    .sort()
    .map((k) => `${k.toLowerCase()}:${authHeaders[k]}`)
    .join("\n");
  return sha256(`cf-waf-migrate credential fingerprint\n${canonical}`);
}

export class ResponseCache {
  constructor(
    readonly dir: string,
    readonly maxAgeMs: number,
    private readonly fingerprint: string,
    private readonly redact: (text: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Files of one zone share a prefix, so a migration can drop them all (see `forgetZone`). */
  private fileOf(parts: CacheKeyParts): string {
    const zone = sha256(JSON.stringify([parts.baseUrl, parts.zoneId, this.fingerprint])).slice(0, 24);
    const query = Object.entries(parts.query ?? {}).sort(([a], [b]) => compareText(a, b));
    const key = sha256(JSON.stringify([parts.baseUrl, parts.path, query, this.fingerprint])).slice(0, 40);
    return join(this.dir, `${zone}-${key}.json`);
  }

  /** The entry when present, readable and younger than max-age; else null. */
  async get<T>(parts: CacheKeyParts): Promise<CacheEntry<T> | null> {
    if (this.maxAgeMs <= 0) return null;
    let text: string;
    try {
      text = await readFile(this.fileOf(parts), "utf8");
    } catch {
      return null;
    }
    try {
      const entry = JSON.parse(text) as Partial<CacheEntry<T>>;
      const at = typeof entry.fetchedAt === "string" ? Date.parse(entry.fetchedAt) : NaN;
      if (Number.isNaN(at) || !("result" in entry)) return null;
      const age = this.now() - at;
      if (age < 0 || age > this.maxAgeMs) return null;
      return { fetchedAt: entry.fetchedAt!, result: entry.result as T };
    } catch {
      // A damaged entry is a miss: the service is asked again and the entry rewritten.
      return null;
    }
  }

  async put<T>(parts: CacheKeyParts, entry: CacheEntry<T>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Temporary file + rename: a reader sees the old entry or the new one, never half of one.
    await writeFileAtomic(this.fileOf(parts), this.redact(JSON.stringify(entry)) + "\n", { newFileMode: 0o600 });
  }

  /** Drops every entry of a zone (after a migration request its answers are stale). */
  async forgetZone(baseUrl: string, zoneId: string): Promise<void> {
    const prefix = `${sha256(JSON.stringify([baseUrl, zoneId, this.fingerprint])).slice(0, 24)}-`;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(this.dir, n), { force: true })));
  }
}
