// The page's only script (inline, allowed by its sha256 in the CSP): the status filter and the zone search
// of the overview (they hide table rows and zone sections alike), the copy buttons of the plan, opening a
// zone when a link points at it, and opening every zone before printing. It reads only data-* attributes
// the renderer wrote and text already on the page; it fetches nothing.
export const PAGE_SCRIPT = `
(function () {
  "use strict";
  var status = document.getElementById("status-filter");
  var search = document.getElementById("zone-search");
  var shown = document.getElementById("zones-shown");
  function apply() {
    var s = status ? status.value : "all";
    var q = search ? search.value.trim().toLowerCase() : "";
    var n = 0;
    var items = document.querySelectorAll("[data-zone-status]");
    for (var i = 0; i < items.length; i++) {
      var el = items[i];
      var ok = (s === "all" || el.getAttribute("data-zone-status") === s) &&
        (q === "" || (el.getAttribute("data-zone-search") || "").indexOf(q) !== -1);
      el.hidden = !ok;
      if (ok && el.tagName === "TR") n++;
    }
    if (shown) shown.textContent = n + (n === 1 ? " zone shown" : " zones shown");
  }
  if (status) status.addEventListener("change", apply);
  if (search) search.addEventListener("input", apply);

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target && ev.target.closest ? ev.target.closest("button.copy") : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    var note = document.getElementById(button.getAttribute("data-copy-note"));
    if (!source) return;
    copyText(source.textContent).then(function () {
      if (note) note.textContent = "Copied";
    }, function () {
      if (note) note.textContent = "Copy failed: select the text and copy it";
    });
  });

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    var details = target ? target.querySelector("details") : null;
    if (details) details.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  var expand = document.getElementById("expand-all");
  if (expand) expand.addEventListener("click", function () {
    var all = document.querySelectorAll("section.zone > details");
    var open = expand.getAttribute("aria-pressed") !== "true";
    for (var i = 0; i < all.length; i++) all[i].open = open;
    expand.setAttribute("aria-pressed", open ? "true" : "false");
    expand.textContent = open ? "Collapse all zones" : "Expand all zones";
  });
  window.addEventListener("beforeprint", function () {
    var all = document.querySelectorAll("details");
    for (var i = 0; i < all.length; i++) all[i].open = true;
  });
  apply();
})();
`;
