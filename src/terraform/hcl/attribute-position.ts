// Input errors found while reading an attribute's value (`products = set("waf")`) are known only by their
// block's line. Terraform points at the value itself, and so does the one-line error a CI log shows:
// this finds the attribute inside the block's text and moves the error to the value's line and column.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../../core/model.js";

/** An error raised while reading one attribute of the block that starts at `line`. */
export type AttributeError = InputError & { attribute?: string };

/** Resolves every error's `attribute` to a line and column in place, and drops the hint. */
export async function locateAttributeErrors(errors: AttributeError[], base: string): Promise<void> {
  const texts = new Map<string, string[] | null>();
  for (const e of errors) {
    const attribute = e.attribute;
    if (attribute === undefined) continue;
    delete e.attribute;
    if (e.line === null || !/\.tf$/.test(e.file)) continue; // JSON syntax has no such one-line form
    if (!texts.has(e.file)) texts.set(e.file, await readLines(path.resolve(base, e.file)));
    const lines = texts.get(e.file);
    const at = lines ? findAttribute(lines, e.line, attribute) : null;
    if (at) {
      e.line = at.line;
      e.column = at.column;
    }
  }
}

async function readLines(file: string): Promise<string[] | null> {
  try {
    return (await readFile(file, "utf8")).split(/\r?\n/);
  } catch {
    return null;
  }
}

/** 1-based line and column of the attribute's value, searched from the block's first line to its end. */
export function findAttribute(lines: string[], blockLine: number, attribute: string): { line: number; column: number } | null {
  const re = new RegExp(`^(\\s*${attribute.replace(/[^\w-]/g, "")}\\s*=\\s*)\\S`);
  let depth = 0;
  for (let i = blockLine - 1; i < lines.length; i++) {
    const text = lines[i]!;
    const m = re.exec(text);
    // Only the block's own attributes (depth 1), never one of a nested block with the same name.
    if (m && depth === 1) return { line: i + 1, column: m[1]!.length + 1 };
    for (const c of text.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#.*$|\/\/.*$/, "")) {
      if (c === "{") depth++;
      else if (c === "}") depth--;
    }
    if (depth <= 0 && i >= blockLine - 1 && text.includes("}")) return null;
  }
  return null;
}
