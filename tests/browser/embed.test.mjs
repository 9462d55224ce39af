// The embedding examples in www/: the demo page (with screenshots in light and dark),
// the VS Code webview page under its CSP with a stub acquireVsCodeApi, and the Electron
// renderer page with a stub preload bridge. The VS Code extension and the Electron main
// process themselves are not run (neither is installed).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, newPage, readRoot } from './harness.mjs';
import { assertClean } from './element.test.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';

/** The element's HTML for `text` loaded at once, from a strict-CSP test page. */
async function reference(context, url, text) {
  const page = await newPage(context);
  await page.goto(`${url}/tests/browser/pages/element.html`);
  await page.waitForFunction(() => window.testReady === true);
  const html = await page.evaluate(async (text) => {
    const v = window.T.make();
    await v.load(text);
    return v.html();
  }, text);
  await assertClean(page);
  await page.close();
  return html;
}

export const tests = [
  {
    name: 'demo page streams the sample with zero console errors; screenshots in light and dark',
    async run({ context, url }) {
      const page = await newPage(context);
      await page.goto(`${url}/www/demo/`);
      await page.fill('input[name="chunk"]', '64');
      await page.fill('input[name="delay"]', '2');
      await page.click('#play');
      await page.waitForFunction(() => /^done/.test(document.getElementById('status').value), null, { timeout: 30000 });
      const html = await page.evaluate(() => document.getElementById('view').html());
      assert.equal(html, await reference(context, url, readRoot('examples/cursor-session.jsonl', 'utf8')));
      for (const theme of ['light', 'dark']) {
        await page.selectOption('select[name="theme"]', theme);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const bg = await page.evaluate(() => getComputedStyle(document.getElementById('view')).backgroundColor);
        assert.equal(bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)');
        await page.screenshot({ path: join(screenshotDir(ROOT), `demo-${theme}.png`) });
      }
      await assertClean(page);
    },
  },
  {
    name: 'VS Code webview page: inline wasm under its CSP, lines posted through a stub acquireVsCodeApi',
    async run({ context, url }) {
      const text = readRoot('tests/fixtures/document-sse/stream.sse', 'utf8');
      const page = await newPage(context);
      await page.addInitScript((lines) => {
        window.__posted = [];
        let acquired = false;
        window.acquireVsCodeApi = () => {
          if (acquired) throw new Error('acquireVsCodeApi called twice');
          acquired = true;
          return {
            postMessage(m) {
              window.__posted.push(m);
              if (m.type === 'ready') {
                window.postMessage({ type: 'reset' }, '*');
                for (const line of lines) window.postMessage({ type: 'line', line }, '*');
                window.postMessage({ type: 'end' }, '*');
              }
            },
            getState() {},
            setState() {},
          };
        };
        // VS Code's theme variables, as a webview gets them.
        document.addEventListener('DOMContentLoaded', () => {
          document.documentElement.style.setProperty('--vscode-editor-background', 'rgb(30, 31, 32)');
          document.documentElement.style.setProperty('--vscode-foreground', 'rgb(200, 201, 202)');
        });
      }, text.replace(/\n$/, '').split('\n'));
      await page.goto(`${url}/__vscode/index.html`);
      await page.waitForFunction(() => window.__posted.some((m) => m.type === 'done'), null, { timeout: 20000 });
      const r = await page.evaluate(() => {
        const v = document.querySelector('docstream-view');
        return {
          html: v.html(),
          bg: getComputedStyle(v).backgroundColor,
          fg: getComputedStyle(v).color,
          posted: window.__posted.map((m) => m.type),
        };
      });
      assert.equal(r.html, await reference(context, url, text));
      assert.equal(r.bg, 'rgb(30, 31, 32)', 'the vscode theme takes --vscode-editor-background');
      assert.equal(r.fg, 'rgb(200, 201, 202)');
      assert.deepEqual(r.posted, ['ready', 'done']);
      // A choice goes back to the extension.
      await page.locator('docstream-view .ds-option').first().click();
      const choice = await page.evaluate(() => window.__posted.find((m) => m.type === 'choice'));
      assert.equal(choice.questionId, 'q1');
      const wasm = page.log.requests.filter((u) => u.endsWith('.wasm'));
      assert.deepEqual(wasm, [], 'no .wasm fetched: the inlined module is used');
      await assertClean(page);
    },
  },
  {
    name: 'Electron renderer page: lines through a stub preload bridge',
    async run({ context, url }) {
      const text = readRoot('examples/cursor-session.jsonl', 'utf8');
      const page = await newPage(context);
      await page.addInitScript((lines) => {
        const callbacks = {};
        const replay = () => {
          if (!callbacks.reset || !callbacks.line || !callbacks.end) return;
          setTimeout(() => {
            callbacks.reset();
            lines.forEach((line, i) => setTimeout(() => callbacks.line(line), i));
            setTimeout(() => callbacks.end(), lines.length + 5);
          }, 0);
        };
        window.docstreamBridge = Object.freeze({
          onReset: (cb) => ((callbacks.reset = cb), replay()),
          onLine: (cb) => ((callbacks.line = cb), replay()),
          onEnd: (cb) => ((callbacks.end = cb), replay()),
        });
        window.__done = false;
        document.addEventListener('docstream-done', () => (window.__done = true));
      }, text.replace(/\n$/, '').split('\n'));
      await page.goto(`${url}/www/electron/index.html`);
      await page.waitForFunction(() => window.__done, null, { timeout: 20000 });
      const html = await page.evaluate(() => document.querySelector('docstream-view').html());
      assert.equal(html, await reference(context, url, text));
      await assertClean(page);
    },
  },
];
