// Markdown that is hard to stream: a 2,000-row table and the pathological inputs of
// ../shared/corpora (read in place when present). Each text is cut into 16-byte deltas
// (never inside a UTF-8 sequence), one Cursor stream-json `assistant` line per delta,
// then a `result` line: the streamed run pushes one line per chunk and takes the
// patches after each; the one-shot run pushes all the lines at once.

import { existsSync, readFileSync } from 'node:fs';

const RESULT = '{"type":"result","subtype":"success","is_error":false}\n';

/** `text` as assistant lines of `size`-byte deltas and a result line (Buffers). */
export function deltaLines(text, size) {
  const bytes = Buffer.from(text);
  const lines = [];
  for (let at = 0; at < bytes.length;) {
    let end = Math.min(at + size, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end++;
    const piece = JSON.stringify(bytes.subarray(at, end).toString('utf8'));
    lines.push(Buffer.from(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":${piece}}]}}\n`));
    at = end;
  }
  lines.push(Buffer.from(RESULT));
  return lines;
}

/** The 2,000-row table of tests/render_work.rs. */
export function longTable(rows = 2000) {
  let t = '| n | square | note |\n|---|---:|:---|\n';
  for (let i = 0; i < rows; i++) t += `| ${i} | ${i * i} | **row** ${i} |\n`;
  return t;
}

/** Builds a case's text from its `expand` form: lit, rep × n, seq [a, b) over a body. */
export function expand(parts, index = 0) {
  let out = '';
  for (const part of parts) {
    if (typeof part.lit === 'string') {
      out += part.lit;
    } else if (typeof part.rep === 'string') {
      out += part.rep.repeat(typeof part.n === 'number' ? part.n : index);
    } else if (Array.isArray(part.seq)) {
      for (let i = part.seq[0]; i < part.seq[1]; i++) out += expand(part.body, i);
    }
  }
  return out;
}

/** The pathological corpus's cases `{ id, text }`, or null when the file is absent. */
export function pathologicalCases(path) {
  if (!existsSync(path)) return null;
  const corpus = JSON.parse(readFileSync(path, 'utf8'));
  return corpus.cases.map((c) => ({ id: c.id, text: expand(c.expand) }));
}
