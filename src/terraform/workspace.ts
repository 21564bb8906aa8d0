// The Terraform layer's one entry point for commands: discover and parse the configuration, read the
// states, join them, and read the domain model. Everything that could not be read is in `errors`.
import type { DomainInventory } from "../core/analyze.js";
import type { Finding, InputError, InventoryResource } from "../core/model.js";
import { finding } from "../core/findings.js";
import { discover, reportBase } from "./discover.js";
import { buildInventory } from "./inventory.js";
import { buildConfigTree, type ConfigTree, type RemoteModule } from "./modules.js";
import { readDomain } from "./readers/index.js";
import { readStateSource, type StateRead } from "./state.js";

export interface Workspace {
  /** Absolute directory that reported file paths are relative to. */
  base: string;
  tree: ConfigTree;
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
}

export async function loadWorkspace(opts: WorkspaceOptions): Promise<Workspace> {
  const errors: InputError[] = [];
  const paths = opts.paths.length ? opts.paths : ["."];
  const base = await reportBase(paths, opts.cwd);
  const found = await discover(paths, opts.cwd, base);
  errors.push(...found.errors);
  const tree = await buildConfigTree(found, base);
  errors.push(...tree.errors);

  const states: StateRead[] = [];
  let stdinUsed = false;
  for (const p of opts.statePaths) {
    if (p === "-") {
      if (stdinUsed) {
        errors.push({ file: "<stdin>", line: null, column: null, message: "standard input can be read only once (--state - given twice)" });
        continue;
      }
      stdinUsed = true;
    }
    const outcome = await readStateSource(p, opts.readStdin, opts.cwd);
    if (outcome.ok) states.push(outcome.state);
    else errors.push(outcome.error);
  }

  const resources = buildInventory(tree, states);
  const domain = readDomain(resources, errors);
  const findings = tree.remoteModules.map((m) =>
    finding(
      "REMOTE_MODULE_NOT_FOLLOWED",
      `${m.path} comes from ${m.source}: remote modules are not scanned; their legacy WAF resources are only seen through state`,
      { file: m.file, line: m.line, zoneId: null },
      { source: m.source },
    ),
  );
  return { base, tree, states, resources, domain, findings, errors, stateKnown: states.length > 0, remoteModules: tree.remoteModules };
}
