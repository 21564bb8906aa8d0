// Bench child: what `scan DIR --format json` does, without the CLI's module graph: loadWorkspace, analyze,
// build the report, serialise it. `--full-parse` reads every file with hcl2json (the baseline the fast path
// is measured against, until the CLI wires the flag).
import { analyze } from "../../dist/core/analyze.js";
import { buildReport } from "../../dist/core/report.js";
import { loadWorkspace } from "../../dist/terraform/inventory/workspace.js";

const dir = process.argv[2];
const fullParse = process.argv.includes("--full-parse");
const ws = await loadWorkspace({ paths: [dir], statePaths: [], cwd: process.cwd(), readStdin: async () => Buffer.alloc(0), fullParse });
const analysis = analyze(ws.domain, { stateKnown: ws.stateKnown, unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path) });
const report = buildReport({ version: "bench", resources: ws.resources, analysis, extraFindings: ws.findings, errors: ws.errors });
const json = JSON.stringify(report);
console.log(`${ws.resources.length} resources, ${ws.errors.length} errors, ${json.length} bytes of report`);
