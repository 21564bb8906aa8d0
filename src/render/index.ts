// The renderers the CLI registers beyond text and json: one pure function of the report per format.
// The CLI wires them in (render does not import the CLI: layers point down).
import type { Report, StreamedReport } from "../core/model.js";
import { renderCheckstyle } from "./checkstyle.js";
import { renderCompact } from "./compact.js";
import { renderHtml } from "./html/index.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./markdown.js";
import { renderSarif, renderSarifChunks } from "./sarif.js";

export interface RenderContext {
  /** Colour is for terminals; these formats never use it. */
  color: boolean;
  /** The command that produced the report (`scan`, `plan`, `gate`, `certs`). */
  title: string;
  /** The working directory as a `file:` URI ending in `/` (SARIF's %SRCROOT%); omitted in pure renders. */
  srcRootUri?: string;
}

export type ReportRenderer = (report: Report, ctx: RenderContext) => string;

export const RENDERERS: Record<"markdown" | "sarif" | "junit" | "html" | "checkstyle" | "compact", ReportRenderer> = {
  markdown: (report, ctx) => renderMarkdown(report, { title: ctx.title }),
  sarif: (report, ctx) => renderSarif(report, ctx.srcRootUri ? { srcRootUri: ctx.srcRootUri } : {}),
  junit: (report, ctx) => renderJunit(report, { title: ctx.title }),
  html: (report, ctx) => renderHtml(report, { title: ctx.title }),
  checkstyle: (report) => renderCheckstyle(report),
  compact: (report) => renderCompact(report),
};

export type StreamingRenderer = (report: Report | StreamedReport, ctx: RenderContext) => Iterable<string>;

/**
 * The formats that can be written from a report whose lists are read back from disk (a large scan,
 * estate/spill), one item at a time: the same text as their renderer above gives for the whole report.
 */
export const STREAMING_RENDERERS: Partial<Record<keyof typeof RENDERERS, StreamingRenderer>> = {
  sarif: (report, ctx) => renderSarifChunks(report, ctx.srcRootUri ? { srcRootUri: ctx.srcRootUri } : {}),
};

export { renderCheckstyle } from "./checkstyle.js";
export { renderCompact } from "./compact.js";
export { renderHtml } from "./html/index.js";
export { renderJunit } from "./junit.js";
export { renderMarkdown } from "./markdown.js";
export { renderSarif, renderSarifChunks } from "./sarif.js";
