// Installed in every document before the page's own scripts run. It records
// when the DOM last changed (childList and text only: attribute churn from
// animations adds no content) and the URLs the page navigates to with the
// history API (client-side routing).
(() => {
  if (window.__gleaner) return;
  const g = window.__gleaner = { lastMutation: performance.now(), mutations: 0, nav: [] };
  try {
    new MutationObserver(() => { g.lastMutation = performance.now(); g.mutations++; })
      .observe(document, { subtree: true, childList: true, characterData: true });
  } catch (e) {}
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
})();
