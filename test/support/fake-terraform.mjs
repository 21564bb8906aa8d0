#!/usr/bin/env node
// A stand-in for `terraform` / `tofu` in tests. It keeps a state file (v4 JSON) and answers the few
// subcommands the runner uses, with Terraform's own output texts (measured against Terraform 1.11).
//
//   version [-json]                         FAKE_TF_FLAVOR=tofu prints OpenTofu's texts
//   state list [-state=F] [-id=ID] [ADDR...]
//   state rm [-dry-run] [-backup=PATH|-] [-state=F] [-lock=…] [-lock-timeout=…] ADDR...
//   state pull
//   import [-input=false] [-no-color] [-state=F] [-lock=…] ADDR ID   adds a cloudflare_ruleset-like instance
//   plan [-detailed-exitcode] [-refresh=false] [-input=false] [-no-color] [-lock=…] [-target=…] [-out=…]
//   workspace list                          default and terraform.tfstate.d/<name>/, TF_WORKSPACE marked
//   workspace show                          TF_WORKSPACE, else default
//   fmt [-check] [-recursive] [-diff] [-list=…] [-write=…] [PATH...]     always "formatted", exit 0
//   Global option -chdir=DIR before the subcommand. Anything else exits 1.
//
// Environment:
//   FAKE_TF_STATE        state file (relative to the working dir); default terraform.tfstate
//   FAKE_TF_LOG          append each invocation's argv (JSON array) as one line
//   FAKE_TF_FLAVOR       terraform (default) | tofu
//   FAKE_TF_VERSION      version to report; default 1.11.0 (terraform) / 1.9.0 (tofu)
//   FAKE_TF_NO_JSON_VERSION=1   `version -json` fails like Terraform < 0.13 (flag not defined)
//   FAKE_TF_PLAN_EXIT    plan's detailed exit code: 0 (default, no changes), 2 (changes), 1 (error)
//   FAKE_TF_FAIL_ON      subcommand(s) that fail with exit 1 and change nothing: `import`, `state rm`,
//                        `state list`, `state pull`, `plan`, `version`, `fmt` (comma-separated)
//   FAKE_TF_FAIL_MESSAGE text printed on stderr by an injected failure
//
// Run as a program (node fake-terraform.mjs ARGS), or invocation by invocation from a long-lived process
// (runFake, fake-terraform-server.mjs), which saves each call a Node start.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";

// One invocation's arguments, environment and output; set by runFake before anything reads them.
let argv;
let env;
let flavor;
let product;
let binName;
let version;
let out;
let err;

class Exit extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

// ---- diagnostics, formatted like Terraform's plain (no-color) renderer ----------------------------

function wrap(text, width = 77) {
  return text
    .split("\n")
    .map((para) => {
      const words = para.split(" ");
      const lines = [];
      let line = "";
      for (const w of words) {
        if (line === "") line = w;
        else if (line.length + 1 + w.length <= width) line += " " + w;
        else {
          lines.push(line);
          line = w;
        }
      }
      lines.push(line);
      return lines.join("\n");
    })
    .join("\n");
}

function diag(summary, detail) {
  err(`\nError: ${summary}\n\n${wrap(detail)}\n\n`);
}

function fail(summary, detail, code = 1) {
  diag(summary, detail);
  throw new Exit(code);
}

// ---- addresses ----------------------------------------------------------------------------------------

/** Go's unicode.IsPrint, close enough: letters, marks, numbers, punctuation, symbols, ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Terraform's toHCLQuotedString (addrs/instance_key.go). */
function quote(s) {
  let o = '"';
  const cps = Array.from(s);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === "\n") o += "\\n";
    else if (c === "\r") o += "\\r";
    else if (c === "\t") o += "\\t";
    else if (c === '"') o += '\\"';
    else if (c === "\\") o += "\\\\";
    else if (c === "$" || c === "%") o += cps[i + 1] === "{" ? c + c : c;
    else if (!PRINTABLE.test(c)) {
      const cp = c.codePointAt(0);
      o += cp < 0x10000 ? "\\u" + cp.toString(16).padStart(4, "0") : "\\U" + cp.toString(16).padStart(8, "0");
    } else o += c;
  }
  return o + '"';
}

const NO_KEY = undefined;
const keyText = (k) => (k === NO_KEY ? "" : typeof k === "number" ? `[${k}]` : `[${quote(k)}]`);
const moduleText = (mod) => mod.map((s) => `module.${s.name}${keyText(s.key)}`).join(".");

