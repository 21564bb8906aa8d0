// A unified diff of two texts that `git apply` (and `patch -p1`) accept. Pure: no I/O.
//
// Lines are compared with their terminators, so a changed line ending (CRLF vs LF) or a missing final
// newline is a change, and `\ No newline at end of file` is written where git writes it. The line diff is
// Myers' O(ND) algorithm after trimming the common prefix and suffix.

const CONTEXT = 3;

type Op = { kind: "=" | "-" | "+"; line: string; oldIdx: number; newIdx: number };

/** Split into lines that keep their `\n` (and any `\r` before it); the last line may lack one. */
export function splitLinesKeepEnds(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * Myers' shortest edit script between two integer sequences, as a list of ops in order.
 * Time O(N + M + D²), memory O(D²): V is updated in place (step d reads the diagonals of step d - 1's
 * parity and writes its own), and the trace keeps of each step only the diagonals backtracking reads
 * (-d - 1 to d + 1). A copy of the whole V per step cost O((N + M)·D): on a 5,000-line file losing 2,000
 * lines to block removals that was ~40 million entries, most of a big estate's patch rendering.
 */
function myers(a: number[], b: number[]): ("=" | "-" | "+")[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: V before step d, diagonals -d - 1 .. d + 1 (index k + d + 1).
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Backtrack through the trace.
  const ops: ("=" | "-" | "+")[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const at = (k: number) => vd[k + d + 1]!;
    const k = x - y;
    let prevK: number;
    if (d === 0) prevK = 0;
    else if (k === -d || (k !== d && at(k - 1) < at(k + 1))) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("=");
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push("+");
      else ops.push("-");
      x = prevX;
      y = prevY;
    }
  }
  return ops.reverse();
}

function diffLines(a: string[], b: string[]): Op[] {
  const ids = new Map<string, number>();
  const id = (s: string): number => {
    let n = ids.get(s);
    if (n === undefined) {
      n = ids.size;
      ids.set(s, n);
    }
    return n;
  };
  const ai = a.map(id);
  const bi = b.map(id);
  let pre = 0;
  while (pre < ai.length && pre < bi.length && ai[pre] === bi[pre]) pre++;
  let suf = 0;
  while (suf < ai.length - pre && suf < bi.length - pre && ai[ai.length - 1 - suf] === bi[bi.length - 1 - suf]) suf++;
  const mid = myers(ai.slice(pre, ai.length - suf), bi.slice(pre, bi.length - suf));
  const kinds: ("=" | "-" | "+")[] = [...Array<"=">(pre).fill("="), ...mid, ...Array<"=">(suf).fill("=")];

  const ops: Op[] = [];
  let oi = 0;
  let ni = 0;
  for (const k of kinds) {
    if (k === "=") ops.push({ kind: k, line: a[oi]!, oldIdx: oi++, newIdx: ni++ });
    else if (k === "-") ops.push({ kind: k, line: a[oi]!, oldIdx: oi++, newIdx: ni });
    else ops.push({ kind: k, line: b[ni]!, oldIdx: oi, newIdx: ni++ });
  }
  // Within each run of changes, deletions first, then insertions (as diff and git print them).
  const out: Op[] = [];
  for (let i = 0; i < ops.length; ) {
    if (ops[i]!.kind === "=") {
      out.push(ops[i++]!);
      continue;
    }
    let j = i;
    while (j < ops.length && ops[j]!.kind !== "=") j++;
    const run = ops.slice(i, j);
    out.push(...run.filter((o) => o.kind === "-"), ...run.filter((o) => o.kind === "+"));
    i = j;
  }
  return out;
}

/** A path as git writes it in `---`/`+++` lines: C-quoted when needed, a tab after names with spaces. */
function gitPath(p: string): string {
  if (/["\\\x00-\x1f\x7f]|[^\x00-\x7f]/.test(p)) {
    let q = '"';
    for (const byte of new TextEncoder().encode(p)) {
      const c = String.fromCharCode(byte);
      if (c === '"') q += '\\"';
      else if (c === "\\") q += "\\\\";
      else if (c === "\n") q += "\\n";
      else if (c === "\t") q += "\\t";
      else if (c === "\r") q += "\\r";
      else if (byte < 0x20 || byte >= 0x7f) q += "\\" + byte.toString(8).padStart(3, "0");
      else q += c;
    }
    return q + '"';
  }
  return p.includes(" ") ? p + "\t" : p;
}

function range(start: number, count: number): string {
  // Git and GNU diff: an empty range names the line before it; a one-line range omits the count.
  if (count === 0) return `${start},0`;
  if (count === 1) return `${start + 1}`;
  return `${start + 1},${count}`;
}

function emitLine(prefix: string, line: string): string {
  return line.endsWith("\n") ? prefix + line : prefix + line + "\n\\ No newline at end of file\n";
}

export interface UnifiedDiffOptions {
  /** The file does not exist yet: the old side is `/dev/null` (oldText must be ""). */
  create?: boolean;
  /** The file is deleted: the new side is `/dev/null` (newText must be ""). */
  delete?: boolean;
}

/**
 * The unified diff turning `oldText` into `newText` for the file `path` (relative, `/`-separated),
 * with `a/` and `b/` prefixes and 3 lines of context. Returns "" when the texts are equal (and the file
 * is neither created nor deleted).
 */
export function unifiedDiff(oldText: string, newText: string, path: string, opts: UnifiedDiffOptions = {}): string {
  if (opts.create && oldText !== "") throw new Error("unifiedDiff: a created file has no old text");
  if (opts.delete && newText !== "") throw new Error("unifiedDiff: a deleted file has no new text");
  if (oldText === newText && !opts.create && !opts.delete) return "";
  const rel = path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  const ops = diffLines(splitLinesKeepEnds(oldText), splitLinesKeepEnds(newText));

  // Group changes into hunks: changes closer than 2×CONTEXT unchanged lines share a hunk.
  const changeIdx: number[] = [];
  ops.forEach((o, i) => {
    if (o.kind !== "=") changeIdx.push(i);
  });
  const hunks: [number, number][] = [];
  for (const i of changeIdx) {
    const from = Math.max(0, i - CONTEXT);
    const to = Math.min(ops.length, i + CONTEXT + 1);
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }

  const from = opts.create ? "/dev/null" : gitPath("a/" + rel);
  const to = opts.delete ? "/dev/null" : gitPath("b/" + rel);
  let out = `--- ${from}\n+++ ${to}\n`;
  for (const [from, to] of hunks) {
    const slice = ops.slice(from, to);
    const first = slice[0]!;
    const oldCount = slice.filter((o) => o.kind !== "+").length;
    const newCount = slice.filter((o) => o.kind !== "-").length;
    out += `@@ -${range(first.oldIdx, oldCount)} +${range(first.newIdx, newCount)} @@\n`;
    for (const o of slice) out += emitLine(o.kind === "=" ? " " : o.kind, o.line);
  }
  return out;
}
