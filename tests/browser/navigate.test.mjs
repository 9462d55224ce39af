// What a page around <docstream-view> needs without reading its shadow root: outline(),
// reveal(), find()/findNext(), hide and page() (the viewer is built on these alone), and
// stream() loading a large chunk in slices.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { assertClean, openTestPage } from './element.test.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const TOOLS = 'tests/fixtures/cursor-stream-json/tools';

/** A view showing the tools fixture, in the test page. */
async function withTools(page, attrs = {}) {
  const text = readFileSync(`${ROOT}${TOOLS}.jsonl`, 'utf8');
  await page.evaluate(
    async ({ text, attrs }) => {
      const view = window.T.make(attrs);
      view.id = 'v';
      await view.load(text);
    },
    { text, attrs },
  );
}

export const tests = [
  {
    name: 'outline() lists every turn and document as the snapshot has them, each labelled by its header',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await withTools(page);
      const outline = await page.evaluate(() => document.getElementById('v').outline());
      // Before anything is read, the snapshot is an empty one, stats and all.
      const empty = await page.evaluate(() => {
        const view = window.T.make();
        return { snapshot: view.snapshot(), outline: view.outline() };
      });
      assert.deepEqual(empty, { snapshot: { turns: [], stats: { events: 0, unknownEvents: 0, badEvents: 0 } }, outline: { turns: [] } });
      const golden = JSON.parse(readFileSync(`${ROOT}${TOOLS}.expected.json`, 'utf8'));
      assert.deepEqual(
        outline.turns.map((t) => ({ role: t.role, docs: t.documents.map((d) => `${d.type} ${d.id}`) })),
        golden.turns.map((t) => ({ role: t.role, docs: (t.documents ?? []).map((d) => `${d.type} ${d.id}`) })),
      );
      assert.deepEqual(outline.turns.map((t) => t.index), golden.turns.map((_, i) => i));
      const docs = outline.turns.flatMap((t) => t.documents);
      const byType = (type) => docs.filter((d) => d.type === type);
      const goldenDocs = golden.turns.flatMap((t) => t.documents ?? []);
      assert.deepEqual(
        byType('file_edit').map((d) => d.label),
        goldenDocs.filter((d) => d.type === 'file_edit').map((d) => d.metadata.filePath),
        'a file edit is labelled by its path',
      );
      assert.deepEqual(
        byType('terminal_command').map((d) => d.label),
        goldenDocs.filter((d) => d.type === 'terminal_command').map((d) => d.metadata.command),
        'a command by its command line',
      );
      assert.ok(byType('tool_call').every((d) => d.label && d.status), `tool calls labelled, with a status: ${JSON.stringify(byType('tool_call'))}`);
      assert.ok(outline.turns[0].label.length > 0 && outline.turns[0].role === 'user', 'a user turn is labelled by its prompt');
      assert.ok(docs.every((d) => !d.label.includes('\n') && d.label.length <= 120), 'labels are one line');
      // A plan put to the user: its title, and the answer as its status.
      const plans = await page.evaluate(async (text) => {
        const view = window.T.make();
        await view.load(text);
        return view.outline().turns.flatMap((t) => t.documents).filter((d) => d.type === 'plan');
      }, readFileSync(`${ROOT}tests/fixtures/cursor-stream-json/plan_answers.jsonl`, 'utf8'));
      assert.deepEqual(
        plans.map((d) => [d.label, d.status]),
        [['Rename greet', 'rejected'], ['Rename greet, keep an alias', 'approved']],
      );
      await assertClean(page);
    },
  },
  {
    name: 'reveal() scrolls to a document or turn, opens the disclosures around it and focuses it',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await withTools(page);
      const r = await page.evaluate(() => {
        const view = document.getElementById('v');
        view.style.height = '200px';
        const root = view.shadowRoot;
        // A document inside a folded disclosure: the thinking's body.
        const thinking = root.querySelector('.ds-thinking details');
        thinking.open = false;
        view.scrollTop = view.scrollHeight;
        const byId = view.reveal('doc_001');
        const first = {
          found: byId,
          focused: root.activeElement?.getAttribute('data-doc-id'),
          flashed: root.activeElement?.classList.contains('ds-revealed'),
          top: root.activeElement.getBoundingClientRect().top - view.getBoundingClientRect().top,
        };
        thinking.open = false;
        view.reveal('doc_001', { open: true });
        const opened = thinking.open;
        const byIndex = view.reveal({ turn: 1, document: 'doc_006' });
        const second = root.activeElement?.getAttribute('data-doc-id');
        const turn = view.reveal({ turn: 0 });
        const third = root.activeElement?.classList.contains('ds-user');
        return { first, opened, byIndex, second, turn, third, missing: view.reveal('doc_999'), bad: view.reveal({}) };
      });
      assert.deepEqual(r.first.found, true);
      assert.equal(r.first.focused, 'doc_001');
      assert.equal(r.first.flashed, true);
      assert.ok(Math.abs(r.first.top) < 5, `scrolled to the top of the view: ${r.first.top}`);
      assert.equal(r.opened, true, '{ open: true } opens its own disclosures');
      assert.deepEqual([r.byIndex, r.second, r.turn, r.third], [true, 'doc_006', true, true]);
      assert.deepEqual([r.missing, r.bad], [false, false]);
      await assertClean(page);
    },
  },
  {
    name: 'find() marks every match, findNext() moves and wraps, two views keep their own marks, hidden parts are not searched',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await withTools(page);
      const r = await page.evaluate(() => {
        const view = document.getElementById('v');
        const root = view.shadowRoot;
        // The matches, counted from the text shown (controls and folded previews aside).
        const expected = window.T.countText(root.querySelector('.ds-conversation'), 'helo', 'summary .ds-preview, .ds-copy, [data-ds-ui]');
        const found = view.find('HELO');
        const text = (r) => r.startContainer.data.slice(r.startOffset, r.endOffset);
        const steps = [];
        for (let i = 0; i <= found.count; i++) steps.push(view.findNext().current);
        const back = view.findNext(-1).current;
        const current = [...CSS.highlights.get('ds-find-current')].map(text);
        // A second view on the page marks its own matches beside the first's.
        const other = window.T.make();
        other.load('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"helo there"}]},"session_id":"s"}\n');
        return { expected, found, steps, back, current, all: CSS.highlights.get('ds-find').size };
      });
      assert.ok(r.expected >= 3, `"helo" in the text: ${r.expected}`);
      assert.deepEqual(r.found, { query: 'HELO', count: r.expected, current: -1, capped: false });
      assert.deepEqual(r.steps, [...Array(r.expected).keys(), 0], 'next goes through every match and wraps');
      assert.equal(r.back, r.expected - 1, 'previous wraps back');
      assert.deepEqual(r.current.map((s) => s.toLowerCase()), ['helo']);
      assert.equal(r.all, r.expected);
      const two = await page.evaluate(async () => {
        const views = document.querySelectorAll('docstream-view');
        await new Promise((r) => setTimeout(r, 50));
        const second = views[views.length - 1].find('helo');
        const both = CSS.highlights.get('ds-find').size;
        views[views.length - 1].find('');
        return { second: second.count, both, after: CSS.highlights.get('ds-find').size };
      });
      assert.deepEqual(two, { second: 1, both: r.expected + 1, after: r.expected });
      // Hidden thinking is neither shown nor searched.
      const hidden = await page.evaluate(() => {
        const view = document.getElementById('v');
        const phrase = view.shadowRoot.querySelector('.ds-thinking summary').textContent.trim().split(' ').slice(-2).join(' ');
        const shown = view.find(phrase).count;
        // The phrase's matches outside the thinking (in the text that follows, say).
        const outside = window.T.countText(view.shadowRoot.querySelector('.ds-conversation'), phrase, '.ds-thinking, summary .ds-preview, .ds-copy');
        view.hide = 'thinking output';
        const rects = (sel) => [...view.shadowRoot.querySelectorAll(sel)].map((e) => e.getClientRects().length > 0);
        return {
          shown: shown > outside,
          hidden: view.find(phrase).count - outside,
          attr: view.getAttribute('hide'),
          thinking: rects('.ds-thinking'),
          output: rects('.ds-terminal-command .ds-output'),
          command: rects('.ds-terminal-command .ds-command'),
          cleared: view.find('').count,
        };
      });
      assert.deepEqual(
        hidden,
        { shown: true, hidden: 0, attr: 'thinking output', thinking: [false], output: [false], command: [true], cleared: 0 },
      );
      await assertClean(page);
    },
  },
  {
    name: 'page() is a standalone page in the CLI page frame: what is shown, styled for its theme, no script, no copy controls',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await withTools(page, { theme: 'dark', hide: 'thinking' });
      const html = await page.evaluate(() => document.getElementById('v').page({ title: 'tools <run>' }));
      // The frame is assets/page.html, the one the CLI fills: every line of it outside
      // its slots is in the page.
      const frame = readFileSync(`${ROOT}assets/page.html`, 'utf8');
      const pattern = frame
        .split(/(\{[a-z]+\})/)
        .map((part) => (/^\{[a-z]+\}$/.test(part) ? '[^]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      assert.match(html, new RegExp(`^${pattern}$`), 'the page frame');
      assert.match(html, /<html lang="en" theme="dark">/);
      assert.match(html, /<title>tools &#60;run&#62;<\/title>/);
      assert.doesNotMatch(html, /<script/i);
      assert.doesNotMatch(html, /:host/, 'host rules apply to the root');
      assert.doesNotMatch(html, /class="ds-copy/, 'no copy controls');
      assert.doesNotMatch(html, /class="ds-doc ds-thinking"/, 'hidden parts left out');
      assert.match(html, /class="ds-doc ds-file-edit"/);
      const p2 = await context.newPage();
      await p2.route('**/*', (r) => r.abort());
      await p2.setContent(html);
      const look = await p2.evaluate(() => ({
        bg: getComputedStyle(document.body).backgroundColor,
        edits: document.querySelectorAll('.ds-file-edit').length,
      }));
      await p2.close();
      const [r, g, b] = look.bg.match(/\d+/g).map(Number);
      assert.ok(r + g + b < 150, `dark background: ${look.bg}`);
      assert.equal(look.edits, 2);
      await assertClean(page);
    },
  },
  {
    name: 'scrolled up while more arrives, "Jump to latest" shows; it takes the reader to the bottom and the view follows again',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const line = (i) => `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Paragraph ${i} of the answer.\n\n` }] }, session_id: 's' })}\n`;
      await page.evaluate(async (lines) => {
        const view = window.T.make();
        view.id = 'v';
        view.style.height = '200px';
        await view.ready;
        await window.T.pushPainted(view, lines);
      }, Array.from({ length: 60 }, (_, i) => line(i)));
      const state = () =>
        page.evaluate(() => {
          const view = document.getElementById('v');
          const jump = view.shadowRoot.querySelector('.ds-jump');
          return {
            shown: jump.getClientRects().length > 0,
            label: jump.textContent,
            atBottom: view.scrollHeight - view.scrollTop - view.clientHeight < 40,
          };
        });
      assert.deepEqual(await state(), { shown: false, label: '', atBottom: true }, 'following the bottom: no button');
      // The reader scrolls up (a wheel), then more arrives.
      await page.locator('#v').hover();
      await page.mouse.wheel(0, -400);
      await page.waitForFunction(() => document.getElementById('v').scrollTop < document.getElementById('v').scrollHeight - 400);
      await page.evaluate((lines) => window.T.pushPainted(document.getElementById('v'), lines), Array.from({ length: 20 }, (_, i) => line(60 + i)));
      const up = await state();
      assert.deepEqual(up, { shown: true, label: 'Jump to latest', atBottom: false }, 'scrolled up: the button, the view stays put');
      await page.locator('#v .ds-jump').click();
      assert.deepEqual(await state(), { shown: false, label: 'Jump to latest', atBottom: true }, 'the button takes the reader down');
      await page.evaluate((lines) => window.T.pushPainted(document.getElementById('v'), lines), Array.from({ length: 20 }, (_, i) => line(80 + i)));
      const after = await state();
      assert.deepEqual({ shown: after.shown, atBottom: after.atBottom }, { shown: false, atBottom: true }, 'and the view follows the bottom again');
      await assertClean(page);
    },
  },
  {
    name: 'keyboard only: Tab reaches every control of every document type, and Enter works each kind',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readFileSync(`${ROOT}tests/fixtures/response-json/every-type.json`, 'utf8');
      const table = '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\nafter"}]},"session_id":"s"}\n';
      await page.evaluate(async ([text, table]) => {
        const every = window.T.make({ format: 'response-json' });
        every.id = 'k';
        await every.load(text);
        const tables = window.T.make();
        tables.id = 't';
        await tables.load(table);
      }, [text, table]);
      // Every control shown, in both views, in document order.
      const controls = await page.evaluate(() =>
        ['k', 't'].flatMap((id) =>
          [...document.getElementById(id).shadowRoot.querySelectorAll('button, summary, [tabindex="0"]')]
            .filter((e) => e.getClientRects().length > 0)
            .map((e) => `${id} ${e.tagName.toLowerCase()} ${e.className} ${e.textContent.trim().slice(0, 30)}`),
        ),
      );
      for (const k of ['summary', 'ds-copy', 'ds-option', 'ds-copy-table', 'ds-output']) {
        assert.ok(controls.some((c) => c.split(' ').includes(k)), `a ${k} among the controls: ${controls}`);
      }
      const reached = new Set();
      for (let i = 0; i < controls.length * 3 + 20 && reached.size < controls.length; i++) {
        await page.keyboard.press('Tab');
        const at = await page.evaluate(() => {
          const host = document.activeElement;
          const e = host?.shadowRoot?.activeElement;
          return e ? `${host.id} ${e.tagName.toLowerCase()} ${e.className} ${e.textContent.trim().slice(0, 30)}` : null;
        });
        if (at) reached.add(at);
      }
      assert.deepEqual(controls.filter((c) => !reached.has(c)), [], 'controls Tab never reached');
      // Enter on a copy button copies (the event fires first), on an option chooses.
      const press = async (selector) => {
        await page.evaluate((sel) => {
          window.T.events.length = 0;
          document.getElementById('k').shadowRoot.querySelector(sel).focus();
        }, selector);
        await page.keyboard.press('Enter');
        return page.evaluate(() => window.T.events.map((e) => e.type));
      };
      assert.ok((await press('.ds-copy')).includes('docstream-copy'), 'Enter on a copy button');
      assert.ok((await press('.ds-option')).includes('docstream-choice'), 'Enter on an option');
      const toggled = await page.evaluate(() => {
        const s = document.getElementById('k').shadowRoot.querySelector('summary');
        s.focus();
        return s.parentElement.open;
      });
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.getElementById('k').shadowRoot.querySelector('summary').parentElement.open), !toggled, 'Enter on a summary');
      await assertClean(page);
    },
  },
  {
    name: 'stream() pushes a large chunk in pieces, giving the page turns, to the DOM of a one-shot load',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async () => {
        const line = (o) => `${JSON.stringify(o)}\n`;
        let text = line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go' }] }, session_id: 's' });
        for (let i = 0; text.length < (10 << 20); i++) {
          text += line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Paragraph ${i} of a long answer.\n\n` }] }, session_id: 's' });
        }
        const bytes = new TextEncoder().encode(text);
        const one = window.T.make();
        await one.load(bytes);
        const view = window.T.make();
        const progress = [];
        view.addEventListener('docstream-progress', (e) => progress.push(e.detail.bytes));
        // Tasks the page queues while it loads: one runs at each turn the load gives.
        let turns = 0;
        let loading = true;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          turns++;
          if (loading) channel.port2.postMessage(0);
        };
        channel.port2.postMessage(0);
        async function* once() {
          yield bytes;
        }
        const before = turns;
        const t0 = performance.now();
        await view.stream(once());
        const ms = performance.now() - t0;
        loading = false;
        turns -= before;
        return {
          same: window.T.conv(view).innerHTML === window.T.conv(one).innerHTML,
          pieces: progress.length,
          last: progress.at(-1),
          size: bytes.length,
          turns,
          ms,
        };
      });
      assert.equal(r.same, true);
      assert.equal(r.last, r.size);
      assert.equal(r.pieces, Math.ceil(r.size / (32 << 10)), 'pushed in 32 KB pieces');
      assert.ok(r.turns >= 1, `the page had turns while it loaded: ${r.turns} in ${r.ms} ms`);
      await assertClean(page);
    },
  },
];
