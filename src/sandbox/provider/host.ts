// A long-lived provider double that Terraform attaches to (TF_REATTACH_PROVIDERS) instead of starting one
// per command: the test harnesses run hundreds of terraform commands, and each start of the double costs
// a node process (~0.18 CPU-s). Started by ProviderHost (../reattach.ts) with an IPC channel; each request
// names a served version, the environment a plugin started by that terraform would have had (account,
// credentials, trace file) and a unix socket, and gets a gRPC server of its own on that socket, insecure as
// go-plugin's reattach expects. The host exits when its parent goes (the IPC channel closes).

import * as grpc from "@grpc/grpc-js";
import { buildServer, loadSchemaFile, protocolOf, type DoubleEnv } from "./server.js";
import type { ProviderSchemaFile } from "../schemas/types.js";

export interface HostRequest {
  id: number;
  version: string;
  env: DoubleEnv;
  socket: string;
}

export interface HostReply {
  id: number;
  /** The plugin protocol the server speaks (the reattach configuration's ProtocolVersion). */
  protocol?: 5 | 6;
  error?: string;
}

function main(): void {
  const send = process.send?.bind(process);
  if (!send) {
    process.stderr.write("the provider double's host runs under ProviderHost (an IPC channel), not by hand\n");
    process.exit(1);
  }
  // The parent is gone (finished, crashed or killed): nothing can attach any more.
  process.on("disconnect", () => process.exit(0));
  const schemas = new Map<string, ProviderSchemaFile>();
  const servers: grpc.Server[] = [];
  process.on("message", (message: HostRequest) => {
    const reply = (r: Omit<HostReply, "id">) => send({ id: message.id, ...r } satisfies HostReply);
    try {
      let schema = schemas.get(message.version);
      if (!schema) schemas.set(message.version, (schema = loadSchemaFile(message.version)));
      // A reattached terraform never asks the plugin to shut down (go-plugin's Test mode): the host outlives it.
      const server = buildServer(schema, () => undefined, message.env);
      const protocol = protocolOf(schema);
      server.bindAsync(`unix:${message.socket}`, grpc.ServerCredentials.createInsecure(), (err) => {
        if (err) return reply({ error: `provider double ${message.version} could not listen on ${message.socket}: ${err.message}` });
        servers.push(server);
        reply({ protocol });
      });
    } catch (e) {
      reply({ error: e instanceof Error ? e.message : String(e) });
    }
  });
}

main();
