// Syntax colours on code the patches added: code blocks and code references (one span
// per line), the two sides of diff views, and other `<pre><code class="language-…">`.
//
// The text is never changed: a line's text nodes are split and wrapped in
// `<span class="ds-hl-KIND">` only where the tokens add up to exactly that text. A
// streaming block is coloured line by line as lines complete, each line once, with the
// tokenizer's state carried from line to line; the growing last line is coloured afresh
// each time it is replaced (it is the part that changed).

/** How long one task may colour (ms): what is left goes on in the next task, so a
 * backlog (a grammar that loaded while blocks arrived, a long file) makes no long task. */
const SLICE_MS = 8;

/** A token kind becomes a class: letters and hyphens only. */
const KIND = /^[a-z][a-z-]{0,40}$/;

/** Wraps the ranges of `el`'s text the tokens name in spans, keeping every element
 * already there (word marks of a diff). Does nothing unless the tokens spell the text. */
function paint(el, tokens) {
  const text = el.textContent;
  let joined = '';
  for (const [t] of tokens) joined += t;
  if (joined !== text || !tokens.some(([, k]) => k)) return;
  const doc = el.ownerDocument;
  const walker = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  let ti = 0;
  let tokenLeft = tokens.length ? tokens[0][0].length : 0;
  for (const node of nodes) {
    const data = node.data;
    const frag = doc.createDocumentFragment();
    let at = 0;
    while (at < data.length && ti < tokens.length) {
      if (tokenLeft === 0) {
        ti++;
        tokenLeft = ti < tokens.length ? tokens[ti][0].length : 0;
        continue;
      }
      const take = Math.min(tokenLeft, data.length - at);
      const piece = data.slice(at, at + take);
      const kind = tokens[ti][1];
      if (kind && KIND.test(kind)) {
        const span = doc.createElement('span');
        span.className = `ds-hl-${kind}`;
        span.textContent = piece;
        frag.append(span);
      } else {
        frag.append(piece);
      }
      at += take;
      tokenLeft -= take;
    }
    node.replaceWith(frag);
  }
}

/** Tokenizer `tok` (or false when none) whose methods give no tokens, leaving the line
 * plain, where the embedder's throw: a highlighter's fault never stops the view. */
function guarded(tok) {
  if (!tok) return false;
  const safe = (f) => (text) => {
    try {
      return f.call(tok, text);
    } catch {
      return [];
    }
  };
  return { line: safe(tok.line), peek: safe(tok.peek) };
}

/** The language of a code element (`language-rust` → `rust`). */
function languageOfCode(code) {
  for (const c of code.classList) if (c.startsWith('language-')) return c.slice(9);
  return '';
}

/**
 * Colours the code in a conversation element. `highlighter` is the element's hook:
 * `{ open(lang) }` giving (or promising) a tokenizer `{ line(text), peek(text) }` whose
 * methods return `[text, kind]` tokens, or null for a language it does not know.
 */
export class Colorer {
  #highlighter;
  #dirty = new Set();
  /** Per code element or diff side: its tokenizer (or the promise of one) and the last
   * line coloured. */
  #blocks = new WeakMap();
  #done = new WeakSet();
  /** Per diff table: the key of its new side's tokenizer (the table keys the old side). */
  #newSides = new WeakMap();
  #wanted;
  /** Until when (performance.now()) this run may colour. */
  #until = 0;
  /** The timer of the run that goes on with what is left. */
  #later = 0;
  /** Per diff table: the row its colouring goes on from. */
  #rowAt = new WeakMap();

  /** A run bounded in time skips (and forgets) a document `wanted(doc)` says no to (one
   * that went far from the viewport while it waited). */
  constructor(highlighter, wanted = () => true) {
    this.#highlighter = highlighter;
    this.#wanted = wanted;
  }

  /** Notes that a patch changed something inside `el` (a document or a part of one). */
  touched(el) {
    const doc = el.closest?.('.ds-doc') ?? el;
    this.#dirty.add(doc);
  }

  /** Colours what changed in the documents touched since the last run, for `budget` ms
   * (what is left goes on in a task of its own); an unbounded run colours every one. */
  run(budget = SLICE_MS) {
    this.#until = performance.now() + budget;
    for (const doc of this.#dirty) {
      if (doc.isConnected && (budget === Infinity || this.#wanted(doc)) && !this.#document(doc)) break;
      this.#dirty.delete(doc);
    }
    if (this.#dirty.size) this.#goOn();
  }

  /** A run in a task of its own, soon (one at a time). */
  #goOn() {
    this.#later ||= setTimeout(() => {
      this.#later = 0;
      this.run();
    });
  }

