// What a <docstream-view> adds to the documents its patches build, and how those
// answer the reader: `part` attributes, copy controls (tables get theirs here), the
// pressed state of a clarification's options, code coloured as it arrives, thinking
// open while it streams (diagrams and formulas: element-figures.js).
import { PatchApplier } from './apply.js';
import { documentType } from './outline.js';
import { within } from './element-view.js';
import { copiedText } from './element-copy.js';
import { Windowing } from './element-window.js';
import { documentEntry, turnEntry } from './outline.js';

/** The default `highlighter`: docstream's Shiki-based one, imported the first time a code
 * block appears (so a page without code never loads it). */
const defaultHighlighter = {
  open: (lang) => import('./highlight/index.js').then((m) => m.open(lang)),
};

/** What the colorer colours: code blocks and references, and diff views. */
const CODE = 'pre > code[class*="language-"], .ds-diff-unified, .ds-diff-split';

/** The colorer's class (colorer.js), loaded with the first code any view shows, so a
 * page without code never fetches it; and the promise of it. */
let ColorerClass = null;
let colorerLoad = null;

/** Applies one view's patches (element-view.js) and decorates what they add. */
export class Decorator {
  #view;
  #applier;
  #highlighter = defaultHighlighter;
  #colorer = null;
  /** The colorer's module is loading for this view. */
  #awaiting = false;
  /** The option picked per question id, kept as patches re-render the question. */
  #choices = new Map();
  /** The thinking opened while it streams (`thinking="live"`), folded when the answer
   * starts unless the reader toggled it. */
  #liveThinking = null;
  #toggledByReader = new WeakSet();
  #figures;
  /** Documents far from the viewport kept out of the DOM (element-window.js). */
  window;
  /** Top-level documents with code not coloured yet because they are far from the
   * viewport: coloured when they come near. */
  #uncoloured = new Set();
  /** What the patches being applied changed, to colour once they are in place. */
  #touchedNow = [];
  /** Documents the patches being applied inserted or replaced. */
  #docsNow = [];
  /** Turns they inserted. */
  #turnsNow = [];
  /** Hooks told when a record is put back as its document (find.js's marks). */
  restoredHooks = [];
  /** The Markdown of turn `i` (a promise), for its "Copy as Markdown" control (set by the element). */
  markdownOf = null;

  /** Sets what gives a turn's Markdown (`markdownOf`); a method, so the element's
   * manifest does not take the assignment for a field of its own. */
  copiesMarkdownWith(markdownOf) {
    this.markdownOf = markdownOf;
  }

