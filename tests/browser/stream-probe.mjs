// Where the element's time goes when a transcript is streamed in 64 B chunks, one task
// each (as `node bench/browser.mjs`'s fast run feeds it): a Chromium trace of the feed,
// summed by event. Not a test (times vary with the machine): figures for the README.
//
//   node tests/browser/stream-probe.mjs [--pkg pkg] [--mb 2] [--fixed]
//
// --fixed: the view 100vh high, scrolling its conversation (as the benchmark's page has it);
// without, the page grows with it.
//
// The input is the first `--mb` MB of the benchmark's generated 10 MB transcript
// (bench/results/inputs/transcript-10m-seed42.ndjson, written by a bench run).
// 2 MB on main (fbdeac2), quiet machine: 4.6 s wall; the feeding tasks
// (MessagePort::Accept: push, staging, a docstream-progress event) 1.8 s; the frames
// (FireAnimationFrame 1.0 s: patches applied; UpdateLifecycle 0.66 s: style, layout, paint).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './harness.mjs';
import { options, serveInput } from './probe-input.mjs';

const opts = options();
const fixed = opts.has('fixed');
const { input, server, url } = await serveInput(opts);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
const page = await context.newPage();
await page.goto(`${url}/tests/browser/pages/element.html`);
await page.waitForFunction(() => window.testReady === true);
await page.evaluate(async () => {
  window.bytes = new Uint8Array(await (await fetch('/input')).arrayBuffer());
});
const path = join(mkdtempSync(join(tmpdir(), 'docstream-trace-')), 'trace.json');
await browser.startTracing(page, { path, categories: ['toplevel', 'devtools.timeline', 'blink', 'v8.execute'] });
const r = await page.evaluate(async (fixed) => {
  const view = window.T.make();
  if (fixed) view.style.height = '100vh';
  const bytes = window.bytes;
  const t0 = performance.now();
  await new Promise((done) => {
    const channel = new MessageChannel();
    let off = 0;
    channel.port1.onmessage = () => {
      if (off >= bytes.length) {
        channel.port1.close();
        done();
        return;
      }
      view.push(bytes.subarray(off, off + 64));
      off += 64;
      channel.port2.postMessage(0);
    };
    channel.port2.postMessage(0);
  });
  await view.finish();
  return { wallMs: Math.round(performance.now() - t0), chunks: Math.ceil(bytes.length / 64) };
}, fixed);
await browser.stopTracing();
const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents.filter((e) => e.ph === 'X');
const sum = new Map();
for (const e of events) {
  const s = sum.get(e.name) ?? { ms: 0, n: 0 };
  s.ms += (e.dur ?? 0) / 1000;
  s.n++;
  sum.set(e.name, s);
}
console.log(`${(input.length / 1048576).toFixed(1)} MB in ${r.chunks} chunks: ${r.wallMs} ms wall`);
for (const [name, s] of [...sum].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) {
  console.log(`${String(Math.round(s.ms)).padStart(7)} ms ${String(s.n).padStart(7)}x ${name}`);
}
await browser.close();
server.close();
