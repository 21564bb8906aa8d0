// How every reporting command reads its inputs: the Terraform workspace, with the progress bar on
// stderr for long scans and the hidden --full-parse escape hatch.
import { loadWorkspace, type Workspace } from "../terraform/workspace.js";
import { readStdin } from "./io.js";
import { variableArgs, type CommonArgs } from "./options.js";
import { ProgressBar } from "./progress.js";

export async function loadCliWorkspace(argv: CommonArgs, cwd: string = process.cwd()): Promise<Workspace> {
  const bar = new ProgressBar({ quiet: argv.quiet });
  try {
    return await loadWorkspace({
      paths: argv.paths,
      statePaths: argv.state,
      cwd,
      readStdin,
      fullParse: argv["full-parse"] === true,
      variables: variableArgs(argv),
      onProgress: (p) => bar.update(p),
    });
  } finally {
    bar.done();
  }
}
