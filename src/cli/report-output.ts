// Renders a report in the requested format to stdout or a file, and computes the exit code.
import { pathToFileURL } from "node:url";
import type { FailOn, InputError, Report, Severity, StreamedReport } from "../core/model.js";
import { tripsFailOn } from "../core/findings.js";
import { errorPath } from "../core/report-paths.js";
import type { StreamingRenderer } from "../render/index.js";
import { renderJsonChunks } from "../render/json.js";
import { shouldColor } from "../render/style.js";
import { renderText } from "../render/text.js";
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK } from "./errors.js";
import { writeReportFile } from "./io.js";
import { resolveOutputs, type Format } from "./options.js";

/** A rendered report: one string, or pieces written in order (large JSON reports). */
export type Renderer = (report: Report, ctx: { color: boolean; title: string; srcRootUri?: string }) => string | Iterable<string>;

const renderers: Partial<Record<Format, Renderer>> = {
  json: (r) => renderJsonChunks(r),
  text: (r, ctx) => renderText(r, { color: ctx.color, title: ctx.title }),
};

/**
 * Every other format (Markdown, SARIF, JUnit, HTML, checkstyle, compact) comes from render/index.js, loaded
 * when one of them is asked for: a text or JSON run does not pay for their module graph at start-up. No
 * list here to keep in step with render/index.js. A renderer registered here wins.
 */
async function rendererFor(format: Format): Promise<Renderer | undefined> {
  if (!renderers[format]) {
    const { RENDERERS } = await import("../render/index.js");
    if (Object.hasOwn(RENDERERS, format)) renderers[format] ??= RENDERERS[format as keyof typeof RENDERERS];
  }
  return renderers[format];
}

/** Other layers (markdown, sarif, junit, shell) register here so this file does not grow with them. */
export function registerRenderer(format: Format, renderer: Renderer): void {
  renderers[format] = renderer;
}

/**
 * The renderer that writes a report whose lists are read back from disk (a large scan, estate/spill) item by
 * item, for the formats that have one (JSON, SARIF); null for the others.
 */
async function streamingRendererFor(format: Format): Promise<StreamingRenderer | null> {
  if (format === "json") return (r) => renderJsonChunks(r);
  // Text is this file's own (whole report): a text run does not load render/index.js.
  if (format === "text") return null;
  const { STREAMING_RENDERERS } = await import("../render/index.js");
  return (Object.hasOwn(STREAMING_RENDERERS, format) && STREAMING_RENDERERS[format as keyof typeof STREAMING_RENDERERS]) || null;
}

/**
 * Writes the report in each requested format. A report whose lists are read back from disk (a large scan,
 * estate/spill) is written item by item in the formats that can be (JSON, SARIF); the other formats get
 * `whole()`, the report in memory. A command's own renderer for a format always gets `whole()`.
 */
export async function emitReport(
  report: Report | StreamedReport,
  opts: { formats: string[]; output?: string; title: string; allowed: readonly Format[]; renderers?: Partial<Record<Format, Renderer>>; whole?: () => Report },
): Promise<void> {
  const whole = opts.whole ?? (() => report as Report);
  // First, and whatever the format: a CI log shows stderr even when stdout goes to a SARIF file.
  writeReportInputErrors(report);
  const isTTY = process.stdout.isTTY === true;
  const targets = resolveOutputs(opts.formats, opts.output, opts.allowed, isTTY);
  for (const t of targets) {
    const render = opts.renderers?.[t.format] ?? (await rendererFor(t.format));
    if (!render) throw new CliError(`--format ${t.format} is not available for this command`);
    const color = t.file === null && shouldColor(isTTY, process.env);
    const ctx = { color, title: opts.title, srcRootUri: srcRootUri(process.cwd()) };
    const streaming = opts.renderers?.[t.format] === undefined ? await streamingRendererFor(t.format) : null;
    const text = streaming ? streaming(report, ctx) : render(whole(), ctx);
    if (t.file !== null) await writeReportFile(t.file, text);
    else await writeStdout(text);
  }
}

/** The report's input errors on stderr, named like every report names files: relative to the working directory (core/report-paths.ts). */
export function writeReportInputErrors(report: Pick<Report, "errors" | "root">): void {
  writeInputErrors(report.errors.map((e) => ({ ...e, file: errorPath(report, e) ?? e.file })));
}

/** Each input that could not be read, as one `file:line:column: message` line on stderr. */
export function writeInputErrors(errors: readonly InputError[], write: (line: string) => void = (l) => void process.stderr.write(l)): void {
  for (const e of errors) write(`cf-waf-migrate: error: ${inputErrorLine(e)}\n`);
}

/** `file:line:column: message`, with as much of the position as is known; always one line. */
export function inputErrorLine(e: InputError): string {
  const where = `${e.file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ""}` : ""}`;
  // eslint-disable-next-line no-control-regex
  return `${where}: ${e.message}`.replace(/[\u0000-\u001f\u007f]+/g, " ");
}

/** Writes to stdout piece by piece, waiting for the pipe to drain so memory stays flat. */
async function writeStdout(text: string | Iterable<string>): Promise<void> {
  const pieces = typeof text === "string" ? [text] : text;
  let batch = "";
  for (const piece of pieces) {
    batch += piece;
    if (batch.length < 1 << 16) continue;
    if (!process.stdout.write(batch)) await new Promise<void>((resolve) => process.stdout.once("drain", resolve));
    batch = "";
  }
  if (batch) process.stdout.write(batch);
}

/** 2 when input could not be read, else 1 when a finding trips --fail-on, else 0. */
export function exitCodeFor(report: Report, failOn: FailOn): number {
  return exitCodeOf(report.errors.length, new Set(report.findings.map((f) => f.severity)), failOn);
}

/** exitCodeFor from the number of input errors and the findings' severities. */
export function exitCodeOf(inputErrors: number, severities: ReadonlySet<Severity>, failOn: FailOn): number {
  if (inputErrors > 0) return EXIT_INPUT;
  return [...severities].some((s) => tripsFailOn(s, failOn)) ? EXIT_FINDINGS : EXIT_OK;
}

/** A directory as the absolute `file:` URI SARIF's originalUriBaseIds wants (ending in `/`). */
export function srcRootUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith("/") ? href : href + "/";
}
