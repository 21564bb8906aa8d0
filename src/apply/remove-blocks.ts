// Step 5 (plan step 6): delete the legacy blocks from the configuration with the plan's edits, only now
// that state no longer holds them (a fresh `state list` proves it). A file is written only if its text is
// still exactly the text the edit was computed from; if any file changed meanwhile nothing is written and
// the run stops (the next run computes the edit again). Each write is atomic and keeps a `.backup` copy.
import { readFile } from "node:fs/promises";
import { stateList } from "../terraform/runner/index.js";
import { writeFileAtomic } from "../terraform/edit/fs-atomic.js";
import { display } from "./backup.js";
import { StepFailedError } from "./errors.js";
import { legacyLeftInState } from "./preflight.js";
import type { ApplyStep } from "./types.js";

export const removeBlocksStep: ApplyStep = {
  number: 5,
  name: "remove-blocks",
  title: "Delete the legacy blocks from the configuration",
  async done(ctx) {
    if (ctx.migration.edits.length === 0) return "no legacy block left in the configuration";
    return ctx.migration.keepBlocks ?? null;
  },
  async run(ctx) {
    const { edits, patch } = ctx.migration;
    const files = edits.map((e) => e.file).join(", ");
    if (ctx.dryRun) {
      return { status: "would-run", detail: `would edit ${files} (a .backup copy of each):\n${patch.trimEnd()}` };
    }

    ctx.stateList = await stateList(ctx.cli);
    const left = legacyLeftInState(ctx.stateList, ctx.migration);
    if (left.length > 0) {
      throw new StepFailedError(
        `the state still holds ${left.join(", ")}: their blocks are kept (deleting a block before its state entry would reset the live WAF); nothing was edited`,
      );
    }

    const changed: string[] = [];
    for (const e of edits) {
      let current: string | null;
      try {
        current = await readFile(e.absolute, "utf8");
      } catch {
        current = null;
      }
      if (current !== e.oldText) changed.push(e.file);
    }
    if (changed.length > 0) {
      throw new StepFailedError(
        `${changed.join(", ")} changed after the edit was computed: no file was edited (the state entries are already gone, which is safe); run again to compute the edit from the current files`,
      );
    }

    const lines: string[] = [];
    for (const e of edits) {
      const { backupPath } = await writeFileAtomic(e.absolute, e.newText, { backup: true });
      lines.push(`edited ${e.file}${backupPath ? ` (previous text in ${display(ctx, backupPath)})` : ""}`);
    }
    return { status: "done", detail: `${lines.join("\n")}\n${patch.trimEnd()}` };
  },
};
