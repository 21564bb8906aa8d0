// Entry point of the Cloudflare provider double, started by Terraform (through the mirror's wrapper
// script) as a go-plugin server: check the magic cookie, serve gRPC on 127.0.0.1 with AutoMTLS, write the
// handshake line as the very first output on stdout, and exit once Terraform says Shutdown.

import * as grpc from "@grpc/grpc-js";
import { buildServer, loadSchemaFile, protocolOf } from "./server.js";
import { defaultIdentityDir, ensureServerIdentity } from "./tls.js";

const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

function main(): void {
  if (process.env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    process.stderr.write(
      "This binary is a plugin. These are not meant to be executed directly.\n" +
        "Please execute the program that consumes these plugins, which will load any plugins automatically.\n",
    );
    process.exit(1);
  }
  const version = process.env.CF_DOUBLE_VERSION;
  if (!version) {
    process.stderr.write("CF_DOUBLE_VERSION is not set (the mirror's wrapper script sets it)\n");
    process.exit(1);
  }
  const schemas = loadSchemaFile(version);
  // The real provider speaks protocol 5 up to 4.x and 6 from 5.0 (plugin framework only); so does the double.
  const protocol = String(protocolOf(schemas));
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? "5").split(",").map((s) => s.trim());
  if (!offered.includes(protocol)) {
    process.stderr.write(`provider double ${version} speaks plugin protocol ${protocol}; Terraform offered ${offered.join(",")}\n`);
    process.exit(1);
  }
  // go-plugin servers ignore Ctrl-C (it reaches the whole process group) and wait for Terraform to stop them.
  process.on("SIGINT", () => undefined);

  const server = buildServer(schemas, () => {
    server.forceShutdown();
    process.exit(0);
  });

  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  let credentials: grpc.ServerCredentials;
  let certField = "";
  if (clientCert) {
    const identity = ensureServerIdentity(defaultIdentityDir());
    credentials = grpc.ServerCredentials.createSsl(Buffer.from(clientCert), [{ private_key: identity.keyPem, cert_chain: identity.certPem }], true);
    certField = identity.derBase64;
  } else {
    credentials = grpc.ServerCredentials.createInsecure();
  }
  server.bindAsync("127.0.0.1:0", credentials, (err, port) => {
    if (err) {
      process.stderr.write(`provider double could not listen: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`1|${protocol}|tcp|127.0.0.1:${port}|grpc|${certField}\n`);
  });
}

main();
