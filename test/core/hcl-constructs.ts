// The construct paths (`rules.action_parameters.overrides.categories.enabled`) a parsed cloudflare_ruleset
// really uses, from hcl2json's JSON: blocks are arrays of objects, attributes are values.

type Json = Record<string, unknown>;

function walk(obj: Json, prefix: string, out: Set<string>): void {
  for (const [k, v] of Object.entries(obj)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.add(p);
    const items = Array.isArray(v) ? v : [];
    for (const item of items) if (item !== null && typeof item === "object" && !Array.isArray(item)) walk(item as Json, p, out);
  }
}

/** Every construct of every `cloudflare_ruleset` in the parsed file. */
export function hclConstructs(parsed: unknown): string[] {
  const out = new Set<string>();
  const resources = ((parsed as Json).resource as Json | undefined)?.cloudflare_ruleset as Record<string, Json[]> | undefined;
  for (const list of Object.values(resources ?? {})) for (const r of list) walk(r, "", out);
  return [...out];
}
