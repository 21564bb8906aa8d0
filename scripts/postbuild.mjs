// After tsc: bundles the command line (scripts/bundle-cli.mjs, which also makes its entry point executable)
// and the provider double's entry point (scripts/bundle-double.mjs), copies the provider double's data
// files (schemas, .proto) next to its compiled code, and parses the .proto files into the JSON descriptors
// the double reads at start (scripts/double-descriptors.mjs), and trains the double's code cache.
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundleCli } from "./bundle-cli.mjs";
import { bundleProviderDouble, trainDoubleCodeCache } from "./bundle-double.mjs";
import { writeProtoDescriptors } from "./double-descriptors.mjs";
import { currentStamp, STAMP_FILE } from "./build-stamp.mjs";

await bundleCli();
await bundleProviderDouble();
for (const [from, ext] of [["sandbox/schemas/", ".json"], ["sandbox/provider/proto/", ".proto"]]) {
  const src = new URL(`../src/${from}`, import.meta.url);
  const dst = new URL(`../dist/${from}`, import.meta.url);
  if (!existsSync(src)) continue;
  mkdirSync(dst, { recursive: true });
  for (const f of readdirSync(src)) if (f.endsWith(ext)) cpSync(new URL(f, src), new URL(f, dst));
}
const protoDir = new URL("../dist/sandbox/provider/proto/", import.meta.url);
if (existsSync(protoDir)) await writeProtoDescriptors(fileURLToPath(protoDir));
// The double's code cache: its training run reads the schemas and descriptors copied and written above.
trainDoubleCodeCache();
// Last: dist/ is complete (scripts/build-stamp.mjs).
writeFileSync(STAMP_FILE, `${currentStamp()}\n`);
