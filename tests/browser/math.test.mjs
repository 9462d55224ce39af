// Formulas in <docstream-view>: `$…$` and `$$…$$` shown as MathML from the math module
// (loaded with the first formula), the TeX code hidden beside it; bad TeX stays code,
// text inside a formula stays text, `math="off"` keeps code.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, readRoot } from './harness.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

export const tests = [
  {
    name: 'formulas show as MathML once their block ends (page() keeps it); bad TeX stays code; markup in a formula stays text; math="off" keeps code',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/math.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make({ math: 'on' });
        view.id = 'math-shot';
        view.style.maxWidth = '760px';
        for (const line of text.split(/(?<=\n)/)) {
          view.push(line);
          view.flush();
        }
        view.finish();
        const root = view.shadowRoot;
        const shown = await T.waitFor(view, 'math[display="block"]');
        const maths = [...root.querySelectorAll('math')];
        const codes = [...root.querySelectorAll('code.ds-math')];
        const exported = view.page({ title: 'formulas' });
        const off = T.make();
        await off.load(text);
        return {
          shown,
          namespaces: [...new Set(maths.map((m) => m.namespaceURI))],
          parts: maths.map((m) => m.getAttribute('part')),
          texts: maths.map((m) => m.textContent),
          codes: codes.map((c) => ({ tex: c.textContent, shown: c.hasAttribute('data-ds-math'), display: getComputedStyle(c).display })),
          blockWidth: root.querySelector('math[display="block"]').getBoundingClientRect().width,
          images: root.querySelectorAll('img').length,
          stripped: T.stripped(view),
          html: T.parsed(view.html()),
          exportedMaths: (exported.match(/<math /g) ?? []).length,
          exportedHidden: /code\.ds-math\[data-ds-math\]\s*\{\s*display:\s*none;?\s*\}/.test(exported),
          offMaths: off.shadowRoot.querySelectorAll('math').length,
          offCodes: off.shadowRoot.querySelectorAll('code.ds-math').length,
        };
      }, text);
      assert.ok(r.shown, 'the display formula became MathML');
      assert.deepEqual(r.namespaces, ['http://www.w3.org/1998/Math/MathML']);
      assert.equal(r.texts.length, 3, JSON.stringify(r.texts));
      assert.ok(r.parts.every((p) => p === 'math'));
      assert.ok(r.texts[0].includes('E=mc2'), r.texts[0]);
      assert.ok(r.texts[2].includes('<img src=x'), 'markup in \\text{} is text');
      assert.equal(r.images, 0, 'no element from inside a formula');
      assert.ok(r.blockWidth > 20, `the display formula has a size (${r.blockWidth})`);
      const byTex = Object.fromEntries(r.codes.map((c) => [c.tex, c]));
      for (const tex of ['E = mc^2', '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}']) {
        assert.equal(byTex[tex]?.shown, true, tex);
        assert.equal(byTex[tex].display, 'none', `${tex}: its code hides`);
      }
      for (const tex of ['\\frac{a}', '\\nosuchcommand x']) {
        assert.equal(byTex[tex]?.shown, false, `${tex} stays code`);
        assert.notEqual(byTex[tex].display, 'none', `${tex} is visible`);
      }
      assert.equal(r.stripped, r.html, 'without the MathML the view is html()');
      assert.equal(r.exportedMaths, 3, 'page() keeps the MathML');
      assert.ok(r.exportedHidden, "page()'s stylesheet hides the formulas' code");
      assert.equal(r.offMaths, 0);
      assert.equal(r.offCodes, 5);
      await page.evaluate(() => document.getElementById('math-shot').scrollIntoView());
      await (await page.$('#math-shot')).screenshot({ path: join(screenshotDir(ROOT), 'formulas.png') });
      await assertClean(page);
    },
  },
  {
    name: 'a formulas module that does not load is one DS_MATH error event; the formulas stay code',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await page.route('**/math_bg.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
      const text = readRoot('tests/fixtures/cursor-stream-json/math.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make({ math: 'on' });
        const lines = text.split(/(?<=\n)/);
        const result = lines.pop();
        for (const line of lines) {
          view.push(line);
          view.flush();
        }
        for (let i = 0; i < 100 && !T.events.some((e) => e.detail?.code === 'DS_MATH'); i++) await new Promise((r) => setTimeout(r, 20));
        // Another formula after the failure: no second event.
        view.push(`${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: '\n\nMore: $y^3$\n\nend' }] } })}\n`);
        view.push(result);
        view.finish();
        await new Promise((r) => setTimeout(r, 200));
        const root = view.shadowRoot;
        return {
          errors: T.events.filter((e) => e.type === 'docstream-error').map((e) => e.detail.code),
          maths: root.querySelectorAll('math').length,
          visible: [...root.querySelectorAll('code.ds-math')].filter((c) => getComputedStyle(c).display !== 'none').length,
        };
      }, text);
      assert.deepEqual(r.errors, ['DS_MATH']);
      assert.equal(r.maths, 0);
      assert.equal(r.visible, 6, 'every formula shows as code');
    },
  },
];
