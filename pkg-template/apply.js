// Applies docstream's patches to a DOM: the wire form that `DocStream.pull()` returns
// (one string per frame), or the objects that `push()` and `finish()` return.
//
// The page is a conversation element whose children are turns; a turn's first child
// is its header and its documents follow. A document's parts are its descendants
// marked `data-part` (see docs/classes.md). A part's builder appends below its
// innermost open element: elements from a fixed list, text as text nodes (never parsed
// as HTML), attributes from a fixed list. What the reader did inside a document or part
// that is replaced (disclosures, focus, selection, scroll) is carried over.
//
// A sub-agent's run is a turn whose element names the call it belongs to
// (`data-parent-turn`, `data-parent-index`): it goes into that call's
// `.ds-subagent-run` element, not among the conversation's children, so turns are
// found by their index, not by their position.

import { readSelection, restoreState, takeState } from './keep-state.js';
import { eachRecord } from './wire.js';

const TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code',
  'strong', 'em', 'del', 'a', 'span', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr',
]);
const ATTRS = new Set(['class', 'href', 'rel', 'data-ln']);
const SAFE_HREF = /^(?:https?:|mailto:|[^:]*$)/i;

let policy = null;

/** Renderer output is safe by construction (escaped in Rust); under Trusted Types it
 * passes through a policy named `docstream`, when the page's CSP allows one. */
export function trusted(html) {
  if (policy === null) {
    policy = false;
    try {
      policy = globalThis.trustedTypes?.createPolicy('docstream', { createHTML: (s) => s }) ?? false;
    } catch {
      policy = false;
    }
  }
  return policy ? policy.createHTML(html) : html;
}

function parseOne(doc, html) {
  const t = doc.createElement('template');
  t.innerHTML = trusted(html);
  return t.content.firstElementChild;
}

/**
 * Keeps a conversation element up to date from patches.
 *
 * `hooks.turn(el)` and `hooks.document(el)` are called for each turn and document
 * element inserted or replaced (to add `part` attributes, say). `hooks.locate(turn,
 * index)`, when given, finds the element of a turn's document by its index (a view that
 * keeps far documents out of the DOM); by default it is the turn's child after the header.
 */
export class PatchApplier {
  #root;
  #hooks;
  /** Per document element: its parts, each with the builder's open element. */
  #parts = new WeakMap();
  /** Turn elements by index (a sub-agent's run is not a child of the root). */
  #turns = [];
  /** The reader's selection, read once per batch of patches (`undefined`: not read yet
   * in this batch): reading it brings layout up to date, which per patch would cost the
   * page's size each time. */
  #selection = undefined;

  constructor(root, hooks = {}) {
    this.#root = root;
    this.#hooks = hooks;
  }

  /** Applies patches in the wire form (a string from `pull()`); returns how many. */
  applyWire(wire) {
    this.#selection = undefined;
    let n = 0;
    eachRecord(wire, (op, turn, index, part, name, payload) => {
      this.#apply(op, turn, index, part, name, payload);
      n++;
    });
    return n;
  }

  /** Applies patch objects (from `push()` or `finish()`). */
  applyObjects(patches) {
    this.#selection = undefined;
    for (const p of patches) {
      switch (p.op) {
        case 'insert_turn': this.#apply('t', p.turn, -1, '', '', p.html); break;
        case 'replace_turn_header': this.#apply('h', p.turn, -1, '', '', p.html); break;
        case 'insert_document': this.#apply('i', p.turn, p.index, '', '', p.html); break;
        case 'replace_document': this.#apply('d', p.turn, p.index, '', '', p.html); break;
        case 'append_part': this.#apply('a', p.turn, p.index, p.part, '', p.html); break;
        case 'replace_part': this.#apply('r', p.turn, p.index, p.part, '', p.html); break;
        case 'open_element': this.#apply('o', p.turn, p.index, p.part, p.tag, ''); break;
        case 'set_attr': this.#apply('s', p.turn, p.index, p.part, p.attr, p.value); break;
        case 'append_text': this.#apply('x', p.turn, p.index, p.part, '', p.text); break;
        case 'close_element': this.#apply('c', p.turn, p.index, p.part, '', ''); break;
        default: break;
      }
    }
  }

  /** Lets go of the turn elements no longer in the page (a view that keeps far turns out
   * of the DOM, element-window.js, calls it after putting some away): a turn put back is
   * found again by its index. */
  release() {
    const root = this.#root;
    this.#turns = this.#turns.map((t) => (t && root.contains(t) ? t : undefined));
  }

  /** The turn element at `index`; the index is rebuilt from the page when it no longer
   * matches it (after the page was cleared, say). */
  #turn(index) {
    const i = Number(index);
    const el = this.#turns[i];
    if (el && this.#root.contains(el)) return el;
    this.#turns = [];
    for (const t of this.#root.querySelectorAll('.ds-turn[data-turn-index]')) {
      this.#turns[Number(t.getAttribute('data-turn-index'))] = t;
    }
    return this.#turns[i] ?? null;
  }

