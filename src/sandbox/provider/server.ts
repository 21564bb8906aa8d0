// The gRPC services Terraform calls on a provider plugin: tfplugin5.Provider, go-plugin's controller,
// stdio and broker, and the health check. Each RPC decodes its values through the served version's
// schema, acts on the simulated account and answers in cty msgpack.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { appendLineSync } from "../fs-sync.js";
import { accountDir, readAccount, writeAccount, type Account } from "../account/account.js";
import type { AttributeSchema, BlockSchema, ProviderSchemaFile, ResourceSchema } from "../schemas/types.js";
import { conformBlock, decodeDynamic, encodeDynamic, isObject, UNKNOWN, type ObjectValue, type Value } from "./cty.js";
import { readDataSource } from "./data-sources.js";
import { planChange, validateConfig, withDefaults } from "./planning.js";
import { handlerFor, type ResourceContext } from "./resources.js";
import { loadProtocol, serviceDefinition } from "./services.js";

const PROTO_DIR = fileURLToPath(new URL("./proto/", import.meta.url));

type Handler = (call: { request: any }) => unknown;
type Diagnostic = { severity: "ERROR" | "WARNING"; summary: string; detail?: string; attribute?: unknown };

export function loadSchemaFile(version: string): ProviderSchemaFile {
  const file = new URL(`../schemas/${version}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, "utf8")) as ProviderSchemaFile;
}

function error(summary: string, detail = ""): Diagnostic {
  return { severity: "ERROR", summary, detail };
}

function validationDiagnostics(schema: ResourceSchema, config: Value): Diagnostic[] {
  return validateConfig(schema.block, config, [], schema.sdk).map((p) => ({
    severity: "ERROR",
    summary: p.message,
    detail: p.detail ?? "",
    attribute: { steps: p.path.map((s) => (typeof s === "number" ? { element_key_int: s } : { attribute_name: s })) },
  }));
}

/**
 * Names in byte order, as the real provider's Go code sorts them (sort.Strings); Terraform reads the lists
 * into maps, so only the bytes sent depend on it. Not localeCompare: its first call sets up ICU's collator,
 * ~6 ms of each double process's ~0.14 s of CPU, once per terraform command.
 */
function byName([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function attributeToProto(name: string, a: AttributeSchema): unknown {
  return {
    name,
    // A nested attribute carries its structure in nested_type and no type of its own (protocol 6).
    type: a.nested ? Buffer.alloc(0) : Buffer.from(JSON.stringify(a.type)),
    ...(a.nested
      ? {
          nested_type: {
            nesting: a.nested.nesting.toUpperCase(),
            attributes: Object.entries(a.nested.attributes)
              .sort(byName)
              .map(([n, inner]) => attributeToProto(n, inner)),
          },
        }
      : {}),
    required: !!a.required,
    optional: !!a.optional,
    computed: !!a.computed,
    sensitive: !!a.sensitive,
    deprecated: !!a.deprecated,
    description: "",
  };
}

function blockToProto(block: BlockSchema): unknown {
  return {
    version: 0,
    attributes: Object.entries(block.attributes)
      .sort(byName)
      .map(([name, a]) => attributeToProto(name, a)),
    block_types: Object.entries(block.blocks)
      .sort(byName)
      .map(([name, bt]) => ({
        type_name: name,
        nesting: bt.nesting.toUpperCase(),
        min_items: bt.minItems ?? 0,
        max_items: bt.maxItems ?? 0,
        block: blockToProto(bt.block),
      })),
  };
}

function schemaToProto(s: ResourceSchema): unknown {
  return { version: s.version, block: blockToProto(s.block) };
}

/**
 * The environment the double reads: the simulated account's directory, the credentials Configure checks and
 * the trace file. A plugin started by Terraform has Terraform's (process.env); a double that serves many
 * Terraform runs from one process (host.ts) has each run's own.
 */
export type DoubleEnv = Record<string, string | undefined>;

/** Runs `fn` against the account, writing the account back only when it succeeded. */
function withAccount<T>(env: DoubleEnv, fn: (account: Account) => T, write: boolean): T {
  const dir = accountDir(env);
  const account = readAccount(dir);
  const result = fn(account);
  if (write) writeAccount(dir, account);
  return result;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function providerService(schemas: ProviderSchemaFile, onShutdown: () => void, env: DoubleEnv = process.env) {
  const resourceSchema = (type: string): ResourceSchema => {
    const s = schemas.resources[type];
    if (!s) throw new Error(`unknown resource type ${type} for provider ${schemas.version}`);
    return s;
  };
  const ctxFor = (account: Account, typeName: string): ResourceContext => ({ account, typeName, schema: resourceSchema(typeName) });
  // The real 3.x/4.x provider answers through the legacy SDK for SDKv2 types, which lets Terraform accept
  // its small plan/apply inconsistencies as warnings; plugin-framework types must be exact.
  const legacy = (type: string) => schemas.resources[type]?.sdk === "sdkv2";

  const provider: Record<string, Handler> = {
    GetMetadata: () => ({
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false },
      diagnostics: [],
      resources: Object.keys(schemas.resources).map((type_name) => ({ type_name })),
      data_sources: Object.keys(schemas.dataSources).map((type_name) => ({ type_name })),
    }),
    GetSchema: () => ({
      provider: { version: 0, block: blockToProto(schemas.provider) },
      resource_schemas: Object.fromEntries(Object.entries(schemas.resources).map(([k, v]) => [k, schemaToProto(v)])),
      data_source_schemas: Object.fromEntries(Object.entries(schemas.dataSources).map(([k, v]) => [k, schemaToProto(v)])),
      diagnostics: [],
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false },
    }),
    PrepareProviderConfig: ({ request }) => ({ prepared_config: request.config, diagnostics: [] }),
    Configure: ({ request }) => {
      const config = decodeDynamic(request.config);
      const c = isObject(config) ? config : {};
      const hasToken = !!(c.api_token || env.CLOUDFLARE_API_TOKEN);
      const hasKey = !!((c.api_key || env.CLOUDFLARE_API_KEY) && (c.email || env.CLOUDFLARE_EMAIL));
      const hasServiceKey = !!(c.api_user_service_key || env.CLOUDFLARE_API_USER_SERVICE_KEY);
      if (!hasToken && !hasKey && !hasServiceKey) {
        return { diagnostics: [error("credentials are not set correctly", "provide api_token, or api_key and email (or the CLOUDFLARE_* environment variables)")] };
      }
      return { diagnostics: [] };
    },
    ValidateResourceTypeConfig: ({ request }) => ({ diagnostics: validationDiagnostics(resourceSchema(request.type_name), decodeDynamic(request.config)) }),
    ValidateDataSourceConfig: ({ request }) => {
      const schema = schemas.dataSources[request.type_name];
      return { diagnostics: schema ? validationDiagnostics(schema, decodeDynamic(request.config)) : [] };
    },
    UpgradeResourceState: ({ request }) => {
      const schema = resourceSchema(request.type_name);
      const raw = request.raw_state?.json?.length ? (JSON.parse(Buffer.from(request.raw_state.json).toString("utf8")) as Value) : null;
      return { upgraded_state: encodeDynamic(conformBlock(raw, schema.block)), diagnostics: [] };
    },
    ReadResource: ({ request }) => {
      const state = decodeDynamic(request.current_state);
      if (!isObject(state)) return { new_state: request.current_state, diagnostics: [], private: request.private };
      try {
        const type: string = request.type_name;
        const found = withAccount(env, (account) => handlerFor(type).read(ctxFor(account, type), state), false);
        const next = found && legacy(type) ? withDefaults(resourceSchema(type).block, found) : found;
        return { new_state: encodeDynamic(next), diagnostics: [], private: request.private };
      } catch (e) {
        return { new_state: request.current_state, diagnostics: [error(message(e))], private: request.private };
      }
    },
    PlanResourceChange: ({ request }) => {
      const schema = resourceSchema(request.type_name);
      const prior = decodeDynamic(request.prior_state);
      const proposed = decodeDynamic(request.proposed_new_state);
      const config = decodeDynamic(request.config);
      const { planned, requiresReplace } = planChange(schema, prior, proposed, config);
      return {
        planned_state: encodeDynamic(planned),
        requires_replace: requiresReplace.map((path) => ({ steps: path.map((attribute_name) => ({ attribute_name })) })),
        planned_private: request.prior_private,
        diagnostics: [],
        legacy_type_system: legacy(request.type_name),
      };
    },
    ApplyResourceChange: ({ request }) => {
      const prior = decodeDynamic(request.prior_state);
      const planned = decodeDynamic(request.planned_state);
      const type: string = request.type_name;
      try {
        const next = withAccount(env, (account) => {
          const ctx = ctxFor(account, type);
          const handler = handlerFor(type);
          if (!isObject(planned)) {
            if (isObject(prior)) handler.delete(ctx, prior);
            return null;
          }
          const result = isObject(prior) ? handler.update(ctx, prior, planned) : handler.create(ctx, planned);
          return conformBlock(result, ctx.schema.block);
        }, true);
        return { new_state: encodeDynamic(next), private: request.planned_private, diagnostics: [], legacy_type_system: legacy(type) };
      } catch (e) {
        return { new_state: request.prior_state, diagnostics: [error(message(e))], legacy_type_system: legacy(type) };
      }
    },
    ImportResourceState: ({ request }) => {
      const type: string = request.type_name;
      const handler = handlerFor(type);
      if (!handler.importState) return { imported_resources: [], diagnostics: [error(`resource ${type} doesn't support import`)] };
      try {
        const state = withAccount(env, (account) => handler.importState!(ctxFor(account, type), request.id), false);
        return { imported_resources: [{ type_name: type, state: encodeDynamic(state), private: Buffer.alloc(0) }], diagnostics: [] };
      } catch (e) {
        return { imported_resources: [], diagnostics: [error(message(e))] };
      }
    },
    ReadDataSource: ({ request }) => {
      const type: string = request.type_name;
      const schema = schemas.dataSources[type];
      const config = decodeDynamic(request.config);
      if (!schema || !isObject(config)) return { diagnostics: [error(`unknown data source ${type}`)] };
      try {
        const state = withAccount(env, (account) => readDataSource(account, type, schema, config as ObjectValue), false);
        return { state: encodeDynamic(state), diagnostics: [] };
      } catch (e) {
        return { diagnostics: [error(message(e))] };
      }
    },
    Stop: () => ({ Error: "" }),
  };

  const controller: Record<string, Handler> = {
    Shutdown: () => {
      // Terraform waits up to 2 s for the process to go after this reply before it kills it.
      setTimeout(onShutdown, 5);
      return {};
    },
  };

  return { provider, controller };
}

