// The element's two WebAssembly modules in Chromium, from the packed package served as a
// static folder: `docstream/define` loads only the default module (docstream-lite_bg.wasm,
// the Cursor CLI's formats) at start; a stream in any other format loads the full module
// (docstream.js, docstream_bg.wasm) when detection picks it and renders what a one-shot
// load renders (the fixture's golden HTML); when the full module cannot load, the stream
// ends with an error document naming the format and the fix. Every fixture of every
// format is streamed through the element against its golden DOM by element.test.mjs.
import assert from 'node:assert/strict';
import { SEED, newPage, randomCuts, readRoot, rng } from './harness.mjs';

const PAGE = `<!doctype html><meta charset="utf-8"><body><script type="module">
const { DocstreamView } = await import('/pkg/define.js');
window.events = [];
for (const type of ['docstream-done', 'docstream-error']) {
  document.addEventListener(type, (e) => window.events.push({ type, id: e.target.id, detail: e.detail }));
}
/** Streams \`chunks\` into a new view \`id\` (with \`prices\`, when given); resolves with
 * its documents' count and text. */
window.stream = async (id, chunks, prices) => {
  const view = document.createElement('docstream-view');
  view.id = id;
  if (prices) view.prices = prices;
  view.setAttribute('highlight', 'off');
  view.setAttribute('math', 'off');
  document.body.append(view);
  for (const c of chunks) {
    view.push(c);
    await new Promise((r) => setTimeout(r, 0));
  }
  view.finish();
  while (!window.events.some((e) => e.id === id)) await new Promise((r) => setTimeout(r, 20));
  const root = view.shadowRoot;
  return { docs: root.querySelectorAll('.ds-doc').length, text: root.textContent };
};
/** The Markdown of view \`id\` (\`toMarkdown()\`), or the error it rejected with. */
window.markdown = (id, options) =>
  document.getElementById(id).toMarkdown(options).then(
    (text) => ({ text }),
    (e) => ({ error: { code: e.code, message: e.message } }),
  );
window.testReady = true;
</script></body>`;