  #doc(turn, index) {
    const el = this.#turn(turn);
    return el ? this.#at(el, index) : null;
  }

  /** The document at `index` of turn element `turn` (its header is its first child), or
   * null past the end; `hooks.locate(turn, index)` finds it instead when given (documents
   * kept out of the DOM, element-window.js). */
  #at(turn, index) {
    const i = Number(index);
    return this.#hooks.locate ? this.#hooks.locate(turn, i) : (turn.children[i + 1] ?? null);
  }

  /** Inserts a turn element at `index`: a sub-agent's run into its call. */
  #insertTurn(index, el) {
    const i = Number(index);
    if (!this.#root.firstElementChild) this.#turns = [];
    // The index is checked against the page (rebuilt when stale), except for a turn
    // appended after one still in it: a rebuild per new turn would cost the page's size.
    else if (i !== this.#turns.length || !this.#root.contains(this.#turns[i - 1] ?? null)) this.#turn(i);
    const parentTurn = el.getAttribute('data-parent-turn');
    if (parentTurn !== null) {
      const call = this.#doc(parentTurn, el.getAttribute('data-parent-index'));
      const slot = call?.querySelector(':scope > .ds-subagent-run');
      if (!slot) return false;
      slot.appendChild(el);
    } else {
      const next = this.#turns.slice(i).find((t) => t?.parentNode === this.#root) ?? null;
      this.#root.insertBefore(el, next);
    }
    this.#turns.splice(i, 0, el);
    return true;
  }

  #part(turn, index, name) {
    const doc = this.#doc(turn, index);
    if (!doc) return null;
    let parts = this.#parts.get(doc);
    if (!parts) {
      parts = new Map();
      for (const el of doc.querySelectorAll('[data-part]')) {
        if (el.closest('.ds-doc') === doc) parts.set(el.getAttribute('data-part'), { el, cursor: el });
      }
      this.#parts.set(doc, parts);
    }
    return parts.get(name) ?? null;
  }

  #readerSelection() {
    if (this.#selection === undefined) this.#selection = readSelection(this.#root);
    return this.#selection;
  }

  /** A selection put back on new content is the one later patches of the batch see. */
  #selected(selection) {
    if (selection) this.#selection = selection;
  }

  #apply(op, turn, index, partName, name, payload) {
    const root = this.#root;
    const ownerDocument = root.ownerDocument;
    switch (op) {
      case 't': {
        const el = parseOne(ownerDocument, payload);
        if (!el) return;
        this.#hooks.turn?.(el);
        this.#insertTurn(turn, el);
        return;
      }
      case 'h': {
        const old = this.#turn(turn)?.firstElementChild;
        const el = parseOne(ownerDocument, payload);
        if (!old || !el) return;
        this.#hooks.header?.(el);
        old.replaceWith(el);
        return;
      }
      case 'i': {
        const parent = this.#turn(turn);
        const el = parseOne(ownerDocument, payload);
        if (!parent || !el) return;
        this.#hooks.document?.(el);
        parent.insertBefore(el, this.#at(parent, index));
        return;
      }
      case 'd': {
        const old = this.#doc(turn, index);
        const el = parseOne(ownerDocument, payload);
        if (!old || !el) return;
        const state = takeState(old, this.#readerSelection());
        this.#hooks.document?.(el);
        // A call's sub-agent run is a turn of its own: it stays.
        const run = old.querySelector(':scope > .ds-subagent-run');
        const slot = el.querySelector(':scope > .ds-subagent-run');
        if (run && slot) slot.replaceWith(run);
        old.replaceWith(el);
        this.#selected(restoreState(el, state));
        return;
      }
    }
    const part = this.#part(turn, index, partName);
    if (!part) return;
    switch (op) {
      case 'a': {
        const last = part.cursor.lastChild;
        part.cursor.insertAdjacentHTML('beforeend', trusted(payload));
        // Only what was appended is new: a hook that looked at the whole part would
        // cost the part's size on every append.
        const first = last ? last.nextSibling : part.cursor.firstChild;
        if (first) this.#hooks.appended?.(part.cursor, first);
        break;
      }
      case 'r': {
        const state = part.el.firstChild ? takeState(part.el, this.#readerSelection()) : null;
        part.el.innerHTML = trusted(payload);
        part.cursor = part.el;
        if (part.el.firstChild) this.#hooks.appended?.(part.el, part.el.firstChild);
        this.#selected(restoreState(part.el, state));
        break;
      }
      case 'o': {
        const tag = name;
        if (!TAGS.has(tag)) return;
        const el = ownerDocument.createElement(tag);
        part.cursor.appendChild(el);
        if (tag !== 'hr') part.cursor = el;
        break;
      }
      case 's': {
        if (!ATTRS.has(name) || (name === 'href' && !SAFE_HREF.test(payload.trim()))) return;
        part.cursor.setAttribute(name, payload);
        break;
      }
      case 'x': {
        const last = part.cursor.lastChild;
        if (last && last.nodeType === 3) last.appendData(payload);
        else part.cursor.appendChild(ownerDocument.createTextNode(payload));
        break;
      }
      case 'c':
        if (part.cursor !== part.el) part.cursor = part.cursor.parentNode;
        break;
      default:
        break;
    }
  }
}

const appliers = new WeakMap();

/**
 * Applies the wire form (a string from `pull()`) or patch objects (from `push()` and
 * `finish()`) to a conversation element; the element's builders carry over from one
 * call to the next.
 */
export function applyPatches(root, patches) {
  let applier = appliers.get(root);
  if (!applier) appliers.set(root, (applier = new PatchApplier(root)));
  if (typeof patches === 'string') applier.applyWire(patches);
  else applier.applyObjects(patches);
}
