// Markdown tables in <docstream-view>: copy as TSV and as Markdown, and a wide table
// scrolls inside its block.
import assert from 'node:assert/strict';
import { assertClean, openTestPage } from './element.test.mjs';

const ANSWER =
  [
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: '| Name | Size | Note |\n|:--|--:|:-:|\n| a.rs | 12 | ok |\n| b\\|c | 3 | ' }] } },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `${'wide_'.repeat(80)} |\n\nDone.\n` }] } },
    { type: 'result', subtype: 'success', is_error: false },
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join('');

export const tests = [
  {
    name: 'a finished table has copy controls for TSV and Markdown (named, localized) and scrolls sideways inside its block',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make();
        view.style.width = '600px';
        const lines = text.split(/(?<=\n)/);
        view.push(lines[0]);
        view.flush();
        const whileOpen = view.shadowRoot.querySelectorAll('.ds-table-tools').length;
        for (const l of lines.slice(1)) view.push(l);
        view.finish();
        const copied = [];
        view.addEventListener('docstream-copy', (e) => {
          copied.push(e.detail.text);
          e.preventDefault();
        });
        const buttons = [...view.shadowRoot.querySelectorAll('.ds-table-tools button')];
        for (const b of buttons) b.click();
        // The converters load with the first copy: the events come when they have.
        for (let i = 0; i < 100 && copied.length < buttons.length; i++) await new Promise((r) => setTimeout(r, 20));
        const table = view.shadowRoot.querySelector('.ds-blocks table');
        const de = T.make({ locale: 'de' });
        await de.load(text);
        return {
          whileOpen,
          names: buttons.map((b) => b.textContent),
          copied,
          overflow: getComputedStyle(table).overflowX,
          scrolls: table.scrollWidth > table.clientWidth,
          fits: table.getBoundingClientRect().width <= view.getBoundingClientRect().width,
          german: [...de.shadowRoot.querySelectorAll('.ds-table-tools button')].map((b) => b.textContent),
        };
      }, ANSWER);
      assert.equal(r.whileOpen, 0, 'no controls while the table still grows');
      assert.deepEqual(r.names, ['Copy table as TSV', 'Copy table as Markdown']);
      const wide = 'wide_'.repeat(80);
      // Both converters load with the first copy: the two events may come in either order.
      const tsv = `Name\tSize\tNote\na.rs\t12\tok\nb|c\t3\t${wide}\n`;
      const markdown = `| Name | Size | Note |\n| :-- | --: | :-: |\n| a.rs | 12 | ok |\n| b\\|c | 3 | ${wide} |\n`;
      assert.deepEqual([...r.copied].sort(), [markdown, tsv].sort());
      assert.equal(r.overflow, 'auto');
      assert.ok(r.scrolls && r.fits, 'the wide table scrolls inside the view');
      assert.deepEqual(r.german, ['Tabelle als TSV kopieren', 'Tabelle als Markdown kopieren']);
      await assertClean(page);
    },
  },
];
