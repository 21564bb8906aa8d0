// Where each instance's migration goes under `plan --out-dir DIR`, and the order to run them in. Pure.
//
// Why this order: a zone split across roots has one entry point ruleset, in its ruleset root, holding
// skip rules copied from the other roots' WAF-bypassing firewall rules and Page Rules as they are when
// the plan is made. So the roots that feed it go first: their own migrations (removing their legacy
// resources, if any) settle what their state holds, and nothing in them depends on the ruleset. The
// ruleset root goes after them: it imports the ruleset that replaces their bypasses. Their bypass rules
// and WAF Off settings must stay until the zone has migrated (the previous WAF still honours them);
// remove them only after the ruleset root's migration. Everything else keeps path order.
import { comparePaths, DEFAULT_WORKSPACE } from "./instances.js";
import { instanceName, workspaceOrder } from "./order.js";

export interface PlannedInstance {
  root: string;
  workspace: string;
  /** Zones whose entry point ruleset and import this instance's migration holds. */
  rulesetZones: string[];
  /** Split zones whose ruleset lives in another instance, which takes this instance's skip rules. */
  feeds: { zoneId: string; root: string; workspace: string }[];
  /** Legacy resources it removes from state. */
  removals: number;
  /** Zones already on an entry point ruleset in this instance. */
  migratedZones: string[];
  /** Files its step 6 edits that other migrations' step 6 edits too (a module several roots call). */
  sharedFiles: string[];
}

/** `DIR/<root>/` for the default workspace, `DIR/<root>/<workspace>/` for the others; "." is `_root`. */
export function instanceOutDir(root: string, workspace: string): string {
  const base = root === "." ? "_root" : root;
  return workspace === DEFAULT_WORKSPACE ? base : `${base}/${workspace}`;
}

/** Whether the instance has a migration of its own to run (a ruleset to import or legacy resources to remove). */
export function hasMigration(p: PlannedInstance): boolean {
  return p.rulesetZones.length > 0 || p.removals > 0;
}

/**
 * Feeders before the instance holding the ruleset they feed; otherwise path order. A cycle (A feeds B for
 * one zone, B feeds A for another) cannot be ordered safely: those instances keep path order and are
 * returned in `cycle` so ESTATE.md says so.
 */
export function safeOrder(instances: PlannedInstance[]): { order: PlannedInstance[]; cycle: PlannedInstance[] } {
  const key = (i: { root: string; workspace: string }) => `${i.root}\u0000${i.workspace}`;
  const byKey = new Map(instances.map((i) => [key(i), i]));
  const before = new Map<PlannedInstance, Set<PlannedInstance>>(instances.map((i) => [i, new Set()]));
  for (const i of instances) {
    for (const f of i.feeds) {
      const owner = byKey.get(key(f));
      if (owner && owner !== i) before.get(owner)!.add(i);
    }
  }
  const pathOrder = (a: PlannedInstance, b: PlannedInstance) => comparePaths(a.root, b.root) || workspaceOrder(a.workspace, b.workspace);
  const order: PlannedInstance[] = [];
  const done = new Set<PlannedInstance>();
  const pending = [...instances].sort(pathOrder);
  while (pending.length) {
    const next = pending.find((i) => [...before.get(i)!].every((b) => done.has(b)));
    if (!next) break;
    order.push(next);
    done.add(next);
    pending.splice(pending.indexOf(next), 1);
  }
  return { order: [...order, ...pending], cycle: pending };
}

