// Where something is written, as every one-line message names it: `file:line:column`, the parts that are
// known (`?` for a file that is not).
export function positionText(file: string | null, line: number | null, column: number | null = null): string {
  return `${file ?? "?"}${line !== null ? `:${line}${column !== null ? `:${column}` : ""}` : ""}`;
}
