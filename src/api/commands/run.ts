// The orchestration of `cf-waf-migrate api <action>`, below the CLI: validates the request, talks to the
// Cloudflare v4 API through the client (credentials from the environment only), prints results through
// `io.stdout` (or writes --output) and progress through `io.stderr`, and returns the exit code. The CLI
// command (src/cli/commands/api.ts) is a thin shell: yargs options, real dependencies, error lines.
//
// Exit codes: 0 ok; 1 when `check` says compatible=false, when `migrate` refuses an incompatible zone, or
// when the migration was sent but status did not show the new WAF on within --poll-timeout. Bad usage and
// unreadable input throw ApiUsageError, API failures ApiError / ApiConfigError (the shell prints one line,
// exit 2).

import type { MigrationMode, Ruleset, ZonePlan } from "../../core/model.js";
import {
  ApiConfigError,
  ApiError,
  checkCompatibility,
  createApiClient,
  customHostnameCaRequest,
  formatMessages,
  getEntrypoint,
  getMigrationConfig,
  getMigrationStatus,
  getZone,
  isRuleset,
  isZoneId,
  normalizeBaseUrl,
  putEntrypointRequest,
  readCredentials,
  waitForMigration,
  zonePlanOf,
  type ApiClient,
  type ApiRequest,
  type CertificateAuthorityChoice,
  type Env,
  type MigrationStatus,
  type RequestPreview,
  type RetryPolicy,
  type Sleep,
} from "../index.js";

/** Done (or nothing to do). */
const EXIT_OK = 0;
/** The service says no: not compatible, refused, or not finished within the poll timeout. */
const EXIT_FINDINGS = 1;

/**
 * Bad usage, unreadable input, or a refusal of an `api` command: one line for the user, with its exit code
 * (2 unless given; 1 for a refusal the service's answer caused).
 */
export class ApiUsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = "ApiUsageError";
  }
}

export const API_ACTIONS = ["check", "config", "status", "entrypoint", "migrate", "custom-hostname-ca"] as const;
export type ApiAction = (typeof API_ACTIONS)[number];
type Format = "text" | "json" | "hcl";

export interface ApiArgs {
  action: ApiAction;
  zone?: string;
  "base-url"?: string;
  format?: Format;
  output?: string;
  timeout: number;
  yes: boolean;
  mode?: MigrationMode;
  "zone-plan"?: Exclude<ZonePlan, "unknown">;
  "poll-timeout": number;
  "poll-interval": number;
  "hostname-id"?: string;
  ca?: CertificateAuthorityChoice;
  "config-json"?: string;
  "provider-major": 4 | 5;
}

/** The HCL emitter of the Terraform layer (src/terraform/hcl/emit.ts), injected so this layer does not import it. */
export type HclEmitter = (opts: { resourceName: string; zoneIdExpression: string; ruleset: Ruleset; providerMajor: 4 | 5 }) => string | Promise<string>;

/** Everything the command touches outside itself; tests replace any of it. */
export interface ApiCommandDeps {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal: decides the default --format (text on a terminal, json otherwise). */
  isTTY: boolean;
  /** Used for retry backoff and between status polls. */
  sleep: Sleep;
  now: () => number;
  fetch: typeof fetch;
  readFile: (path: string) => Promise<string>;
  writeFile: (path: string, content: string) => Promise<void>;
  /** `emitRulesetHcl` and `rulesetResourceName` of src/terraform/hcl/emit.ts (tests give their own). */
  loadHclEmitter: () => Promise<{ emit: HclEmitter; resourceName?: (zoneId: string) => string }>;
  retry?: Partial<RetryPolicy>;
}

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Ctx {
  argv: ApiArgs;
  zone: string;
  format: Format;
  client: ApiClient;
  deps: ApiCommandDeps;
  io: Io;
  emit: (content: string) => Promise<void>;
}

/**
 * CLOUDFLARE_BASE_URL, the variable Cloudflare's own clients (and provider 5) read for the API's base URL;
 * empty or blank counts as unset.
 */
export const ENV_BASE_URL = "CLOUDFLARE_BASE_URL";
export function baseUrlFromEnv(env: ApiCommandDeps["env"]): string | undefined {
  const value = env[ENV_BASE_URL]?.trim();
  if (!value) return undefined;
  try {
    return normalizeBaseUrl(value);
  } catch (e) {
    // Say where the bad value came from: the user did not type it on this command line.
    throw new ApiConfigError(`${ENV_BASE_URL}: ${(e as Error).message}`);
  }
}

// ---- dispatch ---------------------------------------------------------------------------------------

