// A <docstream-view> as a standalone HTML page: the frame the CLI's `docstream html`
// writes, with what the view shows, its stylesheet inlined and no script.
import css from './docstream-css.js';
import pageFrame from './docstream-page.js';

/**
 * The page of `host`'s conversation element `conversation` (hidden parts, those matching
 * `hidden`, and copy controls left out), in `host`'s language, theme and diff layout,
 * titled `title`; `expand(conversation, copy)` puts into the copy the documents its
 * placeholders stand for.
 */
export function pageOf(host, conversation, hidden, title, expand = null) {
  const copy = conversation.cloneNode(true);
  // Documents kept out of the DOM far from the viewport (element-window.js) are put in.
  expand?.(conversation, copy);
  if (hidden) for (const el of copy.querySelectorAll(hidden)) el.remove();
  for (const el of copy.querySelectorAll('.ds-copy, .ds-table-tools')) el.remove();
  for (const el of copy.querySelectorAll('.ds-revealed')) el.classList.remove('ds-revealed');
  for (const el of copy.querySelectorAll('[tabindex="-1"]')) el.removeAttribute('tabindex');
  const attributes = ['theme', 'diff']
    .filter((a) => host.hasAttribute(a))
    .map((a) => ` ${a}="${escapeHtml(host.getAttribute(a))}"`)
    .join('');
  // In a page of its own, the host's rules apply to the root element, which carries
  // the host's attributes.
  const style = css
    .replace(/:host\(([^()]*(?:\([^()]*\))?[^()]*)\)/g, ':root$1')
    .replace(/:host\b/g, ':root');
  const slots = {
    lang: escapeHtml(host.locale),
    attributes,
    title: escapeHtml(String(title)),
    style,
    body: `${copy.outerHTML}\n`,
  };
  return pageFrame.replace(/\{([a-z]+)\}/g, (slot, name) => (Object.hasOwn(slots, name) ? slots[name] : slot));
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
