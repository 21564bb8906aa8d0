// After tsc: makes the CLI entry point executable (tsc keeps the shebang but not the mode bit), and copies
// the provider double's data files (schemas, .proto) next to its compiled code.
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
const bin = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
for (const [from, ext] of [["sandbox/schemas/", ".json"], ["sandbox/provider/proto/", ".proto"]]) {
  const src = new URL(`../src/${from}`, import.meta.url);
  const dst = new URL(`../dist/${from}`, import.meta.url);
  if (!existsSync(src)) continue;
  mkdirSync(dst, { recursive: true });
  for (const f of readdirSync(src)) if (f.endsWith(ext)) cpSync(new URL(f, src), new URL(f, dst));
}