export async function runApi(argv: ApiArgs, deps: ApiCommandDeps, io: Io): Promise<number> {
  const zone = validateZone(argv.zone);
  const format: Format = argv.format ?? (argv.output !== undefined || !deps.isTTY ? "json" : "text");
  if (format === "hcl" && argv.action !== "config") throw new ApiUsageError(`--format hcl is only available for "api config"`);
  const timeout = positiveSeconds(argv.timeout, "--timeout");
  const clientOptions: Parameters<typeof createApiClient>[0] = {
    env: deps.env,
    timeoutMs: timeout * 1000,
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: deps.now,
    log: (line) => io.stderr(`${line}\n`),
  };
  const baseUrl = argv["base-url"] ?? baseUrlFromEnv(deps.env);
  if (baseUrl !== undefined) clientOptions.baseUrl = baseUrl;
  if (deps.retry !== undefined) clientOptions.retry = deps.retry;
  const client = createApiClient(clientOptions);

  const emit = async (content: string): Promise<void> => {
    const text = client.redact(content.endsWith("\n") ? content : `${content}\n`);
    if (argv.output === undefined) return io.stdout(text);
    try {
      await deps.writeFile(argv.output, text);
    } catch (e) {
      throw new ApiUsageError(`cannot write ${argv.output}: ${(e as Error).message}`);
    }
    io.stderr(`wrote ${argv.output}\n`);
  };
  const ctx: Ctx = { argv, zone, format, client, deps, io, emit };

  switch (argv.action) {
    case "check":
      return runCheck(ctx);
    case "config":
      return runConfig(ctx);
    case "status":
      return runStatus(ctx);
    case "entrypoint":
      return runEntrypoint(ctx);
    case "migrate":
      return runMigrate(ctx);
    case "custom-hostname-ca":
      return runCustomHostnameCa(ctx);
  }
}

// ---- actions ----------------------------------------------------------------------------------------

async function runCheck(ctx: Ctx): Promise<number> {
  const result = await checkCompatibility(ctx.client, ctx.zone);
  if (ctx.format === "json") {
    await ctx.emit(json(result));
  } else {
    const lines = [`zone ${ctx.zone}`, `compatible: ${result.compatible}`, `migration_state: ${result.migration_state ?? "(not reported)"}`];
    if (!result.compatible) lines.push("", ...INCOMPATIBLE_EXPLANATION);
    await ctx.emit(lines.join("\n"));
  }
  return result.compatible ? EXIT_OK : EXIT_FINDINGS;
}

const INCOMPATIBLE_EXPLANATION = [
  "The zone is not eligible to update to the new WAF in its current configuration, and the update must not proceed.",
  "In phase 2 the blocker is URI-based WAF overrides (visible only through the API): delete them with the",
  "Delete a WAF override operation, then run the check again.",
];

async function runConfig(ctx: Ctx): Promise<number> {
  const ruleset = await getMigrationConfig(ctx.client, ctx.zone);
  if (ctx.format === "json") {
    await ctx.emit(json(ruleset));
  } else if (ctx.format === "hcl") {
    const emitter = await ctx.deps.loadHclEmitter();
    const resourceName = emitter.resourceName?.(ctx.zone) ?? `waf_managed_${ctx.zone.slice(0, 8)}`;
    let hcl: string;
    try {
      hcl = await emitter.emit({ resourceName, zoneIdExpression: JSON.stringify(ctx.zone), ruleset: withoutEmptyIds(ruleset), providerMajor: ctx.argv["provider-major"] });
    } catch (e) {
      throw new ApiUsageError(`cannot write the configuration as HCL: ${(e as Error).message}`);
    }
    await ctx.emit(hcl);
  } else {
    await ctx.emit(
      [
        ...describeRuleset(ruleset),
        "",
        `To use it offline: cf-waf-migrate api config --zone ${ctx.zone} --format json --output ${ctx.zone}.json`,
        `then: cf-waf-migrate plan PATH --config-json ${ctx.zone}=${ctx.zone}.json`,
      ].join("\n"),
    );
  }
  return EXIT_OK;
}

async function runStatus(ctx: Ctx): Promise<number> {
  const status = await getMigrationStatus(ctx.client, ctx.zone);
  if (ctx.format === "json") await ctx.emit(json(status));
  else await ctx.emit([`zone ${ctx.zone}`, ...describeStatus(status)].join("\n"));
  return EXIT_OK;
}

