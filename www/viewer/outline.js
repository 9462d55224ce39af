// The outline beside the transcript, from <docstream-view>'s `outline()`: one entry per
// user prompt and, under it, the file edits, terminal commands and plans of the answers
// that follow, with counts. Activating an entry (click, Enter or Space) reveals it in the
// view.
//
// The list is virtual, so that it builds in the same few milliseconds at any length: every
// entry is a row of a fixed height, laid out from a prefix sum of the heights; only the
// rows near the outline's viewport (and the row that has the keyboard) are in the DOM, in
// a list as tall as all of them. It is an ARIA tree: prompts at level 1, their documents at
// level 2, each with aria-setsize / aria-posinset since most of its siblings are not in the
// DOM. The tree takes Tab and points at its active row with aria-activedescendant (the
// row that has the keyboard is always in the DOM): arrows, Home/End and PageUp/PageDown
// move through every entry, building its row as it is reached, with no layout read per
// key (the scroll that follows is made at the next frame).

/** The documents listed, by type. */
const KINDS = {
  file_edit: { kind: 'edit', one: 'edit', many: 'edits', fallback: 'file edit' },
  terminal_command: { kind: 'run', one: 'command', many: 'commands', fallback: 'command' },
  plan: { kind: 'plan', one: 'plan', many: 'plans', fallback: 'plan' },
};
// A file edit that was rejected or failed is listed, but not as an applied edit.
const NOT_APPLIED = { kind: 'not applied', one: 'edit not applied', many: 'edits not applied' };
const COUNTED = [...Object.values(KINDS), NOT_APPLIED];

/** Row heights (px): a prompt's label line, its counts line, a document's line. The
 * stylesheet's `.outline-list [role=treeitem]` rules set the same line heights. */
const LABEL_PX = 22;
const COUNTS_PX = 18;
const ITEM_PX = 22;
/** Rows kept in the DOM above and below those in view. */
const OVERSCAN = 12;
/** Rows built when the list's viewport is not known (not laid out yet). */
const UNLAID = 40;