/** A trace of every RPC (name, type, decoded values) for tests, when CF_DOUBLE_LOG names a file. */
function trace(env: DoubleEnv, name: string, request: any, response: unknown): void {
  const file = env.CF_DOUBLE_LOG;
  if (!file) return;
  const values = (msg: any) =>
    Object.fromEntries(
      Object.entries(msg ?? {}).map(([k, v]: [string, any]) => [k, v && typeof v === "object" && "msgpack" in v ? decodeDynamic(v) : k === "raw_state" ? "(raw)" : v]),
    );
  // Credentials from a provider block never reach the trace file.
  const secret = /^(api_token|api_key|api_user_service_key|email)$/;
  const replacer = (k: string, v: unknown) =>
    secret.test(k) && typeof v === "string" ? "(redacted)" : v === UNKNOWN ? "(unknown)" : Buffer.isBuffer(v) || v instanceof Uint8Array ? "(bytes)" : v;
  appendLineSync(file, JSON.stringify({ pid: process.pid, rpc: name, request: values(request), response: values(response) }, replacer));
}

/** Wraps plain handlers (value or thrown error) as grpc-js unary handlers. */
function unary(handlers: Record<string, Handler>, env: DoubleEnv): grpc.UntypedServiceImplementation {
  const out: grpc.UntypedServiceImplementation = {};
  for (const [name, fn] of Object.entries(handlers)) {
    out[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      try {
        const response = fn(call);
        if (name !== "GetSchema" && name !== "GetProviderSchema") trace(env, name, call.request, response);
        callback(null, response as never);
      } catch (e) {
        callback({ code: grpc.status.INTERNAL, details: message(e) });
      }
    };
  }
  return out;
}

