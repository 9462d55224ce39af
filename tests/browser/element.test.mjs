// <docstream-view> in Chromium: chunk invariance of the DOM, least DOM work, events,
// accessibility, scroll pinning, all under a strict CSP with Trusted Types.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { ROOT, SEED, newPage, randomCuts, readRoot, rng } from './harness.mjs';

const PAGE = '/tests/browser/pages/element.html';

export async function openTestPage(context, url) {
  const page = await newPage(context);
  await page.goto(url + PAGE);
  await page.waitForFunction(() => window.testReady === true);
  return page;
}

export async function assertClean(page) {
  assert.deepEqual(await page.problems(), [], 'no console errors, page errors, dialogs or CSP violations');
}

/** A generated transcript: long Markdown in small deltas (finished blocks, tails,
 * a fence split across deltas, a tool call in between). */
function generated() {
  const line = (o) => `${JSON.stringify(o)}\n`;
  const text = (t) => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: t }] }, session_id: 's' });
  let md = '';
  for (let i = 0; i < 12; i++) {
    md += `## Part ${i}\n\nSome *prose* with a [link](https://example.com/${i}) and \`code\`.\n\n- item ${i}\n- item ${i + 1}\n\n| a | b |\n|---|---|\n| ${i} | ${i * 2} |\n\n> quote ${i}\n\n`;
    if (i === 5) md += '```js\nconsole.log(1);\n```\n\n';
  }
  let out = line({ type: 'system', subtype: 'init', session_id: 's', model: 'm' });
  out += line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Write a lot' }] }, session_id: 's' });
  for (let i = 0; i < md.length; i += 17) out += text(md.slice(i, i + 17));
  out += line({ type: 'tool_call', subtype: 'started', call_id: 't1', tool_call: { shellToolCall: { args: { command: 'ls' } } }, session_id: 's' });
  out += line({ type: 'tool_call', subtype: 'completed', call_id: 't1', tool_call: { shellToolCall: { args: { command: 'ls' }, result: { success: { stdout: 'a\nb\n', exitCode: 0 } } } }, session_id: 's' });
  for (let i = 0; i < 200; i += 17) out += text(md.slice(i, i + 17));
  out += line({ type: 'result', subtype: 'success', is_error: false, result: 'x', session_id: 's' });
  return Buffer.from(out);
}

/** Whether a stream holds a line that looks like a Markdown reference or footnote
 * definition (`[x]: …`, `[^1]: …`), raw or inside a JSON string. */
function hasDefinition(bytes) {
  return /(?:^|\\n|\n) {0,3}\[[^\]\n]+\]:/.test(new TextDecoder().decode(bytes));
}

function fixtures() {
  const out = [{ path: 'examples/cursor-session.jsonl' }, { path: '(generated)', bytes: generated() }];
  for (const format of readdirSync(`${ROOT}/tests/fixtures`)) {
    for (const f of readdirSync(`${ROOT}/tests/fixtures/${format}`)) {
      // Goldens, the folder's README, and a case's folder of other files (sub-agents).
      if (f.includes('.expected.') || f === 'README.md' || statSync(`${ROOT}/tests/fixtures/${format}/${f}`).isDirectory()) continue;
      const stem = f.replace(/\.[^.]+$/, '');
      out.push({ path: `tests/fixtures/${format}/${f}`, golden: `tests/fixtures/${format}/${stem}.expected.html` });
    }
  }
  return out;
}

/** Streams `bytes` into a fresh element in the given chunks, checking after every chunk
 * that the DOM changed only where the patches (from a reference DocStream fed the same
 * chunks) say. Returns the element's state. */
