// Dismisses cookie-consent overlays. Called with remove=false it clicks the
// accept button of each consent box it finds; with remove=true it deletes
// the consent boxes (and bare backdrops) still visible, and gives the page
// its scrolling back. Returns a list of what it did.
(remove) => {
  const CONSENT = /cookie|consent|gdpr|rgpd|dsgvo|privacy|privacidad|datenschutz|confidentialit|vie priv|ciasteczk|prywatno|traceurs|tracking|cmp\b|didomi|onetrust|usercentrics|cookiebot|quantcast|sp_message|truste/i;
  const ACCEPT = [
    'accept all', 'accept all cookies', 'accept cookies', 'accept', 'i accept', 'allow all', 'allow all cookies', 'allow cookies', 'allow',
    'agree', 'i agree', 'agree and close', 'agree & close', 'ok', 'okay', 'got it', 'i understand', 'continue', 'yes',
    "tout accepter", 'accepter', "j'accepte", 'j’accepte', 'accepter et fermer', 'accepter et continuer', "d'accord", 'd’accord', 'ok pour moi', "j'ai compris", 'compris',
    'alle akzeptieren', 'akzeptieren', 'alle annehmen', 'annehmen', 'zustimmen', 'alle zulassen', 'zulassen', 'einverstanden', 'verstanden', 'ok, verstanden', 'alles akzeptieren',
    'akceptuję', 'akceptuje', 'zaakceptuj', 'zaakceptuj wszystkie', 'zgadzam się', 'przejdź do serwisu', 'rozumiem',
    'aceptar', 'aceptar todo', 'aceptar todas', 'accetta', 'accetto', 'accetta tutto', 'accetta tutti', 'aceitar', 'aceitar todos',
    'accepteren', 'alles accepteren', 'akkoord', 'godkänn', 'acceptera', 'hyväksy', 'souhlasím', 'elfogadom',
  ];
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!✓✔]+$/, '').trim();
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
  };
  const label = (el) => norm(el.innerText || el.value || el.getAttribute('aria-label') || el.title);
  const all = (root, sel, out = []) => {
    root.querySelectorAll(sel).forEach((e) => out.push(e));
    root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) all(e.shadowRoot, sel, out); });
    return out;
  };
  const vw = innerWidth, vh = innerHeight;
  const overlayish = (el) => {
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'sticky' && cs.position !== 'absolute') return false;
    const r = el.getBoundingClientRect();
    return r.width >= vw * 0.2 || r.height >= vh * 0.2;
  };
  const named = (el) => CONSENT.test((el.id || '') + ' ' + (typeof el.className === 'string' ? el.className : '') + ' ' + (el.getAttribute('aria-label') || ''));
  // Candidate boxes: the outermost visible element that looks like a consent
  // box by its name, or an overlay/dialog whose text talks about consent.
  const boxes = [];
  for (const el of all(document, 'body *')) {
    if (boxes.some((b) => b.contains(el))) continue;
    const dialog = el.matches('[role=dialog],[role=alertdialog],[aria-modal=true],dialog');
    if (!(named(el) && (overlayish(el) || dialog)) && !((dialog || overlayish(el)) && CONSENT.test((el.innerText || '').slice(0, 2000)))) continue;
    if (!visible(el)) continue;
    if ((el.innerText || '').length > 5000) continue; // the page itself, not a box
    boxes.push(el);
  }
  const done = [];
  if (!remove) {
    for (const box of boxes) {
      done.push('found ' + box.tagName.toLowerCase() + (box.id ? '#' + box.id : ''));
      const buttons = all(box, 'button, a, [role=button], input[type=button], input[type=submit]').filter(visible);
      let best = null, rank = 1e9;
      for (const b of buttons) {
        const t = label(b);
        const i = ACCEPT.indexOf(t);
        if (i >= 0 && i < rank) { best = b; rank = i; continue; }
        if (!best && t.length < 40 && ACCEPT.some((a) => a.length > 3 && t.startsWith(a))) best = b;
      }
      if (best) {
        done.push('clicked ' + JSON.stringify(label(best)));
        best.click();
      }
    }
    return done;
  }
  for (const box of boxes) {
    done.push('removed ' + box.tagName.toLowerCase() + (box.id ? '#' + box.id : ''));
    box.remove();
  }
  // Bare backdrops: fixed layers over most of the viewport with no text.
  for (const el of all(document, 'body *')) {
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width >= vw * 0.9 && r.height >= vh * 0.9 && norm(el.innerText).length === 0 && !el.querySelector('img,video,iframe,canvas')) {
      done.push('removed backdrop');
      el.remove();
    }
  }
  if (done.length) {
    for (const e of [document.documentElement, document.body]) {
      if (e && getComputedStyle(e).overflow === 'hidden') e.style.overflow = 'visible';
    }
  }
  return done;
}
