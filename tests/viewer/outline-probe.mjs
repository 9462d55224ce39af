// Measures how long the viewer's outline takes to build for a very long session, and how
// many DOM nodes it holds (not a test: timings on a shared machine vary; the bounded DOM is
// held by features.test.mjs). A stand-in view gives `outline()` so that only the outline's
// own work is timed, not the core's.
//
//   node tests/viewer/outline-probe.mjs [prompts=40000] [runs=7]
import { chromium } from 'playwright-core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const prompts = Number(process.argv[2] ?? 40000);
const runs = Number(process.argv[3] ?? 7);
const server = await serve(root, {});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  if (process.env.PROBE_LOG) page.on('console', (m) => console.log(m.text()));
  await page.goto(`${server.url}/www/viewer/`);
  await page.waitForSelector('html[data-ready="true"]');
  const r = await page.evaluate(async ({ prompts, runs }) => {
    const { buildOutline } = await import('/www/viewer/outline.js');
    const turns = [];
    for (let i = 0; i < prompts; i++) {
      turns.push({ index: 2 * i, role: 'user', label: `Prompt ${i}`, documents: [] });
      turns.push({ index: 2 * i + 1, role: 'assistant', label: '', documents: [
        { id: `e${i}`, type: 'file_edit', label: `src/file${i}.rs`, status: 'success' },
        { id: `c${i}`, type: 'terminal_command', label: `cargo test ${i}`, status: 'success' },
      ] });
    }
    const outline = { turns };
    const view = { outline: () => outline, reveal() {} };
    const list = document.getElementById('outline-list');
    const summary = document.getElementById('outline-summary');
    const times = [];
    for (let k = 0; k < runs; k++) {
      await new Promise((r) => setTimeout(r, 50));
      const t0 = performance.now();
      buildOutline(view, list, summary);
      times.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 3000));
    return { times, nodes: list.querySelectorAll('*').length };
  }, { prompts, runs });
  const s = [...r.times].sort((a, b) => a - b);
  console.log(`${prompts} prompts (${prompts * 2} documents listed): build median ${s[s.length >> 1].toFixed(1)} ms, worst ${s.at(-1).toFixed(1)} ms over ${runs} builds; outline DOM ${r.nodes} elements 3 s later`);
} finally {
  await browser.close();
  await server.close();
}