function instanceText(mod, mode, type, name, key) {
  const m = moduleText(mod);
  return `${m ? m + "." : ""}${mode === "data" ? "data." : ""}${type}.${name}${keyText(key)}`;
}

class AddressError extends Error {}

/** Parses an address as typed by a user: steps `ident` or `ident[key]` joined by dots. */
function parseSteps(s) {
  const steps = [];
  let i = 0;
  const ident = /[A-Za-z_][A-Za-z0-9_-]*/y;
  for (;;) {
    ident.lastIndex = i;
    const m = ident.exec(s);
    if (!m) throw new AddressError("Expected an attribute access or an index operator.");
    i = ident.lastIndex;
    const step = { name: m[0], key: NO_KEY, hasKey: false };
    if (s[i] === "[") {
      i++;
      if (s[i] === '"') {
        i++;
        let v = "";
        for (;;) {
          if (i >= s.length) throw new AddressError("Unterminated string.");
          const c = s[i];
          if (c === '"') {
            i++;
            break;
          }
          if (c === "\\") {
            const e = s[i + 1];
            const simple = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
            if (e in simple) {
              v += simple[e];
              i += 2;
            } else if (e === "u" || e === "U") {
              const len = e === "u" ? 4 : 8;
              const hex = s.slice(i + 2, i + 2 + len);
              if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) throw new AddressError("Invalid escape sequence.");
              v += String.fromCodePoint(parseInt(hex, 16));
              i += 2 + len;
            } else throw new AddressError("Invalid escape sequence.");
          } else if ((c === "$" || c === "%") && s[i + 1] === c && s[i + 2] === "{") {
            v += c + "{";
            i += 3;
          } else if ((c === "$" || c === "%") && s[i + 1] === "{") {
            throw new AddressError("Index brackets must contain either a literal number or a literal string.");
          } else {
            v += c;
            i++;
          }
        }
        step.key = v;
      } else {
        const n = /[0-9]+/y;
        n.lastIndex = i;
        const nm = n.exec(s);
        if (!nm) throw new AddressError("Index brackets must contain either a literal number or a literal string.");
        step.key = Number(nm[0]);
        i = n.lastIndex;
      }
      if (s[i] !== "]") throw new AddressError("Index brackets must contain either a literal number or a literal string.");
      i++;
      step.hasKey = true;
    }
    steps.push(step);
    if (i === s.length) return steps;
    if (s[i] !== ".") throw new AddressError("Expected an attribute access or an index operator.");
    i++;
  }
}

/** → { kind: "module" | "resource" | "instance", module: [{name,key}], mode, type, name, key } */
function parseTarget(s) {
  const steps = parseSteps(s);
  const mod = [];
  let i = 0;
  while (i < steps.length && steps[i].name === "module" && !steps[i].hasKey && i + 1 < steps.length) {
    mod.push({ name: steps[i + 1].name, key: steps[i + 1].key });
    i += 2;
  }
  if (i === steps.length) return { kind: "module", module: mod };
  let mode = "managed";
  if (steps[i].name === "data" && !steps[i].hasKey) {
    mode = "data";
    i++;
  }
  const rest = steps.slice(i);
  if (rest.length !== 2 || rest[0].hasKey) throw new AddressError("A resource address must be TYPE.NAME, optionally with an index.");
  return {
    kind: rest[1].hasKey ? "instance" : "resource",
    module: mod,
    mode,
    type: rest[0].name,
    name: rest[1].name,
    key: rest[1].key,
  };
}

/** Module strings as stored in state (`module.a["k"].module.b[0]`). */
function parseModule(s) {
  if (!s) return [];
  const t = parseTarget(s);
  if (t.kind !== "module") throw new AddressError(`invalid module address in state: ${s}`);
  return t.module;
}

// ---- state ----------------------------------------------------------------------------------------

function statePath(flags) {
  if (flags.state) return path.resolve(flags.state);
  if (env.FAKE_TF_STATE) return path.resolve(env.FAKE_TF_STATE);
  // The local backend's layout: the default workspace's state in the root, the others' under terraform.tfstate.d/.
  const ws = selectedWorkspace();
  return path.resolve(ws === "default" ? "terraform.tfstate" : path.join("terraform.tfstate.d", ws, "terraform.tfstate"));
}

