// Theme (light, dark, system), diff view (unified, side by side), keyboard reach,
// landmarks and headings, and the screenshots in docs/screenshots/.
import { join } from 'node:path';
import { assert, openViewer, loadFile } from './lib.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';

const sample = (root) => join(root, 'examples/cursor-session.jsonl');

const brightness = (css) => css.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0);

function colours(page) {
  return page.evaluate(() => {
    const root = document.getElementById('view').shadowRoot;
    const turn = root.querySelector('.ds-turn.ds-assistant');
    return {
      page: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(turn).color,
    };
  });
}

export const tests = [
  {
    name: 'theme: light, dark, and the system setting; the choice is kept',
    async run({ page, base, root }) {
      await page.emulateMedia({ colorScheme: 'light' });
      await openViewer(page, base);
      await loadFile(page, sample(root));
      const light = await colours(page);
      assert.ok(brightness(light.page) > 600 && brightness(light.text) < 300, `light: ${JSON.stringify(light)}`);
      await page.selectOption('#theme', 'dark');
      const dark = await colours(page);
      assert.ok(brightness(dark.page) < 150 && brightness(dark.text) > 450, `dark: ${JSON.stringify(dark)}`);
      assert.equal(await page.getAttribute('#view', 'theme'), 'dark');
      // System follows prefers-color-scheme.
      await page.selectOption('#theme', 'system');
      assert.equal(await page.getAttribute('#view', 'theme'), 'auto');
      assert.ok(brightness((await colours(page)).page) > 600);
      await page.emulateMedia({ colorScheme: 'dark' });
      const sys = await colours(page);
      assert.ok(brightness(sys.page) < 150 && brightness(sys.text) > 450, `system dark: ${JSON.stringify(sys)}`);
      // Kept across a reload.
      await page.selectOption('#theme', 'light');
      await openViewer(page, base);
      assert.equal(await page.inputValue('#theme'), 'light');
      assert.equal(await page.getAttribute('#view', 'theme'), 'light');
    },
  },
  {
    name: 'diff view: unified or side by side',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, sample(root));
      const visible = () => page.evaluate(() => {
        const d = document.getElementById('view').shadowRoot.querySelector('.ds-file-edit');
        const on = (s) => d.querySelector(s)?.getClientRects().length > 0;
        return { unified: on('.ds-diff-unified'), split: on('.ds-diff-split') };
      });
      assert.deepEqual(await visible(), { unified: true, split: false });
      await page.selectOption('#diff', 'split');
      assert.equal(await page.getAttribute('#view', 'diff'), 'split');
      assert.deepEqual(await visible(), { unified: false, split: true });
      await page.selectOption('#diff', 'unified');
      assert.deepEqual(await visible(), { unified: true, split: false });
    },
  },
  {
    name: 'landmarks, headings, and every control reachable by Tab',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, sample(root));
      const marks = await page.evaluate(() => ({
        banner: document.querySelectorAll('body > header').length,
        nav: document.querySelector('nav')?.getAttribute('aria-labelledby'),
        main: document.querySelectorAll('main').length,
        search: document.querySelectorAll('[role="search"]').length,
        h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
        h2: [...document.querySelectorAll('h2')].map((h) => h.textContent),
      }));
      assert.deepEqual(marks, { banner: 1, nav: 'outline-heading', main: 1, search: 1, h1: ['docstream viewer'], h2: ['Outline', 'Transcript', 'Paste a transcript'] });
      // The skip link comes first and leads to the transcript.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'transcript');
      await page.evaluate(() => document.querySelector('.skip').focus());
      const reached = new Set();
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const id = await page.evaluate(() => {
          const a = document.activeElement;
          // The outline is one stop: the tree (its rows are reached by the arrow keys).
          return a?.id || a?.tagName;
        });
        reached.add(id);
      }
      for (const id of ['file', 'folder', 'paste-open', 'url', 'theme', 'diff', 'show-thinking', 'show-tools', 'show-output', 'search',
        'search-prev', 'search-next', 'play', 'timing', 'speed', 'scrub', 'export-html', 'export-json', 'outline-list']) {
        assert.ok(reached.has(id), `Tab reaches ${id} (reached: ${[...reached]})`);
      }
    },
  },
  {
    name: 'screenshots: light, dark, a diff, a plan',
    async run({ page, base, root }) {
      const dir = screenshotDir(root);
      await page.emulateMedia({ colorScheme: 'light' });
      await openViewer(page, base);
      await loadFile(page, sample(root));
      await page.evaluate(() => document.activeElement?.blur());
      await page.screenshot({ path: join(dir, 'viewer-light.png'), animations: 'disabled' });
      await page.selectOption('#theme', 'dark');
      await page.evaluate(() => document.activeElement?.blur());
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(dir, 'viewer-dark.png'), animations: 'disabled' });
      await page.selectOption('#theme', 'light');
      await page.selectOption('#diff', 'split');
      // A document with a margin around it.
      const shoot = async (sel, name) => {
        const el = page.locator(sel).first();
        await el.scrollIntoViewIfNeeded();
        const b = await el.boundingBox();
        await page.screenshot({ path: join(dir, name), animations: 'disabled', clip: { x: b.x - 12, y: b.y - 12, width: b.width + 24, height: b.height + 24 } });
      };
      await shoot('docstream-view .ds-doc.ds-file-edit', 'viewer-diff.png');
      await shoot('docstream-view .ds-doc.ds-plan', 'viewer-plan.png');
    },
  },
];
