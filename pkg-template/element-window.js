// Windowing for long sessions: a <docstream-view> keeps in its DOM only the documents
// near the viewport. A finished document of a turn that leaves the neighbourhood of the
// viewport is replaced by a placeholder of its measured height that keeps its HTML, its
// searchable text and its outline entry; the placeholder is put back as the document
// when it comes near again, when a patch, `reveal()`, `find()` or the keyboard reaches
// it, or when the browser's own find-in-page finds its text (`hidden="until-found"`:
// the text stays in the page, unpainted). A placeholder is one element and one text
// node, so the DOM of a session of any length is the documents near the viewport plus
// two nodes a document.
//
// What stays in place: the turns and their headers (patches find turns by index and
// documents by position: a placeholder takes its document's position), the last
// document while a stream is in progress, a document holding focus, and a call's
// sub-agent run (patches insert turns into it).
import { trusted } from './apply.js';

/** Documents of a conversation kept whole, however far they are, when it has this many or
 * fewer: a short conversation is left as the renderer built it. */
const LIVE_DOCUMENTS = 120;

/** How far beyond the viewport (in viewport heights, above and below) documents count as
 * near. */
const NEAR_FACTOR = 1.5;
const NEAR_MARGIN = `${NEAR_FACTOR * 100}%`;

/** How long one task may store far documents (ms). */
const STORE_SLICE_MS = 8;

/** The parts a document's text may belong to that `hide` can hide (element-view.js's
 * HIDDEN_PARTS), each a bit of a run's mask. */
const MASKS = [
  ['.ds-thinking', 1],
  ['.ds-tool-call', 2],
  ['.ds-terminal-command .ds-output, .ds-terminal-command .ds-output-more, .ds-term-body > .ds-copy', 4],
];

/** Text that `find()` leaves out: a folded header's preview repeats its body; controls
 * are not content. */
export const NOT_SEARCHED = 'summary .ds-preview, [data-ds-ui], .ds-copy';

/** The mask bits of the part names in a `hide` value. */
export function hiddenMask(hide) {
  const names = new Set(hide.split(/\s+/));
  return (names.has('thinking') ? 1 : 0) | (names.has('tools') ? 2 : 0) | (names.has('output') ? 4 : 0);
}

/** The searchable text of `el` as runs `[text, mask]` (mask: the hideable parts it is in),
 * in document order, consecutive runs of one mask joined. */
export function textRuns(el) {
  const runs = [];
  const walk = (node, mask) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        if (!n.data) continue;
        const last = runs[runs.length - 1];
        if (last && last[1] === mask) last[0] += n.data;
        else runs.push([n.data, mask]);
      } else if (n.nodeType === 1) {
        if (n.matches(NOT_SEARCHED)) continue;
        let m = mask;
        for (const [selector, bit] of MASKS) if (!(m & bit) && n.matches(selector)) m |= bit;
        walk(n, m);
      }
    }
  };
  let mask = 0;
  for (const [selector, bit] of MASKS) if (el.closest(selector)) mask |= bit;
  walk(el, mask);
  return runs;
}

/**
 * The windowing of one view (element-view.js). `hooks.entry(doc)`: a document's outline
 * entry; `hooks.near(doc)`: a document came near the viewport (to colour it);
 * `hooks.stored(doc)`: a document was put away; `hooks.restored(placeholder, doc, kept)`: a placeholder was put back as its document
 * (`kept`: what it kept).
 */
export class Windowing {
  #view;
  #hooks;
  #observer = null;
  /** The observer's root: the host when it scrolls its conversation, else the viewport. */
  #rootIsHost = false;
  /** Documents whole in the DOM and observed (top-level documents of turns). */
  #live = new Set();
  /** The size of `#live` after its last sweep. */
  #swept = 0;
  /** Documents the observer last saw near the viewport. */
  #near = new WeakSet();
  /** Far documents to store, with their measured heights. */
  #pending = new Map();
  #draining = false;
  /** A document-wide scroll listener is on (while there are placeholders). */
  #listening = false;
  #checkFrame = 0;
  /** Per placeholder: `{ html, runs, entry }`. */
  #stored = new Map();

