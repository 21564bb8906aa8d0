// The order instances are listed in: root path order, then the `default` workspace, then by name.
import { DEFAULT_WORKSPACE } from "./instances.js";

/** `default` first, then by name. */
export function workspaceOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === DEFAULT_WORKSPACE) return -1;
  if (b === DEFAULT_WORKSPACE) return 1;
  return a < b ? -1 : 1;
}
