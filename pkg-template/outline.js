// The outline of a rendered conversation, read from the DOM its patches built: each turn
// and, in it, each document with a one-line label. `<docstream-view>.outline()` gives it,
// so that a page can list and count what the view shows without reading its shadow root.

/** A document's one-line label, by type: the words its header shows. */
const LABELS = {
  file_edit: (d) => text(d, '.ds-path'),
  terminal_command: (d) => text(d, '.ds-command').replace(/^\$\s*/, ''),
  plan: (d) => ownText(d.querySelector('.ds-plan-title')),
  tool_call: (d) => [text(d, '.ds-tool-name'), text(d, '.ds-tool-summary')].filter(Boolean).join(' '),
  code_block: (d) => language(d),
  code_reference: (d) => text(d, '.ds-path'),
  error: (d) => text(d, '.ds-error-code'),
  text: (d) => leadingText(d),
  thinking: (d) => text(d, 'summary'),
};

/** Labels are cut to this many characters. */
const LABEL_MAX = 120;

function text(el, selector) {
  return el.querySelector(selector)?.textContent ?? '';
}

/** The start of an element's text, enough for a label, without reading the rest (an
 * answer or a pasted prompt may be megabytes). */
function leadingText(el) {
  if (!el) return '';
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
  let s = '';
  for (let n = walker.nextNode(); n && s.length < 4 * LABEL_MAX; n = walker.nextNode()) s += n.data;
  return s;
}

/** An element's text without its chips (a plan title's "approved"). */
function ownText(el) {
  if (!el) return '';
  const copy = el.cloneNode(true);
  for (const chip of copy.querySelectorAll('.ds-plan-approval, .ds-status')) chip.remove();
  return copy.textContent;
}

function language(doc) {
  const code = doc.querySelector('code[class*="language-"]');
  return [...(code?.classList ?? [])].find((c) => c.startsWith('language-'))?.slice(9) ?? '';
}

/** One line of at most `LABEL_MAX` characters. */
function oneLine(s) {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
}

/** A document element's type: its `ds-…` class after `ds-doc` (`file-edit`). */
export function documentType(el) {
  return [...el.classList].find((k) => k.startsWith('ds-') && k !== 'ds-doc')?.slice(3) ?? '';
}

/** The status a document's own header shows (`success`, `error`, `rejected`,
 * `no-result` …; a plan put to the user: `approved`, `rejected`), not one of a document
 * nested in it; '' when it shows none. */
function status(doc) {
  const approval = doc.querySelector('.ds-plan-approval');
  if (approval?.closest('.ds-doc') === doc) {
    const k = [...approval.classList].find((c) => c.startsWith('ds-plan-') && c !== 'ds-plan-approval');
    if (k) return k.slice(8);
  }
  for (const s of doc.querySelectorAll('.ds-status, .ds-exit')) {
    if (s.closest('.ds-doc') !== doc) continue;
    const k = [...s.classList].find((c) => c.startsWith('ds-status-'));
    if (k) return k.slice(10);
  }
  return '';
}

/** The outline entry of a document element: `{ id, type, label, status }`. */
export function documentEntry(doc) {
  // As the snapshot names it (`file_edit`).
  const type = documentType(doc).replaceAll('-', '_');
  return {
    id: doc.getAttribute('data-doc-id') ?? '',
    type,
    label: oneLine(LABELS[type]?.(doc) ?? ''),
    status: status(doc),
  };
}

/**
 * The outline of the conversation element `conversation`: `{ turns }`, each turn
 * `{ index, id, role, label, documents }` (`role`: `user`, `assistant` or `compaction`;
 * `label`: a user turn's prompt on one line, a compaction's divider),
 * each document `{ id, type, label, status }` (`type` as in the snapshot: `file_edit`) in page order, documents of sub-agents
 * nested in a tool call included. `stored(el)`: for a placeholder that stands for
 * documents kept out of the DOM, their entries; for one among the turns, the turns'
 * (with their documents); undefined for any other element.
 */
export function outlineOf(conversation, stored = null) {
  const turns = [];
  for (const turn of conversation.children) {
    if (!turn.classList.contains('ds-turn')) {
      // Turns kept out of the DOM (element-window.js) keep their entries.
      for (const entry of stored?.(turn) ?? []) turns.push(entry);
      continue;
    }
    const documents = [];
    for (const doc of turn.querySelectorAll(stored ? '.ds-doc, .ds-placeholder' : '.ds-doc')) {
      // Documents kept out of the DOM (element-window.js) keep their entries.
      const entries = stored?.(doc);
      if (entries) for (const entry of entries) documents.push({ ...entry });
      else documents.push(documentEntry(doc));
    }
    turns.push({ ...turnEntry(turn), documents });
  }
  return { turns };
}

/** The outline entry of a turn element, without its documents: `{ index, id, role,
 * label }`. A compacted context (the page's divider) is role `compaction`, labelled as
 * the divider says it ("Context compacted (auto, 155k → 12k tokens)"): neither the
 * person's prompt nor the agent's answer. */
export function turnEntry(turn) {
  const user = turn.classList.contains('ds-user');
  const compaction = turn.classList.contains('ds-compaction');
  let label = '';
  if (user) label = oneLine(leadingText(turn.querySelector('.ds-user-content')));
  else if (compaction) label = oneLine(text(turn, '.ds-compaction-mark'));
  return {
    index: Number(turn.getAttribute('data-turn-index')),
    id: turn.querySelector('[data-turn-id]')?.getAttribute('data-turn-id') ?? '',
    role: user ? 'user' : compaction ? 'compaction' : 'assistant',
    label,
  };
}
