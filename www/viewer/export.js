// Export: the view as a standalone page (<docstream-view>'s `page()`, the CLI's frame),
// the conversation as GitHub-flavoured Markdown (what `docstream md` writes) and the
// normalised conversation as JSON; each with secrets masked when asked (the element's
// `export({ redact })`, the rules of `docstream md` and `docstream export`).

/** The view as `as` (`html`, `markdown`, `json`): a promise of `{ text, masked }`. The
 * JSON without masking is the view's own snapshot. */
export async function exportView(view, { as, redact, title }) {
  if (as === 'json' && !redact) return { text: `${JSON.stringify(view.snapshot(), null, 2)}\n`, masked: {} };
  const out = await view.export({ as, redact, title });
  return as === 'json' ? { ...out, text: `${JSON.stringify(JSON.parse(out.text), null, 2)}\n` } : out;
}

/** `3 secrets masked (2 github-token, 1 jwt)`; `No secrets found`. */
export function maskedSummary(masked) {
  const kinds = Object.entries(masked).sort(([a], [b]) => a.localeCompare(b));
  const total = kinds.reduce((n, [, k]) => n + k, 0);
  if (!total) return 'Exported; no secrets found to mask.';
  return `Exported with ${total} secret${total === 1 ? '' : 's'} masked (${kinds.map(([k, n]) => `${n} ${k}`).join(', ')}).`;
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
