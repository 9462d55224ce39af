// The outline beside the transcript, read from the rendered DOM of <docstream-view>:
// one entry per user prompt and, under it, the file edits, terminal commands and plans
// of the answers that follow, with counts. Activating an entry scrolls there.

const KINDS = [
  { cls: 'ds-file-edit', kind: 'edit', one: 'edit', many: 'edits', label: (d) => text(d, '.ds-path') || 'file edit' },
  { cls: 'ds-terminal-command', kind: 'run', one: 'command', many: 'commands', label: (d) => (text(d, '.ds-command') || 'command').replace(/^\$\s*/, '') },
  { cls: 'ds-plan', kind: 'plan', one: 'plan', many: 'plans', label: (d) => text(d, '.ds-plan-title') || 'plan' },
];
// A file edit that was rejected or failed is listed, but not as an applied edit.
const NOT_APPLIED = { kind: 'not applied', one: 'edit not applied', many: 'edits not applied' };
const COUNTED = [...KINDS, NOT_APPLIED];

function notApplied(doc) {
  return doc.querySelector('.ds-edit-status .ds-status-rejected, .ds-edit-status .ds-status-error') !== null;
}

function text(el, sel) {
  return el.querySelector(sel)?.textContent.trim() ?? '';
}

function short(s, n = 90) {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
}

function counts(c) {
  return COUNTED.filter((k) => c[k.kind]).map((k) => `${c[k.kind]} ${c[k.kind] === 1 ? k.one : k.many}`).join(' · ');
}

/** Where an outline entry points: a turn index, and a document id within it. */
export function targetOf(view, turn, doc) {
  const t = view.shadowRoot?.querySelector(`.ds-turn[data-turn-index="${turn}"]`);
  if (!t || doc == null) return t ?? null;
  return t.querySelector(`.ds-doc[data-doc-id="${CSS.escape(doc)}"]`);
}

/** Rebuilds the outline list from the view; returns the totals. */
export function buildOutline(view, list, summary) {
  const root = view.shadowRoot;
  const groups = [];
  let group = null;
  for (const turn of root ? root.querySelectorAll('.ds-turn') : []) {
    const index = turn.dataset.turnIndex;
    if (turn.classList.contains('ds-user') || !group) {
      const prompt = turn.classList.contains('ds-user') ? text(turn, '.ds-user-content') || 'Prompt' : 'Response';
      group = { index, label: short(prompt), items: [], count: {} };
      groups.push(group);
    }
    for (const doc of turn.querySelectorAll(KINDS.map((k) => `.ds-doc.${k.cls}`).join(','))) {
      const k = KINDS.find((k) => doc.classList.contains(k.cls));
      const kind = k.kind === 'edit' && notApplied(doc) ? NOT_APPLIED.kind : k.kind;
      group.items.push({ turn: index, doc: doc.dataset.docId, kind, label: short(k.label(doc), 70) });
      group.count[kind] = (group.count[kind] ?? 0) + 1;
    }
  }

  const total = { turns: groups.length };
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
  return total;
}

/** Scrolls to an entry's target and moves focus there (for keyboard users). */
export function jumpTo(view, turn, doc) {
  const target = targetOf(view, turn, doc);
  if (!target) return null;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
  target.classList.remove('dsv-target');
  void target.offsetWidth; // restart the flash animation
  target.classList.add('dsv-target');
  return target;
}
