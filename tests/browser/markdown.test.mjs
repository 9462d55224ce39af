// Issue 39 in <docstream-view>: `toMarkdown()` is the CLI's `docstream md` (the Rust
// goldens) however the bytes arrived, and from the full module when a format hands over
// to it, and from the full module given the default module's snapshot when the default
// module reads the stream (it leaves the Markdown export out); a turn's "Copy as Markdown" control copies that turn's Markdown, fires
// `docstream-copy` with its index, speaks the view's language, and stays out of
// `page()` and `find()`.
import assert from 'node:assert/strict';
import { SEED, randomCuts, readRoot, rng } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

const CASES = [
  // Read by the default module, which has no Markdown export: toMarkdown() asks the
  // full module for the Markdown of its snapshot.
  'tests/fixtures/cursor-stream-json/basic',
  // Handed over to the full module; sub-agents nested in their calls.
  'tests/fixtures/claude-code-stream-json/subagents',
];

/** Streams `bytes` in chunks of the lengths `cuts` into a new view; returns its
 * Markdown, each top-level turn's, and the turn controls. */
async function streamed([bytes, cuts, attrs]) {
  const { T } = window;
  bytes = new Uint8Array(bytes);
  const view = T.make(attrs);
  let at = 0;
  for (const n of cuts) {
    view.push(bytes.subarray(at, at + n));
    at += n;
  }
  const done = new Promise((resolve) => view.addEventListener('docstream-done', resolve, { once: true }));
  view.finish();
  await done;
  view.flush();
  const turns = [...view.shadowRoot.querySelectorAll('.ds-conversation > .ds-turn')].map((t) => Number(t.getAttribute('data-turn-index')));
  const buttons = [...view.shadowRoot.querySelectorAll('.ds-copy-turn')].map((b) => ({
    text: b.textContent,
    turn: Number(b.closest('.ds-turn').getAttribute('data-turn-index')),
    nested: b.closest('.ds-subagent') !== null,
  }));
  const state = {
    whole: await view.toMarkdown(),
    turns: await Promise.all(turns.map((i) => view.toMarkdown({ turn: i }))),
    past: await view.toMarkdown({ turn: 9999 }),
    buttons,
    pageHasControl: view.page().includes('ds-copy-turn'),
    found: view.find(buttons[0]?.text ?? 'Copy as Markdown').count,
  };
  view.find('');
  return state;
}

export const tests = [
  {
    name: 'toMarkdown() is the Rust golden for every chunking; one "Copy as Markdown" per turn, left out of page() and find()',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const random = rng(SEED);
      for (const base of CASES) {
        const bytes = readRoot(`${base}.jsonl`);
        const golden = readRoot(`${base}.expected.md`, 'utf8');
        for (const cuts of [[bytes.length], randomCuts(bytes.length, random, 64), randomCuts(bytes.length, random, 7)]) {
          const where = `${base}, seed ${SEED}, ${cuts.length} chunks`;
          const s = await page.evaluate(streamed, [[...bytes], cuts, {}]);
          assert.equal(s.whole, golden, `${where}: toMarkdown() is docstream md's`);
          assert.equal(s.past, '', `${where}: a turn past the end`);
          assert.ok(s.turns.length >= 1, where);
          for (const t of s.turns) assert.ok(t && golden.includes(t.trimEnd()), `${where}: a turn's Markdown is part of the whole:\n${t}`);
          assert.equal(s.buttons.length, s.turns.length, `${where}: one control per top-level turn`);
          assert.ok(s.buttons.every((b) => b.text === 'Copy as Markdown' && !b.nested), JSON.stringify(s.buttons));
          assert.equal(s.pageHasControl, false, `${where}: page() leaves the control out`);
          assert.equal(s.found, 0, `${where}: find() does not find the control's label`);
        }
      }
      const first = readRoot(`${CASES[0]}.jsonl`);
      const german = await page.evaluate(streamed, [[...first], [first.length], { locale: 'de' }]);
      assert.ok(german.buttons.length >= 1 && german.buttons.every((b) => b.text === 'Als Markdown kopieren'), JSON.stringify(german.buttons));
      assert.ok(german.whole.includes('## Du'), german.whole);
      await assertClean(page);
    },
  },
  {
    name: 'a turn\'s "Copy as Markdown" writes that turn\'s Markdown to the clipboard and fires docstream-copy with its index',
    async run({ context, url }) {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
      const page = await openTestPage(context, url);
      const bytes = readRoot(`${CASES[1]}.jsonl`, 'utf8');
      const expected = await page.evaluate(async (text) => {
        const view = window.T.make({ id: 'md' });
        await view.load(text);
        const turns = [...view.shadowRoot.querySelectorAll('.ds-conversation > .ds-turn')];
        const last = Number(turns.at(-1).getAttribute('data-turn-index'));
        return { last, markdown: await view.toMarkdown({ turn: last }) };
      }, bytes);
      assert.ok(expected.markdown.includes('<details>'), expected.markdown);
      await page.locator('#md .ds-copy-turn').last().click();
      await page.waitForFunction(() => window.T.events.some((e) => e.type === 'docstream-copy'));
      const ev = await page.evaluate(() => window.T.events.filter((e) => e.type === 'docstream-copy'));
      assert.equal(ev.length, 1);
      assert.equal(ev[0].detail.text, expected.markdown);
      assert.equal(ev[0].detail.turn, expected.last);
      assert.equal(ev[0].detail.documentId, '');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected.markdown);
      await assertClean(page);
    },
  },
];

