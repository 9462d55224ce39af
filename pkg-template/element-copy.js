// What a document's copy control copies: shared by <docstream-view> and the standalone
// page `docstream html` writes, which inlines this file in its own script.

/** The text that the copy control `kind` (`data-copy`: code, command or output) of the
 * document element `doc` copies. Line numbers are drawn by the stylesheet, so the text
 * is exactly the code. */
export function copiedText(doc, kind) {
  if (kind === 'output') return [...doc.querySelectorAll('.ds-output')].map((p) => p.textContent).join('');
  if (kind === 'command') return (doc.querySelector('.ds-command')?.textContent ?? '').replace(/^\$ /, '');
  return doc.querySelector('.ds-code code')?.textContent ?? '';
}