function short(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Per document type listed, its kind's index in COUNTED. */
const KIND_INDEX = Object.fromEntries(Object.keys(KINDS).map((t, i) => [t, i]));
const NOT_APPLIED_INDEX = COUNTED.length - 1;

/** "3 edits · 2 commands" from counts per kind (indexed as COUNTED). */
function countsOf(c) {
  return COUNTED.map((k, i) => (c[i] ? `${c[i]} ${c[i] === 1 ? k.one : k.many}` : '')).filter(Boolean).join(' · ');
}

/** The outline shown per list: a newer build replaces the one before. */
const builds = new WeakMap();

/** Rebuilds the outline list from the view's outline; returns the view's outline. Keeps
 * the entry that has the keyboard (and focus, if the list had it) across rebuilds. The
 * work is one pass over the outline into flat arrays, then the rows in view. */
export function buildOutline(view, list, summary) {
  const outline = view.outline();
  // Per group (a prompt, a compaction, or the responses before the first prompt).
  const groups = { turn: [], label: [], number: [], first: [] };
  // Per document listed: its turn, the document, its kind (an index in COUNTED).
  const items = { turn: [], doc: [], kind: [] };
  const total = COUNTED.map(() => 0);
  let prompts = 0;
  for (const turn of outline.turns) {
    // A compacted context is an entry of its own, as the page's divider is: what follows
    // it is listed under it, and it is no prompt (not numbered, not counted as one).
    const compaction = turn.role === 'compaction';
    if (turn.role === 'user' || compaction || !groups.turn.length) {
      let label = 'Response';
      if (turn.role === 'user') label = turn.label || 'Prompt';
      else if (compaction) label = turn.label || 'Context compacted';
      groups.turn.push(turn.index);
      groups.label.push(label);
      groups.number.push(compaction ? 0 : ++prompts);
      groups.first.push(items.turn.length);
    }
    for (const doc of turn.documents) {
      const k = KIND_INDEX[doc.type];
      if (k === undefined) continue;
      const applied = !(doc.type === 'file_edit' && (doc.status === 'rejected' || doc.status === 'error'));
      const kind = applied ? k : NOT_APPLIED_INDEX;
      items.turn.push(turn.index);
      items.doc.push(doc);
      items.kind.push(kind);
      total[kind]++;
    }
  }
  groups.first.push(items.turn.length);

  const before = builds.get(list);
  const keep = before?.activeKey() ?? null;
  const hadFocus = list.contains(document.activeElement);
  before?.stop();
  const tree = new Tree(view, list, groups, items);
  builds.set(list, tree);
  tree.start(keep, hadFocus);
  const n = groups.turn.length;
  const compactions = n - prompts;
  const parts = [
    `${prompts} ${prompts === 1 ? 'prompt' : 'prompts'}`,
    compactions ? `${compactions} ${compactions === 1 ? 'compaction' : 'compactions'}` : '',
    countsOf(total),
  ];
  summary.textContent = n ? parts.filter(Boolean).join(' · ') : 'Nothing loaded.';
  return outline;
}

/** The outline shown in `list`, if any (for tests and tools): its number of rows and a
 * way to move the keyboard to one. */
export function outlineOf(list) {
  return builds.get(list) ?? null;
}

/** A virtual tree of the groups' entries in `list`. */
class Tree {
  #view;
  #list;
  #groups;
  #items;
  /** Per row: its group, and its document (-1: the group's own entry). */
  #rowGroup;
  #rowItem;
  /** Per row, its top (px); one more entry for the bottom of the last. */
  #tops;
  /** Per group, its row. */
  #groupRow;
  /** Per group whose entry was shown, its counts' text. */
  #counts = new Map();
  /** The row that takes Tab and arrow keys. */
  #active = 0;
  /** Rows in the DOM, by row. */
  #shown = new Map();
  #scrollers = [];
  #frame = 0;
  /** Where the list is seen, as last measured (#measure) and moved by the scrolls asked
   * for since; `box` scrolls it, `at` is its scroll position. */
  #seen = null;
  /** A scroll to `#seen.at` is to be made at the next frame. */
  #scrollDue = false;
  #stopped = false;
  #resize = null;

  constructor(view, list, groups, items) {
    this.#view = view;
    this.#list = list;
    this.#groups = groups;
    this.#items = items;
    const ng = groups.turn.length;
    const rows = ng + items.turn.length;
    this.#rowGroup = new Int32Array(rows);
    this.#rowItem = new Int32Array(rows);
    this.#tops = new Float64Array(rows + 1);
    this.#groupRow = new Int32Array(ng);
    let r = 0;
    let y = 0;
    for (let g = 0; g < ng; g++) {
      const first = groups.first[g];
      const end = groups.first[g + 1];
      this.#groupRow[g] = r;
      this.#rowGroup[r] = g;
      this.#rowItem[r] = -1;
      this.#tops[r++] = y;
      y += LABEL_PX + (end > first ? COUNTS_PX : 0);
      for (let i = first; i < end; i++) {
        this.#rowGroup[r] = g;
        this.#rowItem[r] = i;
        this.#tops[r++] = y;
        y += ITEM_PX;
      }
    }
    this.#tops[rows] = y;
    this.onScroll = () => this.#schedule();
    this.onKey = (e) => this.#key(e);
    this.onClick = (e) => {
      const row = e.target.closest?.('[role="treeitem"]');
      if (!row || !this.#list.contains(row)) return;
      this.moveTo(Number(row.dataset.row), { focus: true });
      this.#activate(Number(row.dataset.row));
    };
  }

  /** The number of rows (every prompt, compaction and document listed). */
  get rows() {
    return this.#rowGroup.length;
  }

  /** Shows the rows in view, with the one of `keep` (`{ turn, doc }`) active if it is
   * still listed, focused if `focus`. */
  start(keep, focus) {
    const list = this.#list;
    list.setAttribute('role', 'tree');
    list.setAttribute('aria-labelledby', 'outline-heading');
    list.tabIndex = this.rows ? 0 : -1;
    list.style.position = 'relative';
    list.style.height = `${this.#tops[this.rows]}px`;
    list.replaceChildren();
    list.addEventListener('keydown', this.onKey);
    list.addEventListener('click', this.onClick);
    // The outline scrolls in its own box, or (on a narrow screen) with the page.
    const nav = list.closest('.outline');
    this.#scrollers = [nav, window].filter(Boolean);
    for (const s of this.#scrollers) s.addEventListener('scroll', this.onScroll, { passive: true });
    if (typeof ResizeObserver === 'function' && nav) {
      this.#resize = new ResizeObserver(() => this.#schedule());
      this.#resize.observe(nav);
    }
    if (keep) this.#active = this.#find(keep);
    this.#render(this.#measure());
    if (this.rows) list.setAttribute('aria-activedescendant', `outline-row-${this.#active}`);
    else list.removeAttribute('aria-activedescendant');
    if (focus && document.activeElement !== list) list.focus({ preventScroll: true });
  }

  /** Ends this tree (a newer build replaces it). */
  stop() {
    this.#stopped = true;
    cancelAnimationFrame(this.#frame);
    this.#list.removeEventListener('keydown', this.onKey);
    this.#list.removeEventListener('click', this.onClick);
    for (const s of this.#scrollers) s.removeEventListener('scroll', this.onScroll);
    this.#resize?.disconnect();
  }

  /** The active row's entry, as `{ turn, doc }` (doc null for a prompt's entry). */
  activeKey() {
    if (!this.rows) return null;
    return this.#key_(this.#active);
  }

  /** Row `r`'s entry, as `{ turn, doc }`. */
  #key_(r) {
    const i = this.#rowItem[r];
    if (i < 0) return { turn: this.#groups.turn[this.#rowGroup[r]], doc: null };
    return { turn: this.#items.turn[i], doc: this.#items.doc[i].id };
  }

  /** Makes `row` the active one, scrolls it into the outline's view and, with `focus`,
   * gives it the keyboard. */
  moveTo(row, { focus = false } = {}) {
    if (!this.rows) return;
    this.#shown.get(this.#active)?.classList.remove('active');
    this.#active = Math.max(0, Math.min(this.rows - 1, row));
    // The scroll is made at the next frame: no layout is read or forced here, so that a
    // held arrow key costs the rows that change, not a layout of the page per row.
    const seen = this.#seen ?? this.#measure();
    if (seen.laid) {
      const top = this.#tops[this.#active];
      const bottom = this.#tops[this.#active + 1];
      let dy = 0;
      if (top < seen.top) dy = top - seen.top;
      else if (bottom > seen.bottom) dy = Math.min(top - seen.top, bottom - seen.bottom);
      if (dy) {
        seen.top += dy;
        seen.bottom += dy;
        seen.at += dy;
        this.#scrollDue = true;
        this.#schedule();
      }
    }
    this.#render(seen);
    const el = this.#shown.get(this.#active);
    el.classList.add('active');
    this.#list.setAttribute('aria-activedescendant', el.id);
    if (focus && document.activeElement !== this.#list) this.#list.focus({ preventScroll: true });
  }

  #find({ turn, doc }) {
    const t = Number(turn);
    for (let r = 0; r < this.rows; r++) {
      const i = this.#rowItem[r];
      if (doc ? i >= 0 && this.#items.turn[i] === t && this.#items.doc[i].id === doc : i < 0 && this.#groups.turn[this.#rowGroup[r]] === t) return r;
    }
    return 0;
  }

  #activate(row) {
    const { turn, doc } = this.#key_(row);
    this.#view.reveal({ turn, document: doc ?? undefined });
  }

  #key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = this.#active;
    const page = Math.max(1, Math.floor((this.#seen ?? this.#measure()).height / ITEM_PX) - 1);
    let to = null;
    switch (e.key) {
      case 'ArrowDown': to = row + 1; break;
      case 'ArrowUp': to = row - 1; break;
      case 'Home': to = 0; break;
      case 'End': to = this.rows - 1; break;
      case 'PageDown': to = row + page; break;
      case 'PageUp': to = row - page; break;
      // Into a prompt's documents, and back to the prompt.
      case 'ArrowRight': to = this.#rowItem[row] < 0 && row + 1 < this.rows && this.#rowGroup[row + 1] === this.#rowGroup[row] ? row + 1 : row; break;
      case 'ArrowLeft': to = this.#groupRow[this.#rowGroup[row]]; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        this.#activate(row);
        return;
      default: return;
    }
    e.preventDefault();
    this.moveTo(to, { focus: true });
  }

  #schedule() {
    if (this.#frame || this.#stopped) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      if (this.#stopped) return;
      if (this.#scrollDue && this.#seen) {
        const { box, at } = this.#seen;
        if (box === window) window.scrollTo({ top: at, behavior: 'instant' });
        else box.scrollTop = at;
      }
      this.#scrollDue = false;
      this.#render(this.#measure());
    });
  }

  /** Measures where the list is seen (a layout read), and keeps it. */
  #measure() {
    const seen = this.#clip();
    const nav = this.#scrollers[0];
    seen.box = nav && nav !== window && nav.scrollHeight > nav.clientHeight ? nav : window;
    seen.at = seen.box === window ? scrollY : nav.scrollTop;
    this.#seen = seen;
    return seen;
  }

  /** The part of the list in view, in the list's own coordinates. */
  #clip() {
    const box = this.#list.getBoundingClientRect();
    let top = 0;
    let bottom = innerHeight;
    const nav = this.#scrollers[0];
    if (nav && nav !== window) {
      const n = nav.getBoundingClientRect();
      top = Math.max(top, n.top);
      bottom = Math.min(bottom, n.bottom);
    }
    return { top: top - box.top, bottom: bottom - box.top, height: Math.max(0, bottom - top), laid: box.height > 0 };
  }

  /** The first row whose bottom is below `y`. */
  #rowAt(y) {
    let lo = 0;
    let hi = this.rows - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#tops[mid + 1] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Puts the rows near the viewport (and the active row) in the DOM, and takes the rest
   * out: rows already there are kept, new ones put in order. */
  #render(clip = this.#seen ?? this.#measure()) {
    const n = this.rows;
    if (!n) return;
    let first = 0;
    let last = Math.min(n, UNLAID) - 1;
    if (clip.laid && clip.bottom > 0 && clip.top < this.#tops[n]) {
      first = Math.max(0, this.#rowAt(Math.max(0, clip.top)) - OVERSCAN);
      last = Math.min(n - 1, this.#rowAt(clip.bottom) + OVERSCAN);
    } else if (clip.laid && clip.top >= this.#tops[n]) {
      first = Math.max(0, n - UNLAID);
      last = n - 1;
    }
    const want = [];
    if (this.#active < first) want.push(this.#active);
    for (let r = first; r <= last; r++) want.push(r);
    if (this.#active > last) want.push(this.#active);
    let child = this.#list.firstElementChild;
    const drop = (el) => {
      this.#shown.delete(Number(el.dataset.row));
      el.remove();
    };
    for (const r of want) {
      while (child && Number(child.dataset.row) < r) {
        const next = child.nextElementSibling;
        drop(child);
        child = next;
      }
      if (child && Number(child.dataset.row) === r) {
        child = child.nextElementSibling;
        continue;
      }
      const el = this.#row(r);
      this.#shown.set(r, el);
      this.#list.insertBefore(el, child);
    }
    while (child) {
      const next = child.nextElementSibling;
      drop(child);
      child = next;
    }
  }

  /** The element of row `r`. */
  #row(r) {
    const groups = this.#groups;
    const items = this.#items;
    const g = this.#rowGroup[r];
    const i = this.#rowItem[r];
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.dataset.row = r;
    li.id = `outline-row-${r}`;
    li.style.top = `${this.#tops[r]}px`;
    li.style.height = `${this.#tops[r + 1] - this.#tops[r]}px`;
    if (i < 0) {
      const number = groups.number[g];
      li.className = number ? 'turn' : 'turn compaction';
      li.setAttribute('aria-level', '1');
      li.setAttribute('aria-setsize', String(groups.turn.length));
      li.setAttribute('aria-posinset', String(g + 1));
      li.dataset.turn = groups.turn[g];
      const text = number ? `${number}. ${groups.label[g]}` : groups.label[g];
      li.title = text;
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = short(text, 120);
      li.append(label);
      const c = this.#countsOf(g);
      if (c) {
        const span = document.createElement('span');
        span.className = 'counts';
        span.textContent = c;
        li.append(span);
      }
    } else {
      const doc = items.doc[i];
      const label = short(doc.label || KINDS[doc.type].fallback, 70);
      const first = groups.first[g];
      li.className = 'doc';
      li.setAttribute('aria-level', '2');
      li.setAttribute('aria-setsize', String(groups.first[g + 1] - first));
      li.setAttribute('aria-posinset', String(i - first + 1));
      li.dataset.turn = items.turn[i];
      li.dataset.doc = doc.id;
      li.title = label;
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = COUNTED[items.kind[i]].kind;
      li.append(kind, label);
    }
    if (r === this.#active) li.classList.add('active');
    return li;
  }

  /** Group `g`'s counts, as text (counted when its entry is first shown). */
  #countsOf(g) {
    let text = this.#counts.get(g);
    if (text === undefined) {
      const c = COUNTED.map(() => 0);
      for (let i = this.#groups.first[g]; i < this.#groups.first[g + 1]; i++) c[this.#items.kind[i]]++;
      text = countsOf(c);
      this.#counts.set(g, text);
    }
    return text;
  }
}
