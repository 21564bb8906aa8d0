// The Terraform layer's one entry point for commands: discover and parse the configuration, read the
// states, join them, and read the domain model. Everything that could not be read is in `errors`.
import type { DomainInventory } from "../../core/analyze.js";
import type { Finding, InputError, InventoryResource } from "../../core/model.js";
import { finding } from "../../core/findings.js";
import { discover, reportBase } from "../config/discover.js";
import { locateAttributeErrors } from "../hcl/attribute-position.js";
import { isRelevant } from "../../core/legacy-types.js";
import { buildInventory } from "./inventory.js";
import { buildConfigTree, type BuildOptions, type ConfigTree, type Progress, type RemoteModule } from "../config/modules.js";
import { readDomain } from "../readers/index.js";
import { displayPath } from "../config/load.js";
import { EvaluationContext } from "../config/resolve.js";
import { readStateSource, type StateRead } from "../state/read.js";
import { loadRootVariables, type VariableArgs } from "../config/tfvars.js";
import { forgottenAddresses } from "./forgotten.js";

export interface Workspace {
  /** Absolute directory that reported file paths are relative to. */
  base: string;
  /**
   * Unless `fullParse`: resources the tool does not read are listed without their body (`skipped`), and
   * directories that cannot matter give only module calls and terraform blocks (see config.ts `LoadOptions`).
   */
  tree: ConfigTree;
  /** A big (streamed) state keeps only the resource types the tool reads (state.ts `keepWhenStreaming`). */
  states: StateRead[];
  resources: InventoryResource[];
  domain: DomainInventory;
  /** Findings about the reading itself (remote modules not followed). */
  findings: Finding[];
  errors: InputError[];
  stateKnown: boolean;
  remoteModules: RemoteModule[];
}

export interface WorkspaceOptions {
  paths: string[];
  statePaths: string[];
  cwd: string;
  readStdin: () => Promise<Buffer>;
  /**
   * Read every configuration file and every block with hcl2json, as the reference behaviour. By default
   * only what the tool reads is parsed: directories where no file mentions `cloudflare_` (and that call no
   * module that does) give only their module calls, and hcl2json sees only what the fast reader does not
   * recognise. Same report either way; `fullParse` is the escape hatch (`--full-parse`).
   */
  fullParse?: boolean;
  /**
   * Read `paths` as one root module each, as terraform does: their own files and the modules they call, not
   * the directories below them (a root's subdirectory holding `.tf` files is another root, or a module).
   */
  rootModuleOnly?: boolean;
  /** Called after each configuration file is read (drives the progress bar, src/cli/progress.ts). */
  onProgress?: (p: Progress) => void;
  /** `--var-file` and `--var`: root variable values on top of each root's own tfvars files. */
  variables?: VariableArgs;
  /**
   * What `terraform.workspace` evaluates to, when the caller knows it for certain (`apply`: the workspace
   * its terraform commands run in, whose state it pulled); absent: not known offline.
   */
  workspace?: string;
}

export type { Progress } from "../config/modules.js";

/**
 * The first half of every load: the report base for `paths`, and the configuration tree discovered and
 * parsed under them. What could not be read goes to `errors`.
 */
export async function readConfiguration(
  opts: Pick<WorkspaceOptions, "paths" | "cwd" | "fullParse" | "onProgress" | "rootModuleOnly"> & Pick<BuildOptions, "structureOnly">,
  errors: InputError[],
  defer?: BuildOptions["defer"],
): Promise<{ base: string; tree: ConfigTree }> {
  const paths = opts.paths.length ? opts.paths : ["."];
  const base = await reportBase(paths, opts.cwd);
  const found = await discover(paths, opts.cwd, base, opts.rootModuleOnly ? { subdirectories: false } : {});
  errors.push(...found.errors);
  const tree = await buildConfigTree(found, base, {
    ...(opts.fullParse ? { fullParse: true } : {}),
    ...(opts.structureOnly ? { structureOnly: true } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(defer ? { defer } : {}),
  });
  errors.push(...tree.errors);
  return { base, tree };
}

/**
 * One root module from its configuration alone (its own variables files; no state), as terraform reads it:
 * what the checks of the roots around a run read of each (a root below it is read on its own).
 */
export function loadRootConfiguration(dir: string): Promise<Workspace> {
  return loadWorkspace({ paths: [dir], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0), rootModuleOnly: true });
}

export async function loadWorkspace(opts: WorkspaceOptions): Promise<Workspace> {
  const errors: InputError[] = [];
  const { base, tree } = await readConfiguration(opts, errors);

  const states = (await readStates(opts.statePaths, opts.readStdin, opts.cwd, errors)).map((r) => r.state);

  const rootVariables = await loadRootVariables(
    tree.roots.map((r) => r.dir.dir),
    opts.variables ?? { varFiles: [], vars: [] },
    opts.cwd,
    base,
    errors,
  );
  const evaluation = new EvaluationContext(tree.roots, tree.nodes, rootVariables, (abs) => displayPath(abs, base), opts.workspace ?? null);
  const resources = buildInventory(tree, states, evaluation);
  errors.push(...evaluation.inputErrors);
  const domain = readDomain(resources, errors, forgottenAddresses(tree));
  await locateAttributeErrors(errors, base);
  const findings = remoteModuleFindings(tree.remoteModules);
  return { base, tree, states, resources, domain, findings, errors: errors.map(oneLineError), stateKnown: states.length > 0, remoteModules: tree.remoteModules };
}

/**
 * Reads every `--state` (standard input at most once), in order. What cannot be read is an input error;
 * the rest is returned with the argument (and its position) it came from.
 */
export async function readStates(
  statePaths: string[],
  readStdin: () => Promise<Buffer>,
  cwd: string,
  errors: InputError[],
  /** Adds what the caller knows of the argument's owner (its root and workspace) to an error reading it. */
  owner: (index: number, e: InputError) => InputError = (_i, e) => e,
): Promise<{ index: number; path: string; state: StateRead }[]> {
  const out: { index: number; path: string; state: StateRead }[] = [];
  let stdinUsed = false;
  for (const [index, p] of statePaths.entries()) {
    if (p === "-") {
      if (stdinUsed) {
        errors.push({ file: "<stdin>", line: null, column: null, message: "standard input can be read only once (--state - given twice)" });
        continue;
      }
      stdinUsed = true;
    }
    // A big (streamed) state keeps only the resource types the tool reads: the rest is not even parsed.
    const outcome = await readStateSource(p, readStdin, cwd, { keepWhenStreaming: isRelevant });
    if (outcome.ok) out.push({ index, path: p, state: outcome.state });
    else errors.push(owner(index, outcome.error));
  }
  return out;
}

/** Remote modules are not scanned: one finding each, at the module call. */
export function remoteModuleFindings(remoteModules: RemoteModule[]): Finding[] {
  return remoteModules.map((m) =>
    finding(
      "REMOTE_MODULE_NOT_FOLLOWED",
      `${m.path} comes from ${m.source}: remote modules are not scanned; their legacy WAF resources are only seen through state`,
      { file: m.file, line: m.line, zoneId: null },
      { source: m.source },
    ),
  );
}

/** Every error is one line, whatever names or values it quotes (a label may hold a newline). */
export function oneLineError(e: InputError): InputError {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(e.message) ? { ...e, message: e.message.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === "\n" ? "\\n" : c === "\t" ? " " : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)) } : e;
}
