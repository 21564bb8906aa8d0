// The plan: its steps in the order they must run, each command with a copy button, and the reason for
// the order (the reset-on-destroy trap) stated once, above the steps.
import type { PlanStep, Report } from "../../core/model.js";
import { html, type SafeHtml } from "./template.js";

export const ORDER_REASON =
  "The order is the safety: every previous-WAF package, group and rule leaves the Terraform state before its block is deleted. " +
  "Destroying one of them does not delete anything: the provider resets the zone's live WAF setting to its default. " +
  "So the state removal runs (after its dry run) before the blocks go, and no apply ever destroys a legacy resource.";

/** One command, with a button that copies exactly the text shown (the page script reads it by id). */
export function copyableCommand(id: string, command: string): SafeHtml {
  return html`<div class="cmd"><pre id="${id}"><code>${command}</code></pre><button type="button" class="copy" data-copy-target="${id}" data-copy-note="${id}-note" aria-describedby="${id}">Copy</button><span id="${id}-note" class="copied" role="status" aria-live="polite"></span></div>`;
}

export function renderPlan(report: Report): SafeHtml {
  const steps = report.plan?.steps ?? [];
  if (!steps.length) return html``;
  return html`<section aria-labelledby="plan-title">
<h2 id="plan-title">Plan: ${steps.length} steps, in this order</h2>
<p class="callout"><strong>Why this order:</strong> ${ORDER_REASON}</p>
<ol class="steps">${steps.map((s) => step(s))}</ol>
</section>`;
}

function step(s: PlanStep): SafeHtml {
  return html`<li value="${s.number}"><h3>Step ${s.number}. ${s.title}</h3>
${s.commands.map((c, i) => copyableCommand(`cmd-${s.number}-${i + 1}`, c))}
${s.notes?.length ? html`<ul class="muted">${s.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}
</li>`;
}
