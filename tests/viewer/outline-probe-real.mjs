// Times the outline of a real loaded session of 40,000 prompts (each answered by one
// shell run): the core's `outline()`, the viewer's build from it, and both together, five
// times after the load (not a test: timings on a shared machine vary). ~3 minutes.
//
//   node tests/viewer/outline-probe-real.mjs
import { chromium } from 'playwright-core';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { openViewer, loadFile } from './lib.mjs';
const line = (o) => `${JSON.stringify(o)}\n`;
const parts = [];
for (let i = 0; i < 40000; i++) {
  parts.push(line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `Prompt ${i}` }] }, session_id: 's' }));
  const args = { command: `echo p${i}` };
  parts.push(line({ type: 'tool_call', subtype: 'started', call_id: `c${i}`, tool_call: { shellToolCall: { args } }, session_id: 's' }));
  parts.push(line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}`, tool_call: { shellToolCall: { args, result: { success: { stdout: 'ok\n', exitCode: 0 } } } }, session_id: 's' }));
}
const path = join(mkdtempSync(join(tmpdir(), 'docstream-real-')), 'p.jsonl');
writeFileSync(path, parts.join(''));
const server = await serve(join(dirname(fileURLToPath(import.meta.url)), '..', '..'), {});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
page.setDefaultTimeout(400_000);
await openViewer(page, server.url);
console.log(await loadFile(page, path, 400_000));
const r = await page.evaluate(async () => {
  const { buildOutline } = await import('/www/viewer/outline.js');
  const view = document.getElementById('view');
  const out = [];
  for (let k = 0; k < 5; k++) {
    await new Promise((d) => setTimeout(d, 100));
    const t0 = performance.now();
    const o = view.outline();
    const t1 = performance.now();
    buildOutline({ outline: () => o, reveal() {} }, document.getElementById('outline-list'), document.getElementById('outline-summary'));
    const t2 = performance.now();
    buildOutline(view, document.getElementById('outline-list'), document.getElementById('outline-summary'));
    out.push([t1 - t0, t2 - t1, performance.now() - t2].map((x) => x.toFixed(1)).join(' / '));
  }
  return { out, summary: document.getElementById('outline-summary').textContent, els: document.getElementById('outline-list').querySelectorAll('*').length };
});
console.log('outline() / build from it / both (ms):', r.out.join(', '));
console.log(`${r.summary}; outline DOM ${r.els} elements`);
await browser.close(); await server.close();
