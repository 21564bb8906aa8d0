// The one directory every patch of a plan applies from. A root module may call a module outside itself
// (`source = "../../"`, as every module's examples/ do), and `git apply` refuses a path with `..` ("invalid
// path") outside a repository and skips it inside one. So patch paths are relative to the deepest
// directory that holds the root module and every file a patch touches, and the plan runs `git apply`
// from there (`git -C DIR apply`), which git reads the same way in a repository's top, in one of its
// subdirectories and outside any repository. Pure: absolute POSIX paths in, relative paths out.

export interface PatchBase {
  /** Absolute: the directory patches apply from. */
  absolute: string;
  /** The same directory relative to the root module ("." when it is the root itself). */
  fromRoot: string;
}

function segments(absolute: string): string[] {
  if (!absolute.startsWith("/")) throw new Error(`not an absolute path: ${absolute}`);
  const out: string[] = [];
  for (const s of absolute.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return out;
}

/** The deepest common ancestor of absolute directory paths. */
export function commonAncestor(dirs: readonly string[]): string {
  if (dirs.length === 0) throw new Error("commonAncestor of nothing");
  const split = dirs.map(segments);
  const first = split[0]!;
  let n = first.length;
  for (const parts of split.slice(1)) {
    let i = 0;
    while (i < n && i < parts.length && parts[i] === first[i]) i++;
    n = i;
  }
  return "/" + first.slice(0, n).join("/");
}

/** `to` relative to `from` (both absolute), "" when equal. */
export function relativePath(from: string, to: string): string {
  const a = segments(from);
  const b = segments(to);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
}

function dirname(absolute: string): string {
  const s = segments(absolute);
  return "/" + s.slice(0, -1).join("/");
}

/** Where the patches of a root module apply from, given the absolute paths of every file they touch. */
export function patchBase(rootAbsolute: string, filesAbsolute: readonly string[]): PatchBase {
  const absolute = commonAncestor([rootAbsolute, ...filesAbsolute.map(dirname)]);
  return { absolute, fromRoot: relativePath(rootAbsolute, absolute) || "." };
}

/** A file's path inside a patch: relative to the patch base. */
export function patchPath(base: PatchBase, fileAbsolute: string): string {
  return relativePath(base.absolute, fileAbsolute);
}
