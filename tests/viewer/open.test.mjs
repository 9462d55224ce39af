// Opening transcripts: every fixture format through the file picker (documents shown
// = the golden conversation's), ?src=URL, paste, drag and drop, and a file in no
// known format.
import { readFileSync } from 'node:fs';
import { assert, openViewer, loadFile, settled, shownDocuments, expectedDocuments, fixtures } from './lib.mjs';

const statusText = (page) => page.textContent('#status');
const alertText = (page) => page.evaluate(() => { const a = document.getElementById('alert'); return a.hidden ? '' : a.textContent; });

export const tests = [
  {
    name: 'every fixture format shows its documents, and says its format',
    async run({ page, base, root }) {
      await openViewer(page, base);
      const all = fixtures(root);
      const formats = new Set(all.map((f) => f.format));
      assert.ok(formats.size >= 5, `fixture formats: ${[...formats]}`);
      for (const f of all) {
        const state = await loadFile(page, f.path);
        assert.equal(state, 'loaded', `${f.format}/${f.name}`);
        const shown = await shownDocuments(page);
        assert.deepEqual(shown, expectedDocuments(f.expected), `${f.format}/${f.name}: documents shown`);
        const turns = await page.evaluate(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-turn').length);
        assert.equal(turns, f.expected.turns.length, `${f.format}/${f.name}: turns`);
        assert.match(await statusText(page), new RegExp(`format ${f.format}\\b`), `${f.format}/${f.name}: status`);
        assert.equal(await alertText(page), '', `${f.format}/${f.name}: no alert`);
      }
    },
  },
  {
    name: '?src=URL loads the transcript with progress',
    async run({ page, base, root }) {
      const f = fixtures(root).find((x) => x.format === 'cursor-stream-json' && x.name === 'tools');
      await openViewer(page, base, '?src=../../tests/fixtures/cursor-stream-json/tools.jsonl');
      assert.equal(await settled(page), 'loaded');
      assert.deepEqual(await shownDocuments(page), expectedDocuments(f.expected));
      assert.equal(await page.inputValue('#url'), '../../tests/fixtures/cursor-stream-json/tools.jsonl');
      assert.match(await statusText(page), /tools\.jsonl: .* read/);
    },
  },
  {
    name: 'paste: the dialog and a paste anywhere on the page',
    async run({ page, base, root }) {
      const f = fixtures(root).find((x) => x.format === 'cursor-wrapper');
      const text = readFileSync(f.path, 'utf8');
      await openViewer(page, base);
      await page.click('#paste-open');
      await page.fill('#paste-text', text);
      await page.click('#paste-load');
      assert.equal(await settled(page), 'loaded');
      assert.deepEqual(await shownDocuments(page), expectedDocuments(f.expected));

      const g = fixtures(root).find((x) => x.format === 'document-sse');
      await page.evaluate(() => delete document.body.dataset.state);
      await page.evaluate((t) => {
        const data = new DataTransfer();
        data.setData('text/plain', t);
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, readFileSync(g.path, 'utf8'));
      assert.equal(await settled(page), 'loaded');
      assert.deepEqual(await shownDocuments(page), expectedDocuments(g.expected));
    },
  },
  {
    name: 'drag and drop a file onto the page',
    async run({ page, base, root }) {
      const f = fixtures(root).find((x) => x.format === 'cursor-json');
      await openViewer(page, base);
      await page.evaluate((t) => {
        const data = new DataTransfer();
        data.items.add(new File([t], 'result.json', { type: 'application/json' }));
        const ev = (type) => new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true });
        document.body.dispatchEvent(ev('dragenter'));
        if (document.getElementById('drop').hidden) throw new Error('no drop hint while dragging');
        document.body.dispatchEvent(ev('dragover'));
        document.body.dispatchEvent(ev('drop'));
      }, readFileSync(f.path, 'utf8'));
      assert.equal(await settled(page), 'loaded');
      assert.equal(await page.isHidden('#drop'), true);
      assert.deepEqual(await shownDocuments(page), expectedDocuments(f.expected));
      assert.match(await statusText(page), /result\.json/);
    },
  },
  {
    name: 'a file in no known format gets a clear message, not a blank page',
    async run({ page, base, tmp }) {
      const { writeFileSync } = await import('node:fs');
      const path = `${tmp}/notes.txt`;
      writeFileSync(path, 'Dear diary,\nthis is not an agent transcript.\n');
      await openViewer(page, base);
      assert.equal(await loadFile(page, path), 'loaded');
      const alert = await alertText(page);
      assert.match(alert, /not in a format docstream reads/);
      assert.match(alert, /cursor-stream-json/, 'the message names the formats known');
      assert.equal(await page.isVisible('#alert'), true);
      // The error document is shown too.
      const codes = await page.evaluate(() => [...document.getElementById('view').shadowRoot.querySelectorAll('.ds-error-code')].map((e) => e.textContent));
      assert.ok(codes.some((c) => c.includes('UNKNOWN_FORMAT')), `error codes shown: ${codes}`);

      // An empty file says so.
      writeFileSync(`${tmp}/empty.jsonl`, '');
      await loadFile(page, `${tmp}/empty.jsonl`);
      assert.match(await alertText(page), /empty/);
    },
  },
];
