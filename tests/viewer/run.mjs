// Runs the viewer's browser tests: serves the repository from 127.0.0.1 (ephemeral
// port), drives Debian's Chromium with playwright-core, and runs every
// tests/viewer/*.test.mjs against www/viewer/ and the BUILT package in pkg/.
//
//   node tests/viewer/run.mjs [name-filter]
//
// Each test gets a fresh page; any console error or uncaught exception fails it.
// The run writes target/screenshots/viewer-*.png (docs/screenshots/ with
// DS_SCREENSHOTS=docs/screenshots) and a generated 50 MB transcript in a
// temp dir (removed at the end).
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from './server.mjs';
import { generate } from './gen-large.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const filter = process.argv[2] ?? '';

if (!existsSync(join(root, 'pkg', 'define.js'))) {
  console.error('pkg/define.js is missing: build the package first with `bash scripts/build-wasm.sh`.');
  process.exit(1);
}
if (!existsSync(join(root, 'www', 'viewer', 'vendor', 'library', 'library_bg.wasm'))) {
  console.error("The library's store reader is missing: build it with `bash scripts/build-library-wasm.sh` (build-wasm.sh does too).");
  process.exit(1);
}

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'docstream-viewer-'));
const large = join(tmp, 'large.jsonl');
const largeBytes = await generate(large, 50);
console.log(`generated ${large} (${(largeBytes / 1048576).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const server = await serve(root, { '/__tmp__/': tmp });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

const files = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
let passed = 0;
const failed = [];
try {
  for (const file of files) {
    const { tests } = await import(pathToFileURL(join(here, file)));
    for (const test of tests) {
      const name = `${file.replace('.test.mjs', '')}: ${test.name}`;
      if (filter && !name.includes(filter)) continue;
      const t0 = Date.now();
      const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, ...test.context });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
      page.setDefaultTimeout(test.timeout ?? 20_000);
      try {
        await test.run({ page, context, base: server.url, root, tmp, large: { path: large, bytes: largeBytes, url: `${server.url}/__tmp__/large.jsonl` } });
        if (errors.length) throw new Error(`console errors:\n  ${errors.join('\n  ')}`);
        passed++;
        console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed.push(name);
        console.log(`FAIL ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n     ${String(e?.stack ?? e).split('\n').join('\n     ')}`);
        if (errors.length) console.log(`     console errors:\n       ${errors.join('\n       ')}`);
      } finally {
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`\nviewer tests: ${passed} passed, ${failed.length} failed, ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (failed.length) {
  for (const f of failed) console.log(`  failed: ${f}`);
  process.exit(1);
}
if (!passed) {
  console.log('no test ran');
  process.exit(1);
}
