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

/** Text `find()` leaves out: a folded header's preview repeats its body; controls are not
 * content. */
const NOT_SEARCHED = 'summary .ds-preview, [data-ds-ui], .ds-copy';

/** Finds a query in one conversation element, case-insensitively. */
export class Finder {
  #root;
  #hidden;
  #kept;
  #query = '';
  /** Matches: a `StaticRange`, or `{ placeholder, start, end }` for a match in the text of
   * a document kept out of the DOM (`placeholder`: its key; offsets in its searchable
   * text). */
  #ranges = [];
  #current = -1;
  #capped = false;
  #painted = [];

  /** `root`: the conversation element; `hidden()`: a selector of parts not shown ('' for
   * none), whose text is not searched. `kept`, for documents kept out of the DOM as
   * placeholders: `stored(el)` gives the documents a placeholder stands for as `[key, runs]`
   * pairs, `runs` a document's text as `[text, mask]` (undefined for any other element),
   * `mask()` the mask bits of the parts not shown, `restore(key)` puts a document back
   * (which calls `restored()`). */
  constructor(root, hidden, kept = null) {
    this.#root = root;
    this.#hidden = hidden;
    this.#kept = kept;
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
    let match = this.#ranges[this.#current];
    if (!(match instanceof StaticRange) && this.#kept) {
      // In a document kept out of the DOM: it is put back, and its matches marked.
      this.#kept.restore(match.placeholder);
      match = this.#ranges[this.#current];
    }
    if (!(match instanceof StaticRange) || !match.startContainer.isConnected) {
      // The view changed under the marks (syntax colours arrived, say): find them again.
      const at = this.#current;
      this.run(this.#query);
      if (!this.#ranges.length) return this.result;
      this.#current = Math.min(at, this.#ranges.length - 1);
      match = this.#ranges[this.#current];
      if (!(match instanceof StaticRange)) return this.result;
    }
    const el = match.startContainer.parentElement;
    for (let d = el?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    this.#paint();
    el?.scrollIntoView({ block: 'center' });
    return this.result;
  }

  /** The document of key `placeholder` was put back as `doc`: its matches are marked in it. */
  restored(placeholder, doc) {
    const mine = [];
    this.#ranges.forEach((m, i) => {
      if (!(m instanceof StaticRange) && m.placeholder === placeholder) mine.push(i);
    });
    if (!mine.length) return;
    const { nodes, starts } = this.#text(doc);
    if (!nodes.length) return;
    for (const i of mine) {
      const { start, end } = this.#ranges[i];
      const a = nodeAt(starts, start, false);
      const b = nodeAt(starts, end, true);
      this.#ranges[i] = new StaticRange({
        startContainer: nodes[a],
        startOffset: Math.min(start - starts[a], nodes[a].data.length),
        endContainer: nodes[b],
        endOffset: Math.min(end - starts[b], nodes[b].data.length),
      });
    }
    this.#paint();
  }

  /** The searchable text under `root` as one lowercased string, `hay`, with its text
   * nodes (or, for a placeholder, `{ placeholder }`) and where each starts in it. */
  #text(root) {
    const hidden = this.#hidden();
    const kept = this.#kept;
    const mask = kept ? kept.mask() : 0;
    const nodes = [];
    const starts = [];
    let hay = '';
    const walk = (node) => {
      for (let n = node.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === 3) {
          if (!n.data) continue;
          nodes.push(n);
          starts.push(hay.length);
          hay += n.data.toLocaleLowerCase();
        } else if (n.nodeType === 1) {
          const items = kept?.stored(n);
          if (items) {
            for (const [key, runs] of items) {
              let text = '';
              for (const [t, m] of runs) if (!(m & mask)) text += t;
              if (!text) continue;
              nodes.push({ placeholder: key });
              starts.push(hay.length);
              hay += text.toLocaleLowerCase();
            }
            continue;
          }
          if (n.matches(NOT_SEARCHED) || (hidden && n.matches(hidden))) continue;
          walk(n);
        }
      }
    };
    walk(root);
    return { nodes, starts, hay };
  }

  #collect(needle) {
    // The text as one string, so a match may span the spans syntax colours split a line
    // into ("main()" is three tokens).
    const { nodes, starts, hay } = this.#text(this.#root);
    const size = (i) => (nodes[i].placeholder ? Infinity : nodes[i].data.length);
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) {
      if (this.#ranges.length >= MAX_MATCHES) {
        this.#capped = true;
        break;
      }
      const end = at + needle.length;
      const a = nodeAt(starts, at, false);
      let b = nodeAt(starts, end, true);
      if (nodes[a].placeholder) {
        this.#ranges.push({ placeholder: nodes[a].placeholder, start: at - starts[a], end: end - starts[a] });
        continue;
      }
      // A match that runs on into a placeholder's text is marked up to its end.
      let endOffset = end - starts[b];
      if (nodes[b].placeholder) {
        b = a;
        endOffset = size(a);
      }
      this.#ranges.push(
        new StaticRange({
          startContainer: nodes[a],
          startOffset: at - starts[a],
          endContainer: nodes[b],
          endOffset,
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
    const painted = this.#ranges.filter((r) => r instanceof StaticRange);
    for (const r of painted) h.all.add(r);
    const current = this.#ranges[this.#current];
    if (current instanceof StaticRange) h.current.add(current);
    this.#painted = painted;
  }
}

/** The index of the text holding offset `at` among texts starting at `starts` (at a
 * boundary: the next for a start, the previous for an end). */
function nodeAt(starts, at, end) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] < at || (!end && starts[mid] === at)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