/** The plugin protocol a served version speaks: 6 for the 5.x provider, else 5. */
export function protocolOf(schemas: ProviderSchemaFile): 5 | 6 {
  return schemas.protocol ?? 5;
}

/**
 * Protocol 6 names the same operations differently (GetProviderSchema, ValidateResourceConfig, …) and drops
 * PrepareProviderConfig's prepared_config; the messages the double fills are otherwise the same.
 */
function protocol6(provider: Record<string, Handler>): Record<string, Handler> {
  return {
    GetMetadata: provider.GetMetadata!,
    GetProviderSchema: provider.GetSchema!,
    ValidateProviderConfig: () => ({ diagnostics: [] }),
    ValidateResourceConfig: provider.ValidateResourceTypeConfig!,
    ValidateDataResourceConfig: provider.ValidateDataSourceConfig!,
    UpgradeResourceState: provider.UpgradeResourceState!,
    ConfigureProvider: provider.Configure!,
    ReadResource: provider.ReadResource!,
    PlanResourceChange: provider.PlanResourceChange!,
    ApplyResourceChange: provider.ApplyResourceChange!,
    ImportResourceState: provider.ImportResourceState!,
    ReadDataSource: provider.ReadDataSource!,
    StopProvider: provider.Stop!,
  };
}