async function runEntrypoint(ctx: Ctx): Promise<number> {
  let ruleset;
  try {
    ruleset = await getEntrypoint(ctx.client, ctx.zone);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      const said = e.errors.length > 0 ? ` (service said: ${formatMessages(e.errors)})` : "";
      throw new ApiUsageError(
        `zone ${ctx.zone} has no http_request_firewall_managed entry point ruleset yet${said}: it is created by the migration (cf-waf-migrate api migrate --zone ${ctx.zone} --mode …)`,
      );
    }
    throw e;
  }
  const info = {
    zoneId: ctx.zone,
    rulesetId: ruleset.id,
    name: ruleset.name,
    version: ruleset.version ?? null,
    phase: ruleset.phase ?? null,
    rules: ruleset.rules.length,
    importId: importId(ctx.zone, ruleset.id, 4),
    importIdProvider5: importId(ctx.zone, ruleset.id, 5),
    planOption: `--ruleset-id ${ctx.zone}=${ruleset.id}`,
  };
  if (ctx.format === "json") {
    await ctx.emit(json(info));
  } else {
    await ctx.emit(
      [
        `zone ${ctx.zone}`,
        `entry point ruleset id: ${ruleset.id}`,
        `name: ${ruleset.name}${ruleset.version !== undefined ? `, version ${ruleset.version}` : ""}, ${plural(ruleset.rules.length, "rule")}`,
        `import id (provider 3/4): ${info.importId}`,
        `import id (provider 5):   ${info.importIdProvider5}`,
        `for plan: ${info.planOption}`,
      ].join("\n"),
    );
  }
  return EXIT_OK;
}

async function runMigrate(ctx: Ctx): Promise<number> {
  const { argv, zone, client, io } = ctx;
  const mode = argv.mode;
  if (mode === undefined) {
    throw new ApiUsageError(
      "migrate needs --mode pending|validation: pending enables the new WAF and disables the previous one (the only path for Pro and Business); validation (Enterprise only) runs both side by side",
    );
  }
  const pollTimeout = positiveSeconds(argv["poll-timeout"], "--poll-timeout");
  const pollInterval = positiveSeconds(argv["poll-interval"], "--poll-interval");

  // Let a bad --config-json fail before any request.
  let config: Ruleset | null = null;
  if (argv["config-json"] !== undefined) config = await readConfigFile(ctx.deps, argv["config-json"]);

  const check = await checkCompatibility(client, zone);
  if (!check.compatible) {
    throw new ApiUsageError(
      `refusing to migrate zone ${zone}: the check says compatible=false (migration_state ${check.migration_state ?? "not reported"}). ${INCOMPATIBLE_EXPLANATION.join(" ")}`,
      EXIT_FINDINGS,
    );
  }
  io.stderr(`check: zone ${zone} is compatible (migration_state ${check.migration_state ?? "not reported"})\n`);

  if (mode === "validation") {
    const plan = argv["zone-plan"] ?? (await readZonePlan(client, zone));
    if (plan !== "enterprise") {
      throw new ApiUsageError(
        `validation mode is for Enterprise zones only, and zone ${zone} is on ${plan === "unknown" ? "a plan the service did not name (pass --zone-plan enterprise if it is Enterprise)" : `the ${plan} plan`}; use --mode pending, which enables the new WAF and disables the previous one`,
      );
    }
  }

  if (config === null) config = await getMigrationConfig(client, zone);
  const request = putEntrypointRequest(zone, mode, config);
  const preview = client.preview(request);

  if (!argv.yes) {
    if (ctx.format === "json") await ctx.emit(json({ dryRun: true, mode, request: preview }));
    else await ctx.emit(describeDryRun(preview, "migrate", authNote(ctx, request)));
    return EXIT_OK;
  }

  io.stderr(`sending ${preview.method} ${preview.url}\n`);
  let response: unknown;
  try {
    response = (await client.request<unknown>(request)).result;
  } catch (e) {
    if (e instanceof ApiError && (e.kind === "timeout" || e.kind === "network" || e.kind === "server" || e.kind === "malformed")) {
      throw new ApiUsageError(
        `${e.message}. It is not known whether the service applied the change: run \`cf-waf-migrate api status --zone ${zone}\` before sending it again`,
      );
    }
    throw e;
  }
  const rulesetId = objectField(response, "id");
  io.stderr(`sent: the service accepted the entry point ruleset${typeof rulesetId === "string" ? ` (id ${rulesetId})` : ""}; waiting for the new WAF to be on\n`);

  const outcome = await waitForMigration({
    client,
    zoneId: zone,
    mode,
    intervalMs: pollInterval * 1000,
    timeoutMs: pollTimeout * 1000,
    sleep: ctx.deps.sleep,
    now: ctx.deps.now,
    onPoll: (p) => io.stderr(`status (poll ${p.number}, ${Math.round(p.elapsedMs / 1000)} s): ${statusSummary(p.status)}${p.done ? " - done" : ""}\n`),
  });
  const result = { dryRun: false, mode, request: preview, response, done: outcome.done, status: outcome.status };
  if (ctx.format === "json") {
    await ctx.emit(json(result));
  } else {
    const lines = [
      `${mode} migration request sent for zone ${zone}${typeof rulesetId === "string" ? `; entry point ruleset id ${rulesetId}` : ""}`,
      ...describeStatus(outcome.status),
    ];
    if (outcome.done) {
      lines.push(
        "",
        mode === "validation"
          ? "The new WAF is on beside the previous one. Review Security Events, then finish with --mode pending."
          : "The new WAF is on. Next: cf-waf-migrate api entrypoint --zone " + zone + " for the ruleset id to import.",
      );
    }
    await ctx.emit(lines.join("\n"));
  }
  if (!outcome.done) {
    io.stderr(
      `the service accepted the request, but status did not show the ${mode === "pending" ? "migration finished" : "new WAF on"} within ${pollTimeout} s (the migration may take a few minutes); follow it with: cf-waf-migrate api status --zone ${zone}\n`,
    );
    return EXIT_FINDINGS;
  }
  return EXIT_OK;
}

