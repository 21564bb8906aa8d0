// A plan made for one root module alone may delete blocks of a module other roots call too (live/prod and
// live/dev both calling modules/waf): their states lose those blocks as well, and a legacy instance still in
// one of them would be destroyed at its next apply, resetting that zone's WAF. Find those roots, so that
// PLAN.md names them and migrate.sh reads their states before step 6 (as apply does).
import path from "node:path";
import { callersOf } from "../estate/module-callers.js";
import type { AssembledPlan } from "./artifacts.js";

/** Other root modules calling a module whose file step 6 edits, relative to `rootDir`, sorted. */
export async function otherCallersOfPlan(rootDir: string, plan: Pick<AssembledPlan, "legacyPatchFiles" | "patchDir">): Promise<string[]> {
  const root = path.resolve(rootDir);
  const moduleDirs = [...new Set(plan.legacyPatchFiles.map((f) => path.dirname(path.resolve(root, plan.patchDir, f))))].filter((d) => d !== root);
  if (moduleDirs.length === 0) return [];
  const callers = await callersOf(root, moduleDirs);
  return [...callers.keys()].map((d) => path.relative(root, d).split(path.sep).join("/")).sort();
}

/** Step 6's note naming them. */
export function otherCallersNote(callers: readonly string[]): string {
  return `the module whose legacy blocks this step deletes is also called by other root module(s): ${callers.join(", ")} (relative to this root). Deleting the blocks removes them there too: migrate.sh reads their states first and keeps the blocks while one still holds a legacy instance or cannot be read (run \`terraform init\` there). Plan those roots together (cf-waf-migrate plan over the repository, ESTATE.md) to get the order`;
}