async function streamChecked([bytes, cuts]) {
  const { T } = window;
  bytes = new Uint8Array(bytes);
  const view = T.make();
  const conv = T.conv(view);
  const ref = new T.DocStream({ format: 'auto', locale: 'en' });
  const observer = new MutationObserver(() => {});
  observer.observe(conv, { childList: true, subtree: true, characterData: true, attributes: true });
  const problems = [];
  const PART_OPS = new Set(['append_part', 'replace_part', 'open_element', 'set_attr', 'append_text', 'close_element']);
  const docOf = (node) => {
    const el = node.nodeType === 1 ? node : node.parentElement;
    return el?.closest('[data-doc-id]') ?? null;
  };
  // A turn is named by its index (a sub-agent's run is inside its call, not a child of
  // the conversation).
  const turnIndex = (turn) => Number(turn.getAttribute('data-turn-index'));
  const placeOf = (doc) => {
    const turn = doc.closest('.ds-turn');
    return { turn: turnIndex(turn), index: [...turn.children].indexOf(doc) - 1 };
  };
  const check = (patches, records) => {
    if (patches.length === 0 && records.some((r) => r.attributeName !== 'aria-busy'))
      problems.push(`DOM written although no patch: ${records.length} records`);
    for (const r of records) {
      // A node built and then replaced within the same batch: the replacement's own
      // record is what is checked.
      if (!conv.contains(r.target)) continue;
      // The element's own decoration of what a patch added.
      if (r.type === 'attributes' && (r.attributeName === 'part' || r.attributeName === 'aria-pressed')) continue;
      // Thinking opened while it streams and folded when the answer starts.
      if (r.type === 'attributes' && r.attributeName === 'open' && r.target.matches('details.ds-thinking-body')) continue;
      if (r.type === 'attributes' && r.target === conv) {
        if (r.attributeName !== 'aria-busy') problems.push(`attribute ${r.attributeName} changed`);
        continue;
      }
      if (r.target === conv) {
        if (r.removedNodes.length || !patches.some((p) => p.op === 'insert_turn'))
          problems.push('conversation changed without insert_turn (or a turn was removed)');
        continue;
      }
      // A sub-agent's run inserted into its call, or changed as a turn.
      if (r.target.nodeType === 1 && r.target.matches('.ds-subagent-run')) {
        const runs = [...r.addedNodes].filter((n) => n.nodeType === 1).map(turnIndex);
        if (r.removedNodes.length || !runs.every((t) => patches.some((p) => p.op === 'insert_turn' && p.turn === t)))
          problems.push('a run was put in its call without insert_turn (or removed)');
        continue;
      }
      if (r.target.nodeType === 1 && r.target.matches('.ds-turn')) {
        const index = turnIndex(r.target);
        if (!patches.some((p) => p.turn === index && !PART_OPS.has(p.op)))
          problems.push(`turn ${index} changed without a patch`);
        continue;
      }
      const doc = docOf(r.target);
      if (doc && doc !== r.target) {
        const { turn, index } = placeOf(doc);
        const mine = patches.filter((p) => p.turn === turn && p.index === index);
        if (mine.length === 0) problems.push(`document ${turn}/${index} changed without a patch`);
        else if (mine.every((p) => PART_OPS.has(p.op))) {
          const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          const part = el.closest('[data-part]');
          const name = part?.getAttribute('data-part');
          if (!part || docOf(part) !== doc || !mine.some((p) => p.part === name))
            problems.push(`document ${turn}/${index}: a ${mine.map((p) => p.op)} patch changed more than its parts`);
          else if (
            (name === 'blocks' || name === 'lines') &&
            r.removedNodes.length &&
            !mine.some((p) => p.op === 'replace_part' && p.part === name)
          )
            problems.push(`document ${turn}/${index}: finished ${name} re-rendered`);
          else if (r.type === 'attributes' && !mine.some((p) => p.op === 'set_attr'))
            problems.push(`document ${turn}/${index}: attribute ${r.attributeName} changed without set_attr`);
        }
        continue;
      }
      const turnEl = r.target.closest?.('.ds-turn');
      if (turnEl && (r.target === turnEl || r.target === doc)) {
        const index = turnIndex(turnEl);
        if (!patches.some((p) => p.turn === index && !PART_OPS.has(p.op)))
          problems.push(`turn ${index} changed without a patch`);
        continue;
      }
      const header = r.target.nodeType === 1 ? r.target.closest('.ds-turn-header') : r.target.parentElement?.closest('.ds-turn-header');
      if (header) {
        problems.push('a turn header was changed in place instead of replaced');
        continue;
      }
      problems.push(`unexpected mutation of ${r.target.nodeName}`);
    }
  };
  let at = 0;
  let firstBlock = null;
  // A stream in a format outside the default module's set is shown once the full module
  // has taken it over (element-wasm.js): the DOM then catches up at once, so writes are
  // checked against every patch since the DOM last changed.
  let pending = [];
  for (const n of cuts) {
    const chunk = bytes.subarray(at, at + n);
    at += n;
    pending = pending.concat(ref.push(chunk));
    view.push(chunk);
    view.flush();
    const records = observer.takeRecords();
    if (records.length) {
      check(pending, records);
      pending = [];
    }
    firstBlock ??= conv.querySelector('.ds-blocks > *');
  }
  pending = pending.concat(ref.finish());
  const done = new Promise((resolve) => view.addEventListener('docstream-done', resolve, { once: true }));
  view.finish();
  await done;
  check(pending, observer.takeRecords());
  observer.disconnect();
  const state = {
    inner: T.conv(view).innerHTML,
    stripped: T.stripped(view),
    parsedHtml: T.parsed(view.html()),
    html: view.html(),
    refHtml: ref.html(),
    firstBlockKept: firstBlock === null || firstBlock.isConnected,
    blocksSeen: firstBlock !== null,
    problems,
  };
  ref.free();
  view.remove();
  return state;
}

