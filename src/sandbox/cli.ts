#!/usr/bin/env node
// `npm run --silent sandbox -- up DIR` / `… down DIR`. stdout carries only the `export` lines of `up`
// (so `eval "$(…)"` works); what happened goes to stderr.

import { isAbsolute, resolve } from "node:path";
import { sandboxDown, sandboxUp, exportLines, SANDBOX_FILES } from "./sandbox.js";

const USAGE = "usage: npm run --silent sandbox -- up DIR | down DIR";

/** npm runs scripts from the package root; a relative DIR means the directory the user typed it in. */
function userPath(p: string): string {
  return isAbsolute(p) ? p : resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

async function main(argv: string[]): Promise<number> {
  const [action, dirArg, ...rest] = argv;
  if ((action !== "up" && action !== "down") || !dirArg || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const dir = userPath(dirArg);
  if (action === "up") {
    const up = await sandboxUp(dir);
    process.stdout.write(exportLines(up.env));
    process.stderr.write(
      `${up.alreadyRunning ? "simulated Cloudflare API already running" : "simulated Cloudflare API started"} at ${up.env.CLOUDFLARE_BASE_URL} (pid ${up.pid}, log ${resolve(dir, SANDBOX_FILES.log)})\n` +
        `account: ${up.env.CF_DOUBLE_ACCOUNT_DIR}/account.json; terraform installs the provider double offline through ${up.env.TF_CLI_CONFIG_FILE}\n`,
    );
    return 0;
  }
  const down = await sandboxDown(dir);
  process.stderr.write(down.stopped === null ? `no simulated API running for ${dir}\n` : `simulated Cloudflare API stopped (pid ${down.stopped})\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`sandbox: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
