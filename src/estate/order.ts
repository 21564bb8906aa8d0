// How instances are ordered and named: root path order, then the `default` workspace, then by name;
// `live/staging (workspace eu)`, the default workspace unnamed.
import { DEFAULT_WORKSPACE } from "./instances.js";

/** `default` first, then by name. */
export function workspaceOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === DEFAULT_WORKSPACE) return -1;
  if (b === DEFAULT_WORKSPACE) return 1;
  return a < b ? -1 : 1;
}

/** `live/staging (workspace eu)`; the default workspace is not named. */
export function instanceName(at: { root?: string; workspace?: string }): string {
  const root = at.root ?? ".";
  return !at.workspace || at.workspace === DEFAULT_WORKSPACE ? root : `${root} (workspace ${at.workspace})`;
}
