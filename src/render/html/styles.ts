// The page's stylesheet: system fonts only (nothing fetched), readable on a phone (one column under 800px,
// tables scroll sideways), printable (@media print opens every zone, hides the controls). Status colours
// always come with an icon and a word. Contrast of every pair is at least 4.5:1 (axe checks it).
export const PAGE_CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #555d66; --line: #d0d7de; --bg-soft: #f6f8fa;
  --ok: #116329; --bad: #a40e26; --warn: #7d4e00; --info: #0550ae; --done: #5a32a3; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0; background: #fff; }
header.page, main { max-width: 1280px; margin: 0 auto; padding: 1rem; overflow-wrap: break-word; }
header.page { border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .4rem; }
h4 { font-size: .95rem; margin: .8rem 0 .3rem; }
p.meta, .muted { color: var(--muted); }
code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { overflow-wrap: break-word; }
/* Addresses and paths are long unbroken tokens: they may break anywhere rather than widen a table. */
code.addr, code.loc { overflow-wrap: anywhere; }
pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .75rem 0; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .8rem; min-width: 8rem; }
.counts strong { font-size: 1.4rem; display: block; }
.status, .sev { font-weight: 600; white-space: nowrap; }
.status-ready, .sev-ok { color: var(--ok); }
.status-blocked, .sev-error { color: var(--bad); }
.status-unknown, .sev-warning { color: var(--warn); }
.status-migrated { color: var(--done); }
.sev-info { color: var(--info); }
.controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin: .5rem 0; }
.controls label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
.controls input, .controls select, button { font: inherit; color: var(--fg); padding: .3rem .5rem; border: 1px solid #767676; border-radius: 4px; background: #fff; }
button { cursor: pointer; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid var(--info); outline-offset: 2px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0 .75rem; }
caption { text-align: left; font-size: .85rem; padding: .2rem 0; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .35rem .5rem; }
th { background: var(--bg-soft); font-weight: 600; }
a { color: var(--info); }
section.zone { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0; }
/* In a large report only the zones on screen are laid out, so expanding all of them stays quick. */
.zones-many section.zone { content-visibility: auto; contain-intrinsic-size: auto 900px; }
section.zone > details > summary { padding: .6rem 1rem; cursor: pointer; list-style-position: inside; }
section.zone > details > summary h3 { display: inline; margin: 0; }
.zone-body { padding: 0 1rem 1rem; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.compare > div { min-width: 0; }
.loc { color: var(--muted); font-size: .85em; }
.settings { margin-top: .25rem; padding-left: .5rem; border-left: 3px solid var(--line); }
.settings ul { margin: 0; }
ol.steps { list-style: none; padding-left: 0; }
ol.steps > li { margin-bottom: 1rem; }
.cmd { display: flex; gap: .5rem; align-items: flex-start; }
.cmd pre { flex: 1; min-width: 0; }
.copied { color: var(--ok); font-size: .85rem; }
ol.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: .5rem; }
ol.timeline li { padding: .3rem .75rem; position: relative; }
ol.timeline li.now { font-weight: 600; background: var(--bg-soft); }
.callout { border-left: 4px solid var(--warn); background: #fff8e6; padding: .5rem .75rem; margin: .5rem 0; }
.noscript { color: var(--muted); }
[hidden] { display: none !important; }
@media (max-width: 800px) {
  .compare { grid-template-columns: 1fr; }
  body { font-size: 14px; }
  header.page, main { padding: .6rem; }
  .counts li { min-width: 6.5rem; }
}
@media print {
  .controls, button.copy, .copied { display: none !important; }
  section.zone, .zones-many section.zone { break-inside: avoid-page; content-visibility: visible; }
  .compare { grid-template-columns: 1fr 1fr; }
  a { color: inherit; text-decoration: none; }
  pre { white-space: pre-wrap; }
}
`;
