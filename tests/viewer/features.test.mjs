// Search, filters, outline navigation, replay and export.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, openViewer, loadFile, shownDocuments, expectedDocuments, fixtures, outlineEntries } from './lib.mjs';
import { generate } from './gen-large.mjs';

const tools = (root) => join(root, 'tests/fixtures/cursor-stream-json/tools.jsonl');

/** Is the element at `sel` inside the view's shadow root laid out (not display: none)? */
function shown(page, sel) {
  return page.evaluate((s) => [...document.getElementById('view').shadowRoot.querySelectorAll(s)].map((e) => e.getClientRects().length > 0), sel);
}

export const tests = [
  {
    name: 'search marks every match, next/previous move through them and show them',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, tools(root));
      // Syntax colours split lines into spans once the highlighter has loaded.
      await page.waitForFunction(() => document.getElementById('view').shadowRoot.querySelector('[class^="ds-hl-"]'));
      // Count the matches the test expects from the rendered text itself.
      const expected = await page.evaluate(() => {
        const conv = document.getElementById('view').shadowRoot.querySelector('.ds-conversation');
        const w = document.createTreeWalker(conv, NodeFilter.SHOW_TEXT);
        let n = 0;
        for (let t = w.nextNode(); t; t = w.nextNode()) {
          if (t.parentElement.closest('summary .ds-preview')) continue;
          n += t.data.toLowerCase().split('helo').length - 1;
        }
        return n;
      });
      assert.ok(expected >= 3, `matches of "helo" in the text: ${expected}`);
      await page.press('body', '/');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'search', '/ focuses the search box');
      await page.keyboard.type('HELO');
      await page.keyboard.press('Enter');
      assert.equal(await page.textContent('#search-count'), `1 of ${expected}`);
      const marked = await page.evaluate(() => ({
        all: CSS.highlights.get('ds-find').size,
        current: [...CSS.highlights.get('ds-find-current')].map((r) => r.startContainer.data.slice(r.startOffset, r.endOffset)),
      }));
      assert.equal(marked.all, expected);
      assert.deepEqual(marked.current.map((s) => s.toLowerCase()), ['helo']);
      await page.keyboard.press('Enter');
      assert.equal(await page.textContent('#search-count'), `2 of ${expected}`);
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.press('Shift+Enter');
      assert.equal(await page.textContent('#search-count'), `${expected} of ${expected}`, 'previous wraps around');
      // A match across the spans of syntax colours ("main", "() {" are separate tokens).
      await page.fill('#search', 'main() {');
      await page.keyboard.press('Enter');
      const across = await page.evaluate(() => {
        const r = [...CSS.highlights.get('ds-find-current')][0];
        const range = document.createRange();
        range.setStart(r.startContainer, r.startOffset);
        range.setEnd(r.endContainer, r.endOffset);
        return { text: range.toString(), split: r.startContainer !== r.endContainer };
      });
      assert.deepEqual(across, { text: 'main() {', split: true });
      await page.fill('#search', 'HELO');
      await page.keyboard.press('Enter');
      for (let i = 0; i < expected - 1; i++) await page.keyboard.press('Enter');
      // The current match is in view, inside an opened <details> if it was folded.
      const where = await page.evaluate(() => {
        const r = [...CSS.highlights.get('ds-find-current')][0];
        const range = document.createRange();
        range.setStart(r.startContainer, r.startOffset);
        range.setEnd(r.endContainer, r.endOffset);
        const box = range.getBoundingClientRect();
        const closed = r.startContainer.parentElement.closest('details:not([open])');
        return { top: box.top, bottom: box.bottom, h: innerHeight, closed: !!closed };
      });
      assert.ok(where.top >= 0 && where.bottom <= where.h, `current match on screen: ${JSON.stringify(where)}`);
      assert.equal(where.closed, false);
      await page.keyboard.press('Escape');
      assert.equal(await page.textContent('#search-count'), '');
      assert.equal(await page.evaluate(() => CSS.highlights.get('ds-find').size), 0);
    },
  },
  {
    name: 'filters hide thinking, tool calls and terminal output (and search skips them)',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, tools(root));
      assert.deepEqual(await shown(page, '.ds-thinking'), [true]);
      assert.equal(await page.textContent('#count-thinking'), '(1)');
      await page.fill('#search', 'greeting is wrong');
      await page.press('#search', 'Enter');
      assert.equal(await page.textContent('#search-count'), '1 of 1');

      await page.uncheck('#show-thinking');
      assert.deepEqual(await shown(page, '.ds-thinking'), [false]);
      assert.equal(await page.textContent('#search-count'), 'no matches', 'hidden thinking is not searched');

      const toolsBefore = await shown(page, '.ds-tool-call');
      assert.ok(toolsBefore.length >= 3 && toolsBefore.every(Boolean));
      await page.uncheck('#show-tools');
      assert.ok((await shown(page, '.ds-tool-call')).every((v) => !v));
      assert.ok((await shown(page, '.ds-file-edit')).every(Boolean), 'file edits stay');

      assert.deepEqual(await shown(page, '.ds-terminal-command .ds-output'), [true]);
      await page.uncheck('#show-output');
      assert.deepEqual(await shown(page, '.ds-terminal-command .ds-output'), [false]);
      assert.deepEqual(await shown(page, '.ds-terminal-command .ds-command'), [true], 'the command line stays');

      await page.check('#show-thinking');
      await page.check('#show-tools');
      await page.check('#show-output');
      assert.deepEqual(await shown(page, '.ds-thinking'), [true]);
      assert.ok((await shown(page, '.ds-tool-call')).every(Boolean));
      assert.deepEqual(await shown(page, '.ds-terminal-command .ds-output'), [true]);
    },
  },
  {
    name: 'outline lists prompts with their edits, commands and plans; activating one jumps there',
    async run({ page, base, tmp }) {
      const path = join(tmp, 'outline.jsonl');
      await generate(path, 0.3);
      await openViewer(page, base);
      await loadFile(page, path);
      const model = await page.evaluate(() => {
        const root = document.getElementById('view').shadowRoot;
        return {
          prompts: [...root.querySelectorAll('.ds-turn.ds-user .ds-user-content')].map((e) => e.textContent.trim()),
          edits: root.querySelectorAll('.ds-file-edit').length,
          runs: root.querySelectorAll('.ds-terminal-command').length,
          plans: root.querySelectorAll('.ds-plan').length,
        };
      });
      assert.ok(model.prompts.length >= 5, `prompts: ${model.prompts.length}`);
      const entries = await outlineEntries(page);
      const outline = entries.map((e) => ({ ...e, items: e.items.map((i) => i.kind) }));
      assert.equal(outline.length, model.prompts.length);
      assert.ok(outline.every((o) => o.setsize === outline.length), 'each prompt says how many there are (aria-setsize)');
      outline.forEach((o, i) => assert.ok(o.label.startsWith(`${i + 1}. ${model.prompts[i].slice(0, 20)}`), o.label));
      assert.equal(outline[0].counts, '3 edits · 2 commands · 1 plan');
      assert.equal(outline[1].counts, '3 edits · 2 commands');
      const all = outline.flatMap((o) => o.items);
      assert.equal(all.filter((k) => k === 'edit').length, model.edits);
      assert.equal(all.filter((k) => k === 'run').length, model.runs);
      assert.equal(all.filter((k) => k === 'plan').length, model.plans);
      const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
      assert.equal(await page.textContent('#outline-summary'),
        `${n(model.prompts.length, 'prompt', 'prompts')} · ${n(model.edits, 'edit', 'edits')} · ${n(model.runs, 'command', 'commands')} · ${n(model.plans, 'plan', 'plans')}`);

      // Keyboard: from the first entry, arrow down to a middle prompt's command that runs
      // the tests, and press Enter.
      const mid = Math.floor(outline.length / 2);
      const rowOf = (p, i) => entries.slice(0, p).reduce((n, e) => n + 1 + e.items.length, 0) + (i < 0 ? 0 : 1 + i);
      const target0 = rowOf(mid, entries[mid].items.findIndex((i) => /cargo test/.test(i.label)));
      await page.locator('#outline-list').focus();
      await page.keyboard.press('Home');
      for (let k = 0; k < target0; k++) await page.keyboard.press('ArrowDown');
      assert.match(await page.evaluate(() => document.getElementById(document.activeElement.getAttribute('aria-activedescendant')).textContent), /cargo test/);
      await page.keyboard.press('Enter');
      await page
        .waitForFunction(() => {
          const t = document.getElementById('view').shadowRoot.activeElement?.getBoundingClientRect().top;
          return t >= 0 && t < innerHeight / 2;
        }, null, { timeout: 2000 })
        .catch(() => {});
      const target = await page.evaluate(() => {
        const root = document.getElementById('view').shadowRoot;
        const el = root.activeElement;
        const box = el?.getBoundingClientRect();
        return el && { doc: el.dataset.docId, turn: el.closest('.ds-turn').dataset.turnIndex, cmd: el.querySelector('.ds-command')?.textContent, top: box.top, h: innerHeight };
      });
      assert.ok(target, 'focus moved into the transcript');
      assert.match(target.cmd, /cargo test/);
      assert.ok(target.top >= 0 && target.top < target.h / 2, `scrolled to the top part of the window: ${target.top}`);
      // A prompt entry jumps to its turn.
      await page.locator('#outline-list').focus();
      await page.keyboard.press('Home');
      await page.locator('#outline-list .turn[aria-posinset="3"]').click();
      // Turns far from view are laid out at an estimated size; the view settles a frame on.
      await page
        .waitForFunction(() => {
          const t = document.getElementById('view').shadowRoot.activeElement?.getBoundingClientRect().top;
          return t >= 0 && t < 400;
        }, null, { timeout: 2000 })
        .catch(() => {});
      const turn = await page.evaluate(() => {
        const el = document.getElementById('view').shadowRoot.activeElement;
        return { user: el.classList.contains('ds-user'), top: el.getBoundingClientRect().top, text: el.textContent };
      });
      assert.equal(turn.user, true);
      assert.ok(turn.text.includes(model.prompts[2]));
      assert.ok(turn.top >= 0 && turn.top < 400, `turn at ${turn.top}`);
    },
  },
  {
    name: 'the outline of a session of 3,000 prompts is built once, with only the rows near its viewport in the DOM',
    timeout: 180_000,
    async run({ page, base }) {
      // 3,000 prompts, each answered by two shell runs: 6,000 documents listed.
      const line = (o) => `${JSON.stringify(o)}\n`;
      let text = '';
      for (let i = 0; i < 3000; i++) {
        text += line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `Prompt ${i}` }] }, session_id: 's' });
        for (const k of [0, 1]) {
          const args = { command: `echo p${i}c${k}` };
          text += line({ type: 'tool_call', subtype: 'started', call_id: `c${i}-${k}`, tool_call: { shellToolCall: { args } }, session_id: 's' });
          text += line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}-${k}`, tool_call: { shellToolCall: { args, result: { success: { stdout: 'ok\n', exitCode: 0 } } } }, session_id: 's' });
        }
      }
      const path = join(mkdtempSync(join(tmpdir(), 'docstream-outline-')), 'prompts.jsonl');
      writeFileSync(path, text);
      await openViewer(page, base);
      // Each build writes the summary: count the builds once the whole session is listed.
      await page.evaluate(() => {
        window.outlineBuilds = 0;
        new MutationObserver(() => {
          if (document.getElementById('outline-summary').textContent.startsWith('3000 prompts')) window.outlineBuilds++;
        }).observe(document.getElementById('outline-summary'), { childList: true, characterData: true, subtree: true });
      });
      await loadFile(page, path, 120_000);
      // The replay takes the text after the load (and would rebuild the outline 250 ms
      // later if it took that for a move).
      await page.waitForTimeout(1000);
      assert.equal(await page.evaluate(() => window.outlineBuilds), 1, 'the outline is built once after the load');
      const r = await page.evaluate(() => {
        const list = document.getElementById('outline-list');
        const first = list.querySelector('[aria-level="1"]');
        return {
          rows: list.children.length,
          elements: list.querySelectorAll('*').length,
          setsize: first.getAttribute('aria-setsize'),
          height: list.getBoundingClientRect().height,
          summary: document.getElementById('outline-summary').textContent,
        };
      });
      console.log(`     ${r.rows} rows of 9,000 in the DOM (${r.elements} elements), the list ${r.height} px tall`);
      assert.ok(r.rows <= 120, `rows only near the outline's viewport: ${JSON.stringify(r)}`);
      assert.equal(r.setsize, '3000', 'each prompt says how many there are');
      assert.equal(r.height, 3000 * (22 + 18) + 6000 * 22, 'the list is as tall as all its rows');
      assert.equal(r.summary, '3000 prompts · 6000 commands');
      // The keyboard reaches the last entries: End, then Left to its prompt, Right into it.
      await page.locator('#outline-list').focus();
      // The tree has the focus and names its active row (aria-activedescendant).
      const at = () => page.evaluate(() => {
        const a = document.activeElement;
        const row = document.getElementById(a.getAttribute('aria-activedescendant'));
        return {
          focus: a.id,
          text: row.textContent,
          level: row.getAttribute('aria-level'),
          pos: row.getAttribute('aria-posinset'),
          counts: row.querySelector('.counts')?.textContent ?? null,
        };
      });
      await page.keyboard.press('End');
      assert.deepEqual(await at(), { focus: 'outline-list', text: 'runecho p2999c1', level: '2', pos: '2', counts: null });
      await page.keyboard.press('ArrowLeft');
      assert.deepEqual(await at(), { focus: 'outline-list', text: '3000. Prompt 29992 commands', level: '1', pos: '3000', counts: '2 commands' });
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await at(), { focus: 'outline-list', text: 'runecho p2999c0', level: '2', pos: '1', counts: null });
      await page.keyboard.press('Home');
      assert.deepEqual(await at(), { focus: 'outline-list', text: '1. Prompt 02 commands', level: '1', pos: '1', counts: '2 commands' });
      // The row that has the keyboard stays in the DOM when the outline scrolls away.
      await page.evaluate(() => { document.getElementById('outline').scrollTop = 1e6; });
      await page.waitForTimeout(100);
      assert.equal(await page.evaluate(() => document.getElementById(document.activeElement.getAttribute('aria-activedescendant'))?.dataset.row), '0');
      assert.ok(await page.evaluate(() => document.getElementById('outline-list').children.length) <= 121);
      // PageDown moves by a screenful, and the outline scrolls back to it.
      await page.keyboard.press('PageDown');
      const down = await page.evaluate(async () => {
        // The outline scrolls to it at the next frame.
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const row = document.getElementById(document.activeElement.getAttribute('aria-activedescendant'));
        const a = row.getBoundingClientRect();
        const n = document.getElementById('outline').getBoundingClientRect();
        return { row: Number(row.dataset.row), inView: a.top >= n.top && a.bottom <= n.bottom };
      });
      assert.ok(down.row > 10 && down.inView, `PageDown: ${JSON.stringify(down)}`);
    },
  },
  {
    name: 'the outline of 40,000 prompts keeps a bounded DOM, and the keyboard and reveal reach every entry',
    timeout: 300_000,
    async run({ page, base }) {
      await openViewer(page, base);
      // A stand-in view gives the outline (the core's own `outline()` is not what is
      // tested here) and records what the outline reveals.
      const r = await page.evaluate(async () => {
        const { buildOutline, outlineOf } = await import('/www/viewer/outline.js');
        const turns = [];
        const expected = [];
        for (let i = 0; i < 40000; i++) {
          if (i % 10000 === 5000) {
            turns.push({ index: turns.length, role: 'compaction', label: `Context compacted ${i}`, documents: [] });
            expected.push(`${turns.length - 1}:`);
          }
          const user = turns.length;
          turns.push({ index: user, role: 'user', label: `Prompt ${i}`, documents: [] });
          expected.push(`${user}:`);
          const documents = [{ id: `e${i}`, type: 'file_edit', label: `src/f${i}.rs`, status: i % 7 ? 'success' : 'rejected' }];
          if (i % 3 === 0) documents.push({ id: `c${i}`, type: 'terminal_command', label: `cargo test ${i}` }, { id: `t${i}`, type: 'thinking', label: 'not listed' });
          turns.push({ index: user + 1, role: 'assistant', label: '', documents });
          for (const d of documents) if (d.type !== 'thinking') expected.push(`${user + 1}:${d.id}`);
        }
        const revealed = [];
        const view = { outline: () => ({ turns }), reveal: (at) => revealed.push(`${at.turn}:${at.document ?? ''}`) };
        const list = document.getElementById('outline-list');
        const summary = document.getElementById('outline-summary');
        buildOutline(view, list, summary);
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const tree = outlineOf(list);
        const size = () => list.querySelectorAll('*').length;
        const built = { rows: tree.rows, elements: size(), summary: summary.textContent };
        // Every entry in turn by the keyboard (ArrowDown from the first), each revealed by Enter.
        const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
        list.focus();
        key('Home');
        const reached = [];
        let most = 0;
        let wrong = null;
        const active = () => document.getElementById(document.activeElement.getAttribute('aria-activedescendant'));
        for (let row = 0; row < tree.rows; row++) {
          if (row) key('ArrowDown');
          const a = active();
          if (!wrong && Number(a.dataset.row) !== row) wrong = { row, at: a.dataset.row };
          reached.push(`${a.dataset.turn}:${a.dataset.doc ?? ''}`);
          key('Enter');
          if (row % 500 === 0) most = Math.max(most, size());
        }
        // End and Home reach both ends from anywhere.
        key('End');
        const end = active().dataset.row;
        key('Home');
        const home = active().dataset.row;
        return { built, expected, reached, revealed, most, wrong, end, home, last: tree.rows - 1 };
      });
      console.log(`     ${r.built.rows} rows: ${r.built.elements} elements when built, at most ${r.most} while walking every row`);
      assert.equal(r.built.rows, r.expected.length);
      assert.equal(r.built.summary, '40000 prompts · 4 compactions · 34285 edits · 13334 commands · 5715 edits not applied');
      assert.ok(r.built.elements <= 400, `outline DOM bounded when built: ${r.built.elements} elements`);
      assert.ok(r.most <= 400, `outline DOM bounded while walking: ${r.most} elements`);
      assert.equal(r.wrong, null, 'ArrowDown moves one row at a time');
      assert.deepEqual(r.reached, r.expected, 'the keyboard reaches every entry, in order');
      assert.deepEqual(r.revealed, r.expected, 'Enter reveals every entry');
      assert.equal(Number(r.end), r.last, 'End: the last entry');
      assert.equal(r.home, '0', 'Home: the first entry');
    },
  },
  {
    name: 'replay plays as streamed, pauses, and scrubs back and forth',
    async run({ page, base, root }) {
      const f = fixtures(root).find((x) => x.format === 'cursor-wrapper');
      const lines = readFileSync(f.path, 'utf8').split('\n').filter(Boolean).length;
      await openViewer(page, base);
      await loadFile(page, f.path);
      const full = await page.evaluate(() => document.getElementById('view').html());
      const docs = () => page.evaluate(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-doc').length);
      const position = () => page.evaluate(() => Number(document.getElementById('scrub').value));
      assert.equal(await page.inputValue('#scrub'), String(lines), 'the scrubber starts at the end');
      assert.equal(await page.isDisabled('#timing option[value="stamps"]'), false, 'this format carries timestamps');
      assert.equal(await page.inputValue('#timing'), 'stamps', 'timestamps are used when there are some');

      // Scrub to the start: nothing shown; to the middle: part of it.
      await page.fill('#scrub', '0');
      assert.equal(await docs(), 0);
      await page.fill('#scrub', String(Math.floor(lines / 2)));
      const half = await docs();
      assert.ok(half > 0 && half < f.expected.turns.flatMap((t) => t.documents ?? []).length, `half-way documents: ${half}`);

      // Play from the start; it advances, then pause holds still.
      await page.fill('#scrub', '0');
      await page.selectOption('#speed', '1');
      await page.click('#play');
      assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
      await page.waitForFunction(() => Number(document.getElementById('scrub').value) > 0);
      await page.click('#play');
      assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
      const paused = await position();
      await page.waitForTimeout(300);
      assert.equal(await position(), paused, 'paused');

      // Play to the end (at 20x): the same HTML as the whole load.
      await page.selectOption('#speed', '20');
      await page.click('#play');
      await page.waitForFunction((n) => Number(document.getElementById('scrub').value) === n, lines, { timeout: 15_000 });
      await page.waitForFunction(() => document.getElementById('play').getAttribute('aria-pressed') === 'false');
      assert.equal(await page.evaluate(() => document.getElementById('view').html()), full);
      assert.deepEqual(await shownDocuments(page), expectedDocuments(f.expected));
      assert.match(await page.textContent('#scrub-text'), new RegExp(`^${lines}/${lines} · `));
    },
  },
  {
    name: 'replay without timestamps uses a fixed rate',
    async run({ page, base, root }) {
      await openViewer(page, base);
      await loadFile(page, join(root, 'tests/fixtures/document-sse/stream.sse'));
      assert.equal(await page.isDisabled('#timing option[value="stamps"]'), true);
      assert.equal(await page.inputValue('#timing'), 'fixed');
      await page.fill('#scrub', '0');
      await page.selectOption('#speed', '20');
      const t0 = Date.now();
      await page.click('#play');
      await page.waitForFunction(() => document.getElementById('play').getAttribute('aria-pressed') === 'false', null, { timeout: 15_000 });
      const lines = Number(await page.getAttribute('#scrub', 'max'));
      // 100 ms a line at 1x, so lines * 5 ms at 20x.
      assert.ok(Date.now() - t0 >= lines * 5 * 0.8, `took ${Date.now() - t0} ms for ${lines} lines`);
    },
  },
  {
    name: 'export: a standalone HTML page of what is shown, the conversation as Markdown and as JSON',
    async run({ page, context, base, root }) {
      const f = fixtures(root).find((x) => x.format === 'cursor-stream-json' && x.name === 'tools');
      await openViewer(page, base);
      await loadFile(page, f.path);
      await page.selectOption('#theme', 'dark');
      await page.uncheck('#show-thinking');
      // The view as shown (masking is on by default: the next test).
      await page.uncheck('#export-redact');
      // Syntax colours arrive once the highlighter has loaded; the export keeps them.
      await page.waitForFunction(() => document.querySelector('docstream-view')?.shadowRoot?.querySelector('.ds-diff-text [class^="ds-hl-"]'));

      const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
      assert.equal(dl.suggestedFilename(), 'tools.html');
      const html = readFileSync(await dl.path(), 'utf8');
      assert.doesNotMatch(html, /<script/i, 'no script');
      assert.match(html, /<style>[^]*\.ds-diff-added[^]*<\/style>/, 'styles inlined');
      assert.doesNotMatch(html, /<link /, 'nothing to fetch');
      assert.doesNotMatch(html, /class="ds-doc ds-thinking"/, 'hidden thinking left out');
      assert.match(html, /class="ds-doc ds-tool-call"/, 'shown parts kept');
      assert.match(html, /data-doc-id="doc_005"/);

      // The page stands alone: shown with JavaScript off, styled, dark as exported.
      const p2 = await context.newPage();
      await p2.route('**/*', (r) => r.abort());
      await p2.setContent(html);
      const look = await p2.evaluate(() => ({
        keyword: getComputedStyle(document.querySelector('.ds-hl-keyword')).color,
        edits: document.querySelectorAll('.ds-file-edit').length,
        added: getComputedStyle(document.querySelector('.ds-diff-added')).backgroundColor,
        bg: getComputedStyle(document.body).backgroundColor,
      }));
      await p2.close();
      assert.equal(look.edits, 2);
      assert.equal(look.keyword, 'rgb(255, 123, 114)', 'syntax colours exported, dark');
      assert.notEqual(look.added, 'rgba(0, 0, 0, 0)', 'diff colours apply');
      const [r, g, b] = look.bg.match(/\d+/g).map(Number);
      assert.ok(r + g + b < 150, `dark background: ${look.bg}`);

      const [dm] = await Promise.all([page.waitForEvent('download'), page.click('#export-md')]);
      assert.equal(dm.suggestedFilename(), 'tools.md');
      const md = readFileSync(await dm.path(), 'utf8');
      const golden = readFileSync(f.path.replace(/\.jsonl$/, '.expected.md'), 'utf8');
      assert.equal(md, golden, 'the Markdown docstream md writes (the Rust golden)');

      const [dj] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
      assert.equal(dj.suggestedFilename(), 'tools.json');
      const json = JSON.parse(readFileSync(await dj.path(), 'utf8'));
      assert.deepEqual(json, f.expected, 'the normalised conversation, as the golden file has it');
    },
  },
  {
    name: 'export: downloads mask secrets by default (the count said and in the page header), and keep them when "Mask secrets" is unticked',
    async run({ page, base, root }) {
      const session = join(root, 'crates/redact/tests/corpus/session.jsonl');
      const secrets = readFileSync(join(root, 'crates/redact/tests/corpus/session.secrets.txt'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'));
      await openViewer(page, base);
      await loadFile(page, session);
      assert.equal(await page.isChecked('#export-redact'), true, 'masking is on by default');
      const got = {};
      for (const [button, ext] of [['#export-html', 'html'], ['#export-md', 'md'], ['#export-json', 'json']]) {
        const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
        const text = readFileSync(await dl.path(), 'utf8');
        for (const secret of secrets) assert.ok(!text.includes(secret), `${ext}: ${secret} left`);
        assert.match(text, /\[redacted: github-token\]/, ext);
        assert.match(await page.textContent('#status'), /secrets masked \(/, `${ext}: the count said`);
        got[ext] = text;
      }
      assert.match(got.html, /ds-fact-redacted/, 'the masked page says what was masked');
      assert.doesNotMatch(got.html, /<script/i, 'no script');
      JSON.parse(got.json);
      await page.uncheck('#export-redact');
      const [dm] = await Promise.all([page.waitForEvent('download'), page.click('#export-md')]);
      const kept = readFileSync(await dm.path(), 'utf8');
      for (const secret of secrets) assert.ok(kept.includes(secret), `unmasked Markdown: ${secret} missing`);
    },
  },
];
