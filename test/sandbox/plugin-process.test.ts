// The provider double as a go-plugin process, seen from outside the way terraform sees it: the magic
// cookie, the handshake line as the first stdout output with an unpadded DER certificate for localhost,
// mutual TLS with the client certificate terraform passes, SIGINT ignored, and exit right after Shutdown.

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, encode, ExtData } from "@msgpack/msgpack";

const DIST = fileURLToPath(new URL("../../dist/sandbox/", import.meta.url));
// What terraform starts (the mirror's double.env): the double through its code cache (test/package/double-bundle.test.ts).
const MAIN = path.join(DIST, "provider/start.cjs");
const COOKIE = { TF_PLUGIN_MAGIC_COOKIE: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2" };

let dir: string;
let clientKey: Buffer;
let clientCert: Buffer;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-plugin-"));
  // A client certificate like the one terraform makes for each plugin start.
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(dir, "client-key.pem"), "-out", path.join(dir, "client.pem"), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-addext", "extendedKeyUsage=clientAuth,serverAuth"], { stdio: "ignore" });
  clientKey = readFileSync(path.join(dir, "client-key.pem"));
  clientCert = readFileSync(path.join(dir, "client.pem"));
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>, nodeArgs: string[] = []): { child: ChildProcess; firstLine: Promise<string>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  const firstLine = new Promise<string>((resolve) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out);
    });
    child.on("close", () => resolve(out));
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, firstLine, exited };
}

function providerClients(address: string, serverPem: string) {
  const def = protoLoader.loadSync(["tfplugin5.proto", "go-plugin.proto"], { includeDirs: [path.join(DIST, "provider/proto")], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true });
  const loaded = grpc.loadPackageDefinition(def) as any;
  const creds = grpc.credentials.createSsl(Buffer.from(serverPem), clientKey, clientCert);
  const opts = { "grpc.ssl_target_name_override": "localhost" };
  return { provider: new loaded.tfplugin5.Provider(address, creds, opts), controller: new loaded.plugin.GRPCController(address, creds, opts) };
}

function call<T>(client: any, method: string, req: unknown): Promise<T> {
  return new Promise((resolve, reject) => client[method](req, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))));
}

describe("provider double plugin process", () => {
  it("refuses to run without terraform's magic cookie, saying why on stderr", async () => {
    const { child, firstLine, exited } = start({ CF_DOUBLE_VERSION: "3.35.0" });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    expect(await exited).toBe(1);
    expect(await firstLine).toBe("");
    expect(stderr).toContain("This binary is a plugin");
  });

  it(
    "handshakes with AutoMTLS, serves the schema, ignores SIGINT and exits on Shutdown",
    async () => {
      // Records any collation (ICU's collator costs ~6 ms to set up, in a process terraform starts per command).
      const collations = path.join(dir, "collations.log");
      const spy = path.join(dir, "collation-spy.cjs");
      writeFileSync(
        spy,
        `const fs = require("fs"); const log = (what) => fs.appendFileSync(process.env.COLLATIONS, what + "\\n");
const lc = String.prototype.localeCompare; String.prototype.localeCompare = function (...a) { log("localeCompare"); return lc.apply(this, a); };
const C = Intl.Collator; Intl.Collator = function (...a) { log("Intl.Collator"); return new C(...a); };\n`,
      );
      writeFileSync(collations, "");
      const { child, firstLine, exited } = start(
        {
          ...COOKIE,
          CF_DOUBLE_VERSION: "3.35.0",
          PLUGIN_PROTOCOL_VERSIONS: "5,6",
          PLUGIN_CLIENT_CERT: clientCert.toString(),
          CF_DOUBLE_TLS_DIR: path.join(dir, "tls"),
          COLLATIONS: collations,
        },
        ["--require", spy],
      );
      const line = await firstLine;
      const fields = line.trimEnd().split("|");
      expect(fields.slice(0, 3)).toEqual(["1", "5", "tcp"]);
      expect(fields[3]).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(fields[4]).toBe("grpc");
      const der = fields[5]!;
      expect(der).toMatch(/^[A-Za-z0-9+/]+$/); // Go's RawStdEncoding: no "=" padding
      const cert = new X509Certificate(Buffer.from(der, "base64"));
      expect(cert.subjectAltName).toContain("DNS:localhost");
      const serverPem = cert.toString();

      const { provider, controller } = providerClients(fields[3]!, serverPem);
      const schema = await call<any>(provider, "GetSchema", {});
      expect(Object.keys(schema.resource_schemas)).toContain("cloudflare_waf_package");
      const pkg = schema.resource_schemas.cloudflare_waf_package.block.attributes.find((a: any) => a.name === "sensitivity");
      expect(JSON.parse(Buffer.from(pkg.type).toString())).toBe("string");
      // Names in byte order (the real provider's sort.Strings), sorted without a collator.
      const names = schema.resource_schemas.cloudflare_waf_package.block.attributes.map((a: any) => a.name);
      expect(names).toEqual([...names].sort());
      expect(readFileSync(collations, "utf8")).toBe("");

      // Ctrl-C reaches the whole process group; go-plugin servers wait for terraform instead of dying.
      child.kill("SIGINT");
      const again = await call<any>(provider, "GetSchema", {});
      expect(again.provider.block).toBeTruthy();

      // A client that terraform does not vouch for is refused.
      const strangerDir = path.join(dir, "stranger");
      execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", `${strangerDir}-key.pem`, "-out", `${strangerDir}.pem`, "-days", "1", "-subj", "/CN=localhost"], { stdio: "ignore" });
      const def = protoLoader.loadSync(["tfplugin5.proto"], { includeDirs: [path.join(DIST, "provider/proto")], keepCase: true });
      const loaded = grpc.loadPackageDefinition(def) as any;
      const stranger = new loaded.tfplugin5.Provider(fields[3]!, grpc.credentials.createSsl(Buffer.from(serverPem), readFileSync(`${strangerDir}-key.pem`), readFileSync(`${strangerDir}.pem`)), { "grpc.ssl_target_name_override": "localhost" });
      await expect(call(stranger, "GetSchema", {})).rejects.toThrow();
      stranger.close();

      await call(controller, "Shutdown", {});
      expect(await exited).toBe(0);
      provider.close();
      controller.close();
    },
    120_000,
  );
});

describe("cty msgpack values", () => {
  it("reads terraform's plain and refined unknowns and writes unknowns as extension 0", async () => {
    const { decodeDynamic, encodeDynamic, UNKNOWN, conformBlock } = await import("../../dist/sandbox/provider/cty.js");
    const wire = encode({ a: new ExtData(0, new Uint8Array([0])), b: new ExtData(12, encode({ 1: false })), c: "x", n: "12345678901234567890" });
    const v = decodeDynamic({ msgpack: wire }) as Record<string, unknown>;
    expect(v.a).toBe(UNKNOWN);
    expect(v.b).toBe(UNKNOWN);
    const block = { attributes: { a: { type: "string" }, c: { type: "string" }, n: { type: "number" }, missing: { type: "bool" } }, blocks: { r: { nesting: "list", block: { attributes: {}, blocks: {} } } } } as const;
    const shaped = conformBlock(v as never, block as never)!;
    expect(Object.keys(shaped).sort()).toEqual(["a", "c", "missing", "n", "r"]);
    expect(shaped.n).toBe(12345678901234567890);
    const back = decode(encodeDynamic(shaped).msgpack) as Record<string, unknown>;
    expect(back.a).toBeInstanceOf(ExtData);
    expect((back.a as ExtData).type).toBe(0);
    expect(back.missing).toBeNull();
    expect(back.r).toEqual([]);
  });
});
