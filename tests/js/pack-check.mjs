// Run by pack-test.mjs inside a temp project that installed the packed tarball: every
// import below resolves through node_modules/docstream's package.json `exports`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import init, { DocStream } from 'docstream';
import initInline, { DocStream as InlineDocStream } from 'docstream/inline';
import { patches } from 'docstream/stream';
import initConvert, { messagesToOpenAI, toolsToAnthropic, GeminiToOpenAI } from 'docstream/convert';

const fixtures = process.argv[2];
const read = (rel) => readFileSync(join(fixtures, rel));
const cases = [
  'cursor-stream-json/tools.jsonl',
  'cursor-stream-json/fences.jsonl',
  'document-sse/stream.sse',
  'response-json/response.json',
  'response-json/every-type.json',
];

// The package's files, by the names its `exports` give them.
const wasmPath = fileURLToPath(import.meta.resolve('docstream/docstream_bg.wasm'));
const cssPath = fileURLToPath(import.meta.resolve('docstream/docstream.css'));
assert.match(readFileSync(cssPath, 'utf8'), /\.ds-conversation/);
const manifest = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('docstream/package.json')), 'utf8'));
assert.equal(manifest.type, 'module');
assert.deepEqual(manifest.sideEffects, ['./define.js', './highlight/*.js', '*.css']);

/** Applies patches to a page held as strings (what a DOM does with them): turns, and
 * documents as markup with their parts (`data-part` elements) in between; a part holds
 * finished HTML and the elements its builder has open. */
class Page {
  turns = [];
  apply(list) {
    assert.ok(Array.isArray(list), 'patches are an array');
    for (const p of list) this.#one(p);
  }
  /** The wire form of `pull()`, read as the package's apply.js reads it. */
  applyWire(wire) {
    assert.equal(typeof wire, 'string');
    let pos = 0;
    while (pos < wire.length) {
      const nl = wire.indexOf('\n', pos);
      assert.ok(nl > pos, `a record header at ${pos}`);
      const f = wire.slice(pos, nl).split(' ');
      pos = nl + 1;
      let payload = '';
      if (f[0] !== 'o' && f[0] !== 'c') {
        const n = Number(f.at(-1));
        payload = wire.slice(pos, pos + n);
        pos += n;
      }
      const [turn, index, part] = [Number(f[1]), Number(f[2]), f[3]];
      const op = {
        t: { op: 'insert_turn', turn, html: payload },
        h: { op: 'replace_turn_header', turn, html: payload },
        i: { op: 'insert_document', turn, index, html: payload },
        d: { op: 'replace_document', turn, index, html: payload },
        a: { op: 'append_part', turn, index, part, html: payload },
        r: { op: 'replace_part', turn, index, part, html: payload },
        o: { op: 'open_element', turn, index, part, tag: f[4] },
        s: { op: 'set_attr', turn, index, part, attr: f[4], value: payload },
        x: { op: 'append_text', turn, index, part, text: payload },
        c: { op: 'close_element', turn, index, part },
      }[f[0]];
      assert.ok(op, `known record ${f[0]}`);
      this.#one(op);
    }
  }
  #one(p) {
    const turn = this.turns[p.turn];
    switch (p.op) {
      case 'insert_turn': {
        const body = p.html.slice(0, -'</section>\n'.length);
        const nl = body.indexOf('\n') + 1;
        this.turns.splice(p.turn, 0, { open: body.slice(0, nl), header: body.slice(nl), docs: [] });
        return;
      }
      case 'replace_turn_header': turn.header = p.html; return;
      case 'insert_document': turn.docs.splice(p.index, 0, parseDoc(p.html)); return;
      case 'replace_document': turn.docs[p.index] = parseDoc(p.html); return;
    }
    const part = turn.docs[p.index].parts.get(p.part);
    assert.ok(part, `${p.op}: the document has a ${p.part} part`);
    const sink = () => part.open.at(-1) ?? part;
    switch (p.op) {
      case 'append_part': sink().inner += p.html; break;
      case 'replace_part': part.inner = p.html; part.open = []; break;
      case 'open_element':
        if (p.tag === 'hr') sink().inner += '<hr>';
        else part.open.push({ tag: p.tag, attrs: [], inner: '' });
        break;
      case 'set_attr': part.open.at(-1).attrs.push([p.attr, p.value]); break;
      case 'append_text': sink().inner += escape(p.text); break;
      case 'close_element': {
        const e = part.open.pop();
        sink().inner += element(e);
        break;
      }
      default: assert.fail(`unknown op ${p.op}`);
    }
  }
  html() {
    let out = '<main class="ds-conversation">\n';
    for (const t of this.turns) {
      out += t.open + t.header;
      for (const d of t.docs) for (const seg of d.segments) out += typeof seg === 'string' ? seg : partHtml(seg);
      out += '</section>\n';
    }
    return out + '</main>\n';
  }
}