async function loadWhole(page, bytes) {
  return page.evaluate(async (bytes) => {
    const { T } = window;
    const view = T.make();
    await view.load(new Uint8Array(bytes));
    const state = { inner: T.conv(view).innerHTML, html: view.html() };
    view.remove();
    return state;
  }, [...bytes]);
}

export const tests = [
  {
    name: 'fixtures streamed in random chunks give the DOM of a one-shot load, touching only what the patches name',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const random = rng(SEED);
      let blocksSeen = false;
      for (const { path, golden, bytes: given } of fixtures()) {
        const bytes = given ?? readRoot(path);
        const whole = await loadWhole(page, bytes);
        if (golden) assert.equal(whole.html, readRoot(golden, 'utf8'), `${path}: html() is the Rust golden`);
        for (const cuts of [randomCuts(bytes.length, random, 64), randomCuts(bytes.length, random, 7), [bytes.length]]) {
          const s = await page.evaluate(streamChecked, [[...bytes], cuts]);
          const where = `${path}, seed ${SEED}, chunks ${cuts.length}`;
          assert.deepEqual(s.problems, [], `${where}: DOM work`);
          assert.equal(s.inner, whole.inner, `${where}: streamed DOM equals the one-shot load`);
          assert.equal(s.stripped, s.parsedHtml, `${where}: DOM (without the element's additions) equals html()`);
          assert.equal(s.html, whole.html, `${where}: html()`);
          // A link reference or footnote definition changes what earlier text means, so the
          // blocks shown before it are taken back (README, "While a block streams").
          if (!hasDefinition(bytes)) assert.ok(s.firstBlockKept, `${where}: a finished block is never re-rendered`);
          blocksSeen ||= s.blocksSeen;
        }
      }
      assert.ok(blocksSeen, 'some fixture streams finished blocks');
      await assertClean(page);
    },
  },
  {
    name: 'a rewound branch is folded: its documents are hidden while its fold is shut, shown when opened',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const bytes = readRoot('tests/fixtures/claude-code-transcript/rewind.jsonl');
      const r = await page.evaluate(async (bytes) => {
        const view = window.T.make();
        await view.load(new Uint8Array(bytes));
        const c = window.T.conv(view);
        const shown = (el) => getComputedStyle(el).display !== 'none';
        // The documents of turns whose header is a fold, and of the turns that are not.
        const docsOf = (rewound) => [...c.querySelectorAll('.ds-turn')]
          .filter((t) => !!t.querySelector(':scope > .ds-rewound') === rewound)
          .flatMap((t) => [...t.querySelectorAll(':scope > .ds-doc')]);
        const folded = docsOf(true);
        const before = { folded: folded.filter(shown).length, kept: docsOf(false).filter((d) => !shown(d)).length };
        const headers = [...c.querySelectorAll('.ds-rewound')].filter(shown).length;
        for (const d of c.querySelectorAll('.ds-rewound')) d.open = true;
        return { before, headers, opened: folded.filter(shown).length, total: folded.length, marks: c.querySelectorAll('.ds-rewound').length };
      }, [...bytes]);
      assert.ok(r.total > 0 && r.marks > 0, `the fixture has rewound turns with documents: ${JSON.stringify(r)}`);
      assert.equal(r.before.folded, 0, 'no document of a shut fold is shown');
      assert.equal(r.before.kept, 0, 'every document of a turn that was not rewound is shown');
      assert.equal(r.headers, r.marks, 'the folds themselves are shown');
      assert.equal(r.opened, r.total, 'an opened fold shows its documents');
      await assertClean(page);
    },
  },
  {
    name: 'stream() reads a ReadableStream and an async iterable; progress events count the bytes',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const bytes = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl');
      const whole = await loadWhole(page, bytes);
      const r = await page.evaluate(async (bytes) => {
        const { T } = window;
        bytes = new Uint8Array(bytes);
        const view = T.make();
        const progress = [];
        view.addEventListener('docstream-progress', (e) => progress.push(e.detail.bytes));
        let at = 0;
        const rs = new ReadableStream({
          pull(c) {
            if (at >= bytes.length) return c.close();
            c.enqueue(bytes.subarray(at, at + 100));
            at += 100;
          },
        });
        await view.stream(rs);
        const a = T.conv(view).innerHTML;
        async function* gen() {
          const text = new TextDecoder().decode(bytes);
          for (let i = 0; i < text.length; i += 33) yield text.slice(i, i + 33);
        }
        await view.stream(gen());
        const b = T.conv(view).innerHTML;
        return { a, b, progress, total: bytes.length, busy: view.busy };
      }, [...bytes]);
      assert.equal(r.a, whole.inner);
      assert.equal(r.b, whole.inner);
      assert.equal(r.busy, false);
      const firstRun = r.progress.slice(0, Math.ceil(r.total / 100));
      assert.equal(firstRun.at(-1), r.total, 'progress reaches the byte count');
      assert.ok(firstRun.every((b, i) => i === 0 || b > firstRun[i - 1]), 'progress grows');
      assert.equal(r.progress.at(-1), r.total, 'strings are counted as UTF-8 bytes');
      await assertClean(page);
    },
  },
  {
    name: 'stream() with an aborted signal finishes (marked cut off) and rejects; a failing source is DS_SOURCE',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/basic.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make({ id: 'a' });
        const controller = new AbortController();
        const lines = text.split('\n');
        async function* slow() {
          for (const [i, line] of lines.entries()) {
            if (i === 3) controller.abort(new Error('stopped by the test'));
            yield `${line}\n`;
          }
        }
        let rejected = null;
        try {
          await view.stream(slow(), { signal: controller.signal });
        } catch (e) {
          rejected = e.message;
        }
        const snap = view.snapshot();
        const last = snap.turns[snap.turns.length - 1];
        const failing = T.make({ id: 'b' });
        const broken = new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(lines[0] + '\n'));
            c.error(new TypeError('network gone'));
          },
        });
        let sourceError = null;
        try {
          await failing.stream(broken);
        } catch (e) {
          sourceError = e.message;
        }
        return {
          rejected,
          status: last.status,
          busy: view.busy,
          done: T.events.filter((e) => e.type === 'docstream-done').map((e) => e.target),
          errors: T.events.filter((e) => e.type === 'docstream-error').map((e) => `${e.target}:${e.detail.code}`),
          sourceError,
        };
      }, text);
      assert.equal(r.rejected, 'stopped by the test');
      assert.equal(r.status, 'error', 'the cut-off response is marked');
      assert.equal(r.busy, false);
      assert.deepEqual(r.done, ['a', 'b']);
      assert.equal(r.sourceError, 'network gone');
      assert.deepEqual(r.errors, ['b:DS_SOURCE'], 'an abort is not an error event');
      await assertClean(page);
    },
  },
  {
    name: 'src loads and streams a URL; a missing URL is a DS_FETCH error event',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const bytes = readRoot('tests/fixtures/document-sse/stream.sse');
      const whole = await loadWhole(page, bytes);
      const r = await page.evaluate(async () => {
        const { T } = window;
        const view = T.make();
        const done = new Promise((ok) => view.addEventListener('docstream-done', (e) => ok(e.detail), { once: true }));
        view.src = '/tests/fixtures/document-sse/stream.sse';
        const detail = await done;
        const bad = T.make({ id: 'bad' });
        const error = new Promise((ok) => bad.addEventListener('docstream-error', (e) => ok(e.detail), { once: true }));
        bad.setAttribute('src', '/no/such/file.jsonl');
        return { inner: T.conv(view).innerHTML, turns: detail.conversation.turns.length, snapTurns: view.snapshot().turns.length, error: await error };
      });
      assert.equal(r.inner, whole.inner);
      assert.equal(r.turns, r.snapTurns);
      assert.equal(r.error.code, 'DS_FETCH');
      assert.match(r.error.message, /404/);
      // The 404 is logged by Chromium as a failed resource load; nothing else may be.
      page.log.console = page.log.console.filter((m) => !/404 \(Not Found\)/.test(m));
      await assertClean(page);
    },
  },
  {
    name: 'a clarification click fires docstream-choice (bubbling, composed) and marks the option pressed',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/document-sse/stream.sse', 'utf8');
      await page.evaluate(async (text) => {
        const view = window.T.make({ id: 'v' });
        await view.load(text);
      }, text);
      const option = page.locator('#v .ds-option[data-option-id="session"]');
      await option.click();
      const r = await page.evaluate(() => ({
        events: window.T.events.filter((e) => e.type === 'docstream-choice'),
        pressed: [...window.T.conv(document.getElementById('v')).querySelectorAll('.ds-option')].map((o) => `${o.getAttribute('data-option-id')}=${o.getAttribute('aria-pressed')}`),
      }));
      assert.equal(r.events.length, 1);
      assert.equal(r.events[0].target, 'v', 'seen on document, retargeted to the element');
      assert.equal(r.events[0].detail.questionId, 'q1');
      assert.equal(r.events[0].detail.optionId, 'session');
      assert.ok(r.events[0].detail.documentId);
      assert.deepEqual(r.pressed, ['jwt=false', 'session=true']);
      await assertClean(page);
    },
  },
  {
    name: 'copy buttons on code blocks and terminal output write the clipboard and fire docstream-copy',
    async run({ context, url }) {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
      const page = await openTestPage(context, url);
      const fences = readRoot('tests/fixtures/cursor-stream-json/fences.jsonl', 'utf8');
      const tools = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
      const expected = await page.evaluate(async ([fences, tools]) => {
        const a = window.T.make({ id: 'code' });
        await a.load(fences);
        const b = window.T.make({ id: 'term' });
        await b.load(tools);
        const docs = (v) => v.snapshot().turns.flatMap((t) => t.documents ?? []);
        return {
          code: docs(a).find((d) => d.type === 'code_block')?.content,
          output: docs(b).find((d) => d.type === 'terminal_command' && d.metadata.output)?.metadata.output,
          command: docs(b).find((d) => d.type === 'terminal_command')?.metadata.command,
        };
      }, [fences, tools]);
      assert.ok(expected.code, 'fences.jsonl has a code block');
      assert.ok(expected.output, 'tools.jsonl has a terminal run with output');

      await page.locator('#code .ds-code-block .ds-copy').first().click();
      await page.waitForFunction(() => window.T.events.some((e) => e.type === 'docstream-copy'));
      let clip = await page.evaluate(() => navigator.clipboard.readText());
      let ev = await page.evaluate(() => window.T.events.filter((e) => e.type === 'docstream-copy'));
      assert.equal(ev[0].detail.text, expected.code.replace(/\n$/, ''));
      assert.equal(clip, ev[0].detail.text);

      await page.locator('#term .ds-terminal-command .ds-copy[data-copy="output"]').first().click();
      await page.waitForFunction(() => window.T.events.filter((e) => e.type === 'docstream-copy').length === 2);
      clip = await page.evaluate(() => navigator.clipboard.readText());
      ev = await page.evaluate(() => window.T.events.filter((e) => e.type === 'docstream-copy'));
      assert.equal(ev[1].detail.text, expected.output);
      assert.equal(clip, expected.output);

      // One control per thing, each named for what it copies: the command alone.
      const command = page.locator('#term .ds-terminal-command .ds-copy[data-copy="command"]').first();
      assert.equal(await command.textContent(), 'Copy command');
      await command.click();
      await page.waitForFunction(() => window.T.events.filter((e) => e.type === 'docstream-copy').length === 3);
      clip = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(clip, expected.command);
      const names = await page.$$eval('#term', (hosts) =>
        hosts.flatMap((h) => [...h.shadowRoot.querySelectorAll('.ds-terminal-command')]).map((d) => [...d.querySelectorAll('.ds-copy')].map((b) => b.textContent)));
      for (const n of names) assert.equal(new Set(n).size, n.length, `one copy control per thing: ${n}`);

      // preventDefault() keeps the element off the clipboard (a host may copy itself).
      await page.evaluate(() => {
        navigator.clipboard.writeText('untouched');
        document.addEventListener('docstream-copy', (e) => e.preventDefault(), { once: true });
      });
      await page.locator('#code .ds-code-block .ds-copy').first().click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'untouched');
      await assertClean(page);
    },
  },
  {
    name: 'errors: push after finish, an unknown format; docstream-done once per stream',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async () => {
        const { T } = window;
        const view = T.make({ id: 'e' });
        await view.load('{"type":"result","subtype":"success","is_error":false,"result":"x","session_id":"s"}\n');
        let thrown = null;
        try {
          view.push('more');
        } catch (e) {
          thrown = e.code;
        }
        const bad = T.make({ id: 'f', format: 'no-such-format' });
        const error = new Promise((ok) => bad.addEventListener('docstream-error', (e) => ok(e.detail), { once: true }));
        bad.push('x');
        return {
          thrown,
          errors: T.events.filter((e) => e.type === 'docstream-error').map((e) => `${e.target}:${e.detail.code}`),
          unknown: await error,
          done: T.events.filter((e) => e.type === 'docstream-done').map((e) => e.target),
        };
      });
      assert.equal(r.thrown, 'DS_FINISHED');
      assert.ok(r.errors.includes('e:DS_FINISHED'), String(r.errors));
      assert.match(r.unknown.code, /^DS_(UNKNOWN_FORMAT|BAD_OPTIONS)$/);
      assert.deepEqual(r.done, ['e']);
      await assertClean(page);
    },
  },
  {
    name: 'aria-busy while streaming; the live region announces start and finish only',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      for (const [file, last] of [
        ['tests/fixtures/cursor-stream-json/basic.jsonl', 'Agent response complete'],
        ['tests/fixtures/cursor-stream-json/cut_off.jsonl', 'Agent response ended with an error'],
      ]) {
        const text = readRoot(file, 'utf8');
        const r = await page.evaluate((text) => {
          const view = window.T.make();
          const live = view.shadowRoot.querySelector('[aria-live="polite"]');
          const conv = window.T.conv(view);
          const announced = [];
          const busy = [conv.getAttribute('aria-busy')];
          const mo = new MutationObserver(() => announced.push(live.textContent));
          mo.observe(live, { childList: true, characterData: true, subtree: true });
          for (let i = 0; i < text.length; i += 20) {
            view.push(text.slice(i, i + 20));
            mo.takeRecords().forEach(() => announced.push(live.textContent));
            busy.push(conv.getAttribute('aria-busy'));
          }
          view.finish();
          mo.takeRecords().forEach(() => announced.push(live.textContent));
          busy.push(conv.getAttribute('aria-busy'));
          mo.disconnect();
          return { announced, busy: busy.filter((b, i) => i === 0 || b !== busy[i - 1]), role: live.getAttribute('role'), final: live.textContent };
        }, text);
        assert.equal(r.role, 'status');
        assert.deepEqual(r.announced, ['Agent response streaming', last], file);
        assert.deepEqual(r.busy, ['false', 'true', 'false'], file);
      }
      // A language tag as navigator.language gives it reads as its language.
      for (const locale of ['de', 'de-DE']) {
        const de = await page.evaluate(async (locale) => {
          const view = window.T.make({ locale });
          await view.load('{"type":"result","subtype":"success","is_error":false,"result":"x","session_id":"s"}\n');
          return view.shadowRoot.querySelector('[aria-live]').textContent;
        }, locale);
        assert.equal(de, 'Antwort des Agenten vollständig', locale);
      }
      await assertClean(page);
    },
  },
  {
    name: 'scroll stays pinned to the bottom while streaming unless the reader scrolls up',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await page.evaluate(() => {
        const view = window.T.make({ id: 's', class: 'fixed' });
        view.push('{"type":"system","subtype":"init","session_id":"s","model":"m"}\n');
      });
      const para = (i) =>
        `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Paragraph ${i}: ${'words '.repeat(30)}\n\n` }] }, session_id: 's' })}\n`;
      const pushAndMeasure = async (from, to) => {
        for (let i = from; i < to; i++) await page.evaluate((line) => document.getElementById('s').push(line), para(i));
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        return page.evaluate(() => {
          const v = document.getElementById('s');
          return { top: v.scrollTop, height: v.scrollHeight, client: v.clientHeight };
        });
      };
      let m = await pushAndMeasure(0, 20);
      assert.ok(m.height > m.client * 2, 'content overflows');
      assert.ok(m.height - m.top - m.client <= 2, `pinned at the bottom: ${JSON.stringify(m)}`);
      // The reader scrolls up: the view stays where the reader put it.
      await page.locator('#s').hover();
      await page.mouse.wheel(0, -400);
      await page.waitForFunction(() => {
        const v = document.getElementById('s');
        return v.scrollHeight - v.scrollTop - v.clientHeight > 100;
      });
      const before = await page.evaluate(() => document.getElementById('s').scrollTop);
      m = await pushAndMeasure(20, 30);
      assert.equal(m.top, before, 'not pulled down after scrolling up');
      // Back to the bottom: pinned again.
      await page.mouse.wheel(0, 100000);
      await page.waitForFunction(() => {
        const v = document.getElementById('s');
        return v.scrollHeight - v.scrollTop - v.clientHeight <= 2;
      });
      m = await pushAndMeasure(30, 40);
      assert.ok(m.height - m.top - m.client <= 2, `pinned again: ${JSON.stringify(m)}`);
      await assertClean(page);
    },
  },
  {
    name: 'disclosures and buttons are reachable with the keyboard; parts are exposed',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
      await page.evaluate(async (text) => {
        await window.T.make({ id: 'k' }).load(text);
      }, text);
      // Tab until a summary inside the element has focus, then open it with Enter.
      let found = false;
      for (let i = 0; i < 40 && !found; i++) {
        await page.keyboard.press('Tab');
        found = await page.evaluate(() => document.getElementById('k').shadowRoot.activeElement?.tagName === 'SUMMARY');
      }
      assert.ok(found, 'a summary is reached by Tab');
      const opened = await page.evaluate(() => document.getElementById('k').shadowRoot.activeElement.parentElement.open);
      assert.equal(opened, false);
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.getElementById('k').shadowRoot.activeElement.parentElement.open), true);
      const parts = await page.evaluate(() => {
        const root = document.getElementById('k').shadowRoot;
        return [...new Set([...root.querySelectorAll('[part]')].flatMap((e) => e.getAttribute('part').split(' ')))].sort();
      });
      for (const p of ['conversation', 'turn', 'turn-header', 'document', 'status', 'copy-button', 'terminal-command']) {
        assert.ok(parts.includes(p), `part ${p} in ${parts}`);
      }
      // Styles come from an adopted stylesheet; the shadow root has no <style> and no style attributes.
      const styles = await page.evaluate(() => {
        const root = document.getElementById('k').shadowRoot;
        return { adopted: root.adoptedStyleSheets.length, style: root.querySelectorAll('style, [style]').length };
      });
      assert.deepEqual(styles, { adopted: 1, style: 0 });
      await assertClean(page);
    },
  },
  {
    name: 'allow-images: images load only from the allowed origins',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const line = (o) => `${JSON.stringify(o)}\n`;
      const text =
        line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `![shot](${url}/docs/screenshot.png)\n\ndone` }] }, session_id: 's' }) +
        line({ type: 'result', subtype: 'success', is_error: false, result: 'x', session_id: 's' });
      const r = await page.evaluate(async ([text, origin]) => {
        const blocked = window.T.make();
        await blocked.load(text);
        const allowed = window.T.make({ 'allow-images': origin });
        await allowed.load(text);
        const img = allowed.shadowRoot.querySelector('img');
        if (img && !img.complete) await new Promise((r) => img.addEventListener('load', r, { once: true }));
        return {
          blockedImgs: blocked.shadowRoot.querySelectorAll('img').length,
          placeholder: blocked.shadowRoot.querySelectorAll('.ds-image-placeholder').length,
          loaded: img ? img.naturalWidth > 0 : false,
        };
      }, [text, url]);
      assert.deepEqual(r, { blockedImgs: 0, placeholder: 1, loaded: true });
      assert.equal(page.log.requests.filter((u) => u.endsWith('/docs/screenshot.png')).length, 1, 'one request, from the allowed view');
      await assertClean(page);
    },
  },
  {
    name: 'themes and the diff attribute switch by CSS only',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const view = window.T.make({ id: 't' });
        await view.load(text);
        const root = view.shadowRoot;
        const inner = window.T.conv(view).innerHTML;
        const bg = () => getComputedStyle(view).backgroundColor;
        const shown = () =>
          ['.ds-diff-unified', '.ds-diff-split'].map((s) => (root.querySelector(s) ? getComputedStyle(root.querySelector(s)).display : 'absent'));
        const out = { unified: shown() };
        view.theme = 'dark';
        out.dark = bg();
        view.theme = 'light';
        out.light = bg();
        view.style.setProperty('--vscode-editor-background', 'rgb(1, 2, 3)');
        view.theme = 'vscode';
        out.vscode = bg();
        view.diff = 'split';
        out.split = shown();
        out.unchanged = window.T.conv(view).innerHTML === inner;
        return out;
      }, text);
      assert.equal(r.dark, 'rgb(13, 17, 23)');
      assert.equal(r.light, 'rgb(255, 255, 255)');
      assert.equal(r.vscode, 'rgb(1, 2, 3)');
      assert.deepEqual(r.unified, ['table', 'none']);
      assert.deepEqual(r.split, ['none', 'table']);
      assert.ok(r.unchanged, 'no DOM write for a theme or diff switch');
      await assertClean(page);
    },
  },
];
