// The outline beside the transcript, from <docstream-view>'s `outline()`: one entry per
// user prompt and, under it, the file edits, terminal commands and plans of the answers
// that follow, with counts. Activating an entry reveals it in the view.

/** The documents listed, by type. */
const KINDS = {
  file_edit: { kind: 'edit', one: 'edit', many: 'edits', fallback: 'file edit' },
  terminal_command: { kind: 'run', one: 'command', many: 'commands', fallback: 'command' },
  plan: { kind: 'plan', one: 'plan', many: 'plans', fallback: 'plan' },
};
// A file edit that was rejected or failed is listed, but not as an applied edit.
const NOT_APPLIED = { kind: 'not applied', one: 'edit not applied', many: 'edits not applied' };
const COUNTED = [...Object.values(KINDS), NOT_APPLIED];

function short(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function counts(c) {
  return COUNTED.filter((k) => c[k.kind]).map((k) => `${c[k.kind]} ${c[k.kind] === 1 ? k.one : k.many}`).join(' · ');
}

/** Rebuilds the outline list from the view's outline; returns it. */
export function buildOutline(view, list, summary) {
  const outline = view.outline();
  const groups = [];
  let group = null;
  for (const turn of outline.turns) {
    if (turn.role === 'user' || !group) {
      const prompt = turn.role === 'user' ? turn.label || 'Prompt' : 'Response';
      group = { index: turn.index, label: short(prompt, 90), items: [], count: {} };
      groups.push(group);
    }
    for (const doc of turn.documents) {
      const k = KINDS[doc.type];
      if (!k) continue;
      const applied = !(doc.type === 'file_edit' && (doc.status === 'rejected' || doc.status === 'error'));
      const kind = applied ? k.kind : NOT_APPLIED.kind;
      group.items.push({ turn: turn.index, doc: doc.id, kind, label: short(doc.label || k.fallback, 70) });
      group.count[kind] = (group.count[kind] ?? 0) + 1;
    }
  }

  const total = {};
  const frag = document.createDocumentFragment();
  groups.forEach((g, i) => {
    for (const [k, n] of Object.entries(g.count)) total[k] = (total[k] ?? 0) + n;
    const li = document.createElement('li');
    li.className = 'turn';
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.turn = g.index;
    b.textContent = `${i + 1}. ${g.label}`;
    li.append(b);
    const c = counts(g.count);
    if (c) {
      const span = document.createElement('span');
      span.className = 'counts';
      span.textContent = c;
      li.append(span);
    }
    if (g.items.length) {
      const ol = document.createElement('ol');
      ol.setAttribute('aria-label', `In turn ${i + 1}`);
      for (const item of g.items) {
        const ili = document.createElement('li');
        const ib = document.createElement('button');
        ib.type = 'button';
        ib.dataset.turn = item.turn;
        ib.dataset.doc = item.doc;
        ib.title = item.label;
        const kind = document.createElement('span');
        kind.className = 'kind';
        kind.textContent = item.kind;
        ib.append(kind, item.label);
        ili.append(ib);
        ol.append(ili);
      }
      li.append(ol);
    }
    frag.append(li);
  });
  list.replaceChildren(frag);
  summary.textContent = groups.length
    ? `${groups.length} ${groups.length === 1 ? 'prompt' : 'prompts'}${counts(total) ? ` · ${counts(total)}` : ''}`
    : 'Nothing loaded.';
  return outline;
}
