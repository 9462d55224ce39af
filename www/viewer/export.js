// Export: a standalone HTML page of what the view shows (the element's styles inlined,
// hidden parts left out, no script), and the normalised conversation as JSON.

import { hiddenSelectors } from './view-sheet.js';

/** Every CSS rule that styles the view's shadow root, as text. */
function shadowCss(root) {
  const sheets = [...root.adoptedStyleSheets, ...[...root.querySelectorAll('style')].map((s) => s.sheet)];
  let css = '';
  for (const sheet of sheets) {
    if (!sheet) continue;
    for (const rule of sheet.cssRules) css += `${rule.cssText}\n`;
  }
  // In a page of its own, the host's rules apply to the root element, which carries
  // the host's attributes (theme, diff).
  return css.replace(/:host\(([^()]*(?:\([^()]*\))?[^()]*)\)/g, ':root$1').replace(/:host\b/g, ':root');
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The standalone page as a string. */
export function exportHtml(view, title) {
  const root = view.shadowRoot;
  const conv = root.querySelector('.ds-conversation');
  if (!conv) throw new Error('nothing to export');
  const copy = conv.cloneNode(true);
  const hidden = hiddenSelectors(view);
  if (hidden.length) copy.querySelectorAll(hidden.join(',')).forEach((el) => el.remove());
  // Buttons that only work with a script (copy) go; marks the viewer added go.
  copy.querySelectorAll('.ds-copy').forEach((el) => el.remove());
  copy.querySelectorAll('.dsv-target').forEach((el) => el.classList.remove('dsv-target'));
  copy.querySelectorAll('[tabindex="-1"]').forEach((el) => el.removeAttribute('tabindex'));
  const attrs = ['theme', 'diff', 'data-hide-thinking', 'data-hide-tools', 'data-hide-output']
    .filter((a) => view.hasAttribute(a))
    .map((a) => ` ${a}="${escapeHtml(view.getAttribute(a))}"`)
    .join('');
  const css = shadowCss(root)
    // Only the viewer's on-screen helpers; everything is laid out in a saved page.
    .replace(/content-visibility:\s*auto;?/g, '');
  return `<!doctype html>
<html lang="${escapeHtml(document.documentElement.lang || 'en')}"${attrs}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="docstream viewer">
<title>${escapeHtml(title)}</title>
<style>
:root { color-scheme: light dark; }
body { margin: 0; padding: 1rem; font-family: system-ui, sans-serif; line-height: 1.5; }
${css}
</style>
</head>
<body class="ds-page">
${copy.outerHTML}
</body>
</html>
`;
}

/** The normalised conversation, pretty-printed. */
export function exportJson(view) {
  return `${JSON.stringify(view.snapshot(), null, 2)}\n`;
}

/** Saves `text` as a download named `name`. */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
