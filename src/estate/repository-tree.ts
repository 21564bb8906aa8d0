// The configuration of the repository around a root, at the structure level (resources by type, module
// calls), read once per run: a one-root plan asks it twice, for the other roots calling a module step 6
// edits (module-callers.ts) and for the other roots' rules and legacy WAF (other-root-rules.ts).
import type { InputError } from "../core/model.js";
import type { ConfigTree } from "../terraform/config/modules.js";
import { readConfiguration } from "../terraform/inventory/workspace.js";

/** The tree under `top` (absolute). What cannot be read is left to the roots that matter to report. */
export type RepositoryTree = (top: string) => Promise<ConfigTree>;

/** A reader that reads each top once. One per run: the files may change between runs. */
export function repositoryTreeReader(): RepositoryTree {
  const trees = new Map<string, Promise<ConfigTree>>();
  return (top) => {
    let tree = trees.get(top);
    if (!tree) {
      const ignored: InputError[] = [];
      tree = readConfiguration({ paths: [top], cwd: top, structureOnly: true }, ignored).then((r) => r.tree);
      trees.set(top, tree);
    }
    return tree;
  };
}
