// Search across the transcript in <docstream-view>'s shadow root. Matches are marked
// with the CSS Custom Highlight API (no DOM is written, so the element's patches and
// the export stay untouched); next/previous open folded parts and scroll there.

import { hiddenSelectors } from './view-sheet.js';

/** More matches than this are not marked (the count says so). */
export const MAX_MATCHES = 10000;

export class Search {
  constructor(view) {
    this.view = view;
    this.query = '';
    this.ranges = [];
    this.current = -1;
    this.capped = false;
  }

  /** Finds every match of `query` (case-insensitive) outside hidden parts. */
  run(query) {
    // The same query again (after the view changed) keeps its place.
    const keep = query === this.query ? this.current : -1;
    this.query = query;
    this.ranges = [];
    this.current = -1;
    this.capped = false;
    const root = this.view.shadowRoot;
    const conv = root?.querySelector('.ds-conversation');
    const needle = query.toLocaleLowerCase();
    if (conv && needle) {
      const hidden = hiddenSelectors(this.view).join(',');
      const walker = document.createTreeWalker(conv, NodeFilter.SHOW_TEXT, {
        acceptNode(node) {
          const el = node.parentElement;
          if (!el || el.closest('summary .ds-preview')) return NodeFilter.FILTER_REJECT; // duplicate of the body
          if (hidden && el.closest(hidden)) return NodeFilter.FILTER_REJECT;
          return NodeFilter.FILTER_ACCEPT;
        },
      });
      // The text as one string, so a match may span the spans syntax colours split a
      // line into ("main()" is three tokens).
      const nodes = [];
      const starts = [];
      let hay = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data) continue;
        nodes.push(node);
        starts.push(hay.length);
        hay += node.data.toLocaleLowerCase();
      }
      /** The node holding offset `at` of the joined text (the last whose start ≤ at). */
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
        if (this.ranges.length >= MAX_MATCHES) {
          this.capped = true;
          break;
        }
        const a = nodeAt(at, false);
        const b = nodeAt(at + needle.length, true);
        const range = new StaticRange({
          startContainer: nodes[a],
          startOffset: at - starts[a],
          endContainer: nodes[b],
          endOffset: at + needle.length - starts[b],
        });
        this.ranges.push(range);
      }
    }
    this.current = Math.min(keep, this.ranges.length - 1);
    this.paint();
    return this.ranges.length;
  }

  /** Moves to the next (`step` 1) or previous (`step` -1) match and shows it. */
  move(step) {
    const n = this.ranges.length;
    if (!n) return null;
    this.current = this.current < 0 ? (step > 0 ? 0 : n - 1) : (this.current + step + n) % n;
    if (!this.ranges[this.current].startContainer.isConnected) {
      // The view changed under the marks (syntax colours arrived, say): find them again.
      const at = this.current;
      this.run(this.query);
      if (!this.ranges.length) return null;
      this.current = Math.min(at, this.ranges.length - 1);
      this.paint();
    }
    const range = this.ranges[this.current];
    const el = range.startContainer.parentElement;
    for (let d = el.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    this.paint();
    el.scrollIntoView({ block: 'center' });
    return range;
  }

  /** "3 of 41" */
  label() {
    if (!this.query) return '';
    const n = this.ranges.length;
    if (!n) return 'no matches';
    const total = this.capped ? `${n}+` : `${n}`;
    return this.current < 0 ? `${total} matches` : `${this.current + 1} of ${total}`;
  }

  paint() {
    if (!globalThis.CSS?.highlights) return;
    CSS.highlights.set('dsv-search', new Highlight(...this.ranges));
    const cur = this.ranges[this.current];
    if (cur) CSS.highlights.set('dsv-search-current', new Highlight(cur));
    else CSS.highlights.delete('dsv-search-current');
  }

  clear() {
    this.run('');
  }
}
