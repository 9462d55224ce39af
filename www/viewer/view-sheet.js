// The stylesheet the viewer adds into <docstream-view>'s open shadow root (as a
// constructed sheet in adoptedStyleSheets, which a strict CSP allows): filters, search
// marks, and rules that keep a long transcript cheap to scroll.

/** Selectors hidden by each filter; the filter is on when the host has the attribute. */
export const FILTERS = {
  'hide-thinking': ['.ds-thinking'],
  'hide-tools': ['.ds-tool-call'],
  'hide-output': ['.ds-terminal-command .ds-output', '.ds-terminal-command .ds-output-more'],
};

const filterRules = Object.entries(FILTERS)
  .map(([attr, sels]) => `${sels.map((s) => `:host([data-${attr}]) ${s}`).join(',\n')} { display: none !important; }`)
  .join('\n');

export const VIEW_CSS = `
/* Far from the viewport, turns and documents are not laid out or painted. */
.ds-turn { content-visibility: auto; contain-intrinsic-size: auto 12rem; }
.ds-doc { content-visibility: auto; contain-intrinsic-size: auto 4rem; }
.ds-turn, .ds-doc { scroll-margin-top: 7rem; }
/* Huge tool payloads stay folded into a scrolling box. */
.ds-tool-args pre, .ds-tool-result pre, .ds-output { max-height: 24rem; overflow: auto; }
.ds-doc:focus, .ds-turn:focus { outline: 2px solid var(--ds-link, #0969da); outline-offset: 2px; }
.ds-doc.dsv-target, .ds-turn.dsv-target { animation: dsv-flash 1.2s ease-out; }
@keyframes dsv-flash { from { box-shadow: 0 0 0 4px var(--ds-link, #0969da); } to { box-shadow: none; } }
/* Side by side: the two text columns share the width (the shared sheet gives each 100%). */
:host([diff="split"]) .ds-diff-split .ds-diff-text { width: 50%; }
::highlight(dsv-search) { background-color: #fff1a8; color: #1f2328; }
::highlight(dsv-search-current) { background-color: #ff9632; color: #1f2328; }
${filterRules}
`;

let sheet;

/** Adds the viewer's sheet to the element's shadow root (again, if it was replaced). */
export function adoptViewSheet(view) {
  const root = view.shadowRoot;
  if (!root) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(VIEW_CSS);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}

/** The selectors hidden by the filters now on. */
export function hiddenSelectors(view) {
  return Object.entries(FILTERS)
    .filter(([attr]) => view.hasAttribute(`data-${attr}`))
    .flatMap(([, sels]) => sels);
}