  /** Whether this run's time is up. */
  #late() {
    return performance.now() > this.#until;
  }

  /** Colours `doc`'s code; false when the time ran out first. */
  #document(doc) {
    for (const code of doc.querySelectorAll('pre > code[class*="language-"]')) {
      if (code.closest('[data-part="tail"]')) continue; // a block still being previewed
      if (!(code.querySelector('.ds-line') ? this.#lines(doc, code) : this.#whole(doc, code))) return false;
    }
    const path = doc.querySelector('.ds-path')?.textContent ?? '';
    for (const table of doc.querySelectorAll('.ds-diff-unified, .ds-diff-split')) if (!this.#diff(doc, table, path)) return false;
    return true;
  }

  /** The tokenizer for `key` (opened once), or null while it loads or where none. */
  #tokenizer(doc, key, lang) {
    let b = this.#blocks.get(key);
    if (!b) {
      b = { tok: null, last: null, parent: null };
      this.#blocks.set(key, b);
      let opened;
      try {
        opened = lang ? this.#highlighter.open(lang) : null;
      } catch {
        opened = null;
      }
      if (opened && typeof opened.then === 'function') {
        b.tok = opened;
        opened.then(
          (tok) => {
            b.tok = guarded(tok);
            // Coloured by a run of its own: tokenizers arriving together (one promise
            // each) share it, not a slice each in one task.
            this.#dirty.add(doc);
            this.#goOn();
          },
          () => {
            b.tok = false;
          },
        );
      } else {
        b.tok = guarded(opened);
      }
    }
    return b.tok && typeof b.tok.then !== 'function' ? b : null;
  }

  /** A code block or reference: complete lines once each, in order; the open line
   * afresh. False when the time ran out first. */
  #lines(doc, code) {
    const b = this.#tokenizer(doc, code, languageOfCode(code));
    if (!b) return true;
    const lines = code.querySelector('[data-part="lines"]') ?? code;
    if (b.last && b.last.parentNode !== lines) {
      // The lines were replaced: start again with a fresh tokenizer.
      this.#blocks.delete(code);
      return this.#lines(doc, code);
    }
    let line = b.last ? b.last.nextElementSibling : lines.firstElementChild;
    for (; line; line = line.nextElementSibling) {
      if (!line.classList.contains('ds-line')) continue;
      if (this.#late()) return false;
      paint(line, b.tok.line(line.textContent));
      b.last = line;
    }
    const open = code.querySelector('[data-part="open"] > .ds-line');
    if (open && !this.#done.has(open)) {
      this.#done.add(open);
      paint(open, b.tok.peek(open.textContent));
    }
    return true;
  }

  /** A code element without line spans: coloured whole, once (its lines tokenized over
   * as many runs as it takes, put in at the end). False when the time ran out first. */
  #whole(doc, code) {
    if (this.#done.has(code)) return true;
    const b = this.#tokenizer(doc, code, languageOfCode(code));
    if (!b) return true;
    const text = code.textContent;
    if (b.text !== text) Object.assign(b, { text, parts: text.split('\n'), at: 0, frag: code.ownerDocument.createDocumentFragment() });
    const { parts, frag } = b;
    for (; b.at < parts.length; b.at++) {
      if (this.#late()) return false;
      const t = parts[b.at];
      const span = code.ownerDocument.createElement('span');
      span.textContent = t;
      paint(span, b.tok.line(t));
      frag.append(...span.childNodes);
      if (b.at < parts.length - 1) frag.append('\n');
    }
    this.#done.add(code);
    code.replaceChildren(frag);
    return true;
  }

  /** A diff view: the old side (removed and context lines) and the new side (added and
   * context lines) each tokenized in order with its own state; coloured once, row by row
   * over as many runs as it takes. False when the time ran out first. */
  #diff(doc, table, path) {
    if (this.#done.has(table) || !path) return true;
    let newSide = this.#newSides.get(table);
    if (!newSide) this.#newSides.set(table, (newSide = {}));
    const old = this.#tokenizer(doc, table, path);
    const neu = this.#tokenizer(doc, newSide, path);
    if (!old || !neu) return true;
    const split = table.classList.contains('ds-diff-split');
    const rows = table.rows;
    for (let i = this.#rowAt.get(table) ?? 0; i < rows.length; i++) {
      if (this.#late()) {
        this.#rowAt.set(table, i);
        return false;
      }
      const row = rows[i];
      if (split) {
        const [left, right] = row.querySelectorAll('.ds-diff-text');
        if (left && !left.classList.contains('ds-diff-empty')) paint(left, old.tok.line(left.textContent));
        if (right && !right.classList.contains('ds-diff-empty')) paint(right, neu.tok.line(right.textContent));
        continue;
      }
      const cell = row.querySelector('.ds-diff-text');
      if (!cell) continue;
      if (row.classList.contains('ds-diff-removed')) paint(cell, old.tok.line(cell.textContent));
      else if (row.classList.contains('ds-diff-added')) paint(cell, neu.tok.line(cell.textContent));
      else {
        old.tok.line(cell.textContent);
        paint(cell, neu.tok.line(cell.textContent));
      }
    }
    this.#done.add(table);
    return true;
  }
}
