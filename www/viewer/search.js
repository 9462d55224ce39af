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
      outer: for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const hay = node.data.toLocaleLowerCase();
        for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) {
          if (this.ranges.length >= MAX_MATCHES) {
            this.capped = true;
            break outer;
          }
          const range = new StaticRange({ startContainer: node, startOffset: at, endContainer: node, endOffset: at + needle.length });
          this.ranges.push(range);
        }
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
