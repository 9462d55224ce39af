// Accessibility of <docstream-view> by axe-core: no serious or critical violation in the
// rendered fixtures (every document type, formulas as MathML), in light and dark,
// streamed and finished.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { ROOT, newPage, readRoot } from './harness.mjs';
import { assertClean } from './element.test.mjs';

/** The element's test page without its CSP header: axe is loaded as a script, which the
 * page's Trusted Types rule would refuse (the element itself is tested under the CSP
 * everywhere else). */
async function openPageForAxe(context, url) {
  const page = await newPage(context);
  await page.route('**/tests/browser/pages/element.html', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });
  await page.goto(`${url}/tests/browser/pages/element.html`.replace(/([^:])\/\//, "$1/"));
  await page.waitForFunction(() => window.testReady === true);
  return page;
}

function streams() {
  const out = [['examples/cursor-session.jsonl', readRoot('examples/cursor-session.jsonl', 'utf8')]];
  for (const f of readdirSync(`${ROOT}/tests/fixtures/cursor-stream-json`)) {
    if (!f.includes('.expected.')) out.push([f, readRoot(`tests/fixtures/cursor-stream-json/${f}`, 'utf8')]);
  }
  for (const [dir, f] of [['response-json', 'every-type.json'], ['claude-code-stream-json', 'session.jsonl']]) {
    out.push([`${dir}/${f}`, readRoot(`tests/fixtures/${dir}/${f}`, 'utf8')]);
  }
  return out;
}

export const tests = [
  {
    name: 'axe finds no serious or critical violation in any document type, light and dark, streamed and finished',
    async run({ context, url }) {
      const page = await openPageForAxe(context, url);
      await page.addScriptTag({ url: '/node_modules/axe-core/axe.min.js' });
      const found = [];
      for (const [name, text] of streams()) {
        for (const theme of ['light', 'dark']) {
          const v = await page.evaluate(
            async ([text, theme]) => {
              const { T } = window;
              const view = T.make({ theme, highlight: 'on', math: 'on' });
              view.style.height = '600px';
              // The page behind the element, as a page using that theme has it.
              document.body.style.background = theme === 'dark' ? '#0d1117' : '#ffffff';
              // Half streamed, then finished.
              const half = text.slice(0, Math.floor(text.length / 2));
              view.push(half);
              view.flush();
              const during = await window.axe.run(view, { resultTypes: ['violations'] });
              view.push(text.slice(half.length));
              view.finish();
              await T.waitFor(view, '[class^="ds-hl-"]');
              // Formulas are audited as MathML.
              if (view.shadowRoot.querySelector('code.ds-math') && !(await T.waitFor(view, 'math'))) throw new Error('no MathML');
              const after = await window.axe.run(view, { resultTypes: ['violations'] });
              view.remove();
              const bad = (r) =>
                r.violations
                  .filter((x) => x.impact === 'serious' || x.impact === 'critical')
                  .map((x) => `${x.id} (${x.impact}): ${x.nodes.slice(0, 2).map((n) => `${n.target.join(' ')} ${(n.any[0] ?? n.all[0])?.message ?? ''} ${n.html.slice(0, 100)}`).join('; ')}`);
              return [...bad(during).map((b) => `streaming: ${b}`), ...bad(after)];
            },
            [text, theme],
          );
          for (const b of v) found.push(`${name}, ${theme}: ${b}`);
        }
      }
      assert.deepEqual(found, []);
      await assertClean(page);
    },
  },
];
