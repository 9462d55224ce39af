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
      // Every stream in a view of its own, all on one page: axe audits them together, half
      // streamed and then finished, once per theme.
      for (const theme of ['light', 'dark']) {
        const v = await page.evaluate(
          async ([streams, theme]) => {
            const { T } = window;
            // The page behind the elements, as a page using that theme has it.
            document.body.style.background = theme === 'dark' ? '#0d1117' : '#ffffff';
            const views = streams.map(([name, text], i) => {
              const view = T.make({ theme, highlight: 'on', math: 'on' });
              view.id = `stream-${i}`;
              view.style.height = '600px';
              view.push(text.slice(0, Math.floor(text.length / 2)));
              view.flush();
              return view;
            });
            const bad = (r, phase) =>
              r.violations
                .filter((x) => x.impact === 'serious' || x.impact === 'critical')
                .flatMap((x) =>
                  x.nodes.map((n) => {
                    const i = Number(/stream-(\d+)/.exec(n.target.flat().join(' '))?.[1]);
                    const where = Number.isNaN(i) ? n.target.join(' ') : streams[i][0];
                    return `${where}, ${phase}: ${x.id} (${x.impact}): ${n.target.join(' ')} ${(n.any[0] ?? n.all[0])?.message ?? ''} ${n.html.slice(0, 100)}`;
                  }),
                );
            const host = document.getElementById('host');
            const during = bad(await window.axe.run(host, { resultTypes: ['violations'] }), 'streaming');
            views.forEach((view, i) => {
              const text = streams[i][1];
              view.push(text.slice(Math.floor(text.length / 2)));
              view.finish();
            });
            for (const view of views) {
              // Code is audited coloured, formulas as MathML.
              if (view.shadowRoot.querySelector('pre > code[class*="language-"], .ds-diff-unified, .ds-diff-split')) {
                await T.waitFor(view, '[class^="ds-hl-"]');
              }
              if (view.shadowRoot.querySelector('code.ds-math') && !(await T.waitFor(view, 'math'))) throw new Error(`${view.id}: no MathML`);
            }
            const after = bad(await window.axe.run(host, { resultTypes: ['violations'] }), 'finished');
            for (const view of views) view.remove();
            return [...during, ...after];
          },
          [streams(), theme],
        );
        for (const b of v) found.push(`${theme}: ${b}`);
      }
      assert.deepEqual(found, []);
      await assertClean(page);
    },
  },
];
