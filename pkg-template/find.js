// Finding text in a rendered conversation. Matches are marked with the CSS Custom
// Highlight API (`::highlight(ds-find)` and `::highlight(ds-find-current)` in the
// stylesheet): no DOM is written, so patches and exports stay untouched. Moving to a
// match opens the folded parts around it and scrolls there.

/** More matches than this are not marked (`capped` says so). */
export const MAX_MATCHES = 10000;

/** The page's two highlights, shared by every view on it: each view adds and removes
 * only its own ranges. */
let shared = null;

function highlights() {
  if (!globalThis.CSS?.highlights || typeof Highlight !== 'function') return null;
  if (!shared) {
    shared = { all: new Highlight(), current: new Highlight() };
    CSS.highlights.set('ds-find', shared.all);
    CSS.highlights.set('ds-find-current', shared.current);
  }
  return shared;
}

/** Finds a query in one conversation element, case-insensitively. */
export class Finder {
  #root;
  #hidden;
  #query = '';
  #ranges = [];
  #current = -1;
  #capped = false;
  #painted = [];

  /** `root`: the conversation element; `hidden()`: a selector of parts not shown ('' for
   * none), whose text is not searched. */
  constructor(root, hidden) {
    this.#root = root;
    this.#hidden = hidden;
  }

  /** Where the search stands: `{ query, count, current, capped }` (`current` is -1
   * before the first move). */
  get result() {
    return { query: this.#query, count: this.#ranges.length, current: this.#current, capped: this.#capped };
  }

  /** Marks every match of `query`; the same query again (after the view changed) keeps
   * its place. An empty query clears the marks. */
  run(query) {
    const keep = query === this.#query ? this.#current : -1;
    this.#query = query;
    this.#ranges = [];
    this.#capped = false;
    const needle = query.toLocaleLowerCase();
    if (needle) this.#collect(needle);
    this.#current = Math.min(keep, this.#ranges.length - 1);
    this.#paint();
    return this.result;
  }

  /** Moves to the next (`step` 1) or previous (-1) match, opens what folds it and
   * scrolls it into view. */
  move(step) {
    const n = this.#ranges.length;
    if (!n) return this.result;
    this.#current = this.#current < 0 ? (step > 0 ? 0 : n - 1) : (this.#current + step + n) % n;
    if (!this.#ranges[this.#current].startContainer.isConnected) {
      // The view changed under the marks (syntax colours arrived, say): find them again.
      const at = this.#current;
      this.run(this.#query);
      if (!this.#ranges.length) return this.result;
      this.#current = Math.min(at, this.#ranges.length - 1);
    }
    const el = this.#ranges[this.#current].startContainer.parentElement;
    for (let d = el?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    this.#paint();
    el?.scrollIntoView({ block: 'center' });
    return this.result;
  }

  #collect(needle) {
    const hidden = this.#hidden();
    const walker = document.createTreeWalker(this.#root, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        const el = node.parentElement;
        // A folded header's preview repeats its body; controls are not content.
        if (!el || el.closest('summary .ds-preview, [data-ds-ui], .ds-copy')) return NodeFilter.FILTER_REJECT;
        if (hidden && el.closest(hidden)) return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    // The text as one string, so a match may span the spans syntax colours split a line
    // into ("main()" is three tokens).
    const nodes = [];
    const starts = [];
    let hay = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data) continue;
      nodes.push(node);
      starts.push(hay.length);
      hay += node.data.toLocaleLowerCase();
    }
    /** The node holding offset `at` (at a boundary: the next node for a start, the
     * previous for an end). */
    const nodeAt = (at, end) => {
      let lo = 0;
      let hi = nodes.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] < at || (!end && starts[mid] === at)) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) {
      if (this.#ranges.length >= MAX_MATCHES) {
        this.#capped = true;
        break;
      }
      const a = nodeAt(at, false);
      const b = nodeAt(at + needle.length, true);
      this.#ranges.push(
        new StaticRange({
          startContainer: nodes[a],
          startOffset: at - starts[a],
          endContainer: nodes[b],
          endOffset: at + needle.length - starts[b],
        }),
      );
    }
  }

  #paint() {
    const h = highlights();
    if (!h) return;
    for (const r of this.#painted) {
      h.all.delete(r);
      h.current.delete(r);
    }
    for (const r of this.#ranges) h.all.add(r);
    const current = this.#ranges[this.#current];
    if (current) h.current.add(current);
    this.#painted = this.#ranges;
  }
}
