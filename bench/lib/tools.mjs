// How the JavaScript peers render a completed tool call (the Cursor stream-json keys):
// read/write/shell as escaped <pre>, edits through jsdiff + diff2html. Shared by the
// Node peers (lib/peers.mjs) and the browser pages (browser/pages/), so both render the
// same tool calls the same way.

import { createTwoFilesPatch } from 'diff';
import { html as diff2html } from 'diff2html';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const SPECIAL = /[&<>"]/g;
/** HTML-escapes text. */
export const escapeHtml = (s) => s.replace(SPECIAL, (c) => ESCAPES[c]);

/** A tool call's HTML once it completed (the Cursor stream-json keys). */
export function toolHtml(key, args, result) {
  const ok = result?.success ?? {};
  switch (key) {
    case 'readToolCall':
      return `<div class="tool read"><div class="h">Read ${escapeHtml(args.path ?? '')}</div><pre><code>${escapeHtml(ok.content ?? '')}</code></pre></div>`;
    case 'writeToolCall':
      return `<div class="tool write"><div class="h">Write ${escapeHtml(args.path ?? '')}</div><pre><code>${escapeHtml(args.fileText ?? '')}</code></pre></div>`;
    case 'editToolCall': {
      const patch = createTwoFilesPatch(args.path, args.path, `${args.oldString}\n`, `${args.newString}\n`, '', '', { context: 3 });
      return `<div class="tool edit">${diff2html(patch, { drawFileList: false, matching: 'none', outputFormat: 'line-by-line' })}</div>`;
    }
    case 'shellToolCall':
      return `<div class="tool shell"><div class="h">$ ${escapeHtml(args.command ?? '')}</div><pre>${escapeHtml(ok.stdout ?? '')}${escapeHtml(ok.stderr ?? '')}</pre><div class="exit">${ok.exitCode}</div></div>`;
    default:
      return `<div class="tool">${escapeHtml(key)}</div>`;
  }
}
