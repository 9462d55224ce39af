// Syntax colours in <docstream-view>: docstream's own highlighter (loaded from the packed
// package when the first code block appears), line by line while a block streams, both
// sides of a diff, colours from the theme, and the `highlighter` hook.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, readRoot } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';

/** A Cursor stream-json answer whose Rust block arrives `size` characters at a time: a
 * comment opened on one line and closed on the next tells whether the tokenizer's state
 * goes from line to line. */
function rustAnswer(size) {
  const text =
    'Here is the fix:\n\n```rust\nfn main() {\n    /* a comment\n    that goes on */ let greeting = "Hello";\n    println!("{greeting}");\n}\n```\n\nDone.\n';
  const lines = [];
  for (let i = 0; i < text.length; i += size) {
    const part = text.slice(i, i + size);
    lines.push(JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: part }] } }));
  }
  lines.push(JSON.stringify({ type: 'result', subtype: 'success', is_error: false }));
  return lines.map((l) => `${l}\n`).join('');
}

export const tests = [
  {
    name: 'a streaming code block is coloured line by line, each line once, with state carried between lines; the text stays the renderer\'s',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(
        async (stream) => {
          const { T } = window;
          const view = T.make({ highlight: 'on', theme: 'light', id: 'code-shot' });
          await view.ready;
          const painted = new Set();
          const touchedAfter = [];
          const check = (records) => {
            for (const rec of records) {
              const line = (rec.target.nodeType === 1 ? rec.target : rec.target.parentElement)?.closest('.ds-line');
              if (line && painted.has(line)) touchedAfter.push(line.textContent);
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(T.conv(view), { childList: true, subtree: true, characterData: true });
          const bytes = new TextEncoder().encode(stream);
          for (let at = 0; at < bytes.length; at += 9) {
            view.push(bytes.subarray(at, at + 9));
            view.flush();
            await new Promise((r) => setTimeout(r, 0));
            check(observer.takeRecords());
            for (const l of view.shadowRoot.querySelectorAll('[data-part="lines"] > .ds-line')) {
              if (l.querySelector('[class^="ds-hl-"]')) painted.add(l);
            }
          }
          view.finish();
          const coloured = await T.waitFor(view, 'code.language-rust .ds-hl-keyword');
          check(observer.takeRecords());
          const keyword = view.shadowRoot.querySelector('.ds-hl-keyword');
          const state = {
            coloured,
            lines: [...view.shadowRoot.querySelectorAll('code.language-rust .ds-line')].map((l) =>
              [...l.querySelectorAll('[class^="ds-hl-"]')].map((s) => `${s.textContent.trim()}:${s.className.slice(6)}`),
            ),
            touchedAfter,
            paintedWhileStreaming: painted.size,
            keywordColour: keyword && getComputedStyle(keyword).color,
            styles: view.shadowRoot.querySelectorAll('[style]').length,
            stripped: T.stripped(view),
            parsedHtml: T.parsed(view.html()),
          };
          view.setAttribute('theme', 'dark');
          state.darkKeywordColour = keyword && getComputedStyle(keyword).color;
          return state;
        },
        rustAnswer(7),
      );
      assert.ok(r.coloured, 'the block is coloured once the highlighter has loaded');
      assert.deepEqual(r.lines[0], ['fn:keyword', 'main:function']);
      assert.deepEqual(r.lines[1], ['/* a comment:comment']);
      assert.equal(r.lines[2][0], 'that goes on */:comment', 'the comment goes on: state carried from line to line');
      assert.ok(r.lines[2].includes('let:keyword'));
      assert.ok(r.paintedWhileStreaming >= 3, `lines are coloured while the block streams (${r.paintedWhileStreaming})`);
      assert.deepEqual(r.touchedAfter, [], 'a line once coloured is never touched again');
      assert.equal(r.styles, 0, 'no style attribute anywhere');
      assert.equal(r.keywordColour, 'rgb(207, 34, 46)', 'light theme keyword colour');
      assert.equal(r.darkKeywordColour, 'rgb(255, 123, 114)', 'dark theme keyword colour');
      assert.equal(r.stripped, r.parsedHtml, 'without the colour spans the DOM is html()');
      for (const theme of ['light', 'dark']) {
        await page.evaluate((theme) => {
          const v = document.getElementById('code-shot');
          v.setAttribute('theme', theme);
          v.style.background = theme === 'dark' ? '#0d1117' : '#ffffff';
        }, theme);
        await (await page.$('#code-shot')).screenshot({ path: join(screenshotDir(ROOT), `highlight-code-${theme}.png`) });
      }
      await assertClean(page);
    },
  },
  {
    name: 'both sides of a diff are coloured from the file\'s extension; screenshots in light and dark',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const bytes = readRoot('examples/cursor-session.jsonl');
      const r = await page.evaluate(
        async (bytes) => {
          const { T } = window;
          const view = T.make({ highlight: 'on', theme: 'light', id: 'shot' });
          await view.load(new Uint8Array(bytes));
          const ok = await T.waitFor(view, '.ds-diff-split [class^="ds-hl-string"]');
          const cells = (sel) =>
            [...view.shadowRoot.querySelectorAll(sel)].map((c) => [...c.querySelectorAll('[class^="ds-hl-"]')].map((s) => s.className.slice(6)).join(' '));
          return {
            ok,
            removed: cells('.ds-diff-unified .ds-diff-removed .ds-diff-text'),
            added: cells('.ds-diff-unified .ds-diff-added .ds-diff-text'),
            split: cells('.ds-diff-split .ds-diff-text'),
            stripped: T.stripped(view),
            parsedHtml: T.parsed(view.html()),
          };
        },
        [...bytes],
      );
      assert.ok(r.ok, 'the diff is coloured');
      assert.ok(r.removed.some((k) => k.includes('string')), `removed lines coloured: ${JSON.stringify(r.removed)}`);
      assert.ok(r.added.some((k) => k.includes('string')), `added lines coloured: ${JSON.stringify(r.added)}`);
      assert.ok(r.split.filter((k) => k.includes('string')).length >= 2, 'both sides of the split view');
      assert.equal(r.stripped, r.parsedHtml, 'the word marks and the text are the renderer\'s');
      for (const theme of ['light', 'dark']) {
        await page.evaluate((theme) => {
          const v = document.getElementById('shot');
          v.setAttribute('theme', theme);
          v.style.background = theme === 'dark' ? '#0d1117' : '#ffffff';
        }, theme);
        const el = await page.$('#shot');
        await el.screenshot({ path: join(screenshotDir(ROOT), `highlight-${theme}.png`) });
      }
      await assertClean(page);
    },
  },
  {
    name: 'a page without code never fetches the colorer nor the highlighter; the first code block fetches both and is coloured',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async (withCode) => {
        const { T } = window;
        const fetched = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => /\/pkg\/(colorer\.js|highlight\/)/.test(p));
        const line = (text) => `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } })}\n`;
        const view = T.make({ highlight: 'on' });
        await view.load(line('Prose only: **no code** here, and a `span` of inline code.\n'));
        await new Promise((r) => setTimeout(r, 300));
        const before = fetched();
        await view.load(withCode);
        const coloured = await T.waitFor(view, 'code.language-rust .ds-hl-keyword');
        return { before, after: fetched(), coloured };
      }, rustAnswer(500));
      assert.deepEqual(r.before, [], 'nothing fetched for prose');
      assert.ok(r.after.includes('/pkg/colorer.js'), JSON.stringify(r.after));
      assert.ok(r.after.includes('/pkg/highlight/index.js'), JSON.stringify(r.after));
      assert.ok(r.coloured, 'the block is coloured');
      await assertClean(page);
    },
  },
  {
    name: 'a long block is coloured a slice at a time, in tasks of their own, each line once; page() colours what is left at once',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async () => {
        const { T } = window;
        const n = 300;
        const code = Array.from({ length: n }, (_, i) => `let x${i} = ${i};`).join('\n');
        const text = `Long:\n\n\`\`\`rust\n${code}\n\`\`\`\n`;
        const stream = `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } })}\n`;
        // An embedder's tokenizer of 1 ms a line. The lines it is asked for are counted
        // per task: a timer set at a task's first call fires only after that task.
        const tasks = [];
        let counting = false;
        const slow = (t) => {
          if (!counting) {
            counting = true;
            tasks.push(0);
            setTimeout(() => (counting = false));
          }
          tasks[tasks.length - 1]++;
          const until = performance.now() + 1;
          while (performance.now() < until);
          return [[t, 'keyword']];
        };
        const make = () => {
          const view = T.make({ highlight: 'on' });
          view.highlighter = { open: () => ({ line: slow, peek: slow }) };
          return view;
        };
        const view = make();
        await view.load(stream);
        const lines = () => [...view.shadowRoot.querySelectorAll('code.language-rust .ds-line')];
        const afterLoad = lines().filter((l) => l.querySelector('.ds-hl-keyword')).length;
        for (let i = 0; i < 400 && lines().some((l) => !l.querySelector('.ds-hl-keyword')); i++) await new Promise((r) => setTimeout(r, 10));
        const coloured = lines().filter((l) => l.querySelector('.ds-hl-keyword')).length;
        const calls = tasks.reduce((a, b) => a + b, 0);
        const slices = tasks.length;
        const most = Math.max(...tasks);
        // page() does not wait: what is not coloured yet is coloured then, at once.
        tasks.length = 0;
        const other = make();
        await other.load(stream);
        const html = other.page();
        return { n, total: lines().length, afterLoad, coloured, calls, slices, most, pageColoured: (html.match(/class="ds-hl-keyword"/g) ?? []).length };
      });
      console.log(`     ${r.total} lines: ${r.afterLoad} coloured by the load's task, all in ${r.slices} tasks (at most ${r.most} lines in one)`);
      assert.equal(r.total, r.n);
      assert.ok(r.afterLoad < r.n, `not all coloured in one task: ${r.afterLoad}`);
      assert.equal(r.coloured, r.n, 'every line coloured in the end');
      assert.equal(r.calls, r.n, 'each line tokenized once');
      assert.ok(r.slices >= 10, `coloured over many tasks: ${r.slices}`);
      assert.ok(r.most <= 20, `a task colours about 8 ms of lines: ${r.most}`);
      assert.equal(r.pageColoured, r.n, 'page() has every line coloured');
      await assertClean(page);
    },
  },
  {
    name: 'the highlighter hook: an embedder\'s own tokenizer, tokens that do not spell the line are ignored, one that throws leaves lines plain (no page error), highlight="off" and null turn it off',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async (stream) => {
        const { T } = window;
        // `coloured`: wait (up to 5 s) until every line is (the colorer loads with the first
        // code); else a fixed while, for what must not change.
        const run = async (attrs, highlighter, coloured = false) => {
          const view = T.make(attrs);
          if (highlighter !== undefined) view.highlighter = highlighter;
          await view.load(stream);
          const all = () => [...view.shadowRoot.querySelectorAll('code.language-rust .ds-line')];
          for (let i = 0; coloured && i < 250 && all().some((l) => !l.querySelector('.ds-hl-keyword')); i++) await new Promise((r) => setTimeout(r, 20));
          if (!coloured) await new Promise((r) => setTimeout(r, 150));
          const lines = all();
          return {
            marked: lines.filter((l) => l.querySelector('.ds-hl-keyword')).length,
            any: view.shadowRoot.querySelectorAll('[class^="ds-hl-"]').length,
            lines: lines.length,
            text: lines.map((l) => l.textContent).join('\n'),
          };
        };
        const asked = [];
        const mine = {
          open(lang) {
            asked.push(lang);
            return lang === 'rust' ? { line: (t) => [[t, 'keyword']], peek: (t) => [[t, 'keyword']] } : null;
          },
        };
        const thrower = { open: () => ({ line: () => { throw new Error('tokenizer broke'); }, peek: () => { throw new Error('tokenizer broke'); } }) };
        let lied = 0;
        const nope = () => (lied++, [['nope', 'keyword']]);
        const liar = { open: () => ({ line: nope, peek: nope }) };
        return {
          mine: await run({ highlight: 'on' }, mine, true),
          asked,
          liar: await run({ highlight: 'on' }, liar),
          lied,
          thrower: await run({ highlight: 'on' }, thrower),
          off: await run({ highlight: 'off' }, mine),
          none: await run({ highlight: 'on' }, null),
        };
      }, rustAnswer(500));
      assert.deepEqual(r.asked, ['rust']);
      assert.equal(r.mine.marked, r.mine.lines, 'every line through the embedder\'s tokenizer');
      assert.ok(r.lied > 0, 'the liar was asked');
      assert.equal(r.liar.any, 0, 'tokens that do not spell the line change nothing');
      assert.equal(r.liar.text, r.mine.text);
      assert.equal(r.thrower.any, 0, 'a tokenizer that throws leaves its lines plain');
      assert.equal(r.thrower.text, r.mine.text);
      assert.equal(r.off.any, 0);
      assert.equal(r.none.any, 0);
      await assertClean(page);
    },
  },
];