  constructor(view, hooks) {
    this.#view = view;
    this.#hooks = hooks;
    if (typeof ResizeObserver === 'function') {
      const sizes = new ResizeObserver(() => this.#sized());
      sizes.observe(view.host);
      sizes.observe(view.conversation);
    }
  }

  /** Whether `doc` is near the viewport (as last observed). */
  isNear(doc) {
    return this.#near.has(doc);
  }

  /** What a placeholder keeps: `{ html, runs, entry }`, or undefined. */
  stored(el) {
    return this.#stored.get(el);
  }

  /** How many documents are in placeholders. */
  get size() {
    return this.#stored.size;
  }

  /** The view was emptied. */
  reset() {
    this.#listen(false);
    this.#observer?.disconnect();
    this.#observer = null;
    this.#live.clear();
    this.#swept = 0;
    this.#pending.clear();
    this.#stored.clear();
    this.#near = new WeakSet();
  }

  /** Documents a batch of patches inserted or replaced: the top-level ones are watched. */
  added(docs) {
    const conversation = this.#view.conversation;
    const watched = [];
    for (const doc of docs) {
      if (!doc.isConnected || doc.parentElement?.parentElement !== conversation) continue;
      // A document added after one kept out of the DOM is far from the viewport too (a
      // load, or a stream the reader scrolled away from): stored before it is ever laid
      // out, at an estimated height (a check on the next frame puts back any that is near).
      if (this.#stored.size && this.#long() && this.#stored.has(previousDocument(doc)) && this.#store(doc, 0)) continue;
      this.#watch(doc);
      watched.push(doc);
    }
    // A batch of many (a whole transcript loaded at once): those outside the near band
    // are stored now, measured by one layout, rather than frame after frame.
    if (watched.length > LIVE_DOCUMENTS && this.#long()) this.#storeFar(watched);
    this.#scheduleCheck();
    // Documents replaced by patches leave the set (swept when it has doubled: the cost of
    // a sweep is spread over the insertions since the last).
    if (this.#live.size > 2 * this.#swept) {
      for (const doc of this.#live) if (!doc.isConnected) this.#forget(doc);
      this.#swept = this.#live.size;
    }
  }

  /** Puts back the placeholders the patches about to be applied address: `targets` are
   * `[turn element, document index]` pairs. */
  restoreTargets(targets) {
    if (!this.#stored.size) return;
    for (const [turn, index] of targets) {
      const el = turn.children[index + 1];
      if (el && this.#stored.has(el)) this.restore(el);
    }
  }

  /** The document in place of placeholder `el` (put back), or `el` when it is none. */
  restore(el) {
    const kept = this.#stored.get(el);
    if (!kept) return el;
    const t = document.createElement('template');
    t.innerHTML = trusted(kept.html);
    const doc = t.content.firstElementChild;
    if (!doc) return el;
    this.#stored.delete(el);
    el.replaceWith(doc);
    this.#watch(doc);
    this.#hooks.restored(el, doc, kept);
    return doc;
  }

  /** Every placeholder of `root` (a copy of the conversation, say) replaced by its
   * document's HTML; `original` is the conversation it was copied from. */
  expandCopy(original, copy) {
    if (!this.#stored.size) return;
    const from = original.querySelectorAll('.ds-placeholder');
    const to = copy.querySelectorAll('.ds-placeholder');
    for (let i = 0; i < from.length && i < to.length; i++) {
      const kept = this.#stored.get(from[i]);
      if (!kept) continue;
      const t = document.createElement('template');
      t.innerHTML = trusted(kept.html);
      to[i].replaceWith(t.content);
    }
  }

  #watch(doc) {
    this.#live.add(doc);
    this.#ensureObserver()?.observe(doc);
  }

  #forget(doc) {
    this.#live.delete(doc);
    this.#pending.delete(doc);
    this.#observer?.unobserve(doc);
  }

  /** Placeholders are not observed (an observer's work each frame grows with its
   * targets): while there are any, scrolling anywhere and size changes look for those
   * near the viewport, a binary search over the turns and over each near turn's
   * documents. */
  #listen(on) {
    if (on === this.#listening) return;
    this.#listening = on;
    if (on) document.addEventListener('scroll', this.#onScroll, { capture: true, passive: true });
    else document.removeEventListener('scroll', this.#onScroll, { capture: true });
  }

  #onScroll = () => this.#scheduleCheck();

  #scheduleCheck() {
    if (this.#checkFrame || !this.#stored.size) return;
    this.#checkFrame = requestAnimationFrame(() => {
      this.#checkFrame = 0;
      this.#restoreNear();
    });
  }

  /** Stores the documents among `docs` outside the near band. */
  #storeFar(docs) {
    const [top, bottom] = this.#band();
    const far = [];
    for (const doc of docs) {
      const r = doc.getBoundingClientRect();
      if (r.bottom < top || r.top > bottom) far.push([doc, r.height]);
    }
    for (const [doc, height] of far) this.#store(doc, height);
  }

  /** The near band around the viewport: `[top, bottom]` in viewport coordinates. */
  #band() {
    let top = 0;
    let bottom = innerHeight;
    if (this.#rootIsHost) {
      const r = this.#view.host.getBoundingClientRect();
      top = r.top;
      bottom = r.bottom;
    }
    const margin = NEAR_FACTOR * (bottom - top);
    return [top - margin, bottom + margin];
  }

  /** Puts back the placeholders within the near band around the viewport. */
  #restoreNear() {
    if (!this.#stored.size || !this.#view.host.isConnected) return;
    const [top, bottom] = this.#band();
    const near = [];
    const turns = this.#view.conversation.children;
    for (let i = firstEndingAfter(turns, 0, top); i < turns.length; i++) {
      const turn = turns[i];
      if (turn.getBoundingClientRect().top > bottom) break;
      const kids = turn.children;
      for (let j = firstEndingAfter(kids, 1, top); j < kids.length; j++) {
        const el = kids[j];
        if (el.getBoundingClientRect().top > bottom) break;
        if (this.#stored.has(el)) near.push(el);
      }
    }
    for (const el of near) this.restore(el);
    if (!this.#stored.size) this.#listen(false);
  }

  /** The observer, made with the root of the current mode. */
  #ensureObserver() {
    if (this.#observer) return this.#observer;
    if (typeof IntersectionObserver !== 'function') return null;
    this.#observer = new IntersectionObserver((entries) => this.#seen(entries), {
      root: this.#rootIsHost ? this.#view.host : null,
      rootMargin: `${NEAR_MARGIN} 0px`,
    });
    for (const doc of this.#live) this.#observer.observe(doc);
    return this.#observer;
  }

  /** The host or the conversation changed size (layout is up to date): whether the host
   * scrolls its conversation (a view of fixed height) or grows with it (the page
   * scrolls), which decides what "near" is measured against. */
  #sized() {
    const host = this.#view.host;
    const rootIsHost = host.scrollHeight > host.clientHeight + 1;
    this.#scheduleCheck();
    if (rootIsHost === this.#rootIsHost) return;
    this.#rootIsHost = rootIsHost;
    this.#observer?.disconnect();
    this.#observer = null;
    if (this.#live.size || this.#stored.size) this.#ensureObserver();
  }

  #seen(entries) {
    for (const e of entries) {
      const el = e.target;
      if (!this.#live.has(el)) continue;
      if (!el.isConnected) {
        this.#forget(el);
        continue;
      }
      if (e.isIntersecting) {
        this.#near.add(el);
        this.#pending.delete(el);
        this.#hooks.near(el);
      } else {
        this.#near.delete(el);
        this.#pending.set(el, e.boundingClientRect.height);
      }
    }
    this.#schedule();
  }

  /** Whether the conversation is long enough to be windowed. */
  #long() {
    return this.#live.size + this.#stored.size > LIVE_DOCUMENTS;
  }

  #schedule() {
    if (this.#draining || !this.#pending.size || !this.#long()) return;
    this.#draining = true;
    setTimeout(() => this.#drain(), 0);
  }

  /** Stores far documents, a few milliseconds' worth at a time, so that a load that
   * leaves thousands far from the viewport makes no long task. */
  #drain() {
    this.#draining = false;
    const until = performance.now() + STORE_SLICE_MS;
    for (const [doc, height] of this.#pending) {
      if (!this.#long()) {
        this.#pending.clear();
        break;
      }
      this.#pending.delete(doc);
      if (doc.isConnected && this.#live.has(doc) && !this.#near.has(doc)) this.#store(doc, height);
      if (performance.now() > until) break;
    }
    this.#schedule();
  }

  /** Replaces `doc` by a placeholder of `height` px (0: not measured), unless it must
   * stay; whether it did. */
  #store(doc, height) {
    const view = this.#view;
    if (view.busy && isLastDocument(view.conversation, doc)) return false;
    if (doc.querySelector('.ds-subagent-run')) return false;
    const active = view.root.activeElement;
    if (active && doc.contains(active)) return false;
    const runs = textRuns(doc);
    const entry = this.#hooks.entry(doc);
    const el = document.createElement('div');
    el.className = 'ds-placeholder';
    const id = doc.getAttribute('data-doc-id');
    if (id !== null) el.setAttribute('data-doc-id', id);
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'article');
    el.setAttribute('aria-label', entry.label || entry.type);
    el.hidden = 'until-found';
    if (height > 0) el.style.height = `${Math.round(height)}px`;
    el.textContent = runs.map((r) => r[0]).join('');
    el.addEventListener('beforematch', () => this.#found(el));
    el.addEventListener('focus', () => this.#focused(el));
    this.#stored.set(el, { html: doc.outerHTML, runs, entry });
    this.#forget(doc);
    this.#near.delete(doc);
    this.#hooks.stored(doc);
    doc.replaceWith(el);
    this.#listen(true);
    return true;
  }

  /** The browser's find-in-page found text in a placeholder. */
  #found(el) {
    const doc = this.restore(el);
    if (doc !== el) doc.scrollIntoView({ block: 'center' });
  }

  /** The keyboard reached a placeholder: focus goes into its document. */
  #focused(el) {
    const doc = this.restore(el);
    if (doc === el) return;
    const control = doc.querySelector('summary, button, a[href], [tabindex="0"], input, select, textarea');
    if (control) control.focus();
    else {
      doc.setAttribute('tabindex', '-1');
      doc.focus();
    }
  }
}

/** The index of the first of `list`'s elements from `from` on whose box ends below `y`
 * (viewport coordinates; the elements are in page order), or `list.length`. */
function firstEndingAfter(list, from, y) {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].getBoundingClientRect().bottom > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The element before document `doc` in page order: its previous sibling, or the last
 * child of the turn before (the header when there is none). */
function previousDocument(doc) {
  const prev = doc.previousElementSibling;
  if (prev && prev !== doc.parentElement.firstElementChild) return prev;
  return doc.parentElement.previousElementSibling?.lastElementChild ?? null;
}

/** Whether `doc` is the conversation's last document (the one a stream grows). */
function isLastDocument(conversation, doc) {
  const turn = conversation.lastElementChild;
  return !!turn && doc.parentElement === turn && doc === turn.lastElementChild;
}
