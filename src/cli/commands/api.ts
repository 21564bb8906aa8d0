// `cf-waf-migrate api <action>`: the online half of the tool, as a thin shell over src/api/commands/run.ts
// (which validates, talks to the API and prints). Here: the yargs options, the real dependencies, the
// redaction of everything printed, and one error line with exit code 2 for bad usage and API errors.

import { emitRulesetHcl, rulesetResourceName } from "../../terraform/hcl/emit.js";
import { readFile } from "node:fs/promises";
import type { Argv, CommandModule } from "yargs";
import { ApiConfigError, ApiError, credentialRedactor, defaultSleep, readCredentials } from "../../api/index.js";
import { API_ACTIONS, ApiUsageError, runApi, type ApiArgs, type ApiCommandDeps, type HclEmitter, type Io } from "../../api/commands/run.js";
import { CliError, EXIT_CODES_EPILOGUE, EXIT_INPUT } from "../errors.js";
import { withJsonFlag } from "../options.js";
import { writeReportFile } from "../io.js";
import { runWaveCommand, type WaveArgs } from "../../online/waves-command.js";

export { API_ACTIONS, type ApiAction, type ApiArgs, type ApiCommandDeps, type HclEmitter } from "../../api/commands/run.js";

/** The command with its dependencies replaced where given (tests); `apiCommand` uses the real ones. */
export function createApiCommand(overrides: Partial<ApiCommandDeps> = {}): CommandModule<object, ApiArgs> {
  return {
    command: "api <action>",
    describe: "Talk to the Cloudflare API: check, config, status, entrypoint, migrate, custom-hostname-ca",
    builder: (y: Argv<object>) => buildOptions(y) as unknown as Argv<ApiArgs>,
    handler: async (argv) => {
      const deps = resolveDeps(overrides);
      const redact = credentialRedactor(readCredentials(deps.env));
      const out: Io = {
        stdout: (t) => deps.stdout(redact(t)),
        stderr: (t) => deps.stderr(redact(t)),
      };
      try {
        const waves = argv as unknown as Partial<WaveArgs>;
        if (argv.action === "migrate" && waves.from !== undefined) process.exitCode = await runWaveCommand(waves as WaveArgs, deps, out);
        else process.exitCode = await runApi(argv, deps, out);
      } catch (e) {
        const err = toCliError(e);
        if (err === null) {
          if (e instanceof Error) {
            e.message = redact(e.message);
            if (e.stack) e.stack = redact(e.stack);
          }
          throw e;
        }
        out.stderr(`error: ${oneLine(err.message)}\n`);
        process.exitCode = err.exitCode;
      }
    },
  };
}

export const apiCommand: CommandModule<object, ApiArgs> = createApiCommand();