function readState(file) {
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, "utf8");
  if (text.trim() === "") return null;
  return { text, state: JSON.parse(text) };
}

function writeAtomic(file, text) {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function writeState(file, state) {
  state.serial = (state.serial ?? 0) + 1;
  writeAtomic(file, JSON.stringify(state, null, 2) + "\n");
}

const byteCmp = (a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

function keyLess(a, b) {
  const rank = (k) => (k === NO_KEY ? 0 : typeof k === "number" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "number") return a - b;
  if (typeof a === "string") return byteCmp(a, b);
  return 0;
}

function moduleCmp(a, b) {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    if (a[i].name !== b[i].name) return byteCmp(a[i].name, b[i].name);
    const k = keyLess(a[i].key, b[i].key);
    if (k !== 0) return k;
  }
  return 0;
}

/** Terraform's AbsResourceInstance.Less: module, then data before managed, type, name, key. */
function instanceCmp(a, b) {
  return (
    moduleCmp(a.module, b.module) ||
    (a.mode === b.mode ? 0 : a.mode === "data" ? -1 : 1) ||
    byteCmp(a.type, b.type) ||
    byteCmp(a.name, b.name) ||
    keyLess(a.key, b.key)
  );
}

/** Every instance in state: { module, mode, type, name, key, address, resource, instance }. */
function instances(state) {
  const list = [];
  for (const r of state.resources ?? []) {
    const mod = parseModule(r.module);
    for (const inst of r.instances ?? []) {
      if (inst.deposed) continue;
      const key = inst.index_key ?? NO_KEY;
      list.push({
        module: mod,
        mode: r.mode,
        type: r.type,
        name: r.name,
        key,
        address: instanceText(mod, r.mode, r.type, r.name, key),
        resource: r,
        instance: inst,
      });
    }
  }
  return list.sort(instanceCmp);
}

function moduleMatches(target, mod) {
  if (mod.length < target.length) return false;
  return target.every((s, i) => s.name === mod[i].name && (s.key === NO_KEY || s.key === mod[i].key));
}

function sameModule(a, b) {
  return a.length === b.length && a.every((s, i) => s.name === b[i].name && s.key === b[i].key);
}

function matches(target, inst) {
  if (target.kind === "module") return moduleMatches(target.module, inst.module);
  if (!sameModule(target.module, inst.module)) return false;
  if (target.mode !== inst.mode || target.type !== inst.type || target.name !== inst.name) return false;
  return target.kind === "resource" || target.key === inst.key;
}

function targetText(t) {
  if (t.kind === "module") return moduleText(t.module);
  return instanceText(t.module, t.mode, t.type, t.name, t.kind === "instance" ? t.key : NO_KEY);
}

function parseOrFail(addr) {
  try {
    return parseTarget(addr);
  } catch (e) {
    if (e instanceof AddressError) fail("Invalid address", `${e.message}\n\nThe address ${JSON.stringify(addr)} could not be parsed.`);
    throw e;
  }
}

// ---- flags (Go's flag package: -name, -name=value, -name value; stops at the first non-flag) -------

function parseFlags(args, spec, usage) {
  const flags = {};
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    if (!(name in spec)) {
      err(`Error parsing command-line flags: flag provided but not defined: -${name}\n\n${usage}\n`);
      throw new Exit(1);
    }
    if (spec[name] === "bool") flags[name] = eq < 0 ? true : body.slice(eq + 1) !== "false";
    else if (eq >= 0) flags[name] = body.slice(eq + 1);
    else if (i + 1 < args.length) flags[name] = args[++i];
    else {
      err(`Error parsing command-line flags: flag needs an argument: -${name}\n\n${usage}\n`);
      throw new Exit(1);
    }
  }
  return { flags, rest: args.slice(i) };
}

function requireState(flags) {
  const file = statePath(flags);
  const s = readState(file);
  if (!s) {
    err(
      "No state file was found!\n\nState management commands require a state file. Run this command\n" +
        `in a directory where ${product} has been run or use the -state flag\nto point the command to a specific state location.\n`,
    );
    throw new Exit(1);
  }
  return { file, ...s };
}

// ---- commands -------------------------------------------------------------------------------------

