// Installed in every document before the page's own scripts run. It records
// when the DOM last changed (childList and text only: attribute churn from
// animations adds no content), the URLs the page navigates to with the
// history API (client-side routing), and the short timers still pending:
// a script that fetches its content from a timer (a body loaded 150 ms
// after the page) has made no request yet, so only its timer says the page
// is not ready. Timers longer than a second, timers set by a chain of more
// than three timers (carousels, tickers) and timers set after the page's
// first three seconds (pollers re-armed from their responses) do not hold
// the page, so a page that never stops re-arming waits at most that long.
(() => {
  if (window.__gleaner) return;
  const g = window.__gleaner = { lastMutation: performance.now(), mutations: 0, nav: [], timers: 0, parsed: false, region: null };
  try {
    // g.region is the content region state.js found (the page's hint, see
    // PageOptions.ContentSelectors): a change inside it restarts its quiet.
    new MutationObserver((records) => {
      const now = performance.now();
      g.lastMutation = now;
      g.mutations++;
      const r = g.region;
      if (r && r.el && records.some((m) => r.el.contains(m.target))) r.at = now;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  } catch (e) {}
  // Parsed and deferred scripts run: before that a region may still be
  // arriving with the document.
  document.addEventListener('DOMContentLoaded', () => { g.parsed = true; }, { once: true });
  for (const m of ['pushState', 'replaceState']) {
    const orig = history[m];
    if (typeof orig !== 'function') continue;
    history[m] = function (state, title, url) {
      if (url !== undefined && url !== null) {
        try { g.nav.push(new URL(String(url), location.href).href); } catch (e) {}
      }
      return orig.apply(this, arguments);
    };
  }
  try {
    const set = window.setTimeout, clear = window.clearTimeout;
    const pending = new Set();
    let depth = 0;
    window.setTimeout = function (fn, delay, ...args) {
      const d = Number(delay) || 0;
      if (typeof fn !== 'function' || d > 1000 || depth >= 3 || performance.now() > 3000) return set.apply(this, arguments);
      const mine = depth + 1;
      let id;
      id = set.call(window, function () {
        if (pending.delete(id)) g.timers--;
        const prev = depth;
        depth = mine;
        try { return fn.apply(this, args); } finally { depth = prev; }
      }, d);
      pending.add(id);
      g.timers++;
      return id;
    };
    window.clearTimeout = function (id) {
      if (pending.delete(id)) g.timers--;
      return clear.apply(this, arguments);
    };
  } catch (e) {}
})();
