// `--shard K/N`: which roots of an estate one CI job scans when a matrix of N jobs splits it. Pure.
//
// A root belongs to shard `(fnv1a32(utf8(normalizedPath)) mod N) + 1`. FNV-1a (32-bit) over the UTF-8
// bytes of the normalized path relative to the report's root is the same number on every machine, OS and
// Node version, and it depends on nothing but the path: adding or removing another root never moves a
// root to another shard, and every (root, workspace) instance of a root lands in the same shard (the
// workspaces of a root share its configuration, so they are scanned together).
//
// Normalization: Unicode NFC (macOS file systems hand out NFD names), `\` turned into `/`, `./` and empty
// segments removed, no trailing `/`; the report's root itself is `.`.

export interface ShardSpec {
  /** 1-based shard number. */
  index: number;
  /** Number of shards. */
  count: number;
}

/** Raised for a `--shard` value that is not `K/N` with 1 <= K <= N. */
export class ShardSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShardSpecError";
  }
}

/** The most shards a run may be split into: far beyond any CI matrix (GitHub Actions allows 256 jobs). */
export const MAX_SHARDS = 10_000;

/** Parses `K/N` (`2/4`); throws ShardSpecError with a one-line reason otherwise. */
export function parseShardSpec(value: string): ShardSpec {
  const text = value.trim();
  const m = /^(\d+)\s*\/\s*(\d+)$/.exec(text);
  if (!m) throw new ShardSpecError(`--shard ${JSON.stringify(value)}: expected K/N, e.g. 2/4 (shard K of N, counted from 1)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) throw new ShardSpecError(`--shard ${text}: N (the number of shards) must be at least 1`);
  if (count > MAX_SHARDS) throw new ShardSpecError(`--shard ${text}: N must be at most ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw new ShardSpecError(`--shard ${text}: K must be between 1 and ${count} (shards are counted from 1)`);
  return { index, count };
}

export function formatShardSpec(spec: ShardSpec): string {
  return `${spec.index}/${spec.count}`;
}

/** A root's path as the shard hash reads it (see the file comment). */
export function normalizeRootPath(rootPath: string): string {
  const parts = rootPath
    .normalize("NFC")
    .replace(/\\/g, "/")
    .split("/")
    .filter((p) => p !== "" && p !== ".");
  return parts.length === 0 ? "." : parts.join("/");
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of the UTF-8 bytes of `text`, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** The 1-based shard of `count` that a root (path relative to the report's root) belongs to. */
export function shardOfRoot(rootPath: string, count: number): number {
  return (fnv1a32(normalizeRootPath(rootPath)) % count) + 1;
}

export function inShard(rootPath: string, spec: ShardSpec): boolean {
  return shardOfRoot(rootPath, spec.count) === spec.index;
}

/** The items whose root falls in the shard, in their order; `pathOf` gives an item's root path. */
export function selectShard<T>(items: readonly T[], spec: ShardSpec, pathOf: (item: T) => string): T[] {
  return items.filter((item) => inShard(pathOf(item), spec));
}
