// `cf-waf-migrate certs`: which certificates the Let's Encrypt chain change affects (spec part B), as of a
// day, and with `--fix --to CA` a patch that switches `certificate_authority` where that is safe.
//
//   certs [paths..] [--state FILE]... [--as-of YYYY-MM-DD] [--format F] [--output FILE] [--fail-on LEVEL]
//         [--fix --to default|google|ssl_com [--patch-file FILE] [--force]]
//
// The patch is written before the report is printed (the report says where it went); an existing patch
// file is never overwritten without --force. Edits the editor refuses are listed, not written.
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { auditEstateCertificates } from "../../certs/audit.js";
import { buildCertificateFix } from "../../certs/fix.js";
import type { CaTarget } from "../../core/cert-fix.js";
import { toIsoDay } from "../../core/certs.js";
import { renderCertsText, type CertFixSummary, type CertsReport } from "../../render/certs-text.js";
import { loadCliEstate } from "../workspace.js";
import { CliError } from "../errors.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html", "checkstyle", "compact"] as const;
export const CA_TARGETS = ["default", "google", "ssl_com"] as const;
export const DEFAULT_PATCH_FILE = "certificate-ca.patch";


export interface CertsArgs extends CommonArgs {
  "as-of"?: string;
  fix: boolean;
  to?: string;
  "patch-file"?: string;
  force: boolean;
}

/** `--as-of`: a real calendar day `YYYY-MM-DD`; default today (UTC). */
export function parseAsOf(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined) return toIsoDay(now)!;
  const v = String(value).trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || toIsoDay(v) !== v) {
    throw new CliError(`--as-of ${JSON.stringify(String(value))}: expected a calendar date YYYY-MM-DD (e.g. 2024-09-09)`);
  }
  return v;
}

export const certsCommand: CommandModule<object, CertsArgs> = {
  command: "certs [paths..]",
  describe: "Audit certificates for the Let's Encrypt chain change; --fix --to CA writes a patch switching certificate_authority",
  builder: (y: Argv) =>
    withExamples(withOutputOptions(withInputOptions(y), FORMATS, "never"), [
      ["$0 certs . --state terraform.tfstate", "certificates that still name Let's Encrypt, most urgent first"],
      ["$0 certs . --fix --to google", "write a patch that switches them to Google Trust Services"],
    ])
      .option("as-of", { type: "string", describe: "compute urgencies as of this day, YYYY-MM-DD (default: today, UTC)", requiresArg: true })
      .option("fix", { type: "boolean", default: false, describe: "write a patch that switches certificate_authority = \"lets_encrypt\" to --to" })
      .option("to", { type: "string", choices: CA_TARGETS, describe: "with --fix: the CA to switch to (default: the service chooses; packs and Total TLS get google)" })
      .option("patch-file", { type: "string", describe: `with --fix: where to write the patch (default ${DEFAULT_PATCH_FILE} in the working directory)`, requiresArg: true })
      .option("force", { type: "boolean", default: false, describe: "with --fix: overwrite an existing patch file" }) as unknown as Argv<CertsArgs>,
  handler: async (argv: ArgumentsCamelCase<CertsArgs>) => {
    const asOf = parseAsOf(argv["as-of"]);
    const target = fixTarget(argv);
    const cwd = process.cwd();
    const estate = await loadCliEstate(argv, cwd);
    const { report, certificates } = auditEstateCertificates({
      version: toolVersion(),
      root: relativeRoot(estate.base, cwd),
      instances: estate.instances,
      errors: estate.errors,
      asOf,
    });

    if (target && report.certs) {
      const fix = await buildCertificateFix(estate, certificates, target, {
        cwd,
        patchFile: argv["patch-file"] ?? DEFAULT_PATCH_FILE,
        force: argv.force,
        asOf,
      });
      report.certs.fix = fix.summary;
      if (!argv.quiet) process.stderr.write(fixNotice(fix.summary));
    }

    await emitReport(report, {
      formats: argv.format,
      output: argv.output,
      title: "certs",
      allowed: FORMATS,
      renderers: { text: (r, ctx) => renderCertsText(r as CertsReport, ctx) },
    });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "never"));
  },
};

function fixTarget(argv: CertsArgs): CaTarget | null {
  if (!argv.fix) {
    if (argv.to !== undefined) throw new CliError("--to goes with --fix (certs --fix --to default|google|ssl_com)");
    if (argv["patch-file"] !== undefined) throw new CliError("--patch-file goes with --fix");
    return null;
  }
  if (argv.to === undefined) throw new CliError("--fix needs --to default|google|ssl_com: the CA to switch to");
  return argv.to as CaTarget;
}

function fixNotice(fix: CertFixSummary): string {
  const patched = fix.edits.filter((e) => e.status === "patched");
  const replaced = patched.filter((e) => e.forcesReplacement).length;
  const other = fix.edits.length - patched.length;
  if (!fix.patchFile) return `cf-waf-migrate: no patch written (${fix.edits.length ? `${other} edit(s) not applicable` : "nothing to change"})\n`;
  return (
    `cf-waf-migrate: wrote ${fix.patchFile} (${patched.length} edit${patched.length === 1 ? "" : "s"}` +
    `${replaced ? `, ${replaced} forcing a replacement` : ""}${other ? `, ${other} not applied` : ""}); apply with: ${fix.applyCommand}\n`
  );
}