const escape = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const element = (e) => `<${e.tag}${e.attrs.map(([a, v]) => ` ${a}="${escape(v)}"`).join('')}>${e.inner}</${e.tag}>`;
function partHtml(part) {
  let inner = '';
  for (let i = part.open.length - 1; i >= 0; i--) inner = element({ ...part.open[i], inner: part.open[i].inner + inner });
  return part.inner + inner;
}

/** Splits a document's HTML at its parts (counting nested elements of the part's tag). */
function parseDoc(html) {
  const segments = [];
  const parts = new Map();
  let rest = html;
  for (;;) {
    const m = /<(\w+)[^>]* data-part="(\w+)"[^>]*>/.exec(rest);
    if (!m) break;
    const [open, tag, name] = m;
    const start = m.index + open.length;
    let depth = 0;
    let pos = start;
    let end = -1;
    const re = new RegExp(`<${tag}[ >]|</${tag}>`, 'g');
    re.lastIndex = pos;
    for (let t; (t = re.exec(rest)); ) {
      if (t[0].startsWith('</')) {
        if (depth === 0) { end = t.index; break; }
        depth--;
      } else depth++;
    }
    assert.ok(end >= 0, `part ${name} closes`);
    segments.push(rest.slice(0, start));
    const part = { inner: rest.slice(start, end), open: [] };
    parts.set(name, part);
    segments.push(part);
    rest = rest.slice(end);
  }
  segments.push(rest);
  return { segments, parts };
}

function chunked(Stream, bytes, size, options) {
  const s = new Stream(options);
  const page = new Page();
  for (let i = 0; i < bytes.length; i += size) page.apply(s.push(bytes.subarray(i, i + size)));
  page.apply(s.finish());
  // The batched form: write every chunk, pull every third.
  const b = new Stream(options);
  const pulled = new Page();
  for (let i = 0, k = 0; i < bytes.length; i += size, k++) {
    b.write(bytes.subarray(i, i + size));
    if (k % 3 === 0) pulled.applyWire(b.pull());
  }
  b.end();
  pulled.applyWire(b.pull());
  const result = { page: page.html(), pulled: pulled.html(), html: s.html(), snapshot: s.snapshot(), text: s.text() };
  s.free();
  b.free();
  return result;
}

// docstream: init from the bytes of the installed package's .wasm.
await init({ module_or_path: readFileSync(wasmPath) });
for (const rel of cases) {
  const bytes = read(rel);
  const golden = readFileSync(join(fixtures, rel.replace(/\.[a-z]+$/, '.expected.html')), 'utf8');
  const goldenJson = JSON.parse(readFileSync(join(fixtures, rel.replace(/\.[a-z]+$/, '.expected.json')), 'utf8'));
  for (const size of [bytes.length, 1, 5, 64]) {
    const r = chunked(DocStream, bytes, size);
    assert.equal(r.page, r.html, `${rel} in chunks of ${size}: the patches give html()`);
    assert.equal(r.pulled, r.html, `${rel} in chunks of ${size}: the pulled wire gives html()`);
    assert.equal(r.html, golden, `${rel} in chunks of ${size}: html() is the golden HTML`);
    assert.deepEqual(r.snapshot, goldenJson, `${rel} in chunks of ${size}: the golden JSON`);
  }
}
const tools = read('cursor-stream-json/tools.jsonl');
// A long Markdown answer streamed in small deltas: finished blocks arrive as
// append_part, the unfinished one is built (append_text) and replaced when finished.
const markdown = Array.from({ length: 12 }, (_, i) =>
  `## Part ${i}\n\nSome *text* for part ${i}, with \`code\` and a [link](https://example.com/${i}).\n\n- one\n- two\n\n`).join('');