function cmdVersion(args) {
  const { flags } = parseFlags(args, { json: "bool", "no-color": "bool" }, `Usage: ${binName} [global options] version [options]`);
  if (flags.json && env.FAKE_TF_NO_JSON_VERSION === "1") {
    err(`flag provided but not defined: -json\nUsage: ${binName} version\n`);
    throw new Exit(1);
  }
  if (flags.json) {
    const o =
      flavor === "tofu"
        ? { terraform_version: version, platform: "linux_amd64", provider_selections: {} }
        : { terraform_version: version, platform: "linux_amd64", provider_selections: {}, terraform_outdated: false };
    out(JSON.stringify(o, null, 2) + "\n");
  } else {
    out(`${product} v${version}\non linux_amd64\n`);
  }
}

function cmdStateList(args) {
  const usage = `Usage: ${binName} [global options] state list [options] [address...]`;
  const { flags, rest } = parseFlags(args, { state: "string", id: "string", "no-color": "bool" }, usage);
  const { state } = requireState(flags);
  const all = instances(state);
  let selected;
  if (rest.length === 0) selected = all;
  else {
    selected = [];
    for (const a of rest) {
      const t = parseOrFail(a);
      const found = all.filter((i) => matches(t, i));
      if (found.length === 0) {
        const at = targetText(t);
        if (t.kind === "module")
          fail("Unknown module", `The current state contains no module at ${at}. If you've just added this module to the configuration, you must run "${binName} apply" first to create the module's entry in the state.`);
        if (t.kind === "resource")
          fail("Unknown resource", `The current state contains no resource ${at}. If you've just added this resource to the configuration, you must run "${binName} apply" first to create the resource's entry in the state.`);
        fail("Unknown resource instance", `The current state contains no resource instance ${at}. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run "${binName} apply" first to update the resource's entry in the state.`);
      }
      selected.push(...found);
    }
  }
  if (flags.id !== undefined) selected = selected.filter((i) => i.instance.attributes?.id === flags.id);
  for (const i of selected) out(i.address + "\n");
}

function cmdStateRm(args) {
  const usage = `Usage: ${binName} [global options] state rm [options] ADDRESS...`;
  const spec = {
    "dry-run": "bool",
    backup: "string",
    state: "string",
    lock: "bool",
    "lock-timeout": "string",
    "ignore-remote-version": "bool",
    "no-color": "bool",
  };
  const { flags, rest } = parseFlags(args, spec, usage);
  if (rest.length === 0) {
    err("At least one address is required.\n");
    throw new Exit(1);
  }
  const { file, text, state } = requireState(flags);
  const targets = rest.map(parseOrFail);
  const all = instances(state);
  const selected = [];
  for (const t of targets) selected.push(...all.filter((i) => matches(t, i)));
  const dry = flags["dry-run"] === true;
  for (const i of selected) out(`${dry ? "Would remove" : "Removed"} ${i.address}\n`);
  if (dry) {
    if (selected.length === 0) out("Would have removed nothing.\n");
    return;
  }
  if (selected.length === 0) {
    fail(
      "Invalid target address",
      `No matching objects found. To view the available instances, use "${binName} state list". Please modify the address to reference a specific instance.`,
    );
  }
  const backup =
    flags.backup === "-" ? null : flags.backup ? path.resolve(flags.backup) : flags.state ? `${file}.${Math.floor(Date.now() / 1000)}.backup` : `${file}.backup`;
  if (backup) writeAtomic(backup, text);
  const gone = new Set(selected.map((i) => i.instance));
  for (const r of state.resources ?? []) r.instances = (r.instances ?? []).filter((inst) => !gone.has(inst));
  state.resources = (state.resources ?? []).filter((r) => r.instances.length > 0);
  writeState(file, state);
  out(`Successfully removed ${selected.length} resource instance(s).\n`);
}

function cmdStatePull(args) {
  parseFlags(args, { "no-color": "bool" }, `Usage: ${binName} [global options] state pull [options]`);
  const s = readState(statePath({}));
  if (s) out(s.text.endsWith("\n") ? s.text : s.text + "\n");
}

