// The gRPC service definitions the double serves, built from protobufjs reflection of the plugin
// protocol's .proto files: from the JSON descriptor the build writes beside them (one file per protocol,
// scripts/double-descriptors.mjs), or from the .proto files themselves when it is missing.
//
// Why not @grpc/proto-loader at run time: it parsed the .proto text at every start and built reflection
// descriptors of every message (loading protobufjs' descriptor extension) that a server never reads,
// ~50 ms of the double's ~150 ms start. The definitions here have what grpc-js' server uses — path,
// stream flags, (de)serializers, originalName — made exactly as proto-loader makes them.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";

export type Protocol = 5 | 6;

/** The .proto files each plugin protocol serves. */
export const PROTOCOL_FILES: Record<Protocol, readonly string[]> = {
  5: ["tfplugin5.proto", "go-plugin.proto", "health.proto"],
  6: ["tfplugin6.proto", "go-plugin.proto", "health.proto"],
};

export function descriptorFile(protoDir: string, protocol: Protocol): string {
  return path.join(protoDir, `tfplugin${protocol}.descriptor.json`);
}

/** One protocol's .proto files, parsed as proto-loader's loadSync did (include directory, keepCase). */
export function parseProtocol(protoDir: string, protocol: Protocol): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(protoDir, target));
  root.loadSync([...PROTOCOL_FILES[protocol]], { keepCase: true });
  root.resolveAll();
  return root;
}

/** The build's descriptor of the protocol when present, else its .proto files. */
export function loadProtocol(protoDir: string, protocol: Protocol): protobuf.Root {
  const file = descriptorFile(protoDir, protocol);
  if (!existsSync(file)) return parseProtocol(protoDir, protocol);
  const root = protobuf.Root.fromJSON(JSON.parse(readFileSync(file, "utf8")) as protobuf.INamespace);
  root.resolveAll();
  return root;
}

/** How decoded messages look to the handlers: the options the double gave proto-loader. */
const CONVERSION: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    // protobufjs' writer finishes into a Buffer under Node.
    return type.encode(type.fromObject(value)).finish() as Buffer;
  };
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION);
}

/** The definition of one service (its full name, e.g. tfplugin5.Provider), as grpc-js' Server.addService takes it. */
export function serviceDefinition(root: protobuf.Root, name: string): grpc.ServiceDefinition {
  const service = root.lookupService(name);
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const method of service.methodsArray) {
    const request = method.resolvedRequestType!;
    const response = method.resolvedResponseType!;
    def[method.name] = {
      path: `/${name}/${method.name}`,
      requestStream: !!method.requestStream,
      responseStream: !!method.responseStream,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
      originalName: method.name.charAt(0).toLowerCase() + method.name.slice(1),
    };
  }
  return def;
}
