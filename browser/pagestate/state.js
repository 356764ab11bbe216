// The state the waiting loop polls. sels are the page's content region
// selectors (PageOptions.ContentSelectors; untrusted: an invalid one is
// reported and skipped). The region is the first element one of them
// matches, in order, whose visible text has at least least characters
// (PageOptions.MinRegionChars; at least one); it is busy while it shows a
// loading placeholder, and its quiet is the time since anything in it last
// changed (the MutationObserver of init.js, or its text length between two
// looks).
(sels, least) => {
  const g = window.__gleaner || { lastMutation: 0, mutations: 0, timers: 0, parsed: true, region: null };
  const se = document.scrollingElement || document.documentElement;
  const now = performance.now();
  const out = {
    quiet: now - g.lastMutation,
    mutations: g.mutations,
    timers: g.timers,
    height: se ? se.scrollHeight : 0,
    viewport: window.innerHeight,
    ready: document.readyState,
    parsed: !!g.parsed || document.readyState === 'complete',
    invalid: [],
    region: null,
  };
  if (!sels || !sels.length) return out;
  // A spinner, skeleton or "loading" box, or a region marked busy, is a
  // body still to come, not a body (only when shown: a lazy-load class
  // left on a hidden image does not count).
  const PLACEHOLDER = '[aria-busy=true],[class*=spinner i],[class*=skeleton i],[class*=placeholder i],[class*=loading i],[class*=loader i],[class*=shimmer i]';
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const waiting = (el) => (el.matches(PLACEHOLDER) && shown(el)) || Array.from(el.querySelectorAll(PLACEHOLDER)).slice(0, 50).some(shown);
  const need = Math.max(Number(least) || 0, 1);
  let found = null;
  for (const sel of sels) {
    let els;
    try { els = document.querySelectorAll(sel); } catch (e) { out.invalid.push(sel); continue; }
    for (let i = 0; i < els.length && i < 5 && !found; i++) {
      const text = (els[i].innerText || '').trim();
      if (text.length >= need) found = { el: els[i], sel, chars: text.length, busy: waiting(els[i]) };
    }
    if (found) break;
  }
  if (!found) {
    g.region = null;
    return out;
  }
  // A region seen for the first time last changed at the latest when the
  // document did; one whose text changed length without a mutation (a
  // style shows or hides part of it) changed now.
  const r = g.region;
  if (!r || r.el !== found.el) {
    g.region = { el: found.el, chars: found.chars, at: g.lastMutation };
  } else if (r.chars !== found.chars) {
    r.chars = found.chars;
    r.at = now;
  }
  out.region = { selector: found.sel, chars: found.chars, busy: found.busy, quiet: now - g.region.at };
  return out;
}
