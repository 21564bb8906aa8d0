// How every report names files (the convention lives in core/report-paths.ts so the plan layer shares it).
export * from "../core/report-paths.js";