function cmdImport(args) {
  const usage = `Usage: ${binName} [global options] import [options] ADDR ID`;
  const spec = {
    input: "bool",
    "no-color": "bool",
    state: "string",
    "state-out": "string",
    backup: "string",
    lock: "bool",
    "lock-timeout": "string",
    config: "string",
    var: "string",
    "var-file": "string",
    parallelism: "string",
    "allow-missing-config": "bool",
    "ignore-remote-version": "bool",
  };
  const { flags, rest } = parseFlags(args, spec, usage);
  if (rest.length !== 2) {
    err(`The import command expects two arguments.\n${usage}\n`);
    throw new Exit(1);
  }
  const [addr, id] = rest;
  const t = parseOrFail(addr);
  if (t.kind === "module") fail("Invalid address", `A resource instance address is required here. The module path must be followed by a resource instance specification.`);
  if (t.mode === "data") fail("Invalid address", "A managed resource address is required. Importing into a data resource is not allowed.");
  const file = statePath(flags);
  const existing = readState(file);
  const state = existing?.state ?? {
    version: 4,
    terraform_version: version,
    serial: 0,
    lineage: crypto.randomUUID(),
    outputs: {},
    resources: [],
    check_results: null,
  };
  const at = instanceText(t.module, "managed", t.type, t.name, t.kind === "instance" ? t.key : NO_KEY);
  const key = t.kind === "instance" ? t.key : NO_KEY;
  if (instances(state).some((i) => i.address === at)) {
    fail(
      `Resource already managed by ${product}`,
      `${product} is already managing a remote object for ${at}. To import to this address you must first remove the existing object from the state.`,
    );
  }
  const parts = id.split("/");
  const objectId = parts[parts.length - 1];
  const attributes = { id: objectId };
  if (parts.length === 3 && (parts[0] === "zone" || parts[0] === "zones")) attributes.zone_id = parts[1];
  if (parts.length === 3 && (parts[0] === "account" || parts[0] === "accounts")) attributes.account_id = parts[1];
  out(`${at}: Importing from ID ${JSON.stringify(id)}...\n${at}: Import prepared!\n  Prepared ${t.type} for import\n`);
  out(`${at}: Refreshing state... [id=${objectId}]\n\nImport successful!\n\n`);
  out(`The resources that were imported are shown above. These resources are now in\nyour ${product} state and will henceforth be managed by ${product}.\n\n`);
  const moduleStr = moduleText(t.module);
  let res = state.resources.find(
    (r) => (r.module ?? "") === moduleStr && r.mode === "managed" && r.type === t.type && r.name === t.name,
  );
  if (!res) {
    res = {
      ...(moduleStr ? { module: moduleStr } : {}),
      mode: "managed",
      type: t.type,
      name: t.name,
      provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: [],
    };
    state.resources.push(res);
    state.resources.sort((a, b) =>
      instanceCmp({ module: parseModule(a.module), mode: a.mode, type: a.type, name: a.name, key: NO_KEY }, {
        module: parseModule(b.module),
        mode: b.mode,
        type: b.type,
        name: b.name,
        key: NO_KEY,
      }),
    );
  }
  res.instances.push({
    ...(key !== NO_KEY ? { index_key: key } : {}),
    schema_version: 1,
    attributes,
    sensitive_attributes: [],
  });
  res.instances.sort((a, b) => keyLess(a.index_key ?? NO_KEY, b.index_key ?? NO_KEY));
  writeState(path.resolve(flags["state-out"] ?? file), state);
}

function cmdPlan(args) {
  const spec = {
    "detailed-exitcode": "bool",
    refresh: "bool",
    input: "bool",
    "no-color": "bool",
    lock: "bool",
    "lock-timeout": "string",
    out: "string",
    target: "string",
    var: "string",
    "var-file": "string",
    parallelism: "string",
    "compact-warnings": "bool",
  };
  const { flags } = parseFlags(args, spec, `Usage: ${binName} [global options] plan [options]`);
  const code = Number(env.FAKE_TF_PLAN_EXIT ?? "0");
  if (flags.refresh !== false) {
    const s = readState(statePath({}));
    for (const i of s ? instances(s.state) : []) {
      if (i.mode === "managed") out(`${i.address}: Refreshing state... [id=${i.instance.attributes?.id ?? ""}]\n`);
    }
  }
  if (code === 1) {
    fail(
      "Failed to read a legacy WAF resource",
      `The provider returned an error while refreshing the state (fake ${binName}: FAKE_TF_PLAN_EXIT=1).`,
    );
  }
  if (code === 2) {
    out(
      `\n${product} used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n  ~ update in-place\n\n` +
        `${product} will perform the following actions:\n\n  # cloudflare_ruleset.waf will be updated in-place\n` +
        `  ~ resource "cloudflare_ruleset" "waf" {\n        id          = "2c0fc9fa937b11eaa1b71c4d701ab86e"\n      ~ description = "old" -> "new"\n        name        = "default"\n        # (4 unchanged attributes hidden)\n    }\n\n` +
        `Plan: 0 to add, 1 to change, 0 to destroy.\n`,
    );
    throw new Exit(flags["detailed-exitcode"] ? 2 : 0);
  }
  out(
    `\nNo changes. Your infrastructure matches the configuration.\n\n${product} has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n`,
  );
}