function buildOptions(y: Argv<object>) {
  return withJsonFlag(y)
    .positional("action", {
      describe: "check | config | status | entrypoint | migrate | custom-hostname-ca",
      choices: API_ACTIONS,
      type: "string",
    })
    .option("zone", { type: "string", describe: "Zone ID (32 hexadecimal characters); required", requiresArg: true })
    .option("base-url", { type: "string", describe: "API base URL (default $CLOUDFLARE_BASE_URL, else https://api.cloudflare.com/client/v4)", requiresArg: true })
    .option("format", { choices: ["text", "json", "hcl"] as const, describe: "Output format (hcl: config only); default text on a terminal, json otherwise or with --output" })
    .option("output", { type: "string", describe: "Write the result to FILE instead of stdout", requiresArg: true })
    .option("timeout", { type: "number", default: 30, describe: "Per-request timeout in seconds" })
    .option("yes", { type: "boolean", default: false, describe: "migrate, custom-hostname-ca: send the change (without it: print the request, send nothing)" })
    .option("mode", { choices: ["pending", "validation"] as const, describe: "migrate: pending (finish: new WAF on, previous off) or validation (Enterprise: both on)" })
    .option("zone-plan", { choices: ["enterprise", "business", "pro", "free"] as const, describe: "migrate: the zone's plan (else read from GET /zones/{id})" })
    .option("poll-timeout", { type: "number", default: 300, describe: "migrate --yes: seconds to wait for status to show the new WAF on" })
    .option("poll-interval", { type: "number", default: 5, describe: "migrate --yes: seconds between status polls" })
    .option("config-json", { type: "string", describe: "migrate: send this saved configuration (api config --format json) instead of fetching it", requiresArg: true })
    .option("hostname-id", { type: "string", describe: "custom-hostname-ca: custom hostname ID", requiresArg: true })
    .option("ca", { choices: ["default", "google", "ssl_com"] as const, describe: 'custom-hostname-ca: certificate authority ("default" lets the service choose)' })
    .option("provider-major", { choices: [4, 5] as const, default: 4 as 4 | 5, describe: "config --format hcl: provider major version of the emitted resource" })
    .option("from", { type: "string", requiresArg: true, describe: "migrate in waves: the zones a `scan --online`/`plan --online` JSON report shows ready (instead of --zone)" })
    .option("ledger", { type: "string", requiresArg: true, describe: "migrate --from: JSON-lines record of every request and answer; a rerun never sends a zone twice" })
    .option("wave-size", { type: "number", default: 10, describe: "migrate --from: zones sent in this run (one wave)" })
    .option("finish", { type: "boolean", default: false, describe: "migrate --from: send pending for the zones the ledger shows in validation" })
    .option("summary-json", { type: "string", requiresArg: true, describe: "migrate --from: also write the wave's JSON summary to FILE (for CI)" })
    .option("cache-dir", { type: "string", requiresArg: true, describe: "migrate --from: the --online cache whose entries of migrated zones are dropped (default .cf-waf-migrate/cache)" })
    .example("$0 api check --zone 0da42c8d2132a9ddaf714f9e7c920711", "can this zone migrate to the new WAF?")
    .example("$0 api config --zone 0da42c8d2132a9ddaf714f9e7c920711 --format json --output config.json", "save the configuration the migration would send (for plan --config-json)")
    .example("$0 api migrate --zone 0da42c8d2132a9ddaf714f9e7c920711 --mode pending --yes", "migrate the zone for real (without --yes: print the request only)")
    .epilog(`Credentials come from CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY; never from flags.\n\n${EXIT_CODES_EPILOGUE}`);
}

function resolveDeps(o: Partial<ApiCommandDeps>): ApiCommandDeps {
  const deps: ApiCommandDeps = {
    env: o.env ?? process.env,
    stdout: o.stdout ?? ((t) => void process.stdout.write(t)),
    stderr: o.stderr ?? ((t) => void process.stderr.write(t)),
    isTTY: o.isTTY ?? Boolean(process.stdout.isTTY),
    sleep: o.sleep ?? defaultSleep,
    now: o.now ?? Date.now,
    fetch: o.fetch ?? globalThis.fetch,
    readFile: o.readFile ?? ((p) => readFile(p, "utf8")),
    writeFile: o.writeFile ?? ((p, c) => writeReportFile(p, c)),
    loadHclEmitter: o.loadHclEmitter ?? loadHclEmitterModule,
  };
  if (o.retry !== undefined) deps.retry = o.retry;
  return deps;
}

function toCliError(e: unknown): CliError | null {
  if (e instanceof CliError) return e;
  if (e instanceof ApiUsageError) return new CliError(e.message, e.exitCode);
  if (e instanceof ApiError) return new CliError(e.message, EXIT_INPUT);
  if (e instanceof ApiConfigError) return new CliError(e.message, EXIT_INPUT);
  return null;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** The HCL emitter of the Terraform layer (injectable in tests). */
async function loadHclEmitterModule(): Promise<{ emit: HclEmitter; resourceName?: (zoneId: string) => string }> {
  return { emit: emitRulesetHcl, resourceName: (zoneId: string) => rulesetResourceName(zoneId, null) };
}
