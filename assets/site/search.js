// Search of a site written by `docstream export`: every conversation's prompts, prose,
// thinking, file paths and commands (window.DOCSTREAM_SEARCH, from search-data.js).
// A hit links to the conversation's page at the document that holds it. No network:
// the data is a script beside this one, so the site works from file:// too.
(() => {
  const data = window.DOCSTREAM_SEARCH ?? [];
  const q = document.getElementById('q');
  const list = document.getElementById('list');
  const results = document.getElementById('results');
  const count = document.getElementById('count');
  /** Hits shown per conversation, and in all. */
  const PER = 3;
  const MAX = 200;

  function snippet(text, at, len) {
    const from = Math.max(0, at - 60);
    const to = Math.min(text.length, at + len + 80);
    const span = document.createElement('span');
    span.className = 'dss-snippet';
    const mark = document.createElement('mark');
    mark.textContent = text.slice(at, at + len);
    span.append((from > 0 ? '…' : '') + text.slice(from, at).replace(/\s+/g, ' '), mark,
      text.slice(at + len, to).replace(/\s+/g, ' ') + (to < text.length ? '…' : ''));
    return span;
  }

  function run() {
    const query = q.value.trim();
    const needle = query.toLocaleLowerCase();
    if (location.hash !== (query ? `#q=${encodeURIComponent(query)}` : '')) {
      history.replaceState(null, '', query ? `#q=${encodeURIComponent(query)}` : location.pathname);
    }
    if (!needle) {
      results.hidden = true;
      list.hidden = false;
      count.textContent = '';
      return;
    }
    const frag = document.createDocumentFragment();
    let conversations = 0;
    let hits = 0;
    for (const c of data) {
      const found = [];
      const meta = `${c.title}\n${c.project ?? ''}`.toLocaleLowerCase();
      if (meta.includes(needle)) found.push({ anchor: '', text: c.title, at: c.title.toLocaleLowerCase().indexOf(needle) });
      for (const [anchor, text] of c.parts) {
        if (found.length >= PER) break;
        const at = text.toLocaleLowerCase().indexOf(needle);
        if (at >= 0) found.push({ anchor, text, at });
      }
      if (!found.length) continue;
      conversations++;
      const li = document.createElement('li');
      const head = document.createElement('a');
      head.href = c.href;
      head.textContent = c.title;
      li.append(head, ` · ${c.agent}${c.project ? ` · ${c.project}` : ''}`);
      const ul = document.createElement('ul');
      for (const f of found) {
        hits++;
        const a = document.createElement('a');
        a.href = f.anchor ? `${c.href}#${encodeURIComponent(f.anchor)}` : c.href;
        a.className = 'dss-hit';
        a.append(f.at >= 0 ? snippet(f.text, f.at, needle.length) : f.text);
        const hl = document.createElement('li');
        hl.append(a);
        ul.append(hl);
      }
      li.append(ul);
      frag.append(li);
      if (hits >= MAX) break;
    }
    results.replaceChildren(frag);
    results.hidden = false;
    list.hidden = true;
    count.textContent = conversations ? `${conversations} conversation${conversations === 1 ? '' : 's'}` : 'no matches';
  }

  let timer = 0;
  q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
  q.form.addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  const start = /^#q=(.*)$/.exec(location.hash);
  if (start) {
    q.value = decodeURIComponent(start[1]);
    run();
  }
  document.documentElement.dataset.ready = 'true';
})();