const streamedText = new TextEncoder().encode(
  markdown.match(/[\s\S]{1,9}/g)
    .map((piece) => JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: piece }] } }))
    .join('\n') + '\n' + JSON.stringify({ type: 'result', subtype: 'success', result: markdown }) + '\n');
{
  const ops = new Set();
  const s = new DocStream();
  const page = new Page();
  for (let i = 0; i < streamedText.length; i += 50) {
    const batch = s.push(streamedText.subarray(i, i + 50));
    batch.forEach((p) => ops.add(p.op));
    page.apply(batch);
    // Mid-stream too (issue 37): html() shows the open block as the patches do.
    assert.equal(page.html(), s.html(), `streamed Markdown, after ${i + 50} bytes: the patches give html()`);
  }
  page.apply(s.finish());
  assert.ok(ops.has('append_part') && ops.has('append_text') && ops.has('replace_part'), [...ops].join());
  assert.equal(page.html(), s.html(), 'streamed Markdown: the patches give html()');
  assert.equal(s.html(), chunked(DocStream, streamedText, streamedText.length).html);
  assert.match(s.html(), /<h2[^>]*>Part 11<\/h2>/);
}
{
  const s = new DocStream({ locale: 'de', diff: 'split' });
  s.push(tools);
  s.finish();
  assert.equal(s.format, 'cursor-stream-json');
  assert.match(s.text(), /\n$/);
  assert.match(s.html(), /ds-diff-split/);
  assert.doesNotMatch(s.html(), /ds-diff-unified/);
  const diff = s.diffView('doc_005');
  assert.equal(diff.path, '/repo/src/main.rs');
  assert.ok(diff.hunks[0].lines.length > 0);
  assert.equal(s.planView('doc_002').title, 'Fix greeting');
  assert.equal(s.diffView('doc_002'), undefined);
  assert.throws(() => s.push('x'), (e) => e instanceof Error && e.code === 'DS_FINISHED');
  assert.throws(() => new DocStream({ locale: 'xx' }), (e) => e.code === 'DS_BAD_OPTIONS');
  assert.throws(() => new DocStream({ format: 'nope' }), (e) => e.code === 'DS_UNKNOWN_FORMAT');
  assert.throws(() => new DocStream().push(42), (e) => e.code === 'DS_BAD_CHUNK');
}

// docstream/inline: init() with no argument, from the inlined bytes.
await initInline();
{
  const r = chunked(InlineDocStream, tools, 17);
  assert.equal(r.page, r.html);
  assert.equal(r.html, chunked(DocStream, tools, tools.length).html, 'inline gives what docstream gives');
}

