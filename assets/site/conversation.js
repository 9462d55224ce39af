// A conversation page of a site written by `docstream export`. A fragment naming a
// document or a prompt (#doc_005, #turn_002) opens it: folded parts around it unfold,
// it scrolls into view and is marked. A sub-agent listed in the header is also linked
// from the tool call that started it.
(() => {
  function target(id) {
    const sel = `[data-doc-id="${CSS.escape(id)}"], [data-turn-id="${CSS.escape(id)}"]`;
    const el = document.querySelector(sel);
    return el?.closest('.ds-doc, .ds-turn-header') ?? el;
  }

  function show() {
    const id = decodeURIComponent(location.hash.slice(1));
    document.querySelector('.dss-target')?.classList.remove('dss-target');
    if (!id) return;
    const el = target(id);
    if (!el) return;
    for (let d = el.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    for (const d of el.querySelectorAll(':scope > details')) d.open = true;
    el.classList.add('dss-target');
    el.setAttribute('tabindex', '-1');
    el.scrollIntoView({ block: 'start' });
    el.focus({ preventScroll: true });
  }

  for (const li of document.querySelectorAll('.dss-children li[data-doc]')) {
    const doc = target(li.dataset.doc);
    const a = li.querySelector('a');
    if (!doc || !a) continue;
    const p = document.createElement('p');
    p.className = 'dss-subagent-link';
    const link = a.cloneNode(true);
    link.textContent = `Open ${a.textContent} →`;
    p.append(link);
    doc.append(p);
  }
  addEventListener('hashchange', show);
  show();
  document.documentElement.dataset.ready = 'true';
})();