/** DIR/ESTATE.md: every migration in the order to run it, what each holds, and why the order. */
export function renderEstateMarkdown(input: { outDir: string; version: string; instances: PlannedInstance[] }): string {
  const { order, cycle } = safeOrder(input.instances);
  const runs = order.filter(hasMigration);
  const rest = order.filter((i) => !hasMigration(i));
  const out: string[] = [];
  out.push(`# Estate migration (cf-waf-migrate ${input.version})`, "");
  out.push(
    `${input.instances.length} root/workspace instance${input.instances.length === 1 ? "" : "s"}; ${runs.length} with a migration to run. ` +
      "Each directory below is a complete migration of one root module and workspace: read its PLAN.md, do steps 0 to 2 in that root, " +
      "then run its migrate.sh (it changes to its root and selects its workspace with TF_WORKSPACE itself)." +
      // Per-workspace rulesets (core/workspace-ruleset.ts): copying one file over another loses a workspace's.
      (runs.some((i) => i.workspace !== "default")
        ? " A root with workspaces gets one ruleset file per workspace, whose resources exist in that workspace only: step 2 of each PLAN.md copies it to its own file (`cf-waf-migrate-ruleset-<workspace>.tf`), never over another workspace's."
        : ""),
    "",
  );
  if (runs.length) {
    out.push("## Order", "");
    runs.forEach((p, n) => {
      const dir = `${input.outDir}/${instanceOutDir(p.root, p.workspace)}`;
      const parts: string[] = [];
      if (p.rulesetZones.length) parts.push(`entry point ruleset and import for ${p.rulesetZones.map((z) => `\`${z}\``).join(", ")}`);
      if (p.removals) parts.push(`${p.removals} legacy resource instance${p.removals === 1 ? "" : "s"} removed from state`);
      for (const f of p.feeds) parts.push(`its bypasses of \`${f.zoneId}\` become skip rules in \`${instanceName(f)}\`'s ruleset (run before it)`);
      if (p.sharedFiles.length) parts.push(`edits ${p.sharedFiles.map((f) => `\`${f}\``).join(", ")}, shared with other roots: stops before step 6 (KEEP_BLOCKS=1)`);
      out.push(`${n + 1}. \`${instanceName(p)}\`: \`${dir}/\` — ${parts.join("; ")}`);
      out.push(`   \`\`\`sh`, `   ${p.sharedFiles.length ? "KEEP_BLOCKS=1 " : ""}bash ${dir}/migrate.sh`, "   ```");
    });
    out.push("");
    const second = runs.filter((p) => p.sharedFiles.length);
    if (second.length) {
      out.push(
        "## Then: delete the shared legacy blocks",
        "",
        "Only once every migration above has removed its legacy resources from state: a module several roots call loses its legacy blocks for all of them at once, and a root whose state still held them would reset the live WAF settings at its next apply. Run these again, without KEEP_BLOCKS (the first applies the shared patch, the others find it applied and check their plan):",
        "",
        "```sh",
        ...second.map((p) => `bash ${input.outDir}/${instanceOutDir(p.root, p.workspace)}/migrate.sh`),
        "```",
        "",
      );
    }
  }
  if (rest.length) {
    out.push("## Nothing to run", "");
    for (const p of rest) {
      const why = p.feeds.length
        ? `no legacy WAF of its own; its bypasses of ${p.feeds.map((f) => `\`${f.zoneId}\``).join(", ")} become skip rules in ${[...new Set(p.feeds.map((f) => `\`${instanceName(f)}\``))].join(", ")} (keep them until that migration is done)`
        : p.migratedZones.length
          ? `already migrated (${p.migratedZones.map((z) => `\`${z}\``).join(", ")})`
          : "no legacy WAF resources";
      out.push(`- \`${instanceName(p)}\`: ${why}`);
    }
    out.push("");
  }
  if (cycle.length) {
    out.push(
      "## Cannot be ordered safely",
      "",
      `${cycle.map((p) => `\`${instanceName(p)}\``).join(", ")} feed each other's rulesets (zones split both ways): choose each zone's ruleset root with --ruleset-root ZONE_ID=ROOT so that one of them holds both, and plan again.`,
      "",
    );
  }
  out.push(
    "## Why this order",
    "",
    "A zone split across roots has one entry point ruleset, in one root, holding skip rules copied from the other roots' WAF-bypassing firewall rules and Page Rules as the plan found them. " +
      "The roots that feed it run first (their state is then final and nothing in them depends on the ruleset); the root holding the ruleset runs after them and imports it. " +
      "Keep the other roots' bypass rules and WAF Off Page Rule settings until that root's migration is done: the previous WAF honours them until the zone migrates. " +
      "If a feeding root changes its bypass rules after this plan, plan again before the ruleset root's migration. Every other root is independent and keeps path order.",
    "",
  );
  return out.join("\n");
}
