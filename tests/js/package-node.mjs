// The built package (pkg/) in Node: init from bytes, stream a fixture in chunks, and
// check the snapshot against the one-shot result and the Rust golden.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import init, { DocStream } from '../../pkg/docstream.js';

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

const s = new DocStream();
s.finish();
assert.throws(() => s.push('x'), (e) => e instanceof Error && e.code === 'DS_FINISHED');
console.log('package-node: ok');
