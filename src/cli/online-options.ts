// `--online` and its companions, shared by scan, plan, gate and apply: one option builder and one place
// that turns them into an online session (or a one-line usage error, exit 2, before anything is sent).
import type { Argv } from "yargs";
import { ApiConfigError } from "../api/errors.js";
import { DEFAULT_CACHE_DIR, DEFAULT_MAX_AGE } from "../online/cache.js";
import { DEFAULT_JOBS, openOnlineSession, type OnlineSession } from "../online/session.js";
import { CliError } from "./errors.js";

export interface OnlineArgs {
  online?: boolean;
  "base-url"?: string;
  jobs?: number;
  "cache-dir"?: string;
  "max-age"?: string;
}

export function withOnlineOptions<T>(y: Argv<T>) {
  return y
    .option("online", { type: "boolean", default: false, describe: "ask the Cloudflare API about every zone (check, status, configuration, entry point); credentials from CLOUDFLARE_API_TOKEN or CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY" })
    .option("base-url", { type: "string", requiresArg: true, describe: "--online: API base URL (default $CLOUDFLARE_BASE_URL, else https://api.cloudflare.com/client/v4)" })
    // One --jobs for the command: roots read at once with --pull-state (src/cli/estate-run.ts), zones
    // looked up at once with --online; both default to 4.
    .option("jobs", { type: "number", default: DEFAULT_JOBS, describe: "how many at once: zones looked up with --online (requests stay under 1,200 per 5 minutes), roots read with --pull-state" })
    .option("cache-dir", { type: "string", requiresArg: true, describe: `--online: where answers are cached (default ${DEFAULT_CACHE_DIR})` })
    .option("max-age", { type: "string", requiresArg: true, describe: `--online: reuse cached answers younger than this (e.g. 15m, 2h; 0 = always ask; default ${DEFAULT_MAX_AGE})` });
}

/** The session for `--online`, null without it. */
export function onlineSessionFromArgs(argv: OnlineArgs & { quiet?: boolean }, cwd: string = process.cwd()): OnlineSession | null {
  if (!argv.online) {
    const stray = (["base-url", "cache-dir", "max-age"] as const).filter((k) => argv[k] !== undefined);
    if (stray.length) throw new CliError(`${stray.map((k) => `--${k}`).join(", ")} only apply with --online`);
    return null;
  }
  const quiet = argv.quiet === true;
  try {
    return openOnlineSession(
      {
        ...(argv["base-url"] !== undefined ? { baseUrl: argv["base-url"] } : {}),
        ...(argv.jobs !== undefined ? { jobs: argv.jobs } : {}),
        ...(argv["cache-dir"] !== undefined ? { cacheDir: argv["cache-dir"] } : {}),
        ...(argv["max-age"] !== undefined ? { maxAge: argv["max-age"] } : {}),
      },
      { env: process.env, cwd, log: (line) => void (quiet ? undefined : process.stderr.write(`cf-waf-migrate: ${line}\n`)) },
    );
  } catch (e) {
    if (e instanceof ApiConfigError) throw new CliError(`--online: ${e.message}`);
    throw e;
  }
}
