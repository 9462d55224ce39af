// Measures what long sessions cost <docstream-view> in headless Chromium: DOM nodes,
// main-thread time of a one-shot load (until colours and windowing settle), outline()
// and find() times, and the cost of one append to a short thread and to a thread of
// 10,000 documents. Not a test (timings vary with the machine's load): figures for
// commits and reports, before and after a change.
//
//   node tests/browser/window-probe.mjs [--pkg pkg] [--mb 10] [--docs 10000] [--append-only]
//                                       [--turns 40000] [--answer]
//
// Measured on the shared 2-core machine (load average ~20, so times are rough), 10 MB
// transcript (2,117 documents), main (281f4be) -> windowing (6a3bc0f):
//   load, page scrolls:  main thread 46.4 s -> 20.3 s; DOM nodes 819,059 -> 12,596;
//                        outline() 1,309 ms -> 7 ms; find('parser') 13.2 s -> 0.9 s
//   load, fixed height:  main thread 47.8 s -> 22.7 s; DOM nodes 819,155 -> 14,159;
//                        outline() 562 ms -> 7 ms; find() 13.2 s -> 0.2 s
//   append to 10,000 documents: 205.9 ms -> 158.9 ms median (1.9 / 1.2 ms to 10): still
//   ~100x, the layout of a turn of 10,000 children (placeholders) on every append.
// Shelves (issue 36; same machine, load average 7-11), cd916cc -> cb19a8a:
//   append to 10,000 documents / to 10: 37-55x -> 1.09-1.50x (33.5-60.7 ms -> 1.2-2.4 ms)
//   load 10 MB: DOM nodes 12,596 -> 2,792 (page), 14,159 -> 4,376 (fixed); main thread
//   within the noise (two rounds each: 4.2 and 9.0 s -> 6.1 and 6.0 s, page; 3.7 and
//   8.9 s -> 3.8 and 5.7 s, fixed); heap 102-114 MB -> 71 MB
//   --turns 40000 (10,000 turns): main thread 322 s -> 44 s; DOM nodes 136,680 -> 1,695
//
// One answer of 80,000 paragraphs (--answer, 10 MB; a turn whose one document is long):
// the stylesheet's `.ds-rewound:not([open]) ~ *` made Chromium's style recalculation
// quadratic in a parent's children; `~ .ds-doc` (issue 36), quiet machine:
//   load, page scrolls: main thread 67.9 s -> 3.6 s; fixed height: 65.0 s -> 3.9 s;
//   DOM nodes 218,755 both (a document is whole or shelved, not windowed inside)
//
// `--pkg` is a built package directory (bash scripts/build-wasm.sh writes pkg/). The
// transcript is tests/viewer/gen-large.mjs's (Cursor stream-json), generated in a temp dir.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, launch, serve } from './harness.mjs';

const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const pkg = resolve(arg('pkg', `${ROOT}/pkg`));
const mb = Number(arg('mb', '10'));
const docs = Number(arg('docs', '10000'));

/** `--answer`: one Claude Code answer of short paragraphs, a message each (navigate.test's
 * large chunk): one Markdown document of ~80,000 paragraphs at 10 MB. */
