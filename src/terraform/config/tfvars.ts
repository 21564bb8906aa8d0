// Root variable values known offline, in Terraform's precedence order (later wins): `terraform.tfvars`,
// `terraform.tfvars.json`, `*.auto.tfvars` / `*.auto.tfvars.json` in lexical order of their names, then
// `--var-file FILE` in the order given, then `--var NAME=VALUE` in the order given. (Terraform interleaves
// -var and -var-file in command-line order; here every --var comes after every --var-file.)
// Environment variables (`TF_VAR_name`) are not read: a scan must not depend on the shell it runs in.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { InputError } from "../../core/model.js";
import { evaluateConfigValue } from "../../core/tf-expr/body.js";
import { evaluate, type Scope } from "../../core/tf-expr/evaluate.js";
import { ExprSyntaxError, parseExpression } from "../../core/tf-expr/parse.js";
import { fromPlain, Unknown, type Value } from "../../core/tf-expr/values.js";
import { displayPath, readText } from "./load.js";
import { parseConfigFile } from "../hcl/parse.js";
import { inputRecord } from "../../core/null-proto.js";

export interface VariableArgs {
  /** `--var-file FILE`, relative to the working directory. */
  varFiles: string[];
  /** `--var NAME=VALUE`. */
  vars: string[];
}

/** Values in tfvars files are constants: a reference in one cannot be evaluated (Terraform rejects it too). */
const NO_REFERENCES: Scope = {
  reference: (parts) => new Unknown(`${parts.join(".")}: variable files cannot refer to other values`),
  readFile: () => new Unknown("file() is not available in variable files"),
};

/** Reads one tfvars file (HCL, or JSON when it ends in `.json`); its errors carry file, line and column. */
export async function readVarFile(abs: string, base: string, errors: InputError[]): Promise<Record<string, Value>> {
  const display = displayPath(abs, base);
  const text = await readText(abs, display, errors);
  if (text === null) return {};
  const out: Record<string, Value> = inputRecord();
  if (abs.endsWith(".json")) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      errors.push({ file: display, line: null, column: null, message: `not valid JSON: ${(e as Error).message}` });
      return {};
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
      errors.push({ file: display, line: 1, column: 1, message: "a .tfvars.json file must hold one JSON object" });
      return {};
    }
    // JSON variable files hold values, not templates: a "${…}" string there is a literal string.
    for (const [k, v] of Object.entries(doc)) out[k] = fromPlain(v);
    return out;
  }
  // hcl2json reads a tfvars file as a body of attributes.
  const parsed = await parseConfigFile(display, text);
  if (!parsed.ok) {
    errors.push(parsed.error);
    return {};
  }
  for (const [k, v] of Object.entries(parsed.parsed.body)) out[k] = evaluateConfigValue(v, NO_REFERENCES);
  return out;
}

/** The variable files Terraform loads by itself from a root directory, in its order. */
export function automaticVarFiles(rootDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(rootDir);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (names.includes("terraform.tfvars")) out.push("terraform.tfvars");
  if (names.includes("terraform.tfvars.json")) out.push("terraform.tfvars.json");
  out.push(...names.filter((n) => n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json")).sort());
  return out.map((n) => path.join(rootDir, n));
}

/**
 * `--var NAME=VALUE`: like Terraform, a value that looks like a list, map or object (`[…]`, `{…}`) is read
 * as an HCL expression, anything else as a string. A malformed pair is an error naming the option.
 */
export function parseVarArg(arg: string, errors: InputError[]): [string, Value] | null {
  const i = arg.indexOf("=");
  const name = i > 0 ? arg.slice(0, i).trim() : "";
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    errors.push({ file: "--var", line: null, column: null, message: `--var expects NAME=VALUE, got ${JSON.stringify(arg)}` });
    return null;
  }
  const raw = arg.slice(i + 1);
  if (/^\s*[[{]/.test(raw)) {
    try {
      return [name, evaluate(parseExpression(raw), NO_REFERENCES)];
    } catch (e) {
      if (!(e instanceof ExprSyntaxError) && !(e instanceof Error)) throw e;
      errors.push({ file: "--var", line: null, column: null, message: `--var ${name}: ${(e as Error).message}` });
      return null;
    }
  }
  return [name, raw];
}

/**
 * A function from a root directory to its variable values: the root's own automatic files, then the
 * command line's files and values (read once, shared by every root).
 */
export async function loadRootVariables(rootDirs: string[], args: VariableArgs, cwd: string, base: string, errors: InputError[]): Promise<(rootDir: string) => Record<string, Value>> {
  const commandLine: Record<string, Value> = inputRecord();
  for (const f of args.varFiles) {
    const abs = path.resolve(cwd, f);
    Object.assign(commandLine, await readVarFile(abs, base, errors));
  }
  for (const v of args.vars) {
    const pair = parseVarArg(v, errors);
    if (pair) commandLine[pair[0]] = pair[1];
  }
  const perRoot = new Map<string, Record<string, Value>>();
  for (const dir of rootDirs) {
    const values: Record<string, Value> = inputRecord();
    for (const f of automaticVarFiles(dir)) Object.assign(values, await readVarFile(f, base, errors));
    Object.assign(values, commandLine);
    perRoot.set(dir, values);
  }
  return (dir) => perRoot.get(dir) ?? commandLine;
}