  /** `figures`: diagrams and formulas (element-figures.js). */
  constructor(view, figures) {
    this.#view = view;
    this.#figures = figures;
    this.window = new Windowing(view, {
      entry: (doc) => documentEntry(doc),
      turnEntry: (turn) => turnEntry(turn),
      near: (doc) => this.#near(doc),
      stored: (doc) => this.#uncoloured.delete(doc),
      turnsStored: () => this.#applier.release(),
      restored: (rec, doc) => {
        if (rec.html !== undefined && !rec.html.includes('ds-hl-')) this.#uncoloured.add(doc);
        for (const hook of this.restoredHooks) hook(rec, doc);
      },
    });
    this.#applier = new PatchApplier(view.conversation, {
      turn: (el) => {
        decorateTurn(el);
        this.#turnCopy(el.firstElementChild);
        this.#turnsNow.push(el);
      },
      header: (el) => {
        el.setAttribute('part', 'turn-header');
        this.#turnCopy(el);
      },
      document: (el) => this.#decorateDocument(el),
      appended: (el, first) => this.#decorateParts(el, first),
      locate: (turn, index) => this.window.locate(turn, index),
    });
    view.root.addEventListener('click', (e) => this.#onClick(e));
  }

  /** The `highlighter` in use, or null (colouring off). */
  get highlighter() {
    return this.#highlighter;
  }
  set highlighter(v) {
    this.#highlighter = v && typeof v.open === 'function' ? v : null;
    this.#colorer = null;
  }

  /** Applies patches in the wire form (`DocStream.pull()`), colours what they added and
   * keeps the latest lines of a thinking that streams in view. */
  render(wire) {
    this.window.beforePatches(wire);
    this.#applier.applyWire(wire);
    const docs = this.#docsNow;
    const turns = this.#turnsNow;
    this.#docsNow = [];
    this.#turnsNow = [];
    this.window.added(docs, turns);
    this.#colourTouched();
    const live = this.#liveThinking;
    // The latest lines of the thinking in view while it streams.
    if (live?.open && !this.#toggledByReader.has(live)) live.scrollTop = live.scrollHeight;
  }

  /** The stream ended: the thinking folds. */
  ended() {
    this.#foldLiveThinking();
  }

  /** The view was emptied. */
  reset() {
    this.#choices.clear();
    this.#liveThinking = null;
    this.#colorer = null;
    this.#uncoloured.clear();
    this.#touchedNow = [];
    this.#docsNow = [];
    this.#turnsNow = [];
    this.window.reset();
  }

  /** Colours now what waits for the viewport (before an export), as far as the
   * colorer and the tokenizers are loaded. */
  colourAll() {
    const colorer = this.#colorerFor([]);
    if (!colorer) return;
    for (const doc of this.#uncoloured) if (doc.isConnected) colorer.touched(doc);
    this.#uncoloured.clear();
    colorer.run(Infinity);
  }

  /** Colours what the patches just applied changed, in the documents near the viewport;
   * the others (and all while the colorer loads) wait until they come near. */
  #colourTouched() {
    const touched = this.#touchedNow;
    this.#touchedNow = [];
    const colorer = this.#colorerFor(touched);
    const conversation = this.#view.conversation;
    for (const el of touched) {
      if (!el.isConnected) continue;
      const top = topDocument(conversation, el);
      if (colorer && (!top || this.window.isNear(top))) colorer.touched(el);
      else if (top) this.#uncoloured.add(top);
    }
    colorer?.run();
  }

  /** A document came near the viewport: its code is coloured now. */
  #near(doc) {
    if (this.#uncoloured.has(doc)) this.#colourNear([doc]);
  }

  /** Colours those of `docs` that wait for the viewport and are near it, in one run. */
  #colourNear(docs) {
    const colorer = this.#colorerFor(docs);
    if (!colorer) return;
    for (const doc of docs) {
      if (!doc.isConnected || !this.#uncoloured.has(doc) || !this.window.isNear(doc)) continue;
      this.#uncoloured.delete(doc);
      colorer.touched(doc);
    }
    colorer.run();
  }

  /** The colorer, null when colouring is off or while its module loads (the load starts
   * when one of `els` holds code). It colours a document only while that is near the
   * viewport (else the document waits with the others far from it). */
  #colorerFor(els) {
    if (!this.#highlighter || this.#view.host.getAttribute('highlight') === 'off') return null;
    if (!this.#colorer && ColorerClass) {
      const conversation = this.#view.conversation;
      this.#colorer = new ColorerClass(this.#highlighter, (doc) => {
        const top = topDocument(conversation, doc);
        if (!top || this.window.isNear(top)) return true;
        this.#uncoloured.add(top);
        return false;
      });
    }
    if (!this.#colorer && !this.#awaiting && els.some((el) => el.isConnected && (el.matches(CODE) || el.querySelector(CODE)))) {
      this.#awaiting = true;
      colorerLoad ??= import('./colorer.js').then((m) => (ColorerClass = m.Colorer));
      // Not loaded (offline, a bundler that dropped it): the code stays plain.
      colorerLoad.then(() => {
        this.#awaiting = false;
        this.#colourNear([...this.#uncoloured]);
      }, () => {});
    }
    return this.#colorer;
  }

  /** Tells the colorer what a patch changed (unless colouring is off). */
  #touch(el) {
    if (this.#highlighter && this.#view.host.getAttribute('highlight') !== 'off') this.#touchedNow.push(el);
  }

  #decorateDocument(el) {
    this.#docsNow.push(el);
    this.#thinking(el);
    this.#figures.started(el);
    this.#touch(el);
    const type = documentType(el);
    el.setAttribute('part', type ? `document ${type}` : 'document');
    this.#decorateParts(el);
  }

  /** Part attributes, table tools and pressed states on what a patch added: `el`, or
   * with `first`, the children of `el` from `first` on. */
  #decorateParts(el, first = null) {
    this.#touch(el);
    const added = first ? siblingsFrom(first) : [el];
    this.#tableTools(added);
    this.#figures.added(added);
    for (const b of within(added, '.ds-copy')) b.setAttribute('part', 'copy-button');
    for (const o of within(added, '.ds-option')) {
      o.setAttribute('part', 'option');
      const chosen = this.#choices.get(o.getAttribute('data-question-id'));
      if (chosen !== undefined) o.setAttribute('aria-pressed', String(chosen === o.getAttribute('data-option-id')));
    }
  }

  /** `thinking="live"` (default): a thinking document is open while it streams and
   * folds when the next document starts; `open`: thinking stays open; `closed`: folded. */
  #thinking(el) {
    const details = el.classList.contains('ds-thinking') ? el.querySelector('details.ds-thinking-body') : null;
    if (!details) {
      this.#foldLiveThinking();
      return;
    }
    const mode = this.#view.host.getAttribute('thinking') ?? 'live';
    if (mode === 'open') details.open = true;
    else if (mode === 'live' && this.#view.busy) {
      const prev = this.#liveThinking;
      const id = el.getAttribute('data-doc-id');
      if (prev && prev.closest('.ds-doc')?.getAttribute('data-doc-id') === id) {
        // The same document rendered again: it keeps its state.
        details.open = prev.open;
        if (this.#toggledByReader.has(prev)) this.#toggledByReader.add(details);
      } else {
        this.#foldLiveThinking();
        details.open = true;
      }
      this.#liveThinking = details;
    }
  }

  #foldLiveThinking() {
    const details = this.#liveThinking;
    this.#liveThinking = null;
    if (details && !this.#toggledByReader.has(details)) details.open = false;
  }

  /** Copy controls before each finished Markdown table (TSV and Markdown) among `added`
   * elements. */
  #tableTools(added) {
    const labels = this.#view.labels();
    for (const table of within(added, '[data-part="blocks"] table')) {
      if (table.previousElementSibling?.classList.contains('ds-table-tools')) continue;
      const tools = document.createElement('div');
      tools.className = 'ds-table-tools';
      tools.setAttribute('data-ds-ui', '');
      for (const [kind, text] of [
        ['tsv', labels.copyTsv],
        ['markdown', labels.copyMarkdown],
      ]) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'ds-copy ds-copy-table';
        b.setAttribute('data-copy', kind);
        b.setAttribute('part', 'copy-button');
        b.textContent = text;
        tools.append(b);
      }
      table.before(tools);
    }
  }

  /** A "Copy as Markdown" control in the header of a top-level turn (a sub-agent's run,
   * whose header is its fold's summary, is copied with the turn that holds it). */
  #turnCopy(header) {
    if (!header?.classList.contains('ds-turn-header') || header.tagName === 'SUMMARY') return;
    if (header.querySelector(':scope > .ds-copy-turn')) return;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ds-copy ds-copy-turn';
    b.setAttribute('data-copy', 'turn-markdown');
    b.setAttribute('data-ds-ui', '');
    b.setAttribute('part', 'copy-button');
    b.textContent = this.#view.labels().copyTurn;
    header.prepend(b);
  }

  #onClick(e) {
    const root = this.#view.root;
    const target = e.target instanceof Element ? e.target : null;
    const summary = target?.closest('summary');
    if (summary?.parentElement) this.#toggledByReader.add(summary.parentElement);
    const copy = target?.closest('.ds-copy');
    if (copy && root.contains(copy)) {
      this.#copy(copy);
      return;
    }
    const option = target?.closest('.ds-option');
    if (option && root.contains(option)) {
      const questionId = option.getAttribute('data-question-id') ?? '';
      const optionId = option.getAttribute('data-option-id') ?? '';
      const doc = option.closest('.ds-doc');
      this.#choices.set(questionId, optionId);
      const question = option.closest('.ds-question') ?? doc;
      for (const o of question?.querySelectorAll('.ds-option') ?? []) {
        if (o.getAttribute('data-question-id') === questionId)
          o.setAttribute('aria-pressed', String(o === option));
      }
      this.#view.emit('docstream-choice', {
        questionId,
        optionId,
        documentId: doc?.getAttribute('data-doc-id') ?? '',
      });
    }
  }

  #copy(button) {
    const view = this.#view;
    const kind = button.getAttribute('data-copy');
    if (kind === 'turn-markdown') {
      const turn = Number(button.closest('.ds-turn')?.getAttribute('data-turn-index'));
      if (!Number.isInteger(turn) || !this.markdownOf) return;
      // A promise: the full module may load first (the default module has no Markdown).
      Promise.resolve(this.markdownOf(turn)).then(
        (text) => this.#write(button, text, { documentId: '', turn }),
        (e) => view.emit('docstream-error', { code: e?.code ?? 'DS_WASM', message: String(e?.message ?? e) }),
      );
      return;
    }
    const doc = button.closest('.ds-doc');
    if (!doc) return;
    const detail = { documentId: doc.getAttribute('data-doc-id') ?? '' };
    if (kind === 'tsv' || kind === 'markdown') {
      const table = button.parentElement?.nextElementSibling;
      // The table's converters load with the first table copied, not with the element.
      if (table) import('./table-copy.js').then((m) => this.#write(button, kind === 'tsv' ? m.tableAsTsv(table) : m.tableAsMarkdown(table), detail));
      return;
    }
    this.#write(button, copiedText(doc, kind), detail);
  }

  /** Puts `text` on the clipboard unless a `docstream-copy` listener (told `text` and
   * `detail`) cancels it, and says so. */
  #write(button, text, detail) {
    const view = this.#view;
    const proceed = view.emit('docstream-copy', { text, ...detail }, true);
    if (!proceed) return;
    const done = () => {
      view.announce('copied');
      button.setAttribute('data-ds-copied', '');
      setTimeout(() => button.removeAttribute('data-ds-copied'), 1500);
    };
    const clipboard = globalThis.navigator?.clipboard;
    if (!clipboard?.writeText) return;
    clipboard.writeText(text).then(done, (e) =>
      view.emit('docstream-error', { code: 'DS_CLIPBOARD', message: String(e?.message ?? e) }),
    );
  }
}

function decorateTurn(el) {
  el.setAttribute('part', el.classList.contains('ds-user') ? 'turn user-turn' : 'turn assistant-turn');
  el.firstElementChild?.setAttribute('part', 'turn-header');
}

/** The document of a turn of `conversation` that holds `el` (a document of a sub-agent's
 * run is held by its call), or null. */
function topDocument(conversation, el) {
  let doc = el.closest('.ds-doc');
  while (doc && doc.parentElement?.parentElement !== conversation) doc = doc.parentElement?.closest('.ds-doc') ?? null;
  return doc;
}

/** `first` and its next siblings that are elements. */
function siblingsFrom(first) {
  const out = [];
  for (let n = first; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n);
  return out;
}