async function runCustomHostnameCa(ctx: Ctx): Promise<number> {
  const { argv, zone, client, io } = ctx;
  const hostnameId = argv["hostname-id"];
  if (hostnameId === undefined || hostnameId === "") throw new ApiUsageError("custom-hostname-ca needs --hostname-id ID (the custom hostname's identifier)");
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(hostnameId)) throw new ApiUsageError(`--hostname-id must be a custom hostname identifier (letters, digits, "-" and "_"), got ${JSON.stringify(hostnameId.slice(0, 80))}`);
  const ca = argv.ca;
  if (ca === undefined) throw new ApiUsageError('custom-hostname-ca needs --ca default|google|ssl_com ("default" lets the service choose a more compatible CA)');
  const request = customHostnameCaRequest(zone, hostnameId, ca);
  const preview = client.preview(request);
  if (!argv.yes) {
    if (ctx.format === "json") await ctx.emit(json({ dryRun: true, request: preview }));
    else await ctx.emit(describeDryRun(preview, "custom-hostname-ca", authNote(ctx, request)));
    return EXIT_OK;
  }
  io.stderr(`sending ${preview.method} ${preview.url}\n`);
  const response = (await client.request<unknown>(request)).result;
  if (ctx.format === "json") {
    await ctx.emit(json({ dryRun: false, request: preview, response }));
  } else {
    const ssl = objectField(response, "ssl");
    const status = objectField(ssl, "status");
    await ctx.emit(
      [
        `custom hostname ${hostnameId} (zone ${zone}): certificate authority set to ${ca === "default" ? 'the default ("": the service chooses)' : ca}`,
        ...(typeof status === "string" ? [`certificate status: ${status}`] : []),
      ].join("\n"),
    );
  }
  return EXIT_OK;
}

// ---- helpers ----------------------------------------------------------------------------------------

function validateZone(zone: string | undefined): string {
  if (zone === undefined || zone === "") throw new ApiUsageError("--zone ZONE_ID is required (the zone's 32-character hexadecimal ID)");
  if (!isZoneId(zone)) {
    throw new ApiUsageError(`--zone must be a zone ID of 32 hexadecimal characters (the ID, not the domain name), got ${JSON.stringify(String(zone).slice(0, 80))}`);
  }
  return zone.toLowerCase();
}

function positiveSeconds(value: number, flag: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new ApiUsageError(`${flag} must be a positive number of seconds`);
  return value;
}

async function readZonePlan(client: ApiClient, zone: string): Promise<ZonePlan> {
  try {
    return zonePlanOf(await getZone(client, zone));
  } catch (e) {
    if (e instanceof ApiError) throw new ApiUsageError(`cannot read the zone's plan to allow validation mode: ${e.message}; pass --zone-plan enterprise|business|pro|free`);
    throw e;
  }
}

