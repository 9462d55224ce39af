// Test page helpers (served under a strict CSP with Trusted Types; see run.mjs).
import { DocstreamView } from '/pkg/define.js';
import initFull, { DocStream } from '/pkg/docstream.js';

// The element's default module, and the full one for the reference streams below (the
// element hands a stream in a format outside the default set to it).
await Promise.all([DocstreamView.init(), initFull()]);
const policy = trustedTypes.createPolicy('test', { createHTML: (s) => s });

/** The conversation element of a view. */
function conv(view) {
  return view.shadowRoot.querySelector('.ds-conversation');
}

/** Drops the whitespace text between turns and between a turn's children, also of a
 * sub-agent's run and around it in its call (the element inserts elements, not the
 * line breaks between them). */
function squeeze(conversation) {
  for (const parent of [conversation, ...conversation.querySelectorAll('.ds-turn, .ds-subagent-run')]) {
    for (const n of [...parent.childNodes]) if (n.nodeType === 3 && !n.data.trim()) n.remove();
  }
  return conversation;
}

/** A copy of the view's conversation without what the element adds to the renderer's
 * HTML (part attributes, its own buttons, pressed states, syntax colour spans, thinking
 * opened while it streams). */
function stripped(view) {
  const copy = squeeze(conv(view).cloneNode(true));
  for (const el of copy.querySelectorAll('[data-ds-ui]')) el.remove();
  for (const el of copy.querySelectorAll('span[class^="ds-hl-"]')) el.replaceWith(...el.childNodes);
  for (const el of copy.querySelectorAll('details.ds-thinking-body')) el.removeAttribute('open');
  copy.normalize();
  for (const el of copy.querySelectorAll('*')) {
    el.removeAttribute('part');
    el.removeAttribute('aria-pressed');
    el.removeAttribute('data-ds-diagram');
    el.removeAttribute('data-ds-math');
  }
  return copy.innerHTML.trim();
}

/** The inner HTML of the conversation element of `html` (renderer output), as the
 * browser serialises it. */
function parsed(html) {
  const t = document.createElement('template');
  t.innerHTML = policy.createHTML(html);
  return squeeze(t.content.querySelector('.ds-conversation')).innerHTML.trim();
}

/** A view in the page. Syntax colouring and MathML are off unless `attrs.highlight` or
 * `attrs.math` says otherwise: most tests compare DOMs, and colours and formulas arrive
 * when their modules have loaded (highlight.test.mjs and math.test.mjs test them). */
function make(attrs = {}) {
  attrs = { highlight: 'off', math: 'off', ...attrs };
  const view = document.createElement('docstream-view');
  for (const [k, v] of Object.entries(attrs)) view.setAttribute(k, v);
  document.getElementById('host').append(view);
  return view;
}

const events = [];
for (const type of ['docstream-choice', 'docstream-copy', 'docstream-error', 'docstream-done', 'docstream-progress']) {
  // On document: the events bubble and are composed.
  document.addEventListener(type, (e) => events.push({ type, detail: e.detail, target: e.target?.id ?? '' }));
}

/** Waits (up to 5 s) until `selector` matches in the view's shadow root; whether it did. */
async function waitFor(view, selector) {
  for (let i = 0; i < 200 && !view.shadowRoot.querySelector(selector); i++) await new Promise((r) => setTimeout(r, 25));
  return view.shadowRoot.querySelector(selector) !== null;
}

/** How often `needle` occurs (case-insensitive) in the text of `root`, text under an
 * element matching `skip` left out. */
function countText(root, needle, skip) {
  const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let n = 0;
  for (let t = w.nextNode(); t; t = w.nextNode()) {
    if (!t.parentElement.closest(skip)) n += t.data.toLowerCase().split(needle.toLowerCase()).length - 1;
  }
  return n;
}

/** Pushes `lines` into `view`, applies them and waits until they are painted. */
async function pushPainted(view, lines) {
  for (const l of lines) view.push(l);
  view.flush();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}

window.T = { DocStream, DocstreamView, conv, stripped, parsed, make, waitFor, events, policy, countText, pushPainted };
window.testReady = true;
