// Clicks a "load more" control: the first element matching sel, or, when
// sel is empty, a visible button whose text is a common "load more" label.
// Links that navigate to another page are left alone (that is pagination).
// Returns the label of what it clicked, or "".
(sel) => {
  const LABELS = [
    'load more', 'show more', 'more articles', 'more stories', 'more news', 'see more', 'view more', 'more results', 'load more articles', 'show more articles', 'more',
    "plus d'articles", 'plus d’articles', 'voir plus', 'charger plus', 'afficher plus', 'voir plus d’articles', "voir plus d'articles", 'plus de résultats', 'plus',
    'mehr laden', 'mehr anzeigen', 'weitere artikel', 'mehr artikel', 'weitere laden', 'mehr', 'mehr nachrichten', 'weitere beiträge',
    'więcej', 'pokaż więcej', 'załaduj więcej', 'wczytaj więcej', 'więcej artykułów',
    'cargar más', 'ver más', 'mostrar más', 'mostra altri', 'carica altri', 'mostra di più', 'meer laden', 'toon meer', 'meer', 'carregar mais', 'ver mais',
  ];
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.…+›»↓▼⌄\s]+$/, '').trim();
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
  };
  let el = null;
  if (sel) {
    el = document.querySelector(sel);
  } else {
    let rank = 1e9;
    for (const b of document.querySelectorAll('button, a, [role=button], input[type=button], input[type=submit]')) {
      if (b.disabled || !visible(b)) continue;
      if (b.tagName === 'A') {
        const h = (b.getAttribute('href') || '').trim();
        if (h && h !== '#' && !h.startsWith('javascript:') && !h.startsWith('#')) continue;
      }
      const t = norm(b.innerText || b.value || b.getAttribute('aria-label'));
      const i = LABELS.indexOf(t);
      if (i >= 0 && i < rank) { el = b; rank = i; }
    }
  }
  if (!el || el.disabled || !visible(el)) return '';
  el.scrollIntoView({ block: 'center' });
  el.click();
  return norm(el.innerText || el.value || el.getAttribute('aria-label')) || sel;
}
