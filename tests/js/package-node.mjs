// The built package (pkg/) in Node: init from bytes, stream a fixture in chunks, and
// check the snapshot against the one-shot result and the Rust golden.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import init, { DocStream } from '../../pkg/docstream.js';
import { readPatches } from '../../pkg/wire.js';

const root = new URL('../../', import.meta.url);
await init({ module_or_path: readFileSync(new URL('pkg/docstream_bg.wasm', root)) });

const fixture = readFileSync(new URL('tests/fixtures/cursor-stream-json/tools.jsonl', root));
const golden = JSON.parse(readFileSync(new URL('tests/fixtures/cursor-stream-json/tools.expected.json', root), 'utf8'));

function run(chunkSize) {
  const s = new DocStream({ format: 'auto' });
  for (let i = 0; i < fixture.length; i += chunkSize) s.push(fixture.subarray(i, i + chunkSize));
  s.finish();
  const snap = s.snapshot();
  assert.equal(s.format, 'cursor-stream-json');
  s.free();
  return snap;
}

const whole = run(fixture.length);
assert.deepEqual(whole, golden, 'the package gives the Rust golden');
for (const size of [1, 3, 64, 1000]) assert.deepEqual(run(size), whole, `chunks of ${size}`);

// push() and finish() (JavaScript on write() and pull(), src/wasm/push.js): the same
// patches for every type of chunk; none while no line ended; the objects' shape.
{
  const patchesOf = (chunk) => {
    const s = new DocStream();
    const out = [...s.push(chunk), ...s.finish()];
    s.free();
    return out;
  };
  const bytes = patchesOf(fixture);
  assert.ok(bytes.length > 0);
  assert.deepEqual(patchesOf(fixture.toString('utf8')), bytes, 'a string chunk');
  const buffer = fixture.buffer.slice(fixture.byteOffset, fixture.byteOffset + fixture.length);
  assert.deepEqual(patchesOf(buffer), bytes, 'an ArrayBuffer chunk');

  const s = new DocStream();
  const line = (text) => JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
  assert.deepEqual(s.push(line('Hello')), [], 'no line end yet');
  const first = s.push('\n');
  assert.equal(first[0].op, 'insert_turn');
  assert.ok(first.some((p) => p.op === 'insert_document' && p.html.includes('doc_001')), JSON.stringify(first));
  assert.deepEqual(s.push(`${line(' world')}\n`), [{ op: 'append_text', turn: 0, index: 0, part: 'tail', text: ' world' }]);
  const last = s.finish();
  assert.ok(last.some((p) => p.op === 'insert_document' && p.html.includes('ds-error')), 'finish() marks the cut-off response');
  assert.throws(() => s.push('x'), (e) => e instanceof Error && e.code === 'DS_FINISHED');
  assert.throws(() => s.finish(), (e) => e instanceof Error && e.code === 'DS_FINISHED');
  s.free();

  const t = new DocStream();
  for (const bad of [3, null, undefined, {}, new DataView(new ArrayBuffer(2)), [1, 2]]) {
    assert.throws(() => t.push(bad), (e) => e instanceof Error && e.code === 'DS_BAD_CHUNK' && /Uint8Array/.test(e.message), String(bad));
  }
  assert.deepEqual(t.push(''), [], 'still usable after a refused chunk');
  t.free();
}
// push() gives exactly the patches of write() and a pull() after every chunk that
// changed something, read by the wire reader, for every fixture and cut (text and
// bytes mixed at 7 bytes).
{
  const dir = new URL('tests/fixtures/', root);
  const inputs = readdirSync(dir, { recursive: true })
    .filter((f) => /\.(jsonl|ndjson|sse|json)$/.test(f) && !/\.expected\./.test(f))
    .map((f) => [f, readFileSync(new URL(f, dir))]);
  assert.ok(inputs.length > 40, `${inputs.length} fixtures`);
  for (const [name, bytes] of inputs) {
    for (const size of [1, 7, 16, 64]) {
      const pushed = new DocStream();
      const pulled = new DocStream();
      const a = [];
      const b = [];
      for (let i = 0; i < bytes.length; i += size) {
        const piece = bytes.subarray(i, i + size);
        // At 7 bytes, ASCII pieces go as text: text and bytes mix.
        const ps = pushed.push(size === 7 && piece.every((x) => x < 128) ? piece.toString() : piece);
        a.push(...ps);
        if (pulled.write(piece)) b.push(...readPatches(pulled.pull()));
      }
      a.push(...pushed.finish());
      pulled.end();
      b.push(...readPatches(pulled.pull()));
      const where = `${name} in chunks of ${size}`;
      assert.equal(JSON.stringify(a), JSON.stringify(b), `${where}: the same patches`);
      assert.equal(pushed.html(), pulled.html(), where);
      pushed.free();
      pulled.free();
    }
  }
}

