// Windowing for long sessions: a <docstream-view> keeps in its DOM only the documents
// near the viewport. A finished document of a turn that leaves the neighbourhood of the
// viewport is put away: its HTML, its searchable text and its outline entry are kept as
// a record, and consecutive records of a turn share one shelf, an element of their summed
// height (measured, or estimated for a document never laid out). A long turn is thus a
// few dozen elements whatever its length: its header, the documents near the viewport
// and a shelf for each stretch of far documents between them, so that the browser's work
// on an append (style, layout) does not grow with the thread.
//
// A record is put back as its document when it comes near again, when a patch,
// `reveal()`, `find()` or the keyboard (a shelf is a tab stop) reaches it, or when the
// browser's own find-in-page finds its text: a shelf holds its records' text in groups of
// GROUP documents, each an element `hidden="until-found"` with one text node (the text
// stays in the page, unpainted), so a session of any length holds the documents near the
// viewport plus about two nodes per GROUP documents.
//
// Patches address documents by their index in a turn: `locate()` counts a shelf as its
// records (apply.js's `locate` hook) and puts back the one a patch reaches.
//
// Turns are windowed the same way: a turn wholly far from the viewport is put away as a
// record (its element and header as HTML, its documents' records), consecutive ones on a
// shelf of the conversation, so that a session of any number of turns holds a bounded
// DOM too. A turn a patch addresses is put back before the patches apply
// (`beforePatches()`).
//
// What stays in place: the last turn and its last document while a stream is in
// progress, a document or turn holding focus, and a call's sub-agent run and its turn
// (patches insert turns into it).
import { trusted } from './apply.js';
import { eachRecord } from './wire.js';

/** Documents of a conversation kept whole, however far they are, when it has this many or
 * fewer: a short conversation is left as the renderer built it. */
const LIVE_DOCUMENTS = 120;

/** How far beyond the viewport (in viewport heights, above and below) documents count as
 * near. */
const NEAR_FACTOR = 1.5;
const NEAR_MARGIN = `${NEAR_FACTOR * 100}%`;

/** How long one task may store far documents (ms). */
const STORE_SLICE_MS = 8;

/** Records a group of a shelf holds at most: the text the browser's find-in-page searches
 * is one element and one text node per group. */
const GROUP = 16;

/** The height (px) assumed for a document stored before it was ever laid out, until one
 * has been measured (then their average). */
const DEFAULT_HEIGHT = 48;

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
  // Each run's pieces are joined once at the end: a string built piece by piece would
  // be kept as a chain of them (a rope), a node per text node of the document.
  const runs = [];
  const walk = (node, mask) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        if (!n.data) continue;
        const last = runs[runs.length - 1];
        if (last && last[1] === mask) last[0].push(n.data);
        else runs.push([[n.data], mask]);
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
  for (const run of runs) run[0] = run[0].join('');
  return runs;
}