tests.push({
  name: 'page() (the viewer\'s HTML download) opens from file:// with no request to any origin: styles, code colours and MathML inline',
  async run({ context, url }) {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const page = await openTestPage(context, url);
    const tools = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
    const math = readRoot('tests/fixtures/cursor-stream-json/math.jsonl', 'utf8');
    const html = await page.evaluate(async ([tools, math]) => {
      const { T } = window;
      const view = T.make({ highlight: 'on', math: 'on' });
      await view.load(tools + math);
      await T.waitFor(view, 'math');
      await T.waitFor(view, '[class^="ds-hl-"]');
      return view.page({ title: 'offline' });
    }, [tools, math]);
    assert.match(html, /<math /, 'MathML kept');
    assert.match(html, /class="ds-hl-/, 'code colours kept');
    const dir = mkdtempSync(join(tmpdir(), 'docstream-offline-'));
    const file = join(dir, 'page.html');
    writeFileSync(file, html);
    const offline = await context.newPage();
    const requests = [];
    offline.on('request', (r) => requests.push(r.url()));
    await offline.goto(`file://${file}`);
    const look = await offline.evaluate(() => ({
      maths: document.querySelectorAll('math').length,
      keyword: getComputedStyle(document.querySelector('[class^="ds-hl-"]')).color,
      styled: getComputedStyle(document.querySelector('.ds-doc')).display,
    }));
    await offline.close();
    assert.deepEqual(requests, [`file://${file}`], 'the page asks for nothing but itself');
    assert.ok(look.maths >= 1, JSON.stringify(look));
    assert.notEqual(look.keyword, 'rgb(0, 0, 0)', `colours apply: ${look.keyword}`);
    await assertClean(page);
  },
});

tests.push({
  name: 'export({ redact }) and the redact attribute: no secret in the Markdown, the page (its title included) or the JSON, for every chunking',
  async run({ context, url }) {
    const page = await openTestPage(context, url);
    const bytes = readRoot('crates/redact/tests/corpus/session.jsonl');
    const secrets = readRoot('crates/redact/tests/corpus/session.secrets.txt', 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const random = rng(SEED);
    for (const cuts of [[bytes.length], randomCuts(bytes.length, random, 40)]) {
      const where = `session.jsonl, seed ${SEED}, ${cuts.length} chunks`;
      const got = await page.evaluate(
        async ([bytes, cuts]) => {
          const { T } = window;
          bytes = new Uint8Array(bytes);
          const view = T.make({ highlight: 'on' });
          let at = 0;
          for (const n of cuts) {
            view.push(bytes.subarray(at, at + n));
            at += n;
          }
          const done = new Promise((resolve) => view.addEventListener('docstream-done', resolve, { once: true }));
          view.finish();
          await done;
          const html = await view.export({ as: 'html', redact: true, title: 'ghp_0123456789abcdefghijABCDEFGHIJ012345' });
          const json = await view.export({ as: 'json', redact: true });
          const plain = await view.toMarkdown();
          view.redact = true;
          const masked = await view.toMarkdown();
          return { html, json, plain, masked, attr: view.hasAttribute('redact'), page: view.page() };
        },
        [[...bytes], cuts],
      );
      for (const secret of secrets) {
        assert.ok(got.page.includes(secret) || got.plain.includes(secret), `${where}: ${secret} is not in the session's view at all`);
        assert.ok(!got.html.text.includes(secret), `${where}: ${secret} left in the masked page`);
        assert.ok(!got.json.text.includes(secret), `${where}: ${secret} left in the masked JSON`);
        assert.ok(!got.masked.includes(secret), `${where}: ${secret} left in the Markdown with the redact attribute`);
      }
      assert.ok(got.attr, 'redact reflects its attribute');
      assert.match(got.html.text, /ds-fact-redacted/, `${where}: the masked page's header says what was masked`);
      assert.ok(got.page.includes('ghp_0123456789abcdefghijABCDEFGHIJ012345'), `${where}: page() itself is not masked`);
      assert.match(got.html.text, /<title>\[redacted: github-token\]<\/title>/, `${where}: the title is masked`);
      assert.ok(got.html.masked['github-token'] >= 2, JSON.stringify(got.html.masked));
      assert.ok(secrets.some((s) => got.plain.includes(s)), 'without redact the Markdown keeps the values');
    }
    await assertClean(page);
  },
});
