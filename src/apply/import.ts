// Step 2 (plan step 3): import each zone's entry point ruleset. An address `state list` already shows is
// skipped, so a second run after a failure imports only what is missing.
import { importArgs, importResource, formatCommandLine } from "../terraform/runner/index.js";
import type { ApplyContext, ApplyStep } from "./types.js";

function pending(ctx: ApplyContext) {
  const inState = new Set(ctx.stateList);
  return ctx.migration.imports.filter((i) => !inState.has(i.to));
}

export const importStep: ApplyStep = {
  number: 2,
  name: "import",
  title: "Import the entry point rulesets",
  async done(ctx) {
    if (pending(ctx).length > 0) return null;
    const notes = ctx.migration.importNotes;
    if (ctx.migration.imports.length === 0) return ["no ruleset to import", ...notes].join("\n");
    return [...ctx.migration.imports.map((i) => `${i.to} is already in state`), ...notes].join("\n");
  },
  async run(ctx) {
    const todo = pending(ctx);
    const lines: string[] = [];
    const wouldRun: string[] = [];
    for (const i of ctx.migration.imports) if (!todo.includes(i)) lines.push(`${i.to} is already in state`);
    for (const i of todo) {
      if (ctx.dryRun) {
        wouldRun.push(formatCommandLine(ctx.cli.bin, importArgs(i.to, i.id)));
        continue;
      }
      await importResource(ctx.cli, i.to, i.id);
      ctx.stateList = [...ctx.stateList, i.to];
      lines.push(`imported ${i.to} from ${i.id}`);
    }
    if (ctx.dryRun) lines.push(`would import ${todo.length} ruleset(s)`);
    lines.push(...ctx.migration.importNotes);
    return { status: ctx.dryRun ? "would-run" : "done", detail: lines.join("\n"), wouldRun };
  },
};
