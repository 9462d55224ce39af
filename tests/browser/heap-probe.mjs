// What the element's JS heap holds after the benchmark's transcript is streamed into it in
// 64 B chunks (a task each, as `node bench/browser.mjs`'s fast run feeds it) or loaded at
// once: the growth after a garbage collection, and with `--snapshot` a heap snapshot
// summed by kind. Not a test: figures for the README.
//
//   node tests/browser/heap-probe.mjs [--pkg pkg] [--mb 2] [--load] [--highlight off] [--snapshot]
//
// The input is the first `--mb` MB of bench/results/inputs/transcript-10m-seed42.ndjson
// (written by a bench run). 2 MB on main (2026-11-28): streamed, the heap grows 13.1× the
// input, 14.6 MB of it compiled code (V8's native code for the highlighter's regular
// expressions); with `--highlight off` 1.9×; a one-shot `--load` 2.1×.
import { launch } from './harness.mjs';
import { options, serveInput } from './probe-input.mjs';

const opts = options();
const load = opts.has('load');
const highlight = opts.arg('highlight', 'on');
const { input, server, url } = await serveInput(opts);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(`${url}/tests/browser/pages/element.html`);
await page.waitForFunction(() => window.testReady === true);
await page.evaluate(async () => {
  window.bytes = new Uint8Array(await (await fetch('/input')).arrayBuffer());
});
const cdp = await context.newCDPSession(page);
const heap = async () => {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
};
const before = await heap();
await page.evaluate(
  async ({ load, highlight }) => {
    const view = window.T.make({ highlight });
    view.style.height = '100vh';
    const bytes = window.bytes;
    if (load) await view.load(bytes);
    else {
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
    }
    await new Promise((r) => setTimeout(r, 500));
  },
  { load, highlight },
);
const grew = (await heap()) - before;
console.log(`${load ? 'load()' : 'push() per 64 B'}, highlight ${highlight}, ${(input.length / 1048576).toFixed(1)} MB: the heap grew ${(grew / 1e6).toFixed(1)} MB, ${(grew / input.length).toFixed(2)}× the input`);
if (opts.has('snapshot')) {
  const chunks = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  const { snapshot, nodes, strings } = JSON.parse(chunks.join(''));
  const fields = snapshot.meta.node_fields;
  const kinds = snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const sums = new Map();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const kind = kinds[nodes[i + type]];
    const key = kind.includes('string') ? kind : `${kind} ${strings[nodes[i + name]]}`.slice(0, 80);
    const s = sums.get(key) ?? [0, 0];
    s[0] += nodes[i + size];
    s[1]++;
    sums.set(key, s);
  }
  for (const [key, [bytes, n]] of [...sums].sort((a, b) => b[1][0] - a[1][0]).slice(0, 15)) {
    console.log(`${(bytes / 1e6).toFixed(2).padStart(8)} MB ${String(n).padStart(8)}× ${key}`);
  }
}
await browser.close();
server.close();
