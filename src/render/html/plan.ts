// The plan: its steps in the order they must run, each command with a copy button, and the reason for
// the order (the reset-on-destroy trap) stated once, above the steps.
import type { PlanStep, Report } from "../../core/model.js";
import { html, type SafeHtml } from "./template.js";
import { instanceLabel } from "./status.js";

export const ORDER_REASON =
  "The order is the safety: every previous-WAF package, group and rule leaves the Terraform state before its block is deleted. " +
  "Destroying one of them does not delete anything: the provider resets the zone's live WAF setting to its default. " +
  "So the state removal runs (after its dry run) before the blocks go, and no apply ever destroys a legacy resource.";

/** One command, with a button that copies exactly the text shown (the page script reads it by id). */
export function copyableCommand(id: string, command: string): SafeHtml {
  return html`<div class="cmd"><pre id="${id}"><code>${command}</code></pre><button type="button" class="copy" data-copy-target="${id}" data-copy-note="${id}-note" aria-describedby="${id}">Copy</button><span id="${id}-note" class="copied" role="status" aria-live="polite"></span></div>`;
}

type PlacedStep = PlanStep & { root?: string; workspace?: string };

export function renderPlan(report: Report): SafeHtml {
  const steps = (report.plan?.steps ?? []) as PlacedStep[];
  if (!steps.length) return html``;
  // An estate's plan has each root's own steps (issue #13): one list per root and workspace, in report order.
  const groups = new Map<string, PlacedStep[]>();
  for (const s of steps) {
    const key = s.root === undefined ? "" : instanceLabel(s.root, s.workspace);
    const list = groups.get(key);
    if (list) list.push(s);
    else groups.set(key, [s]);
  }
  // One root (an estate of one, or a report without roots): the steps as they are, no root headings.
  const many = groups.size > 1;
  return html`<section aria-labelledby="plan-title">
<h2 id="plan-title">Plan: ${steps.length} steps, in this order</h2>
<p class="callout"><strong>Why this order:</strong> ${ORDER_REASON}</p>
${[...groups].map(([label, list], g) => html`${many ? html`<h3>Root <code>${label}</code></h3>` : ""}<ol class="steps">${list.map((s) => step(s, many ? `g${g + 1}-` : ""))}</ol>`)}
</section>`;
}

function step(s: PlanStep, idPrefix: string): SafeHtml {
  const title = html`Step ${s.number}. ${s.title}`;
  return html`<li value="${s.number}">${idPrefix ? html`<h4>${title}</h4>` : html`<h3>${title}</h3>`}
${s.commands.map((c, i) => copyableCommand(`cmd-${idPrefix}${s.number}-${i + 1}`, c))}
${s.notes?.length ? html`<ul class="muted">${s.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}
</li>`;
}
