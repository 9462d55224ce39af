// Accessibility of the viewer by axe-core: no serious or critical violation with a
// transcript open, in light and dark.
import { join } from 'node:path';
import { assert, loadFile, openViewer } from './lib.mjs';

export const tests = [
  {
    name: 'axe finds no serious or critical violation in the viewer with a transcript open, light and dark',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, join(root, 'examples/cursor-session.jsonl'));
      await page.waitForFunction(() => document.querySelector('docstream-view')?.shadowRoot?.querySelector('[class^="ds-hl-"]'));
      await page.addScriptTag({ url: '/node_modules/axe-core/axe.min.js' });
      const found = [];
      for (const theme of ['light', 'dark']) {
        await page.selectOption('#theme', theme);
        const bad = await page.evaluate(async () => {
          const r = await window.axe.run(document, { resultTypes: ['violations'] });
          return r.violations
            .filter((x) => x.impact === 'serious' || x.impact === 'critical')
            .map((x) => `${x.id} (${x.impact}): ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
        });
        for (const b of bad) found.push(`${theme}: ${b}`);
      }
      assert.deepEqual(found, []);
    },
  },
];