// docstream/stream: a ReadableStream of the fixture in uneven chunks.
function readable(bytes, sizes) {
  let at = 0;
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = sizes[k++ % sizes.length];
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
{
  const s = new DocStream();
  const page = new Page();
  let batches = 0;
  for await (const batch of patches(s, readable(tools, [1, 100, 7, 333]))) {
    page.apply(batch);
    batches++;
  }
  assert.equal(page.html(), s.html(), 'stream: the patches give html()');
  assert.equal(s.html(), chunked(DocStream, tools, tools.length).html);
  assert.ok(batches > 10, 'one batch per chunk, then finish');
  assert.throws(() => s.push('x'), (e) => e.code === 'DS_FINISHED', 'stream: finish() was called');
}
{
  // An async iterable of strings works too.
  async function* lines() {
    for (const line of tools.toString('utf8').split(/(?<=\n)/)) yield line;
  }
  const s = new DocStream();
  const page = new Page();
  for await (const batch of patches(s, lines())) page.apply(batch);
  assert.equal(page.html(), s.html());
}
{
  // An abort stops reading, rejects with the signal's reason and cancels the source.
  const controller = new AbortController();
  let cancelled;
  const source = new ReadableStream({
    start(c) { c.enqueue(tools.subarray(0, 200)); },
    cancel(reason) { cancelled = reason; },
  }); // never closes: only the abort can end it
  const s = new DocStream();
  const reason = new Error('enough');
  let seen = 0;
  await assert.rejects(async () => {
    for await (const batch of patches(s, source, { signal: controller.signal })) {
      seen++;
      assert.ok(Array.isArray(batch));
      setTimeout(() => controller.abort(reason), 10);
    }
  }, (e) => e === reason);
  assert.equal(seen, 1);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(cancelled, reason, 'the source was cancelled with the reason');
  s.push('{}\n'); // not finished by the helper
  const pre = new AbortController();
  pre.abort(reason);
  await assert.rejects(() => patches(new DocStream(), source, { signal: pre.signal }).next(), (e) => e === reason);
  await assert.rejects(() => patches(new DocStream(), 'a string').next(), TypeError);
}

// The highlighter, as `docstream/highlight` resolves: a grammar per language, the state
// carried from line to line (a comment opened on one line goes on in the next), a line
// peeked at leaves the state alone, and unknown languages give null.
{
  const { open, languageOf, LANGUAGES } = await import('docstream/highlight');
  assert.ok(LANGUAGES.length >= 24, 'every language the issue names');
  assert.equal(languageOf('src/lib.rs')?.id, 'rust');
  assert.equal(languageOf('Dockerfile')?.id, 'docker');
  assert.equal(languageOf('TS')?.id, 'typescript');
  assert.equal(await open('brainfuck'), null);
  const rust = await open('rust');
  const kinds = (tokens) => tokens.filter(([, k]) => k).map(([t, k]) => `${t.trim()}:${k}`);
  assert.deepEqual(kinds(rust.line('fn main() {')), ['fn:keyword', 'main:function']);
  assert.deepEqual(kinds(rust.peek('    /* not yet')), ['/* not yet:comment']);
  rust.line('    /* a comment');
  assert.deepEqual(kinds(rust.line('    still */ let x = 1;')), ['still */:comment', 'let:keyword', '=:keyword', '1:constant']);
  // A grammar loaded later can reload one a block is in the middle of (Markdown embeds
  // others lazily; loading Python makes Shiki load Markdown again): the state carried is
  // the old grammar's, and tokenizing with it threw "Not supported!". The block goes on
  // from its next line afresh.
  const md = await open('markdown');
  md.line('```python');
  await open('python');
  for (const line of ['def f(x): return x', '```', '# Title']) {
    assert.equal(md.line(line).map(([text]) => text).join(''), line, `markdown after a reload: ${line}`);
  }
  assert.deepEqual(kinds(md.line('# Heading')).length > 0, true, 'still coloured after a reload');
  for (const { id } of LANGUAGES) {
    const t = await open(id);
    const line = 'x = "y" // z';
    assert.equal(t.line(line).map(([text]) => text).join(''), line, `${id}: tokens spell the line`);
  }
}
// docstream/convert: its own module, loaded from the installed package's convert_bg.wasm.
await initConvert({ module_or_path: readFileSync(fileURLToPath(import.meta.resolve('docstream/convert_bg.wasm'))) });
{
  const openai = messagesToOpenAI([
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } }] },
  ]);
  assert.equal(openai[0].tool_calls[0].function.name, 'Read');
  assert.deepEqual(toolsToAnthropic([{ type: 'function', function: { name: 'r', parameters: { type: 'object' } } }]),
    [{ name: 'r', input_schema: { type: 'object' } }]);
  const gemini = new GeminiToOpenAI('id', 'gemini-3-pro');
  assert.ok(Array.isArray(gemini.convert('{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}')));
  assert.throws(() => messagesToOpenAI({}), (e) => e.code === 'DS_BAD_INPUT');
}
// Server-side rendering: every entry imports in plain Node, where there is no DOM, and
// registers nothing (the element module's class loads on an empty base).
{
  assert.equal(globalThis.HTMLElement, undefined, 'this check runs without a DOM');
  const element = await import('docstream/element');
  const define = await import('docstream/define');
  assert.equal(typeof element.DocstreamView, 'function');
  assert.equal(define.DocstreamView, element.DocstreamView);
  for (const entry of ['docstream/apply', 'docstream/highlight']) assert.ok(await import(entry), entry);
  assert.equal(globalThis.customElements, undefined, 'nothing defined');
}
console.log('pack-check: ok');