/**
 * The windowing of one view (element-view.js). `hooks.entry(doc)`: a document's outline
 * entry; `hooks.turnEntry(turn)`: a turn's (without its documents); `hooks.near(doc)`: a document came near the viewport (to colour it);
 * `hooks.stored(doc)`: a document was put away; `hooks.turnsStored()`: turns were (their
 * elements are to be let go of); `hooks.restored(record, el)`: a record
 * was put back as its document or turn element.
 *
 * A document's record is `{ id, html, runs, entry, height, group, owner }` (`runs`: its
 * searchable text as textRuns gives it; `group`: null once put back or while its turn is
 * a record, `owner`, itself); a turn's record `{ turn: true, index, tid, shell, runs,
 * entry, recs, height, group }` (`shell`: the HTML of its element and header, `recs`: its
 * documents' records); a group `{ el, recs, sum, shelf }`; a shelf `{ el, groups, count,
 * sum, turns }` (`sum`: its records' heights; `turns`: it holds turns).
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
  /** A document-wide scroll listener is on (while there are records). */
  #listening = false;
  #checkFrame = 0;
  /** Shelves by element. */
  #shelves = new Map();
  /** Groups by element. */
  #groups = new WeakMap();
  /** Records by document id. */
  #byId = new Map();
  /** How many documents are records. */
  #count = 0;
  /** The vertical margin between two documents (px), read from the first one stored. */
  #gap = -1;
  /** The same between two turns. */
  #turnGap = -1;
  /** Turns whole in the DOM and observed (the conversation's children). */
  #liveTurns = new Set();
  /** Turns the observer last saw near the viewport. */
  #nearTurns = new WeakSet();
  /** Far turns to store, with their measured heights. */
  #pendingTurns = new Map();
  /** Turn records by turn index and by turn id. */
  #turnsByIndex = new Map();
  #turnsById = new Map();
  /** How many turns are records. */
  #turnCount = 0;
  /** Heights measured of the documents stored: their sum and count. */
  #measured = [0, 0];
  /** Far documents and turns left whole as the ones a stream grows: observed afresh once
   * something follows them (the observer reports an element only when it crosses the
   * band, so one left then would stay whole for good). */
  #held = new Set();

  constructor(view, hooks) {
    this.#view = view;
    this.#hooks = hooks;
    if (typeof ResizeObserver === 'function') {
      const sizes = new ResizeObserver(() => this.#sized());
      sizes.observe(view.host);
      sizes.observe(view.conversation);
    }
    // Capture: `focus` does not bubble, nor does a page's own `beforematch`.
    view.conversation.addEventListener('beforematch', (e) => this.#found(e.target), { capture: true });
    view.conversation.addEventListener('focus', (e) => this.#focused(e.target, e.relatedTarget), { capture: true });
  }

  /** Whether `doc` is near the viewport (as last observed). */
  isNear(doc) {
    return this.#near.has(doc);
  }

  /** What the outline lists for shelf `el`: its documents' entries, or for a shelf of
   * turns the turns' (`{ index, id, role, label, documents }`); undefined for any other
   * element. */
  outline(el) {
    const shelf = this.#shelves.get(el);
    if (!shelf) return undefined;
    if (!shelf.turns) return records(shelf).map((r) => r.entry);
    return records(shelf).map((t) => ({ ...t.entry, documents: t.recs.map((r) => ({ ...r.entry })) }));
  }

  /** The text `find()` searches in shelf `el`, as `[record, runs]` pairs in page order
   * (a turn's header, then its documents); undefined for any other element. */
  searchable(el) {
    const shelf = this.#shelves.get(el);
    if (!shelf) return undefined;
    if (!shelf.turns) return records(shelf).map((r) => [r, r.runs]);
    const out = [];
    for (const t of records(shelf)) {
      out.push([t, t.runs]);
      for (const r of t.recs) out.push([r, r.runs]);
    }
    return out;
  }

  /** How many documents and turns are records. */
  get size() {
    return this.#count + this.#turnCount;
  }

  /** How many shelves hold them. */
  get shelves() {
    return this.#shelves.size;
  }

  /** The view was emptied. */
  reset() {
    this.#listen(false);
    this.#observer?.disconnect();
    this.#observer = null;
    this.#live.clear();
    this.#swept = 0;
    this.#pending.clear();
    this.#shelves.clear();
    this.#groups = new WeakMap();
    this.#byId.clear();
    this.#count = 0;
    this.#near = new WeakSet();
    this.#liveTurns.clear();
    this.#pendingTurns.clear();
    this.#turnsByIndex.clear();
    this.#turnsById.clear();
    this.#turnCount = 0;
    this.#nearTurns = new WeakSet();
    this.#held.clear();
  }

  /** Patches are about to apply (the wire form, `DocStream.pull()`): the turns they
   * address that are records are put back (and, for a sub-agent's run, the turn of its
   * call). */
  beforePatches(wire) {
    if (!this.#turnCount) return;
    const seen = new Set();
    const want = (index) => {
      if (seen.has(index)) return;
      seen.add(index);
      const rec = this.#turnsByIndex.get(index);
      if (rec) this.#restoreTurn(rec);
    };
    eachRecord(wire, (op, turn, index, part, name, payload) => {
      if (turn < 0) return;
      want(String(turn));
      if (op === 't') {
        const parent = /^[^>]*data-parent-turn="(\d+)"/.exec(payload);
        if (parent) want(parent[1]);
      }
    });
  }

  /** Documents and turns a batch of patches inserted or replaced: the top-level ones are
   * watched. */
  added(docs, turns = []) {
    const conversation = this.#view.conversation;
    for (const el of this.#held) {
      if (el === conversation.lastElementChild || isLastDocument(conversation, el)) continue;
      this.#held.delete(el);
      if (this.#live.has(el) || this.#liveTurns.has(el)) {
        this.#observer?.unobserve(el);
        this.#observer?.observe(el);
      }
    }
    const watchedTurns = [];
    for (const turn of turns) {
      if (!turn.isConnected || turn.parentElement !== conversation) continue;
      this.#watchTurn(turn);
      watchedTurns.push(turn);
    }
    const watched = [];
    for (const doc of docs) {
      if (!doc.isConnected || doc.parentElement?.parentElement !== conversation) continue;
      // A document added after one kept out of the DOM is far from the viewport too (a
      // load, or a stream the reader scrolled away from): stored before it is ever laid
      // out, at an estimated height (a check on the next frame puts back any that is near).
      if (this.#count && this.#long() && this.#shelves.has(previousDocument(doc)) && this.#store(doc, 0)) continue;
      this.#watch(doc);
      watched.push(doc);
    }
    // A batch of many (a whole transcript loaded at once): those outside the near band
    // are stored now, measured by one layout, rather than frame after frame.
    if ((watched.length > LIVE_DOCUMENTS || watchedTurns.length > LIVE_DOCUMENTS) && this.#long()) this.#storeFar(watched, watchedTurns);
    this.#scheduleCheck();
    // Documents replaced by patches leave the set (swept when it has doubled: the cost of
    // a sweep is spread over the insertions since the last).
    if (this.#live.size + this.#liveTurns.size > 2 * this.#swept) {
      for (const doc of this.#live) if (!doc.isConnected) this.#forget(doc);
      for (const turn of this.#liveTurns) if (!turn.isConnected) this.#forgetTurn(turn);
      this.#swept = this.#live.size + this.#liveTurns.size;
    }
  }

  /** The document at `index` (0-based, after the header) of turn element `turn`, put back
   * when it is a record; null past the end. A shelf counts as the records it holds, so
   * the walk is over the turn's few elements, not its documents. */
  locate(turn, index) {
    if (!this.#count) return turn.children[index + 1] ?? null;
    let i = 0;
    for (let el = turn.firstElementChild?.nextElementSibling; el; el = el.nextElementSibling) {
      const shelf = this.#shelves.get(el);
      if (!shelf) {
        if (i === index) return el;
        i++;
        continue;
      }
      if (index < i + shelf.count) return this.#restore(recordAt(shelf, index - i));
      i += shelf.count;
    }
    return null;
  }

  /** `reveal()` is about to look for `target` (a document id, or `{ turn, document }`):
   * the document it names is put back when it is a record. */
  reveal(target) {
    if (!this.size) return;
    if (typeof target !== 'string') {
      if (target?.turn == null) return;
      const turn = this.#turnsByIndex.get(String(target.turn));
      if (turn) this.#restoreTurn(turn);
    }
    const id = typeof target === 'string' ? target : target.document;
    if (id == null) return;
    const rec = this.#byId.get(String(id));
    if (rec) this.#restore(rec);
    else if (typeof target === 'string') {
      const turn = this.#turnsById.get(target);
      if (turn) this.#restoreTurn(turn);
    }
  }

  /** The document or turn in place of record `rec` (put back), or `rec` itself when it
   * is an element (already whole); null when it cannot be put back. */
  restore(rec) {
    if (rec instanceof Element) return rec;
    return rec?.turn ? this.#restoreTurn(rec) : this.#restore(rec);
  }

  /** Every shelf of `copy` (a copy of the conversation `original`) replaced by its
   * documents' HTML. */
  expandCopy(original, copy) {
    if (!this.size) return;
    const from = original.querySelectorAll('.ds-placeholder');
    const to = copy.querySelectorAll('.ds-placeholder');
    for (let i = 0; i < from.length && i < to.length; i++) {
      const shelf = this.#shelves.get(from[i]);
      if (!shelf) continue;
      const t = document.createElement('template');
      const html = (recs) => recs.map((r) => r.html).join('');
      t.innerHTML = trusted(
        shelf.turns
          ? records(shelf)
              .map((turn) => {
                // The turn's documents go before its element's end tag.
                const cut = turn.shell.lastIndexOf('</');
                return turn.shell.slice(0, cut) + html(turn.recs) + turn.shell.slice(cut);
              })
              .join('')
          : html(records(shelf)),
      );
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

  #watchTurn(turn) {
    this.#liveTurns.add(turn);
    this.#ensureObserver()?.observe(turn);
  }

  #forgetTurn(turn) {
    this.#liveTurns.delete(turn);
    this.#pendingTurns.delete(turn);
    this.#nearTurns.delete(turn);
    this.#observer?.unobserve(turn);
  }

  /** Shelves are not observed (an observer's work each frame grows with its targets):
   * while there are any, scrolling anywhere and size changes look for records near the
   * viewport, a binary search over the turns and over each near turn's elements, then
   * down a near shelf's heights. */
  #listen(on) {
    if (on === this.#listening) return;
    this.#listening = on;
    if (on) document.addEventListener('scroll', this.#onScroll, { capture: true, passive: true });
    else document.removeEventListener('scroll', this.#onScroll, { capture: true });
  }

  #onScroll = () => this.#scheduleCheck();

  #scheduleCheck() {
    if (this.#checkFrame || !this.size) return;
    this.#checkFrame = requestAnimationFrame(() => {
      this.#checkFrame = 0;
      this.#restoreNear();
    });
  }

  /** Stores the documents among `docs` and the turns among `turns` outside the near
   * band (all measured first, by one layout). */
  #storeFar(docs, turns) {
    const [top, bottom] = this.#band();
    const far = [];
    const farTurns = [];
    for (const doc of docs) {
      const r = doc.getBoundingClientRect();
      if (r.bottom < top || r.top > bottom) far.push([doc, r.height]);
    }
    for (const turn of turns) {
      const r = turn.getBoundingClientRect();
      if (r.bottom < top || r.top > bottom) farTurns.push([turn, r.height]);
    }
    for (const [doc, height] of far) this.#store(doc, height);
    let stored = false;
    for (const [turn, height] of farTurns) stored = this.#storeTurn(turn, height) || stored;
    if (stored) this.#hooks.turnsStored();
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

  /** Puts back the records within the near band around the viewport: turns on the
   * conversation's shelves, documents on the shelves of its turns. */
  #restoreNear() {
    if (!this.size || !this.#view.host.isConnected) return;
    const [top, bottom] = this.#band();
    const near = [];
    const nearTurns = [];
    const turns = this.#view.conversation.children;
    for (let i = firstEndingAfter(turns, 0, top); i < turns.length; i++) {
      const turn = turns[i];
      const box = turn.getBoundingClientRect();
      if (box.top > bottom) break;
      const turnShelf = this.#shelves.get(turn);
      if (turnShelf) {
        this.#nearOnShelf(turnShelf, box.top, top, bottom, nearTurns);
        continue;
      }
      const kids = turn.children;
      for (let j = firstEndingAfter(kids, 1, top); j < kids.length; j++) {
        const el = kids[j];
        const r = el.getBoundingClientRect();
        if (r.top > bottom) break;
        const shelf = this.#shelves.get(el);
        if (shelf) this.#nearOnShelf(shelf, r.top, top, bottom, near);
      }
    }
    // Scrolling puts back up to a band's worth a frame: as many far ones go away in the
    // same frame, so the DOM stays level however fast the reader scrolls.
    if (near.length) this.#storePending(Infinity, near.length);
    for (const rec of near) this.#restore(rec);
    // A turn put back brings its documents' shelf: those near are put back next frame.
    for (const rec of nearTurns) this.#restoreTurn(rec);
    if (!this.size) this.#listen(false);
  }

  /** The records of `shelf` (its top at `y`) within `[top, bottom]`, added to `out`:
   * down its heights, whole groups above the band skipped by their sums. */
  #nearOnShelf(shelf, y, top, bottom, out) {
    const gap = Math.max(shelf.turns ? this.#turnGap : this.#gap, 0);
    for (const g of shelf.groups) {
      const h = g.sum + gap * g.recs.length;
      if (y + h < top) {
        y += h;
        continue;
      }
      for (const rec of g.recs) {
        if (y > bottom) return;
        if (y + rec.height >= top) out.push(rec);
        y += rec.height + gap;
      }
      if (y > bottom) return;
    }
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
    for (const turn of this.#liveTurns) this.#observer.observe(turn);
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
    if (this.#live.size || this.#liveTurns.size || this.size) this.#ensureObserver();
  }

  #seen(entries) {
    for (const e of entries) {
      const el = e.target;
      if (this.#liveTurns.has(el)) {
        if (!el.isConnected) this.#forgetTurn(el);
        else if (e.isIntersecting) {
          this.#nearTurns.add(el);
          this.#pendingTurns.delete(el);
        } else {
          this.#nearTurns.delete(el);
          this.#pendingTurns.set(el, e.boundingClientRect.height);
        }
        continue;
      }
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

  /** Whether the conversation is long enough to be windowed (in documents or in turns). */
  #long() {
    return this.#live.size + this.#count > LIVE_DOCUMENTS || this.#liveTurns.size + this.#turnCount > LIVE_DOCUMENTS;
  }

  #schedule() {
    if (this.#draining || !(this.#pending.size || this.#pendingTurns.size) || !this.#long()) return;
    this.#draining = true;
    setTimeout(() => this.#drain(), 0);
  }

  /** Stores far documents, a few milliseconds' worth at a time, so that a load that
   * leaves thousands far from the viewport makes no long task; more at a time (up to
   * 48 ms) while more are whole than the window keeps, so that scrolling, which puts
   * back a viewport's worth a frame, cannot outrun it and grow the DOM. */
  #drain() {
    this.#draining = false;
    const until = performance.now() + Math.min(48, STORE_SLICE_MS * Math.max(1, this.#live.size / LIVE_DOCUMENTS));
    this.#storePending(until, Infinity);
    if (performance.now() <= until) {
      let stored = false;
      for (const [turn, height] of this.#pendingTurns) {
        if (!this.#long()) {
          this.#pendingTurns.clear();
          break;
        }
        this.#pendingTurns.delete(turn);
        if (turn.isConnected && this.#liveTurns.has(turn) && !this.#nearTurns.has(turn)) stored = this.#storeTurn(turn, height) || stored;
        if (performance.now() > until) break;
      }
      if (stored) this.#hooks.turnsStored();
    }
    this.#schedule();
  }

  /** Stores far documents the observer reported, until `until` (performance.now()) or
   * `most` of them. */
  #storePending(until, most) {
    for (const [doc, height] of this.#pending) {
      if (!this.#long()) {
        this.#pending.clear();
        break;
      }
      this.#pending.delete(doc);
      if (doc.isConnected && this.#live.has(doc) && !this.#near.has(doc) && this.#store(doc, height) && !--most) break;
      if (performance.now() > until) break;
    }
  }

  /** Puts `doc` away as a record of `height` px (0: not measured, estimated) on the shelf
   * before or after it, or a new one, unless it must stay; whether it did. */
  #store(doc, height) {
    const view = this.#view;
    if (view.busy && isLastDocument(view.conversation, doc)) return !this.#held.add(doc);
    if (doc.querySelector('.ds-subagent-run')) return false;
    const active = view.root.activeElement;
    if (active && doc.contains(active)) return false;
    this.#shelve(doc, this.#record(doc, height), false);
    return true;
  }

  /** The record of document `doc`, `height` px high (0: not measured, estimated), which
   * leaves the observer's watch (the caller takes it out of the DOM). */
  #record(doc, height) {
    if (this.#gap < 0) this.#gap = parseFloat(getComputedStyle(doc).marginBottom) || 0;
    const measured = this.#measured;
    if (height > 0) {
      measured[0] += height;
      measured[1]++;
    } else height = measured[1] ? measured[0] / measured[1] : DEFAULT_HEIGHT;
    const id = doc.getAttribute('data-doc-id');
    const rec = { id, html: doc.outerHTML, runs: textRuns(doc), entry: this.#hooks.entry(doc), height, group: null, owner: null };
    this.#forget(doc);
    this.#near.delete(doc);
    this.#hooks.stored(doc);
    if (id !== null) this.#byId.set(id, rec);
    this.#count++;
    return rec;
  }

  /** `el` (a document, or a turn when `turns`) replaced by record `rec` on the shelf
   * before or after it, or on a new one. */
  #shelve(el, rec, turns) {
    const before = this.#shelves.get(el.previousElementSibling);
    const after = this.#shelves.get(el.nextElementSibling);
    if (before) {
      el.remove();
      this.#append(before, rec);
      if (after) this.#merge(before, after);
    } else if (after) {
      el.remove();
      this.#prepend(after, rec);
    } else {
      const shelf = this.#newShelf([this.#newGroup([rec])], turns);
      el.replaceWith(shelf.el);
    }
    this.#listen(true);
  }

  /** Puts turn element `turn` away as a record of `height` px (its documents' records
   * with it), unless it must stay; whether it did. */
  #storeTurn(turn, height) {
    const view = this.#view;
    const header = turn.firstElementChild;
    if (!header) return false;
    if (view.busy && turn === view.conversation.lastElementChild) return !this.#held.add(turn);
    if (turn.querySelector('.ds-subagent-run')) return false;
    const active = view.root.activeElement;
    if (active && turn.contains(active)) return false;
    if (this.#turnGap < 0) this.#turnGap = parseFloat(getComputedStyle(turn).marginBottom) || 0;
    const recs = [];
    for (let el = header.nextElementSibling; el; el = el.nextElementSibling) {
      const shelf = this.#shelves.get(el);
      if (shelf) {
        this.#shelves.delete(el);
        for (const rec of records(shelf)) {
          rec.group = null;
          recs.push(rec);
        }
      } else recs.push(this.#record(el, 0));
    }
    const shell = turn.cloneNode(false);
    shell.append(header.cloneNode(true));
    const rec = {
      turn: true,
      index: turn.getAttribute('data-turn-index') ?? '',
      tid: header.getAttribute('data-turn-id'),
      shell: shell.outerHTML,
      runs: textRuns(header),
      entry: this.#hooks.turnEntry(turn),
      recs,
      height: height > 0 ? height : DEFAULT_HEIGHT,
      group: null,
    };
    for (const r of recs) r.owner = rec;
    this.#forgetTurn(turn);
    this.#shelve(turn, rec, true);
    this.#turnsByIndex.set(rec.index, rec);
    if (rec.tid !== null) this.#turnsById.set(rec.tid, rec);
    this.#turnCount++;
    return true;
  }

  /** Turn record `rec` put back as its element (which is returned), its documents on a
   * shelf in it (those near the viewport are put back by the next check); null when it
   * cannot be. */
  #restoreTurn(rec) {
    if (!rec?.group) return null;
    const t = document.createElement('template');
    t.innerHTML = trusted(rec.shell);
    const turn = t.content.firstElementChild;
    if (!turn) return null;
    if (rec.recs.length) {
      const groups = [];
      for (let i = 0; i < rec.recs.length; i += GROUP) groups.push(this.#newGroup(rec.recs.slice(i, i + GROUP)));
      for (const r of rec.recs) r.owner = null;
      turn.append(this.#newShelf(groups, false).el);
    }
    this.#takeOut(rec, turn);
    if (this.#turnsByIndex.get(rec.index) === rec) this.#turnsByIndex.delete(rec.index);
    if (rec.tid !== null && this.#turnsById.get(rec.tid) === rec) this.#turnsById.delete(rec.tid);
    this.#turnCount--;
    this.#watchTurn(turn);
    this.#hooks.restored(rec, turn);
    this.#scheduleCheck();
    return turn;
  }

  /** Record `rec` put back as its document (which is returned), in its place on its
   * shelf; null when it cannot be. */
  #restore(rec) {
    if (rec?.owner) this.#restoreTurn(rec.owner);
    if (!rec?.group) return null;
    const t = document.createElement('template');
    t.innerHTML = trusted(rec.html);
    const doc = t.content.firstElementChild;
    if (!doc) return null;
    this.#takeOut(rec, doc);
    if (rec.id !== null && this.#byId.get(rec.id) === rec) this.#byId.delete(rec.id);
    this.#count--;
    this.#watch(doc);
    this.#hooks.restored(rec, doc);
    if (!this.size) this.#listen(false);
    return doc;
  }

  // ---- shelves and groups ----

  /** A group of records (consecutive on one shelf): an element `hidden="until-found"`
   * with their text. */
  #newGroup(recs) {
    const el = document.createElement('div');
    el.hidden = 'until-found';
    const g = { el, recs, sum: 0, shelf: null };
    this.#refill(g);
    this.#groups.set(el, g);
    return g;
  }

  /** A group's text and sum made again from its records. */
  #refill(g) {
    let sum = 0;
    for (const rec of g.recs) {
      rec.group = g;
      sum += rec.height;
    }
    g.sum = sum;
    g.el.textContent = g.recs.map(searchable).join('\n');
  }

  /** A shelf holding `groups` (not on the page yet), of turns when `turns`. */
  #newShelf(groups, turns) {
    const el = document.createElement('div');
    el.className = turns ? 'ds-placeholder ds-placeholder-turns' : 'ds-placeholder';
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'article');
    const shelf = { el, groups, count: 0, sum: 0, turns };
    const frag = document.createDocumentFragment();
    for (const g of groups) {
      g.shelf = shelf;
      shelf.count += g.recs.length;
      shelf.sum += g.sum;
      frag.append(g.el);
    }
    el.append(frag);
    this.#shelves.set(el, shelf);
    this.#sizeShelf(shelf);
    return shelf;
  }

  /** A shelf's height (its records' and the margins between them) and label (its first
   * record's). */
  #sizeShelf(shelf) {
    const gap = Math.max(shelf.turns ? this.#turnGap : this.#gap, 0);
    shelf.el.style.height = `${Math.round(shelf.sum + gap * (shelf.count - 1))}px`;
    const first = shelf.groups[0]?.recs[0]?.entry;
    const label = first ? first.label || first.type || first.role : '';
    if (shelf.el.getAttribute('aria-label') !== label) shelf.el.setAttribute('aria-label', label);
  }

  /** `rec` added at the end of `shelf`. */
  #append(shelf, rec) {
    const last = shelf.groups[shelf.groups.length - 1];
    if (last && last.recs.length < GROUP) {
      last.recs.push(rec);
      rec.group = last;
      last.sum += rec.height;
      last.el.firstChild ? last.el.firstChild.appendData(`\n${searchable(rec)}`) : (last.el.textContent = searchable(rec));
    } else {
      const g = this.#newGroup([rec]);
      g.shelf = shelf;
      shelf.groups.push(g);
      shelf.el.append(g.el);
    }
    shelf.count++;
    shelf.sum += rec.height;
    this.#sizeShelf(shelf);
  }

  /** `rec` added at the start of `shelf`. */
  #prepend(shelf, rec) {
    const first = shelf.groups[0];
    if (first && first.recs.length < GROUP) {
      first.recs.unshift(rec);
      rec.group = first;
      first.sum += rec.height;
      first.el.firstChild ? first.el.firstChild.insertData(0, `${searchable(rec)}\n`) : (first.el.textContent = searchable(rec));
    } else {
      const g = this.#newGroup([rec]);
      g.shelf = shelf;
      shelf.groups.unshift(g);
      shelf.el.prepend(g.el);
    }
    shelf.count++;
    shelf.sum += rec.height;
    this.#sizeShelf(shelf);
  }

  /** Shelf `b`, just after shelf `a`, joined to it: the groups of the smaller move. */
  #merge(a, b) {
    // The groups where they meet become one when they fit in one.
    const tail = a.groups[a.groups.length - 1];
    const head = b.groups[0];
    if (tail && head && tail.recs.length + head.recs.length <= GROUP) {
      tail.recs = tail.recs.concat(head.recs);
      this.#refill(tail);
      head.el.remove();
      b.groups.shift();
    }
    const [keep, drop] = a.groups.length >= b.groups.length ? [a, b] : [b, a];
    const frag = document.createDocumentFragment();
    for (const g of drop.groups) {
      g.shelf = keep;
      frag.append(g.el);
    }
    if (keep === a) {
      keep.el.append(frag);
      keep.groups = keep.groups.concat(drop.groups);
    } else {
      keep.el.prepend(frag);
      keep.groups = drop.groups.concat(keep.groups);
    }
    keep.count += drop.count;
    keep.sum += drop.sum;
    this.#shelves.delete(drop.el);
    drop.el.remove();
    this.#sizeShelf(keep);
  }

  /** Record `rec` taken off its shelf, `doc` put in its place: the shelf splits in two
   * around it (the element stays with the side of more groups; the other side's groups
   * move to a new shelf), or goes when `rec` was its only record. */
  #takeOut(rec, doc) {
    const g = rec.group;
    const shelf = g.shelf;
    const at = shelf.groups.indexOf(g);
    const k = g.recs.indexOf(rec);
    const leftRecs = g.recs.slice(0, k);
    const rightRecs = g.recs.slice(k + 1);
    const left = shelf.groups.slice(0, at);
    const right = shelf.groups.slice(at + 1);
    rec.group = null;
    if (leftRecs.length) {
      g.recs = leftRecs;
      this.#refill(g);
      left.push(g);
      if (rightRecs.length) right.unshift(this.#newGroup(rightRecs));
    } else if (rightRecs.length) {
      g.recs = rightRecs;
      this.#refill(g);
      right.unshift(g);
    } else g.el.remove();
    const keepLeft = left.length >= right.length;
    const kept = keepLeft ? left : right;
    const moved = keepLeft ? right : left;
    if (!kept.length) {
      // `rec` was the shelf's only record.
      this.#shelves.delete(shelf.el);
      shelf.el.replaceWith(doc);
      return;
    }
    const other = moved.length ? this.#newShelf(moved, shelf.turns) : null;
    shelf.groups = kept;
    shelf.count = 0;
    shelf.sum = 0;
    for (const kg of kept) {
      kg.shelf = shelf;
      shelf.count += kg.recs.length;
      shelf.sum += kg.sum;
    }
    // A group made for the side that stays (the right one's first) goes in first.
    if (kept[0].el.parentNode !== shelf.el) shelf.el.prepend(kept[0].el);
    this.#sizeShelf(shelf);
    if (keepLeft) {
      shelf.el.after(doc);
      if (other) doc.after(other.el);
    } else {
      shelf.el.before(doc);
      if (other) doc.before(other.el);
    }
  }

  /** The browser's find-in-page found text in a group: its records are put back (the
   * group goes), and the first of them scrolled to. */
  #found(target) {
    const g = this.#groups.get(target);
    if (!g?.shelf) return;
    let first = null;
    for (const rec of [...g.recs]) {
      const doc = this.restore(rec);
      first ??= doc;
    }
    first?.scrollIntoView({ block: 'center' });
  }

  /** The keyboard reached a shelf: focus goes into the document or turn of its first
   * record (its last when focus came from below, Shift+Tab). */
  #focused(target, from) {
    const shelf = this.#shelves.get(target);
    if (!shelf) return;
    this.#enter(shelf, !!from && !!(target.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING));
  }

  /** Focus into the first record of `shelf` (the last when `back`), put back: its first
   * control (last), or itself; in a turn that may be the shelf of its documents, entered
   * the same way. */
  #enter(shelf, back) {
    const groups = shelf.groups;
    const last = groups[groups.length - 1];
    const el = this.restore(back ? last.recs[last.recs.length - 1] : groups[0].recs[0]);
    if (!el) return;
    const controls = el.querySelectorAll('summary, button, a[href], [tabindex="0"], input, select, textarea');
    const control = back ? controls[controls.length - 1] : controls[0];
    const inner = control && this.#shelves.get(control);
    if (inner) this.#enter(inner, back);
    else if (control) control.focus();
    else {
      el.setAttribute('tabindex', '-1');
      el.focus();
    }
  }
}

/** A shelf's records in page order. */
function records(shelf) {
  const out = [];
  for (const g of shelf.groups) for (const rec of g.recs) out.push(rec);
  return out;
}

/** The record at `offset` (0-based) on `shelf`. */
function recordAt(shelf, offset) {
  for (const g of shelf.groups) {
    if (offset < g.recs.length) return g.recs[offset];
    offset -= g.recs.length;
  }
  return null;
}

/** A record's text for the browser's find-in-page (a turn's: its header's and its
 * documents'). */
function searchable(rec) {
  let s = '';
  for (const r of rec.runs) s += r[0];
  if (rec.turn) for (const doc of rec.recs) s += `\n${searchable(doc)}`;
  return s;
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
