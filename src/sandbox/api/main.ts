// The simulated API as a process (started in the background by `sandbox up`): serves the account in
// CF_DOUBLE_ACCOUNT_DIR on 127.0.0.1, accepts the token in CF_SANDBOX_API_TOKEN (from the environment, so
// it is not visible in the process list), writes its address to the ready file given as argument, and
// stops on SIGTERM or SIGINT.

import { ACCOUNT_DIR_ENV } from "../account/account.js";
import { writeFileAtomicSync } from "../fs-sync.js";
import { TOKEN_ENV } from "./main-env.js";
import { startApiServer } from "./server.js";

async function main(): Promise<void> {
  const accountDir = process.env[ACCOUNT_DIR_ENV];
  const token = process.env[TOKEN_ENV];
  const readyFile = process.argv[2];
  if (!accountDir || !token || !readyFile) {
    process.stderr.write(`usage: ${ACCOUNT_DIR_ENV}=DIR ${TOKEN_ENV}=TOKEN node main.js READY_FILE\n`);
    process.exit(2);
  }
  const server = await startApiServer({
    accountDir,
    credentials: { token },
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  const stop = (): void => {
    process.stdout.write(`${new Date().toISOString()} stopping\n`);
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  writeFileAtomicSync(readyFile, JSON.stringify({ pid: process.pid, port: server.port, baseUrl: server.baseUrl }) + "\n");
  process.stdout.write(`${new Date().toISOString()} listening on ${server.baseUrl} (account ${accountDir})\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`simulated API failed to start: ${(e as Error).message}\n`);
  process.exit(1);
});
