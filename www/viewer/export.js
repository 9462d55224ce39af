// Export: the view as a standalone page (<docstream-view>'s `page()`, the CLI's frame),
// the conversation as GitHub-flavoured Markdown (`toMarkdown()`, what `docstream md`
// writes) and the normalised conversation as JSON.

/** The standalone page as a string. */
export function exportHtml(view, title) {
  return view.page({ title });
}

/** The conversation as Markdown (a promise: the default module asks the full one for
 * it): turns, prose, code, diffs and commands; tool calls, thinking and sub-agents folded
 * in `<details>`. */
export function exportMarkdown(view) {
  return view.toMarkdown();
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
