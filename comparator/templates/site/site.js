// The loopcompare site's one script: the filters of the index of loops, and search. Every page
// reads fine without it; it only hides rows (filters) and lists matches (search).
"use strict";
(function () {
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  // The page's address keeps the filters or the query, so that it can be bookmarked (some
  // browsers refuse this on file:// pages: then the address just stays as it was).
  function remember(url) {
    try { history.replaceState(null, "", url); } catch (e) { /* file:// in some browsers */ }
  }

  // --- the index's filters -------------------------------------------------------------------
  function filters() {
    const form = document.getElementById("filters");
    const table = document.getElementById("loops");
    if (!form || !table) return;
    form.hidden = false;
    const tag = form.elements.tag, result = form.elements.result, era = form.elements.era, disagree = form.elements.disagree;
    const count = document.getElementById("f-count");
    const rows = Array.from(table.tBodies[0].rows);
    function apply() {
      let shown = 0;
      for (const row of rows) {
        let keep = true;
        if (tag.value && !row.dataset.tags.split("|").includes(tag.value)) keep = false;
        const results = row.dataset.results.split(" ");
        if (result.value) {
          if (era.value) keep = keep && results.includes(era.value + "=" + result.value);
          else keep = keep && results.some(r => r.endsWith("=" + result.value));
        } else if (era.value) {
          keep = keep && row.dataset.changed.split(" ").includes(era.value);
        }
        if (disagree.checked && row.dataset.disagree !== "yes") keep = false;
        row.hidden = !keep;
        if (keep) shown++;
      }
      count.textContent = shown + " of " + rows.length + " loops shown.";
      const state = new URLSearchParams();
      if (tag.value) state.set("tag", tag.value);
      if (result.value) state.set("result", result.value);
      if (era.value) state.set("era", era.value);
      if (disagree.checked) state.set("disagree", "yes");
      const hash = state.toString();
      if (location.hash.slice(1) !== hash) remember(hash ? "#" + hash : location.pathname);
    }
    const given = new URLSearchParams(location.hash.slice(1));
    for (const [name, select] of [["tag", tag], ["result", result], ["era", era]]) {
      const value = given.get(name);
      if (value && Array.from(select.options).some(o => o.value === value)) select.value = value;
    }
    disagree.checked = given.get("disagree") === "yes";
    form.addEventListener("change", apply);
    form.addEventListener("submit", e => e.preventDefault());
    apply();
  }

  // --- search --------------------------------------------------------------------------------
  function search() {
    const form = document.getElementById("search");
    const list = document.getElementById("search-results");
    if (!form || !list) return;
    const index = window.LOOPCOMPARE_INDEX || [];
    const input = form.elements.q;
    const count = document.getElementById("search-count");
    function run() {
      const words = fold(input.value).split(" ").filter(Boolean);
      list.replaceChildren();
      if (!words.length) { count.textContent = ""; return; }
      const found = [];
      for (const rec of index) {
        const f = rec.f, all = f.title + " " + f.cards + " " + f.tags + " " + f.text;
        if (!words.every(w => all.includes(w))) continue;
        let score = 0;
        for (const w of words) score += f.title.includes(w) ? 8 : f.cards.includes(w) ? 4 : f.tags.includes(w) ? 2 : 1;
        found.push([score, rec]);
      }
      found.sort((a, b) => b[0] - a[0] || (a[1].title < b[1].title ? -1 : a[1].title > b[1].title ? 1 : 0));
      count.textContent = found.length + (found.length === 1 ? " loop matches." : " loops match.");
      for (const [, rec] of found) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = rec.url;
        a.textContent = rec.title;
        li.append(a);
        if (rec.cards.length) li.append(" (" + rec.cards.join(", ") + ")");
        const p = document.createElement("p");
        p.textContent = rec.summary;
        const tags = document.createElement("p");
        tags.className = "tags";
        tags.textContent = "Tags: " + rec.tags.join(", ");
        li.append(p, tags);
        list.append(li);
      }
    }
    input.value = new URLSearchParams(location.search).get("q") || "";
    form.addEventListener("submit", e => {
      e.preventDefault();
      remember("?q=" + encodeURIComponent(input.value));
      run();
    });
    input.addEventListener("input", run);
    run();
  }

  document.addEventListener("DOMContentLoaded", () => { filters(); search(); });
})();
