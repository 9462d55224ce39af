// The element's pair of modules in Node (pkg-template/element-wasm.js on the built
// package): the default module (docstream-lite_bg.wasm) reads the default formats and
// hands a stream in any other to the full module (docstream_bg.wasm), replaying it from
// its first byte. Every fixture, streamed whole, a byte at a time and in seeded random
// chunks (bytes and text), must give exactly what the full module gives alone: the same
// snapshot, the same HTML, the same patches (the wire form pulled after each chunk), and
// the same Markdown (the default module has none: it asks the full module).
// Also: a named format, a format told only at the end, the full module failing to load
// (an error document naming the format and the fix), and the size of what is held.
//
//   node tests/js/split-node.mjs            (after bash scripts/build-wasm.sh)
//   DOCSTREAM_SEED=N replays one seed.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
const at = (p) => new URL(p, root).pathname;
const seed = process.env.DOCSTREAM_SEED ? Number(process.env.DOCSTREAM_SEED) : Date.now() % 1e9;

// element-wasm.js beside the built package's modules, as the bundled element.js has it.
const dir = mkdtempSync(join(tmpdir(), 'docstream-split-'));
for (const f of ['docstream.js', 'docstream-lite.js', 'wire.js']) symlinkSync(at(`pkg/${f}`), join(dir, f));
copyFileSync(at('pkg-template/element-wasm.js'), join(dir, 'element-wasm.mjs'));
const split = await import(pathToFileURL(join(dir, 'element-wasm.mjs')).href);
const full = await import(pathToFileURL(join(dir, 'docstream.js')).href);
const liteBytes = readFileSync(at('pkg/docstream-lite_bg.wasm'));
const fullBytes = readFileSync(at('pkg/docstream_bg.wasm'));
await full.default({ module_or_path: fullBytes });
await split.initModule({ lite: liteBytes, full: fullBytes });

let passed = 0;
let failed = 0;
function check(name, f) {
  return Promise.resolve()
    .then(f)
    .then(
      () => passed++,
      (e) => {
        failed++;
        console.log(`FAIL ${name} (DOCSTREAM_SEED=${seed})\n${String(e?.stack ?? e).replace(/^/gm, '     ')}`);
      },
    );
}

