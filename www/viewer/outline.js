// The outline beside the transcript, from <docstream-view>'s `outline()`: one entry per
// user prompt and, under it, the file edits, terminal commands and plans of the answers
// that follow, with counts. Activating an entry reveals it in the view. A long session's
// outline is built in slices (the first 300 prompts at once), and past a few
// thousand documents a prompt's list is built when it comes near the outline's viewport
// or takes focus.

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

/** Prompts whose entries are built at once; those after are built a slice at a time, so
 * that a session of thousands of prompts makes no long task. */
const FIRST_GROUPS = 300;
/** How long one slice of building may take (ms). */
const SLICE_MS = 8;
/** Up to this many documents listed, every prompt's list is built at once; above, a
 * prompt's list is built when its entry comes near the outline's viewport or takes focus. */
const EAGER_ITEMS = 2000;

/** The build in progress per list: a newer one ends the one before. */
const builds = new WeakMap();

/** Rebuilds the outline list from the view's outline; returns it. The first
 * FIRST_GROUPS prompts' entries are in the list when it returns, the rest follow a slice
 * at a time. */
export function buildOutline(view, list, summary) {
  const outline = view.outline();
  const groups = [];
  let group = null;
  let listed = 0;
  let prompts = 0;
  for (const turn of outline.turns) {
    // A compacted context is an entry of its own, as the page's divider is: what follows
    // it is listed under it, and it is no prompt (not numbered, not counted as one).
    const compaction = turn.role === 'compaction';
    if (turn.role === 'user' || compaction || !group) {
      let label = 'Response';
      if (turn.role === 'user') label = turn.label || 'Prompt';
      else if (compaction) label = turn.label || 'Context compacted';
      group = { index: turn.index, label: short(label, 90), items: [], count: {}, compaction };
      if (!compaction) group.number = ++prompts;
      groups.push(group);
    }
    for (const doc of turn.documents) {
      const k = KINDS[doc.type];
      if (!k) continue;
      const applied = !(doc.type === 'file_edit' && (doc.status === 'rejected' || doc.status === 'error'));
      const kind = applied ? k.kind : NOT_APPLIED.kind;
      // The entry itself is made with its list.
      group.items.push([turn.index, doc, kind]);
      group.count[kind] = (group.count[kind] ?? 0) + 1;
      listed++;
    }
  }

  const total = {};
  for (const g of groups) for (const [k, n] of Object.entries(g.count)) total[k] = (total[k] ?? 0) + n;
  builds.get(list)?.stop();
  const build = new Build(list, groups, listed > EAGER_ITEMS);
  builds.set(list, build);
  build.run();
  const compactions = groups.length - prompts;
  const parts = [
    `${prompts} ${prompts === 1 ? 'prompt' : 'prompts'}`,
    compactions ? `${compactions} ${compactions === 1 ? 'compaction' : 'compactions'}` : '',
    counts(total),
  ];
  summary.textContent = groups.length ? parts.filter(Boolean).join(' · ') : 'Nothing loaded.';
  return outline;
}

/** One build of the outline list: its entries, the first at once and the rest a slice at
 * a time; with `lazy`, a prompt's list of documents only when it is needed. */
class Build {
  #list;
  #groups;
  #lazy;
  #next = 0;
  #stopped = false;
  #observer = null;
  /** Per entry (`li`) whose list is not built yet, its group. */
  #waiting = new WeakMap();

  constructor(list, groups, lazy) {
    this.#list = list;
    this.#groups = groups;
    this.#lazy = lazy;
    if (lazy && typeof IntersectionObserver === 'function') {
      const nav = list.closest('.outline');
      this.#observer = new IntersectionObserver(
        (entries) => {
          for (const e of entries) if (e.isIntersecting) this.#items(e.target);
        },
        { root: nav && nav.scrollHeight > nav.clientHeight ? nav : null, rootMargin: '400px 0px' },
      );
    }
    this.onFocus = (e) => {
      const li = e.target.closest?.('li.turn');
      if (li) this.#items(li);
    };
    if (lazy) list.addEventListener('focusin', this.onFocus);
  }

  /** Builds the first entries and schedules the rest. */
  run() {
    this.#list.replaceChildren(this.#entries(FIRST_GROUPS));
    this.#more();
  }

  /** Ends this build (a newer one replaces the list). */
  stop() {
    this.#stopped = true;
    this.#observer?.disconnect();
    this.#list.removeEventListener('focusin', this.onFocus);
  }

  #more() {
    if (this.#stopped || this.#next >= this.#groups.length) return;
    setTimeout(() => {
      if (this.#stopped) return;
      const until = performance.now() + SLICE_MS;
      const frag = document.createDocumentFragment();
      while (this.#next < this.#groups.length && performance.now() < until) frag.append(this.#entries(50));
      this.#list.append(frag);
      this.#more();
    }, 0);
  }

  /** The next `n` entries, as a fragment. */
  #entries(n) {
    const frag = document.createDocumentFragment();
    const end = Math.min(this.#groups.length, this.#next + n);
    for (; this.#next < end; this.#next++) {
      const g = this.#groups[this.#next];
      const li = document.createElement('li');
      li.className = g.compaction ? 'turn compaction' : 'turn';
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.turn = g.index;
      b.textContent = g.compaction ? g.label : `${g.number}. ${g.label}`;
      li.append(b);
      const c = counts(g.count);
      if (c) {
        const span = document.createElement('span');
        span.className = 'counts';
        span.textContent = c;
        li.append(span);
      }
      if (g.items.length) {
        if (!this.#lazy) li.append(itemList(g));
        else {
          this.#waiting.set(li, g);
          this.#observer?.observe(li);
        }
      }
      frag.append(li);
    }
    return frag;
  }

  /** Entry `li`'s list of documents, built if it is not yet. */
  #items(li) {
    const waiting = this.#waiting.get(li);
    if (!waiting) return;
    this.#waiting.delete(li);
    this.#observer?.unobserve(li);
    li.append(itemList(waiting));
  }
}

/** The list of the documents of group `g` (a prompt, or a compaction). */
function itemList(g) {
  const ol = document.createElement('ol');
  ol.setAttribute('aria-label', g.compaction ? `After: ${g.label}` : `In turn ${g.number}`);
  for (const [turn, doc, what] of g.items) {
    const item = { turn, doc: doc.id, kind: what, label: short(doc.label || KINDS[doc.type].fallback, 70) };
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
  return ol;
}
