// What a rerun after a kill starts from, as one digest: the kill tests rerun the whole migration after every
// kill point, and many points leave the same files behind (every kill before the first change leaves the
// untouched tree; a kill after command k and one before command k+1 leave the same tree when nothing is
// written between them). A rerun is a deterministic program over these files: from a tree already rerun to
// the end it proves nothing new, so the tests rerun each distinct tree once and still check every kill
// point's own invariant.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

/**
 * A digest of every entry under each of `dirs`: its path relative to its directory, its kind and mode, and
 * its content (a symlink's target); files named after the time they were written by
 * the order of those times. `git`'s index is left out: it records each file's inode and times, which
 * differ in every copy of one tree, and the migration never stages anything (`git apply` without --index).
 */
export function treeDigest(dirs: string[]): string {
  const hash = createHash("sha256");
  for (const [i, dir] of dirs.entries()) {
    const walk = (rel: string) => {
      for (const [name, as] of comparableNames(readdirSync(path.join(dir, rel)))) {
        const r = rel === "" ? name : `${rel}/${name}`;
        if (r === ".git/index" || r.endsWith("/.git/index")) continue;
        const p = path.join(dir, r);
        const st = lstatSync(p);
        hash.update(`${i}\0${rel}/${as}\0${st.mode.toString(8)}\0`);
        if (st.isDirectory()) walk(r);
        else if (st.isSymbolicLink()) hash.update(readlinkSync(p));
        else if (st.isFile()) hash.update(readFileSync(p));
        hash.update("\0");
      }
    };
    walk("");
  }
  return hash.digest("hex");
}

/**
 * Names that carry the time they were written: terraform's backups from `state rm`
 * (`terraform.tfstate.1795875049.backup`, the second it ran) and apply's own state backups and final plans
 * (`.cf-waf-migrate/state-20261128T141238Z.json`). Two runs a second apart leave the same files under other
 * names; the order of the times is all a reader goes by (the newest backup, a name not yet taken).
 */
const STAMPED = [/^(.*\.tfstate\.)(\d+)(\.backup)$/, /^((?:state|final)-)(\d{8}T\d{6}Z(?:-\d+)?)(\.json|\.tfplan)$/];

/** Each name with the name it is compared by (a time replaced by its rank among its kind), in that order. */
function comparableNames(names: string[]): [string, string][] {
  const parts = names.map((n) => {
    for (const re of STAMPED) {
      const m = re.exec(n);
      if (m) return { n, kind: `${m[1]}#${m[3]}`, stamp: m[2]! };
    }
    return { n, kind: n, stamp: "" };
  });
  const byKind = new Map<string, string[]>();
  for (const p of parts) if (p.stamp) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p.stamp].sort());
  return parts
    .map((p): [string, string] => [p.n, p.stamp ? p.kind.replace("#", `#${byKind.get(p.kind)!.indexOf(p.stamp)}`) : p.n])
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

/** The trees a rerun already started from and finished: `firstTime(digest)` is true once per tree. */
export function rerunOnce(): (digest: string) => boolean {
  const seen = new Set<string>();
  return (digest) => {
    if (seen.has(digest)) return false;
    seen.add(digest);
    return true;
  };
}