/** mulberry32. */
function rng(s) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The input cut into chunks: whole, every byte, or random lengths up to 64. */
function chunksOf(bytes, how, random) {
  if (how === 'whole') return [bytes];
  const out = [];
  for (let i = 0; i < bytes.length; ) {
    const n = how === 'bytes' ? 1 : 1 + Math.floor(random() * 64);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Streams `chunks` into `stream`, pulling after every chunk as the element does once a
 * frame, the event loop given a turn between chunks (a hand-over to the full module
 * completes in it); what it read and every patch pulled. `end()` may return a promise
 * (the split stream's while the full module loads). */
async function run(stream, chunks, text, { markdown = true } = {}) {
  const pulled = [];
  const decoder = new TextDecoder();
  for (const c of chunks) {
    if (text) stream.writeText(decoder.decode(c, { stream: true }));
    else stream.write(c);
    await turn();
    pulled.push(stream.pull());
  }
  if (text) stream.writeText(decoder.decode());
  await stream.end();
  pulled.push(stream.pull());
  const result = { snapshot: stream.snapshot(), html: stream.html(), format: stream.format, wire: pulled.join('') };
  if (markdown) result.markdown = await markdowns(stream, result.snapshot.turns.length);
  stream.free();
  return result;
}

/** `markdown()` of the whole conversation, of each turn and of one past the end: the
 * split stream's are promises (a stream the default module reads asks the full module). */
async function markdowns(stream, turns) {
  const out = [await stream.markdown()];
  for (let i = 0; i <= turns; i++) out.push(await stream.markdown(i));
  return out;
}

/** A split stream ready to read; the full module's patches come after a hand-over,
 * signalled by `changed`. */
function splitStream(options) {
  return split.newDocStream(options, () => {});
}

const fixtures = [];
for (const format of readdirSync(at('tests/fixtures'))) {
  for (const file of readdirSync(at(`tests/fixtures/${format}`))) {
    if (/\.(jsonl|json|sse)$/.test(file) && !file.includes('.expected.')) fixtures.push(`${format}/${file}`);
  }
}
assert.ok(fixtures.length > 50, `${fixtures.length} fixtures`);

/** The formats the default module reads itself (`default` in crates/core/src/formats/mod.rs). */
const DEFAULT_SET = ['cursor-stream-json', 'cursor-json', 'cursor-wrapper'];

const random = rng(seed);
const handedOver = new Set();
for (const fixture of fixtures) {
  const bytes = readFileSync(at(`tests/fixtures/${fixture}`));
  const expected = await run(new full.DocStream({}), [bytes], false);
  for (const how of ['whole', 'bytes', 'random']) {
    for (const text of [false, true]) {
      if (how === 'bytes' && text) continue;
      const name = `${fixture}, ${how}${text ? ' as text' : ''}`;
      await check(name, async () => {
        const chunks = chunksOf(bytes, how, random);
        const alone = await run(new full.DocStream({}), chunks, text);
        const stream = splitStream({});
        const got = await run(stream, chunks, text);
        assert.equal(got.format, expected.format, 'format');
        // The full module given the same chunks: text chunks lose a byte order mark to
        // TextDecoder, so the one-shot bytes are compared only when bytes were written.
        if (!text) {
          assert.deepEqual(got.snapshot, expected.snapshot, 'the snapshot is the full module\'s one-shot one');
          assert.equal(got.html, expected.html, 'the HTML is the full module\'s one-shot HTML');
        }
        assert.deepEqual(got.snapshot, alone.snapshot, 'the snapshot is the full module\'s given the same chunks');
        assert.equal(got.html, alone.html, 'the HTML is the full module\'s given the same chunks');
        assert.equal(got.wire, alone.wire, 'the patches are those of the full module given the same chunks and pulls');
        assert.deepEqual(got.markdown, alone.markdown, 'the Markdown (whole and each turn) is the full module\'s');
        if (got.format && !DEFAULT_SET.includes(got.format)) {
          handedOver.add(got.format);
        }
      });
    }
  }
}

// The full module's Markdown of a snapshot (`__markdownOf`, what a stream the default
// module reads asks it for) is its own Markdown of the stream, for every fixture of every
// format: the views, errors and sub-agent links a snapshot leaves out are read back.
for (const fixture of fixtures) {
  await check(`${fixture}: the Markdown of its snapshot`, async () => {
    const bytes = readFileSync(at(`tests/fixtures/${fixture}`));
    for (const options of [{}, { locale: 'de', diff: 'split' }]) {
      const s = new full.DocStream(options);
      s.write(bytes);
      s.end();
      const json = s.__snapshotJson();
      assert.deepEqual(JSON.parse(json), s.snapshot(), '__snapshotJson() is snapshot()');
      const turns = s.snapshot().turns.length;
      const own = await markdowns(s, turns);
      const of = [full.__markdownOf(json, options)];
      for (let i = 0; i <= turns; i++) of.push(full.__markdownOf(json, options, i));
      s.free();
      assert.deepEqual(of, own, `options ${JSON.stringify(options)}`);
    }
  });
}

await check('__markdownOf: a snapshot it cannot read, bad options', () => {
  assert.throws(() => full.__markdownOf('{"turns": 3}', {}), (e) => e.code === 'DS_BAD_INPUT');
  assert.throws(() => full.__markdownOf('not json', {}), (e) => e.code === 'DS_BAD_INPUT');
  assert.throws(() => full.__markdownOf('{"turns": [], "stats": {}}', { locale: 'xx' }), (e) => e.code === 'DS_BAD_OPTIONS');
});

await check('every format outside the default set was handed over', () => {
  // Every format with fixtures (a folder each, named for its format) but the default set.
  const others = [...new Set(fixtures.map((f) => f.split('/')[0]))].filter((f) => !DEFAULT_SET.includes(f)).sort();
  assert.ok(others.length >= 18, `formats outside the default set: ${others.length}`);
  assert.deepEqual([...handedOver].sort(), others);
});

// A named format outside the default set goes to the full module at once.
await check('a named format', async () => {
  const bytes = readFileSync(at('tests/fixtures/codex-session/session.jsonl'));
  const expected = await run(new full.DocStream({ format: 'codex-session' }), [bytes], false);
  const got = await run(splitStream({ format: 'codex-session' }), chunksOf(bytes, 'random', random), false);
  assert.deepEqual(got.snapshot, expected.snapshot);
  assert.equal(got.html, expected.html);
});

// A format told only by the last line, which has no newline: known at end().
await check('a format told at the end', async () => {
  const line = readFileSync(at('tests/fixtures/codex-exec-json/session.jsonl'), 'utf8').split('\n')[0];
  const bytes = new TextEncoder().encode(line);
  const expected = await run(new full.DocStream({}), [bytes], false);
  assert.equal(expected.format, 'codex-exec-json');
  const got = await run(splitStream({}), chunksOf(bytes, 'random', random), false);
  assert.equal(got.format, 'codex-exec-json');
  assert.deepEqual(got.snapshot, expected.snapshot);
});

// Bad options throw at once, as the module's own constructor does.
await check('bad options', () => {
  assert.throws(() => splitStream({ format: 'nope' }), (e) => e.code === 'DS_UNKNOWN_FORMAT');
  assert.throws(() => splitStream({ diff: 'nope' }), (e) => e.code === 'DS_BAD_OPTIONS');
});

// The default module is built without the Markdown export (issue 36: about 10 KB gzip),
// nor text(), diffView() and planView() (2.9 KB), which the element does not use.
await check('the default module has no Markdown export, text(), diffView() or planView()', async () => {
  const lite = await import(pathToFileURL(join(dir, 'docstream-lite.js')).href);
  for (const method of ['markdown', 'text', 'diffView', 'planView']) {
    assert.equal(typeof lite.DocStream.prototype[method], 'undefined', method);
    assert.equal(typeof full.DocStream.prototype[method], 'function', method);
  }
  assert.equal(lite.__markdownOf, undefined);
});

// A stream in a default format never loads the full module; write() says at once what
// there is to pull, and end() returns nothing to wait for.
await check('a default format stays in the default module', async () => {
  const bytes = readFileSync(at('tests/fixtures/cursor-stream-json/tools.jsonl'));
  const s = splitStream({});
  assert.equal(s.write(bytes), true);
  assert.equal(s.end(), undefined);
  assert.ok(s.pull().length > 0);
  s.free();
});

// The full module does not load: the stream ends with an error document naming the
// format and the fix; nothing is thrown at the page.
await check('the full module fails to load', async () => {
  const dir2 = mkdtempSync(join(tmpdir(), 'docstream-split-fail-'));
  try {
    // Copies, not links: Node would resolve a link to pkg/docstream.js, the module this
    // file initialised above, and its init() would succeed without loading anything.
    for (const f of ['docstream.js', 'docstream-lite.js', 'wire.js']) copyFileSync(at(`pkg/${f}`), join(dir2, f));
    copyFileSync(at('pkg-template/element-wasm.js'), join(dir2, 'element-wasm.mjs'));
    const other = await import(pathToFileURL(join(dir2, 'element-wasm.mjs')).href);
    // Not a wasm module: instantiation fails.
    await other.initModule({ lite: liteBytes, full: new Uint8Array([1, 2, 3, 4]) });
    // A stream in a default format never needs the full module.
    const cursor = readFileSync(at('tests/fixtures/cursor-stream-json/tools.jsonl'));
    const reference = await run(new full.DocStream({}), [cursor], false);
    const own = await run(other.newDocStream({}, () => {}), chunksOf(cursor, 'random', random), false, { markdown: false });
    assert.deepEqual(own.snapshot, reference.snapshot, 'a default format reads without the full module');
    // Its Markdown needs the full module: a clear rejection.
    const lite = other.newDocStream({}, () => {});
    lite.write(cursor);
    lite.end();
    await assert.rejects(lite.markdown(), (e) => {
      assert.equal(e.code, 'DS_WASM');
      assert.match(e.message, /Markdown/);
      assert.match(e.message, /docstream_bg\.wasm/);
      assert.match(e.message, /DocstreamView\.init\(/);
      return true;
    });
    lite.free();
    const bytes = readFileSync(at('tests/fixtures/codex-session/session.jsonl'));
    let changed = 0;
    const s = other.newDocStream({}, () => changed++);
    for (const c of chunksOf(bytes, 'random', random)) s.write(c);
    await s.end();
    assert.equal(changed, 1, 'the element is told to pull');
    const snap = s.snapshot();
    const docs = snap.turns.flatMap((t) => t.documents ?? []);
    const error = docs.find((d) => d.metadata?.errorCode === 'FORMAT_UNAVAILABLE');
    assert.ok(error, JSON.stringify(docs));
    const said = JSON.stringify(error);
    assert.match(said, /codex-session/, 'names the format');
    assert.match(said, /docstream_bg\.wasm/, 'names the module');
    assert.match(said, /DocstreamView\.init\(/, 'says the fix');
    assert.match(s.html(), /FORMAT_UNAVAILABLE|codex-session/);
    s.free();
  } finally {
    rmSync(dir2, { recursive: true, force: true });
  }
});

rmSync(dir, { recursive: true, force: true });
console.log(`split modules (seed ${seed}): ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
