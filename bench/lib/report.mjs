// The Markdown tables the benchmark prints: the goals of issue 12 against what this run
// measured, and the median times of every pipeline.

import { times, ms } from './stats.mjs';

const status = (ok) => (ok == null ? 'not measured' : ok ? 'met' : '**not met**');
const both = (a, b, f = times) => `${f(a)} / ${f(b)}`;
const all = (...xs) => (xs.some((x) => x == null || !Number.isFinite(x)) ? null : true);

/** Rows `[what, goal, measured, status]` from the results object. */
export function goalRows(r) {
  const rows = [];
  const ratio = (size, key) => r.sizes[size]?.ratios?.[key]?.median;
  const sz = (s) => (r.sizes[s] ? s : null);
  const mid = sz('1m') ?? sz('100k');
  const big = sz('10m') ?? sz('1m') ?? sz('100k');
  const label = (s) => ({ '100k': '100 KB', '1m': '1 MB', '10m': '10 MB' })[s];
  const pair = mid === big ? label(big) : `${label(mid)} / ${label(big)}`;
  // Two sizes as "a / b", one size as "a".
  const sizes2 = (a, b) => (mid === big ? times(b) : both(a, b));
  const forms = [['push', 'push()'], ['wire', 'write()+pull()']];

  for (const [form, name] of forms) {
    for (const chunk of [64, 16]) {
      const a = ratio(mid, `ds.${form}.${chunk}/ds.oneshot`);
      const b = ratio(big, `ds.${form}.${chunk}/ds.oneshot`);
      rows.push([`streaming ÷ own one-shot, ${name} ${chunk} B, ${pair}`, '≤ 1.5×', sizes2(a, b), status(all(a, b) && a <= 1.5 && b <= 1.5)]);
    }
  }
  for (const [form, name] of forms) {
    const a = ratio(mid, `js.smd.64/ds.${form}.64`);
    const b = ratio(big, `js.smd.64/ds.${form}.64`);
    rows.push([`streaming-markdown + JS ingest ÷ docstream ${name} 64 B (how many times faster), ${pair}`, '≥ 3×', sizes2(a, b), status(all(a, b) && a >= 3 && b >= 3)]);
  }
  const g = r.growth;
  for (const [form, name] of forms) {
    const x = g?.[`ds.${form}.64`];
    rows.push([`1 MB → 10 MB time growth, ${name} 64 B (input grows ${times(g?.input)})`, '≤ 10.5×', times(x), status(x == null ? null : x <= 10.5)]);
  }
  {
    const a = ratio(mid, 'js.marked_oneshot/ds.oneshot');
    const b = ratio(big, 'js.marked_oneshot/ds.oneshot');
    rows.push([`marked + jsdiff + diff2html ÷ docstream one-shot (how many times faster), ${pair}`, '≥ 3×', sizes2(a, b), status(all(a, b) && a >= 3 && b >= 3)]);
    const c = ratio(mid, 'js.marked_oneshot/ds.render');
    const d = ratio(big, 'js.marked_oneshot/ds.render');
    rows.push([`marked + jsdiff + diff2html ÷ docstream \`write(whole)\`+\`end()\`+\`html()\` (no patches), ${pair}`, '≥ 3×', sizes2(c, d), status(all(c, d) && c >= 3 && d >= 3)]);
  }
  {
    const n = r.native?.[`json ${big}`];
    const h = r.native?.[`html ${big}`];
    rows.push([`native \`docstream json\` / \`html\`, ${label(big)} (whole process)`, '≥ 200 MB/s (json)', n ? `${n.MBps} / ${h?.MBps ?? '–'} MB/s` : r.nativeSkipped ?? 'not run', status(n ? n.MBps >= 200 : null)]);
  }
  for (const [form, name] of forms) {
    const p = r.sizes[big]?.patchRatio?.[`${form}.64`];
    rows.push([`patch bytes handed out ÷ final page HTML, ${name} 64 B, ${label(big)}`, '≤ 1.5×', times(p), status(p == null ? null : p <= 1.5)]);
  }
  {
    const m = r.memory;
    const s = m?.['push.64']?.afterStream;
    const h = m?.['push.64']?.afterHtml;
    const ws = m?.['wire.64']?.afterStream;
    const wh = m?.['wire.64']?.afterHtml;
    rows.push([`wasm memory after streaming ${label(m?.size) ?? ''} / after \`html()\`, ÷ input (push() 64 B; write()+pull() 64 B)`, '≤ 2× / ≤ 3×',
      m ? `${both(s, h)}; ${both(ws, wh)}` : 'not measured', status(m ? s <= 2 && h <= 3 && ws <= 2 && wh <= 3 : null)]);
  }
  {
    const t = r.table;
    rows.push(['2,000-row Markdown table streamed in 16 B deltas ÷ one-shot (write()+pull(); push())', '≤ 3×',
      t ? `${times(t.ratios.wire)}; ${times(t.ratios.push)}` : 'not measured', status(t ? t.ratios.wire <= 3 && t.ratios.push <= 3 : null)]);
  }
  {
    const p = r.pathological;
    const text = p ? (p.skipped ? p.skipped : `${p.over3} of ${p.cases.length} over 3× (worst ${p.worst.id} ${times(p.worst.ratio)}${p.worst.stopped ? ', stopped' : ''})`) : 'not measured';
    rows.push(['`../shared/corpora` pathological inputs streamed in 16 B deltas, cost ÷ one-shot (write()+pull())', 'all ≤ 3×', text, status(p && !p.skipped ? p.over3 === 0 : null)]);
  }
  for (const [form, name] of forms) {
    const l = r.latency?.[`ds.${form}.64`];
    rows.push([`per-chunk p99 / worst chunk, ${name} 64 B, ${label(r.latency?.size) ?? ''}`, '≤ 1 ms / ≤ 16 ms', l ? both(l.p99, l.max, ms) : 'not measured', status(l ? l.p99 <= 1 && l.max <= 16 : null)]);
  }
  return rows;
}