// write() and writeText() copy chunks of up to 64 KiB into the stream's staging area
// and larger ones through a fresh allocation: chunks of growing and shrinking sizes on
// both sides of that line, as bytes and as text (where a piece is whole UTF-8), give
// the page of one write of the whole input.
{
  const one = (s) => s.replace(/\n/g, ' ');
  const line = (i) => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: `${i}: ünïcödé 日本 🚀 ` + 'x'.repeat(i % 50) }] }, timestamp_ms: i });
  const body = Buffer.from(Array.from({ length: 3000 }, (_, i) => line(i)).join('\n') + '\n');
  assert.ok(body.length > 3 * 65536, `${body.length} bytes`);
  const whole = new DocStream({ format: 'cursor-stream-json' });
  whole.write(body);
  whole.end();
  const sizes = [1, 5, 1000, 70000, 3, 65536, 65537, 200, 100000, 17];
  for (const asText of [false, true]) {
    const s = new DocStream({ format: 'cursor-stream-json' });
    let at = 0;
    for (let k = 0; at < body.length; k++) {
      let piece = body.subarray(at, at + sizes[k % sizes.length]);
      const text = piece.toString();
      // A text piece must be whole characters: cut back to the last line break.
      if (asText && Buffer.from(text).length !== piece.length) piece = piece.subarray(0, piece.lastIndexOf(10) + 1 || piece.length);
      if (asText && Buffer.from(piece.toString()).length === piece.length) s.writeText(piece.toString());
      else s.write(piece);
      at += piece.length;
    }
    s.end();
    assert.equal(one(s.html()), one(whole.html()), `staged writes, ${asText ? 'text' : 'bytes'}`);
    s.free();
  }
  whole.free();
}

// The chunk reader (pkg/chunks.js) that <docstream-view>.stream(), docstream/stream and
// the viewer share: every chunk in order, the lock released at the end or on failure;
// return() cancels with its reason, or with `cancel: false` only lets go of the stream;
// an abort cancels the stream while a read waits.
{
  const { readChunks } = await import('../../pkg/chunks.js');
  // A promise that never settles fails the check by name instead of ending Node quietly.
  const settles = async (promise, what) => {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: still pending after 2 s`)), 2000);
    });
    try {
      return await Promise.race([promise, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const source = (chunks, log = {}) =>
    new ReadableStream({
      pull(c) {
        if (chunks.length) c.enqueue(chunks.shift());
        else if (!log.hang) c.close();
      },
      cancel(reason) {
        log.cancelled = { reason };
      },
    });
  const a = source(['a', 'b', 'c']);
  const seen = [];
  for await (const chunk of readChunks(a)) seen.push(chunk);
  assert.deepEqual(seen, ['a', 'b', 'c'], 'readChunks: every chunk in order');
  assert.equal(a.locked, false, 'readChunks: the lock is released at the end');

  const log = {};
  const b = source(['a', 'b'], log);
  const it = readChunks(b);
  assert.deepEqual(await it.next(), { done: false, value: 'a' });
  await it.return('enough');
  assert.deepEqual(log.cancelled, { reason: 'enough' }, 'readChunks: return(reason) cancels with the reason');
  assert.deepEqual(await it.next(), { done: true, value: undefined }, 'readChunks: nothing after return()');

  const kept = {};
  const c = source(['a', 'b'], kept);
  const it2 = readChunks(c, { cancel: false });
  await it2.next();
  await it2.return();
  assert.equal(kept.cancelled, undefined, 'readChunks: cancel: false does not cancel');
  assert.equal(c.locked, false, 'readChunks: cancel: false releases the lock');
  const rest = await c.getReader().read();
  assert.deepEqual(rest, { done: false, value: 'b' }, 'readChunks: cancel: false leaves the rest to read');

  const hung = { hang: true };
  const d = source([], hung);
  const controller = new AbortController();
  const waiting = readChunks(d, { signal: controller.signal, cancel: false }).next();
  controller.abort('stop');
  const ended = await settles(waiting, 'readChunks: an abort ends a waiting read');
  assert.deepEqual(ended, { done: true, value: undefined }, 'readChunks: an abort ends a waiting read');
  assert.deepEqual(hung.cancelled, { reason: 'stop' }, 'readChunks: an abort cancels with its reason');
  assert.equal(d.locked, false, 'readChunks: the lock is released after an abort');

  const failure = new Error('network');
  const e = new ReadableStream({ pull: (ctl) => ctl.error(failure) });
  const it3 = readChunks(e);
  await assert.rejects(it3.next(), (err) => err === failure, 'readChunks: a failed read rejects with its error');
  assert.equal(e.locked, false, 'readChunks: the lock is released on failure');
  assert.deepEqual(await it3.return('late'), { done: true, value: undefined }, 'readChunks: return() after a failure');
}

console.log('package-node: ok');
