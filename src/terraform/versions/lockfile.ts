// `.terraform.lock.hcl`: which provider versions `terraform init` / `tofu init` selected.
//
//   provider "registry.terraform.io/cloudflare/cloudflare" {
//     version     = "3.35.0"
//     constraints = "~> 3.30"
//     hashes      = [ "h1:…", "zh:…" ]
//   }
//
// Parsed with @cdktn/hcl2json (the same HCL parser as Terraform); hcl2json has no source positions, so the
// line of each provider block is found by locating its label in the text.
import { withLine } from "../../core/report-paths.js";
import { loadHcl2Json } from "../parse-pool/pool.js";
import { readWholeFileFast } from "../hcl/whole-file.js";

export interface LockEntry {
  /** Provider source address as written in the lock file, e.g. `registry.terraform.io/cloudflare/cloudflare`. */
  source: string;
  /** The selected version, e.g. `3.35.0`; null if the block has none (a hand-edited file). */
  version: string | null;
  /** The constraints recorded at selection time (`~> 3.30`); null when absent. */
  constraints: string | null;
  /** 1-based line of the `provider "…"` block. */
  line: number;
}

/** The lock file could not be parsed. `line`/`column` come from the HCL diagnostic when it has them. */
export class LockFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly column: number | null,
    readonly detail: string,
  ) {
    super(`${withLine(file, line, column)}: ${detail}`);
    this.name = "LockFileError";
  }
}

/** Provider sources of the Cloudflare provider, Terraform's registry and OpenTofu's. */
export const CLOUDFLARE_PROVIDER_SOURCES: readonly string[] = [
  "registry.terraform.io/cloudflare/cloudflare",
  "registry.opentofu.org/cloudflare/cloudflare",
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Line of the `nth` (0-based) `provider "<source>" {` block; hcl2json keeps duplicate blocks in order. */
function lineOfLabel(text: string, source: string, nth: number): number {
  const re = new RegExp(`^[ \\t]*provider[ \\t]+"${escapeRegExp(source)}"[ \\t]*\\{`, "gm");
  let m: RegExpExecArray | null = null;
  for (let i = 0; i <= nth; i++) {
    const next = re.exec(text);
    if (!next) break;
    m = next;
  }
  const at = m ? m.index + m[0].indexOf("provider") : text.indexOf(`"${source}"`);
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function stringOrNull(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/**
 * Parses the text of a lock file into one entry per provider block, in file order.
 * Throws LockFileError when the text is not valid HCL.
 */
export async function parseLockFile(text: string, file = ".terraform.lock.hcl"): Promise<LockEntry[]> {
  let json: Record<string, unknown>;
  try {
    // The fast reader reads a lock file as hcl2json does, without starting it (../hcl/whole-file.ts).
    json = readWholeFileFast(text)?.body ?? ((await (await loadHcl2Json()).parse(file, text)) as Record<string, unknown>);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // hcl2json: `parse config: [FILE:4,1-2: Summary; Detail.]`
    const m = /:(\d+),(\d+)(?:-\d+(?:,\d+)?)?: ([^\]]*)/.exec(message);
    throw new LockFileError(file, m ? Number(m[1]) : null, m ? Number(m[2]) : null, m ? m[3]!.trim() : message);
  }
  const providers = json["provider"];
  if (providers === undefined) return [];
  if (typeof providers !== "object" || providers === null || Array.isArray(providers)) {
    throw new LockFileError(file, null, null, "provider blocks must have exactly one label");
  }
  const entries: LockEntry[] = [];
  for (const [source, blocks] of Object.entries(providers as Record<string, unknown>)) {
    const list = Array.isArray(blocks) ? blocks : [blocks];
    for (const [nth, b] of list.entries()) {
      const body = (typeof b === "object" && b !== null ? b : {}) as Record<string, unknown>;
      entries.push({
        source,
        version: stringOrNull(body["version"]),
        constraints: stringOrNull(body["constraints"]),
        line: lineOfLabel(text, source, nth),
      });
    }
  }
  entries.sort((a, b) => a.line - b.line);
  return entries;
}

/** The Cloudflare provider's entry (Terraform or OpenTofu registry), or null when the lock has none. */
export function cloudflareLock(entries: readonly LockEntry[]): LockEntry | null {
  for (const source of CLOUDFLARE_PROVIDER_SOURCES) {
    const e = entries.find((x) => x.source.toLowerCase() === source);
    if (e) return e;
  }
  return null;
}
