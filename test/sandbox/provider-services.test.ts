// The provider double serves gRPC definitions it builds from protobufjs reflection (src/sandbox/provider/
// services.ts): from the JSON descriptor the build writes (scripts/double-descriptors.mjs), or from the
// .proto files when that is missing. Terraform must not see a difference from the @grpc/proto-loader
// definitions the double used before: same paths and stream flags, and for every message of every method
// the same bytes on the wire and the same decoded objects.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as protoLoader from "@grpc/proto-loader";
import type * as grpc from "@grpc/grpc-js";
import type protobuf from "protobufjs";
import { afterAll, describe, expect, it } from "vitest";
import { descriptorFile, loadProtocol, PROTOCOL_FILES, serviceDefinition, type Protocol } from "../../src/sandbox/provider/services.js";

const PROTO_DIR = fileURLToPath(new URL("../../dist/sandbox/provider/proto/", import.meta.url));
const OPTIONS = { includeDirs: [PROTO_DIR], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true };
const SERVICES: Record<Protocol, string[]> = {
  5: ["tfplugin5.Provider", "plugin.GRPCController", "plugin.GRPCStdio", "plugin.GRPCBroker", "grpc.health.v1.Health"],
  6: ["tfplugin6.Provider", "plugin.GRPCController", "plugin.GRPCStdio", "plugin.GRPCBroker", "grpc.health.v1.Health"],
};

// The .proto files alone, without the build's descriptors: the fallback path.
const protoOnly = mkdtempSync(path.join(tmpdir(), "double-proto-"));
for (const f of readdirSync(PROTO_DIR)) if (f.endsWith(".proto")) cpSync(path.join(PROTO_DIR, f), path.join(protoOnly, f));
afterAll(() => rmSync(protoOnly, { recursive: true, force: true }));

const SCALARS: Record<string, unknown> = {
  double: 1.5, float: 2.5, int32: -7, uint32: 7, sint32: -8, fixed32: 9, sfixed32: -10,
  int64: -1234567, uint64: 1234567, sint64: -42, fixed64: 4242, sfixed64: -4343, bool: true, bytes: Buffer.from([1, 2, 250]),
};

/** An object with every field of the type set (the first member of each oneof), nested a few levels. */
function sample(type: protobuf.Type, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const skipped = new Set<string>();
  for (const oneof of type.oneofsArray) for (const f of oneof.fieldsArray.slice(1)) skipped.add(f.name);
  for (const field of type.fieldsArray) {
    if (skipped.has(field.name)) continue;
    const value = (): unknown => {
      const r = field.resolvedType;
      if (r && "values" in r) return Object.keys((r as protobuf.Enum).values).at(-1);
      if (r) return depth < 4 ? sample(r as protobuf.Type, depth + 1) : {};
      return field.type === "string" ? `${field.name}-value` : SCALARS[field.type];
    };
    const f = field as protobuf.Field & { map?: boolean; keyType?: string };
    if (f.map) out[field.name] = { [f.keyType === "string" ? "k" : "1"]: value() };
    else if (field.repeated) out[field.name] = [value(), value()];
    else out[field.name] = value();
  }
  return out;
}

describe.each([5, 6] as Protocol[])("the double's protocol %i definitions", (protocol) => {
  const theirs = protoLoader.loadSync([...PROTOCOL_FILES[protocol]], OPTIONS) as Record<string, Record<string, grpc.MethodDefinition<object, object>>>;

  it("come from the build's descriptor, which the build wrote", () => {
    expect(existsSync(descriptorFile(PROTO_DIR, protocol))).toBe(true);
    expect(existsSync(descriptorFile(protoOnly, protocol))).toBe(false);
  });

  for (const [label, dir] of [["descriptor", PROTO_DIR], [".proto fallback", protoOnly]] as const) {
    it(`match proto-loader's for every method (${label}): path, streams, bytes and decoded objects`, () => {
      const root = loadProtocol(dir, protocol);
      let checked = 0;
      for (const name of SERVICES[protocol]) {
        const ours = serviceDefinition(root, name);
        expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs[name]!).sort());
        for (const [method, def] of Object.entries(ours)) {
          const ref = theirs[name]![method]!;
          expect({ path: def.path, req: def.requestStream, res: def.responseStream, originalName: def.originalName }).toEqual({ path: ref.path, req: ref.requestStream, res: ref.responseStream, originalName: ref.originalName });
          const service = root.lookupService(name).methods[method]!;
          for (const [type, ser, de, refSer, refDe] of [
            [service.resolvedRequestType!, def.requestSerialize, def.requestDeserialize, ref.requestSerialize, ref.requestDeserialize],
            [service.resolvedResponseType!, def.responseSerialize, def.responseDeserialize, ref.responseSerialize, ref.responseDeserialize],
          ] as const) {
            const value = sample(type);
            const bytes = ser(value);
            expect(Buffer.from(bytes).equals(Buffer.from(refSer(value))), `${name}/${method} ${type.name}`).toBe(true);
            expect(de(bytes), `${name}/${method} ${type.name}`).toEqual(refDe(bytes));
            expect(de(Buffer.alloc(0))).toEqual(refDe(Buffer.alloc(0)));
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(20);
    });
  }
});