const protocols = new Map<5 | 6, ReturnType<typeof loadProtocol>>();

/** The served protocol's definitions, loaded once per process (a host builds many servers). */
function protocolRoot(protocol: 5 | 6): ReturnType<typeof loadProtocol> {
  let root = protocols.get(protocol);
  if (!root) protocols.set(protocol, (root = loadProtocol(PROTO_DIR, protocol)));
  return root;
}

export function buildServer(schemas: ProviderSchemaFile, onShutdown: () => void, env: DoubleEnv = process.env): grpc.Server {
  const protocol = protocolOf(schemas);
  const root = protocolRoot(protocol);
  const server = new grpc.Server();
  const { provider, controller } = providerService(schemas, onShutdown, env);
  if (protocol === 6) server.addService(serviceDefinition(root, "tfplugin6.Provider"), unary(protocol6(provider), env));
  else server.addService(serviceDefinition(root, "tfplugin5.Provider"), unary(provider, env));
  server.addService(serviceDefinition(root, "plugin.GRPCController"), unary(controller, env));
  // Terraform opens these two streams at every start; the double keeps them open and never sends.
  const holdOpen = (call: grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>) => {
    call.on("error", () => undefined);
    call.on("cancelled", () => call.end());
  };
  server.addService(serviceDefinition(root, "plugin.GRPCStdio"), { StreamStdio: holdOpen });
  server.addService(serviceDefinition(root, "plugin.GRPCBroker"), { StartStream: holdOpen });
  server.addService(serviceDefinition(root, "grpc.health.v1.Health"), unary({ Check: () => ({ status: "SERVING" }) }, env));
  return server;
}
