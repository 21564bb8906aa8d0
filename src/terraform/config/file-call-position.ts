// Where a `file(...)` call whose file cannot be read is written. The evaluator knows the path it read and the
// module it was evaluated in, not the call's position: this finds the call in the module's .tf files whose
// argument, with its `${...}` parts as wildcards (`"${path.module}/zones.yaml"`,
// `"settings/${terraform.workspace}.yaml"`), matches the path; in a .tf.json file, the call inside a JSON string
// (`"${yamldecode(file(\"zones.yaml\"))}"`: its quotes escaped). Null when no call matches.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const CALL = /\bfile\s*\(\s*"((?:[^"\\\n]|\\.)*)"/g;
/** The same call written inside a JSON string: its argument's quotes are `\"`, its other escapes JSON's. */
const JSON_CALL = /\bfile\s*\(\s*\\"((?:[^"\\\n]|\\[^"])*)\\"/g;

export function fileCallPosition(moduleDir: string, abs: string): { file: string; line: number; column: number } | null {
  let names: string[];
  try {
    names = readdirSync(moduleDir).filter((n) => n.endsWith(".tf") || n.endsWith(".tf.json")).sort();
  } catch {
    return null;
  }
  const target = abs.split(path.sep).join("/");
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(path.join(moduleDir, name), "utf8");
    } catch {
      continue;
    }
    const json = name.endsWith(".json");
    for (const m of text.matchAll(json ? JSON_CALL : CALL)) {
      const arg = json ? jsonUnescaped(m[1]!) : m[1]!;
      if (arg === null || !argumentMatches(arg, target)) continue;
      const before = text.slice(0, m.index);
      const line = before.split("\n").length;
      return { file: path.join(moduleDir, name), line, column: m.index - before.lastIndexOf("\n") };
    }
  }
  return null;
}

/** A JSON string's escaped text as the string it is (null when it is not valid JSON). */
function jsonUnescaped(escaped: string): string | null {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return null;
  }
}

/** `"${path.module}/zones.yaml"` matches `/abs/root/zones.yaml`: literal parts in order, the path's end. */
function argumentMatches(arg: string, target: string): boolean {
  const parts = arg.split(/\$\{[^}]*\}/);
  // `..` and `.` segments are gone from the resolved path: matched without them (`${path.module}/../certs/a.pem`).
  const literal = (p: string) => p.split("/").filter((s) => s !== "." && s !== "..").join("/");
  const pattern = parts.map((p) => literal(p).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`(^|/)${pattern}$`).test(target);
}
