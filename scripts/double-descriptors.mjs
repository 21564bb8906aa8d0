// After tsc, for the provider double: each plugin protocol's .proto files (tfplugin5 or tfplugin6, with
// go-plugin's and the health check's) parsed once, at build time, into one protobufjs JSON descriptor
// beside them (dist/sandbox/provider/proto/tfpluginN.descriptor.json).
//
// Why: Terraform starts the double for every plan, apply, import and refresh, and the tests do that
// hundreds of times; parsing the .proto text at each start was part of what a start cost (the rest was
// @grpc/proto-loader's reflection descriptors, see src/sandbox/provider/services.ts, which reads these).
// The parse is the double's own (parseProtocol, compiled by tsc just before), so the descriptor and a
// start without it read the same files the same way.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SERVICES = new URL("../dist/sandbox/provider/services.js", import.meta.url);

/** Writes tfpluginN.descriptor.json for every protocol into protoDir (where the .proto files are). */
export async function writeProtoDescriptors(protoDir) {
  const { PROTOCOL_FILES, descriptorFile, parseProtocol } = await import(SERVICES.href);
  const written = [];
  for (const protocol of Object.keys(PROTOCOL_FILES).map(Number)) {
    const file = descriptorFile(protoDir, protocol);
    writeFileSync(file, JSON.stringify(parseProtocol(protoDir, protocol).toJSON()));
    written.push(file);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = fileURLToPath(new URL("../dist/sandbox/provider/proto/", import.meta.url));
  console.log(`wrote ${(await writeProtoDescriptors(dir)).map((f) => path.basename(f)).join(", ")}`);
}