function cmdFmt(args) {
  parseFlags(
    args,
    { check: "bool", recursive: "bool", diff: "bool", list: "bool", write: "bool", "no-color": "bool" },
    `Usage: ${binName} [global options] fmt [options] [target...]`,
  );
}

function selectedWorkspace() {
  return (env.TF_WORKSPACE ?? "").trim() || "default";
}

/** `workspace list`: default, then every terraform.tfstate.d/<name>/ directory, the selected one marked. */
function cmdWorkspaceList() {
  let names = [];
  try {
    names = fs.readdirSync("terraform.tfstate.d", { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    names = [];
  }
  const selected = selectedWorkspace();
  for (const n of ["default", ...names.sort()]) out(`${n === selected ? "*" : " "} ${n}\n`);
  out("\n");
}

// ---- dispatch -------------------------------------------------------------------------------------

function main() {
  let args = argv;
  while (args.length > 0 && args[0].startsWith("-chdir=")) {
    process.chdir(args[0].slice("-chdir=".length));
    args = args.slice(1);
  }
  if (args.length > 0 && ["-v", "-version", "--version"].includes(args[0])) args = ["version", ...args.slice(1)];
  const [cmd, sub] = args;
  let name;
  let run;
  let rest;
  if (cmd === "state" && ["list", "rm", "pull"].includes(sub)) {
    name = `state ${sub}`;
    run = { list: cmdStateList, rm: cmdStateRm, pull: cmdStatePull }[sub];
    rest = args.slice(2);
  } else if (cmd === "workspace" && (sub === "list" || sub === "show")) {
    name = `workspace ${sub}`;
    run = sub === "list" ? cmdWorkspaceList : () => out(`${selectedWorkspace()}\n`);
    rest = args.slice(2);
  } else if (["version", "import", "plan", "fmt"].includes(cmd)) {
    name = cmd;
    run = { version: cmdVersion, import: cmdImport, plan: cmdPlan, fmt: cmdFmt }[cmd];
    rest = args.slice(1);
  } else {
    err(
      cmd === "state"
        ? `Usage: ${binName} [global options] state <subcommand> [options] [args]\n`
        : `${product} has no command named ${JSON.stringify(cmd ?? "")}.\n\nTo see all of ${product}'s top-level commands, run:\n  ${binName} -help\n\n`,
    );
    throw new Exit(1);
  }
  const failOn = (env.FAKE_TF_FAIL_ON ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (failOn.includes(name)) {
    err(env.FAKE_TF_FAIL_MESSAGE ? env.FAKE_TF_FAIL_MESSAGE + "\n" : `\nError: Injected failure\n\nFAKE_TF_FAIL_ON made "${name}" fail.\n\n`);
    throw new Exit(1);
  }
  run(rest);
}

/**
 * One invocation in the current working directory: `args` as terraform's arguments, `environment` as its
 * environment, output through `write.out` and `write.err`. Returns the exit code.
 */
export function runFake(args, environment, write) {
  argv = args;
  env = environment;
  flavor = env.FAKE_TF_FLAVOR === "tofu" ? "tofu" : "terraform";
  product = flavor === "tofu" ? "OpenTofu" : "Terraform";
  binName = flavor === "tofu" ? "tofu" : "terraform";
  version = env.FAKE_TF_VERSION || (flavor === "tofu" ? "1.9.0" : "1.11.0");
  out = write.out;
  err = write.err;
  if (env.FAKE_TF_LOG) fs.appendFileSync(env.FAKE_TF_LOG, JSON.stringify(argv) + "\n");
  try {
    main();
    return 0;
  } catch (e) {
    if (e instanceof Exit) return e.code;
    err(`fake ${binName}: ${e && e.stack ? e.stack : e}\n`);
    return 1;
  }
}

// As a program (also through a symlink named terraform or tofu), not when imported by the server.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = runFake(process.argv.slice(2), process.env, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
}
