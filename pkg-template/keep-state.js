// What the reader did inside an element that a patch is about to replace: disclosures
// opened or closed, the focused control, the text selection, scroll offsets. Taken
// before the replacement and put back on the new content after it, where the new
// content has the same place (positions are paths of child indices; disclosures are
// matched by class and order).

/** The child-index path from `root` down to `node`, or null when outside it. */
function pathOf(root, node) {
  const path = [];
  for (let n = node; n !== root; n = n.parentNode) {
    if (!n?.parentNode) return null;
    path.push(Array.prototype.indexOf.call(n.parentNode.childNodes, n));
  }
  return path.reverse();
}

function nodeAt(root, path) {
  let n = root;
  for (const i of path) {
    n = n?.childNodes[i];
    if (!n) return null;
  }
  return n;
}

function selectionOf(root) {
  const host = root.getRootNode();
  return (typeof host.getSelection === 'function' ? host.getSelection() : null) ?? root.ownerDocument.getSelection();
}

/**
 * The reader's text selection under `root`'s root node: `{ anchorNode, anchorOffset,
 * focusNode, focusOffset }`, or null when nothing is selected. Reading the selection
 * brings style and layout up to date, so a batch of patches reads it once (the applier
 * does) and passes it to every `takeState`.
 */
export function readSelection(root) {
  const sel = selectionOf(root);
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  return { anchorNode: sel.anchorNode, anchorOffset: sel.anchorOffset, focusNode: sel.focusNode, focusOffset: sel.focusOffset };
}

/** Disclosures keyed by class and their order among those of the same class. */
function disclosures(root) {
  const seen = new Map();
  const out = new Map();
  const all = root.matches?.('details') ? [root, ...root.querySelectorAll('details')] : root.querySelectorAll('details');
  for (const d of all) {
    const cls = d.className;
    const n = seen.get(cls) ?? 0;
    seen.set(cls, n + 1);
    out.set(`${cls}#${n}`, d);
  }
  return out;
}

/**
 * Takes the reader's state inside `root`, with `sel` the selection as `readSelection`
 * gave it (read now when not given). Costs one pass over the element's disclosures and
 * scrollable boxes.
 */
export function takeState(root, sel = readSelection(root)) {
  const open = new Map();
  for (const [key, d] of disclosures(root)) open.set(key, d.open);
  const doc = root.getRootNode();
  const active = doc.activeElement;
  const focus = active && root.contains(active) && active !== root ? pathOf(root, active) : null;
  let selection = null;
  if (sel && root.contains(sel.anchorNode) && root.contains(sel.focusNode)) {
    selection = {
      anchor: pathOf(root, sel.anchorNode),
      anchorOffset: sel.anchorOffset,
      focus: pathOf(root, sel.focusNode),
      focusOffset: sel.focusOffset,
    };
  }
  const scrolls = [];
  for (const el of root.querySelectorAll('pre, details, .ds-term-body')) {
    if (el.scrollTop || el.scrollLeft) scrolls.push([pathOf(root, el), el.scrollTop, el.scrollLeft]);
  }
  return { open, focus, selection, scrolls };
}

/** Puts `state` (from `takeState`) back on `root`, the replacement, where it fits;
 * returns the selection it made (as `readSelection` gives it), or null. */
export function restoreState(root, state) {
  if (!state) return null;
  let selected = null;
  for (const [key, d] of disclosures(root)) {
    const was = state.open.get(key);
    if (was !== undefined && d.open !== was) d.open = was;
  }
  if (state.focus) {
    const el = nodeAt(root, state.focus);
    if (el && typeof el.focus === 'function') el.focus({ preventScroll: true });
  }
  if (state.selection) {
    const s = state.selection;
    const a = nodeAt(root, s.anchor);
    const f = nodeAt(root, s.focus);
    const len = (n) => (n.nodeType === 3 ? n.length : n.childNodes.length);
    const sel = selectionOf(root);
    if (a && f && sel) {
      try {
        const anchorOffset = Math.min(s.anchorOffset, len(a));
        const focusOffset = Math.min(s.focusOffset, len(f));
        sel.setBaseAndExtent(a, anchorOffset, f, focusOffset);
        selected = { anchorNode: a, anchorOffset, focusNode: f, focusOffset };
      } catch {
        // The new content has no such place.
      }
    }
  }
  for (const [path, top, left] of state.scrolls) {
    const el = nodeAt(root, path);
    if (el) {
      el.scrollTop = top;
      el.scrollLeft = left;
    }
  }
  return selected;
}