/** The fixture cut at random places (text chunks). */
function chunks(path, random) {
  const text = readRoot(path, 'utf8');
  const out = [];
  let at = 0;
  for (const n of randomCuts(text.length, random)) {
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

/** How many documents the fixture's golden HTML holds. */
function goldenDocs(path) {
  return readRoot(path.replace(/\.[a-z]+$/, '.expected.html'), 'utf8').match(/class="ds-doc[ "]/g).length;
}

const wasmRequests = (page) => page.log.requests.filter((u) => u.endsWith('.wasm')).map((u) => u.split('/').pop());

async function open(context, url, { fullFails = false } = {}) {
  const page = await newPage(context, { allowConsoleErrors: fullFails });
  await page.route(`${url}/split.html`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
  if (fullFails) await page.route(`${url}/pkg/docstream_bg.wasm`, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${url}/split.html`);
  await page.waitForFunction(() => window.testReady === true);
  return page;
}

export const tests = [
  {
    name: 'a view given prices reads even the Cursor CLI with the full module, and shows the cost computed',
    async run({ browser, url }) {
      const random = rng(SEED + 2);
      const context = await browser.newContext();
      try {
        const page = await open(context, url);
        const basic = 'tests/fixtures/cursor-stream-json/basic.jsonl';
        const plain = await page.evaluate(([c]) => window.stream('plain', c), [chunks(basic, random)]);
        assert.doesNotMatch(plain.text, /cost/, 'no prices, no cost');
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm']);
        // 2,450 in at $3, 890 out at $15, 1,200 cache reads at $0.30 per million.
        const prices = { 'Claude 4 Sonnet': { input: 3, output: 15, cacheRead: 0.3 } };
        const priced = await page.evaluate(([c, p]) => window.stream('priced', c, p), [chunks(basic, random), prices]);
        assert.match(priced.text, /cost ≈ \$0\.021/, `the cost computed (DOCSTREAM_SEED=${SEED})`);
        assert.equal(priced.docs, plain.docs, 'the same documents');
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm', 'docstream_bg.wasm'], 'the full module reads it');
        assert.deepEqual(await page.problems(), []);
        await page.close();
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'the default module alone reads the Cursor CLI; another format loads the full module when detected and renders its golden DOM',
    async run({ browser, url }) {
      const random = rng(SEED);
      const context = await browser.newContext();
      try {
        const page = await open(context, url);
        const cursor = 'tests/fixtures/cursor-stream-json/tools.jsonl';
        const a = await page.evaluate(([c]) => window.stream('cursor', c), [chunks(cursor, random)]);
        assert.equal(a.docs, goldenDocs(cursor), `${cursor}: documents`);
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm'], 'only the default module is loaded for the Cursor CLI');
        for (const path of [
          'tests/fixtures/codex-session/session.jsonl',
          'tests/fixtures/document-sse/stream.sse',
          'tests/fixtures/gemini-stream/lines.jsonl',
          'tests/fixtures/claude-code-stream-json/session.jsonl',
        ]) {
          const got = await page.evaluate(([id, c]) => window.stream(id, c), [path.replace(/\W/g, '-'), chunks(path, random)]);
          assert.equal(got.docs, goldenDocs(path), `${path}: documents (DOCSTREAM_SEED=${SEED})`);
          assert.doesNotMatch(got.text, /FORMAT_UNAVAILABLE|does not read/, path);
        }
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm', 'docstream_bg.wasm'], 'the full module, once, when needed');
        const events = await page.evaluate(() => window.events);
        assert.deepEqual(events.filter((e) => e.type === 'docstream-error'), [], 'no errors');
        assert.deepEqual(await page.problems(), []);
        await page.close();
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'the full module does not load: the Cursor CLI still reads, another format ends with an error document naming it and the fix',
    async run({ browser, url }) {
      const random = rng(SEED + 1);
      const context = await browser.newContext();
      try {
        const page = await open(context, url, { fullFails: true });
        const cursor = 'tests/fixtures/cursor-stream-json/tools.jsonl';
        const a = await page.evaluate(([c]) => window.stream('cursor', c), [chunks(cursor, random)]);
        assert.equal(a.docs, goldenDocs(cursor));
        const path = 'tests/fixtures/codex-session/session.jsonl';
        const got = await page.evaluate(([c]) => window.stream('codex', c), [chunks(path, random)]);
        assert.match(got.text, /codex-session/, 'names the format');
        assert.match(got.text, /docstream_bg\.wasm/, 'names the module');
        assert.match(got.text, /DocstreamView\.init\(/, 'says the fix');
        assert.ok(wasmRequests(page).includes('docstream_bg.wasm'), 'the full module was asked for');
        await page.close();
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'toMarkdown() of a Cursor CLI stream loads the full module only when asked, and gives the Rust golden',
    async run({ browser, url }) {
      const random = rng(SEED + 2);
      const context = await browser.newContext();
      try {
        const page = await open(context, url);
        const cursor = 'tests/fixtures/cursor-stream-json/subagents.jsonl';
        await page.evaluate(([c]) => window.stream('cursor', c), [chunks(cursor, random)]);
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm'], 'the default module alone reads the stream');
        const got = await page.evaluate(() => window.markdown('cursor'));
        assert.equal(got.text, readRoot(cursor.replace(/\.jsonl$/, '.expected.md'), 'utf8'), `${cursor} (DOCSTREAM_SEED=${SEED})`);
        assert.deepEqual(wasmRequests(page), ['docstream-lite_bg.wasm', 'docstream_bg.wasm'], 'the full module, for the Markdown');
        assert.deepEqual(await page.problems(), []);
        await page.close();
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'the full module does not load: toMarkdown() rejects with DS_WASM naming the module and the fix; "Copy as Markdown" reports it',
    async run({ browser, url }) {
      const random = rng(SEED + 3);
      const context = await browser.newContext();
      try {
        const page = await open(context, url, { fullFails: true });
        const cursor = 'tests/fixtures/cursor-stream-json/basic.jsonl';
        await page.evaluate(([c]) => window.stream('cursor', c), [chunks(cursor, random)]);
        const got = await page.evaluate(() => window.markdown('cursor'));
        assert.equal(got.error?.code, 'DS_WASM', JSON.stringify(got));
        assert.match(got.error.message, /Markdown/);
        assert.match(got.error.message, /docstream_bg\.wasm/, 'names the module');
        assert.match(got.error.message, /DocstreamView\.init\(/, 'says the fix');
        await page.locator('#cursor .ds-copy-turn').first().click();
        await page.waitForFunction(() => window.events.some((e) => e.type === 'docstream-error'));
        const errors = await page.evaluate(() => window.events.filter((e) => e.type === 'docstream-error'));
        assert.equal(errors.length, 1, JSON.stringify(errors));
        assert.equal(errors[0].detail.code, 'DS_WASM');
        await page.close();
      } finally {
        await context.close();
      }
    },
  },
];
