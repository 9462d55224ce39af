// Updates keep what the reader did: a disclosure opened, a focused control and a text
// selection inside a document survive the patches that re-render it.
import assert from 'node:assert/strict';
import { readRoot } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

export const tests = [
  {
    name: 'an opened disclosure, focus and a text selection survive 100 more chunks into the same documents',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make();
        view.style.height = '400px';
        const lines = text.split(/(?<=\n)/);
        // Up to the grep call's start: it is running, its result still to come.
        const upTo = lines.findIndex((l) => l.includes('"started"') && l.includes('grep_1')) + 1;
        for (const l of lines.slice(0, upTo)) view.push(l);
        view.flush();
        const root = view.shadowRoot;
        const grep = () => [...root.querySelectorAll('.ds-tool-call')].find((d) => d.textContent.includes('grepToolCall'));
        const args = () => grep().querySelector('details.ds-tool-args');
        args().querySelector('summary').click();
        args().querySelector('summary').focus();
        const summary = grep().querySelector('.ds-tool-summary');
        const sel = root.getSelection ? root.getSelection() : document.getSelection();
        sel.selectAllChildren(summary);
        const selected = sel.toString();
        const before = grep().outerHTML;
        const rest = new TextEncoder().encode(lines.slice(upTo).join(''));
        const size = Math.floor(rest.length / 100);
        const checks = [];
        for (let at = 0; at < rest.length; at += size) {
          view.push(rest.subarray(at, at + size));
          view.flush();
          const s = root.getSelection ? root.getSelection() : document.getSelection();
          checks.push({
            open: args().open,
            focused: root.activeElement === args().querySelector('summary'),
            selected: s.toString(),
          });
        }
        view.finish();
        return { checks, selected, rerendered: grep().outerHTML !== before, chunks: checks.length };
      }, text);
      assert.ok(r.chunks >= 100, `${r.chunks} chunks`);
      assert.ok(r.rerendered, 'the grep document was re-rendered by the patches (else this tests nothing)');
      assert.ok(r.selected.includes('Helo'), r.selected);
      r.checks.forEach((c, i) => {
        assert.ok(c.open, `chunk ${i}: the disclosure stays open`);
        assert.ok(c.focused, `chunk ${i}: focus stays on the summary`);
        assert.equal(c.selected, r.selected, `chunk ${i}: the selection stays`);
      });
      await assertClean(page);
    },
  },
];
