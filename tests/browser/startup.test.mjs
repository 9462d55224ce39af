// Start-up on a cold page: from the first line of the page's module to the first
// rendered document, with the package served as a static folder (no bundler): the
// module graph of docstream/define, the wasm compiled while it downloads
// (`WebAssembly.instantiateStreaming`, served as application/wasm) or, from a server
// that sends another type, fetched whole and compiled after (the glue's fallback). Both
// must render; the times are printed (timings are not tests) and the README quotes them.
import assert from 'node:assert/strict';
import { newPage } from './harness.mjs';

const LINE = '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello **there**"}]}}\n';

const PAGE = `<!doctype html><meta charset="utf-8"><body><script type="module">
const t0 = performance.now();
const { DocstreamView } = await import('/pkg/define.js');
const imported = performance.now();
const view = document.createElement('docstream-view');
view.setAttribute('highlight', 'off');
document.body.append(view);
view.push(${JSON.stringify(LINE)});
await view.ready;
const ready = performance.now();
while (!view.shadowRoot.querySelector('.ds-doc')) await new Promise((r) => requestAnimationFrame(r));
window.startup = { imported: imported - t0, ready: ready - t0, firstDocument: performance.now() - t0 };
</script></body>`;

async function measure(context, url, wasmType) {
  const page = await newPage(context, { allowConsoleErrors: wasmType !== 'application/wasm' });
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await page.route(`${url}/startup.html`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
  // The element's default module (docstream-lite_bg.wasm), and any other the page loads.
  await page.route(`${url}/pkg/*_bg.wasm`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': wasmType } });
  });
  await page.goto(`${url}/startup.html`);
  await page.waitForFunction(() => window.startup, null, { timeout: 20000 });
  const startup = await page.evaluate(() => window.startup);
  const fellBack = warnings.some((w) => w.includes('instantiateStreaming'));
  await page.close();
  return { startup, fellBack };
}

export const tests = [
  {
    name: 'start-up on a cold page: import to first rendered document, streamed compile and its fallback',
    async run({ browser, url }) {
      // Three cold pages of each, interleaved; the median of each figure.
      const runs = { 'application/wasm': [], 'application/octet-stream': [] };
      for (let i = 0; i < 3; i++) {
        for (const type of Object.keys(runs)) {
          const context = await browser.newContext(); // nothing cached
          try {
            const { startup, fellBack } = await measure(context, url, type);
            assert.equal(fellBack, type !== 'application/wasm', `${type}: instantiateStreaming used only for application/wasm`);
            runs[type].push(startup);
          } finally {
            await context.close();
          }
        }
      }
      const median = (xs) => xs.sort((a, b) => a - b)[1].toFixed(0);
      const rows = Object.entries(runs).map(([type, r]) =>
        `${type}: module graph ${median(r.map((x) => x.imported))} ms, wasm ready ${median(r.map((x) => x.ready))} ms, first document ${median(r.map((x) => x.firstDocument))} ms`);
      console.log(`     start-up (cold page, local server, median of 3): ${rows.join('; ')}`);
    },
  },
];