function oneLongAnswer() {
  const line = (o) => `${JSON.stringify(o)}\n`;
  let text = line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go' }] }, session_id: 's' });
  for (let i = 0; text.length < mb << 20; i++) {
    text += line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Paragraph ${i} of a long answer.\n\n` }] }, session_id: 's' });
  }
  return Buffer.from(text);
}
const transcript = args.includes('--answer')
  ? oneLongAnswer()
  : readFileSync(execFileSync('node', [`${ROOT}/tests/viewer/gen-large.mjs`, '--mb', String(mb)], { encoding: 'utf8' }).trim().split(' ')[0]);

const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0} docstream-view.fixed{height:800px}</style>
<script type="module">
import { DocstreamView } from '/pkg/define.js';
await DocstreamView.init();
window.ready = true;
</script></head><body><main id="host"></main></body></html>`;

const { server, url } = await serve({
  mounts: { '/pkg/': pkg },
  handler: (req, res, u) => {
    if (u.pathname === '/probe.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return true;
    }
    if (u.pathname === '/transcript.jsonl') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(transcript);
      return true;
    }
    return false;
  },
});

const browser = await launch();
const results = {};

/** A fresh page with the element defined; `cdp` its DevTools session. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${url}/probe.html`);
  await page.waitForFunction(() => window.ready === true);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

async function taskSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value;
}

async function domNodes(cdp) {
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  const c = await cdp.send('Memory.getDOMCounters');
  return c.nodes;
}

for (const mode of args.includes('--append-only') || args.includes('--turns') ? [] : ['page', 'fixed']) {
  const { context, page, cdp } = await openPage();
  const t0 = await taskSeconds(cdp);
  const wall = await page.evaluate(async (mode) => {
    const view = document.createElement('docstream-view');
    if (mode === 'fixed') view.className = 'fixed';
    document.getElementById('host').append(view);
    const bytes = new Uint8Array(await (await fetch('/transcript.jsonl')).arrayBuffer());
    const t = performance.now();
    await view.load(bytes);
    // Until nothing changes for a second (colours arrive, windowing settles).
    let quiet = 0;
    const seen = { n: -1 };
    while (quiet < 4) {
      await new Promise((r) => setTimeout(r, 250));
      const n = view.shadowRoot.querySelectorAll('*').length;
      if (n === seen.n) quiet++;
      else quiet = 0;
      seen.n = n;
    }
    window.view = view;
    return performance.now() - t - 1000;
  }, mode);
  const t1 = await taskSeconds(cdp);
  const r = await page.evaluate(() => {
    const view = window.view;
    const shadow = view.shadowRoot;
    const walker = document.createTreeWalker(shadow, NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes++;
    let t = performance.now();
    const outline = view.outline();
    const outlineMs = performance.now() - t;
    t = performance.now();
    const found = view.find('parser');
    const findMs = performance.now() - t;
    view.find('');
    return {
      shadowNodes: nodes,
      documents: outline.turns.reduce((n, t) => n + t.documents.length, 0),
      placeholders: shadow.querySelectorAll('.ds-placeholder').length,
      outlineMs: Math.round(outlineMs),
      findMs: Math.round(findMs),
      matches: found.count,
      heapMB: Math.round(performance.memory?.usedJSHeapSize / 1e6),
    };
  });
  results[`load ${mb} MB (${mode})`] = {
    mainThreadS: +(t1 - t0).toFixed(2),
    wallS: +(wall / 1000).toFixed(2),
    domNodes: await domNodes(cdp),
    ...r,
  };
  console.log(`load ${mb} MB (${mode})`, JSON.stringify(results[`load ${mb} MB (${mode})`]));
  await context.close();
}

// Many turns: `--turns N` loads N documents with a prompt before every 8th (N / 4 turns)
// into a view of fixed height: main-thread time of the load until the windowing settles,
// DOM nodes, outline() and find() times.
const manyTurns = Number(arg('turns', '0'));
if (manyTurns) {
  const { context, page, cdp } = await openPage();
  const t0 = await taskSeconds(cdp);
  const r = await page.evaluate(async (n) => {
    const view = document.createElement('docstream-view');
    view.className = 'fixed';
    view.setAttribute('highlight', 'off');
    document.getElementById('host').append(view);
    const line = (o) => `${JSON.stringify(o)}\n`;
    const msg = (i) => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: the parser keeps a buffer.` }] }, session_id: 's' });
    const toolPair = (i) =>
      line({ type: 'tool_call', subtype: 'started', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` } } }, session_id: 's' }) +
      line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` }, result: { success: { stdout: `${i}\n`, exitCode: 0 } } } }, session_id: 's' });
    const prompt = (i) => line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `Prompt ${i}` }] }, session_id: 's' });
    let text = prompt(0);
    for (let i = 0; i < n; i++) text += (i && i % 8 === 0 ? prompt(i) : '') + (i % 2 ? toolPair(i) : msg(i));
    const t = performance.now();
    await view.load(text);
    const loadMs = performance.now() - t;
    // Until the DOM stops changing for a second.
    let quiet = 0;
    let last = -1;
    while (quiet < 4) {
      await new Promise((r) => setTimeout(r, 250));
      const k = view.shadowRoot.querySelectorAll('*').length;
      quiet = k === last ? quiet + 1 : 0;
      last = k;
    }
    const walker = document.createTreeWalker(view.shadowRoot, NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes++;
    let t1 = performance.now();
    const outline = view.outline();
    const outlineMs = performance.now() - t1;
    t1 = performance.now();
    const found = view.find('parser');
    const findMs = performance.now() - t1;
    view.find('');
    return { loadMs: Math.round(loadMs), turns: outline.turns.length, shadowNodes: nodes, outlineMs: Math.round(outlineMs), findMs: Math.round(findMs), matches: found.count };
  }, manyTurns);
  const t1 = await taskSeconds(cdp);
  results[`load ${manyTurns} documents in turns`] = { mainThreadS: +(t1 - t0).toFixed(2), domNodes: await domNodes(cdp), ...r };
  console.log(`load ${manyTurns} documents in ${r.turns} turns`, JSON.stringify(results[`load ${manyTurns} documents in turns`]));
  await context.close();
}

// Appends: one text document at a time into a thread of `n` documents (one assistant
// turn), flushed and laid out; the median of 21.
for (const n of args.includes('--turns') ? [] : [10, docs]) {
  const { context, page } = await openPage();
  const r = await page.evaluate(async (n) => {
    const view = document.createElement('docstream-view');
    view.className = 'fixed';
    view.setAttribute('highlight', 'off');
    document.getElementById('host').append(view);
    const line = (o) => `${JSON.stringify(o)}\n`;
    const msg = (i) => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: the parser keeps a buffer.` }] }, session_id: 's' });
    const toolPair = (i) =>
      line({ type: 'tool_call', subtype: 'started', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` } } }, session_id: 's' }) +
      line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` }, result: { success: { stdout: `${i}\n`, exitCode: 0 } } } }, session_id: 's' });
    let text = line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go' }] }, session_id: 's' });
    for (let i = 0; i < n; i++) text += i % 2 ? toolPair(i) : msg(i);
    view.push(text);
    view.flush();
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (let i = 0; i < 10; i++) await frame();
    const times = [];
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      view.push(toolPair(n + 2 * i + 1));
      view.flush();
      void view.scrollHeight; // layout
      times.push(performance.now() - t);
      await frame();
    }
    times.sort((a, b) => a - b);
    const walker = document.createTreeWalker(view.shadowRoot, NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes++;
    return { medianMs: +times[10].toFixed(2), documents: view.outline().turns.reduce((k, t) => k + t.documents.length, 0), shadowNodes: nodes };
  }, n);
  results[`append to ${n}`] = r;
  console.log(`append to ${n} documents`, JSON.stringify(r));
  await context.close();
}
if (results['append to 10']) {
  const short = results['append to 10'].medianMs;
  const long = results[`append to ${docs}`].medianMs;
  console.log(`append ratio (${docs} / 10 documents): ${(long / short).toFixed(2)}`);
}
await browser.close();
server.close();