export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const PIPELINES = [
  ['ds.push.64', 'docstream `push()` per 64 B chunk, patch objects read'],
  ['ds.push.16', 'docstream `push()` per 16 B chunk'],
  ['ds.wire.64', 'docstream `write()` per 64 B chunk, `pull()` when it returns true'],
  ['ds.wire.16', 'docstream `write()` per 16 B chunk, `pull()` when it returns true'],
  ['ds.oneshot', 'docstream one-shot: `push(whole)`, `finish()`, `html()`'],
  ['ds.render', 'docstream one-shot without patches: `write(whole)`, `end()`, `html()`'],
  ['js.smd.64', 'streaming-markdown + JS ingest, 64 B chunks, tools rendered'],
  ['js.blockmemo.64', 'Streamdown-style block memo with marked, 64 B chunks'],
  ['js.floor.64', 'JS ingest + tool rendering, no Markdown (the floor under both)'],
  ['js.marked_oneshot', 'one-shot: JSON.parse + marked + jsdiff + diff2html'],
  ['js.decode_split_parse', 'decode + split lines + JSON.parse (nothing rendered)'],
];

/** Median ms (and MB/s) of every pipeline at every size, NDJSON then SSE. */
export function timesTable(r) {
  const sizes = Object.keys(r.sizes);
  const rows = [];
  for (const suffix of ['', '.sse']) {
    for (const [id, what] of PIPELINES) {
      const cells = sizes.map((s) => {
        const row = r.sizes[s].jobs[id + suffix];
        return row ? `${ms(row.ms)} (${row.MBps.toFixed(1)} MB/s)` : null;
      });
      if (cells.every((c) => c == null)) continue;
      rows.push([`${what}${suffix ? ' — document SSE' : ''}`, ...cells.map((c) => c ?? '–')]);
    }
  }
  const head = sizes.map((s) => {
    const z = r.sizes[s];
    return `${s}: ${(z.ndjsonBytes / 1e6).toFixed(2)} MB NDJSON / ${(z.sseBytes / 1e6).toFixed(2)} MB SSE`;
  });
  return markdownTable(['pipeline (median over rounds)', ...head], rows);
}
