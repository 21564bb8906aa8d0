// `cf-waf-migrate api migrate --from REPORT.json --ledger FILE …`: reads the report, opens the session
// (credentials, base URL, rate limiter), runs one wave, prints a line per zone (or, with --format json,
// the JSON summary) and writes the JSON summary to --summary-json. Exit 0 when the wave went through or
// the dry run is fine, 1 when a failure stopped it, 2 for bad usage (ApiUsageError).

import path from "node:path";
import { ApiUsageError, type ApiCommandDeps, type Io } from "../api/commands/run.js";
import type { MigrationMode, Report } from "../core/model.js";
import { parseJsonWithPositions } from "../terraform/hcl/json-positions.js";
import { openOnlineSession } from "./session.js";
import { runWave, summaryLines, type WaveSummary } from "./waves.js";

export interface WaveArgs {
  from: string;
  ledger?: string;
  "wave-size": number;
  mode?: MigrationMode;
  finish: boolean;
  yes: boolean;
  format?: string;
  "summary-json"?: string;
  "base-url"?: string;
  "cache-dir"?: string;
  zone?: string;
  cwd?: string;
}

export async function runWaveCommand(argv: WaveArgs, deps: ApiCommandDeps, io: Io): Promise<number> {
  if (argv.zone !== undefined) throw new ApiUsageError("--zone and --from do not go together: --zone migrates one zone, --from the ready zones of a report");
  if (argv.ledger === undefined || argv.ledger === "") throw new ApiUsageError("--from needs --ledger FILE: the record of every request and answer that makes a rerun safe");
  if (argv.finish && argv.mode === "validation") throw new ApiUsageError("--finish sends pending; it does not go with --mode validation");
  const waveSize = argv["wave-size"];
  if (!Number.isInteger(waveSize) || waveSize < 1) throw new ApiUsageError(`--wave-size must be a whole number of at least 1, got ${String(waveSize)}`);
  const cwd = argv.cwd ?? process.cwd();
  const report = await readReport(deps, argv.from);
  const session = openOnlineSession(
    { ...(argv["base-url"] !== undefined ? { baseUrl: argv["base-url"] } : {}), ...(argv["cache-dir"] !== undefined ? { cacheDir: argv["cache-dir"] } : {}), jobs: 1 },
    { env: deps.env, cwd, fetch: deps.fetch, now: deps.now, sleep: deps.sleep, log: (line) => io.stderr(`${line}\n`), ...(deps.retry ? { retry: deps.retry } : {}) },
  );
  const summary = await runWave(
    {
      report,
      ledgerPath: path.resolve(cwd, argv.ledger),
      waveSize: argv["wave-size"],
      ...(argv.mode !== undefined ? { mode: argv.mode } : {}),
      finish: argv.finish,
      yes: argv.yes,
    },
    {
      client: session.client,
      now: deps.now,
      log: (line) => io.stderr(`${line}\n`),
      onZoneChanged: (zoneId) => session.cache.forgetZone(session.baseUrl, zoneId),
    },
  );
  await session.saveWindow();
  summary.ledger = argv.ledger;
  const json = `${JSON.stringify(summary, null, 2)}\n`;
  if (argv["summary-json"] !== undefined) {
    await deps.writeFile(argv["summary-json"], session.client.redact(json));
    io.stderr(`wrote ${argv["summary-json"]}\n`);
  }
  if (argv.format === "json") io.stdout(session.client.redact(json));
  else io.stdout(session.client.redact(describeWave(summary)));
  return summary.stoppedBy !== null ? 1 : 0;
}

function describeWave(summary: WaveSummary): string {
  const out: string[] = [];
  const requests = summary.zones.filter((z) => z.request);
  if (summary.dryRun && requests.length) {
    out.push(`Dry run: nothing was sent and the ledger was not written. With --yes this wave sends these ${requests.length} request${requests.length === 1 ? "" : "s"}, in this order (plus the credentials' headers):`, "");
    for (const z of requests) {
      const r = z.request!;
      out.push(`${r.method} ${r.url}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), "", JSON.stringify(r.body, null, 2), "");
    }
  }
  out.push(...summaryLines(summary));
  return `${out.join("\n")}\n`;
}

async function readReport(deps: ApiCommandDeps, file: string): Promise<Report> {
  let text: string;
  try {
    text = await deps.readFile(file);
  } catch (e) {
    throw new ApiUsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) throw new ApiUsageError(`${file}:${parsed.line ?? 1}:${parsed.column ?? 1}: ${parsed.message}`);
  const doc = parsed.value as Partial<Report> | null;
  if (!doc || typeof doc !== "object" || doc.schemaVersion !== 1 || !Array.isArray(doc.zones) || !Array.isArray(doc.findings)) {
    throw new ApiUsageError(`${file}: not a cf-waf-migrate JSON report (schemaVersion 1 with zones[] and findings[]); make it with scan --online --format json`);
  }
  return doc as Report;
}
