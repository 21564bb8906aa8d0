// Bench child: reads one state the way `scan --state` does (only the resource types the tool reads are
// kept), and prints the instance count.
import { readStateSource } from "../../dist/terraform/state/read.js";
import { isRelevant } from "../../dist/core/legacy-types.js";

const outcome = await readStateSource(process.argv[2], async () => Buffer.alloc(0), process.cwd(), { keepWhenStreaming: isRelevant });
if (!outcome.ok) {
  console.error(JSON.stringify(outcome.error));
  process.exit(2);
}
console.log(outcome.state.instances.length);