async function readConfigFile(deps: ApiCommandDeps, file: string): Promise<Ruleset> {
  let text: string;
  try {
    text = await deps.readFile(file);
  } catch (e) {
    throw new ApiUsageError(`cannot read --config-json ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ApiUsageError(`--config-json ${file} is not valid JSON: ${(e as Error).message}`);
  }
  // Accept the bare result (what `api config --format json` writes) or the whole envelope.
  const candidate = isRuleset(value) ? value : objectField(value, "result");
  if (!isRuleset(candidate)) throw new ApiUsageError(`--config-json ${file} is not a WAF configuration ({"name": string, "rules": [...]}, or an envelope with it in "result")`);
  return candidate;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function objectField(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>)[key];
}

function importId(zone: string, rulesetId: string, providerMajor: 4 | 5): string {
  return `${providerMajor >= 5 ? "zones" : "zone"}/${zone}/${rulesetId}`;
}

function authNote(ctx: Ctx, request: ApiRequest): string {
  const creds = readCredentials(ctx.deps.env);
  const prefer = request.auth ?? "bearer";
  const bearer = creds.token !== undefined;
  const emailKey = creds.email !== undefined && creds.key !== undefined;
  const scheme = prefer === "email_key" ? (emailKey ? "email_key" : bearer ? "bearer" : null) : bearer ? "bearer" : emailKey ? "email_key" : null;
  if (scheme === "bearer") return "plus Authorization: Bearer <CLOUDFLARE_API_TOKEN>";
  if (scheme === "email_key") return "plus X-Auth-Email: <CLOUDFLARE_EMAIL> and X-Auth-Key: <CLOUDFLARE_API_KEY>";
  return "credentials are missing: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY";
}

function describeDryRun(preview: RequestPreview, action: string, auth: string): string {
  const headerLines = Object.entries(preview.headers).map(([k, v]) => `${k}: ${v}`);
  return [
    `Dry run: nothing was sent. \`api ${action}\` with --yes sends this request (${auth}):`,
    "",
    `${preview.method} ${preview.url}`,
    ...headerLines,
    "",
    JSON.stringify(preview.body, null, 2),
  ].join("\n");
}

const KNOWN_RULESETS: Record<string, string> = {
  efb7b8c949ac4650a09736fc376e9aee: "Cloudflare Managed Ruleset",
  "4814384a9e5d4991b9815dcfc25d2f1f": "Cloudflare OWASP Core Ruleset",
  c2e184081120413c86c3ab7e14069605: "Cloudflare Exposed Credentials Check",
  "77454fe2d30c4220b5701f6fdfb893ba": "Cloudflare Free Managed Ruleset",
};

function describeRuleset(ruleset: Ruleset): string[] {
  const lines = [`ruleset ${JSON.stringify(ruleset.name)}: ${plural(ruleset.rules.length, "rule")}`];
  ruleset.rules.forEach((rule, i) => {
    const target = rule.action_parameters?.id;
    const what = target ? ` ${target}${KNOWN_RULESETS[target] ? ` (${KNOWN_RULESETS[target]})` : ""}` : rule.action_parameters?.ruleset ? ` ruleset=${rule.action_parameters.ruleset}` : "";
    lines.push(`  ${i + 1}. ${rule.action}${what}, ${rule.enabled === false ? "disabled" : "enabled"}, expression: ${rule.expression}`);
    if (rule.description) lines.push(`     description: ${rule.description}`);
    const o = rule.action_parameters?.overrides;
    if (o?.action !== undefined || o?.enabled !== undefined) lines.push(`     override (whole ruleset):${fields({ action: o.action, enabled: o.enabled })}`);
    for (const c of o?.categories ?? []) lines.push(`     override category ${c.category}:${fields({ action: c.action, enabled: c.enabled })}`);
    for (const r of o?.rules ?? []) lines.push(`     override rule ${r.id}:${fields({ action: r.action, enabled: r.enabled, score_threshold: r.score_threshold })}`);
  });
  return lines;
}

/**
 * The service returns `id`, `version` and `ref` as "" for rules it has not created yet; in Terraform an
 * empty `ref` would be a value to keep in sync rather than "none", so empty ones are dropped before HCL.
 */
function withoutEmptyIds(ruleset: Ruleset): Ruleset {
  return {
    ...ruleset,
    rules: ruleset.rules.map((rule) => {
      const copy = { ...rule };
      if (copy.id === "") delete copy.id;
      if (copy.version === "") delete copy.version;
      if (copy.ref === "") delete copy.ref;
      return copy;
    }),
  };
}

function fields(values: Record<string, unknown>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}=${String(v)}`)
    .join("");
}

function describeStatus(status: MigrationStatus): string[] {
  const entries = Object.entries(status);
  if (entries.length === 0) return ["(the service returned no status fields)"];
  return entries.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
}

function statusSummary(status: MigrationStatus): string {
  const entries = Object.entries(status).filter(([, v]) => v === null || typeof v !== "object");
  return entries.length === 0 ? "(no status fields)" : entries.map(([k, v]) => `${k}=${String(v)}`).join(" ");
}
