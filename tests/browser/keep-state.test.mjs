// Updates keep what the reader did: a disclosure opened, a focused control and a text
// selection inside a document or part survive the patches that re-render it.
import assert from 'node:assert/strict';
import { readRoot } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

export const tests = [
  {
    name: 'a text selection in a tool call survives 100 more chunks that re-render it',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('tests/fixtures/cursor-stream-json/tools.jsonl', 'utf8');
      const r = await page.evaluate(async (text) => {
        const { T } = window;
        const view = T.make();
        const lines = text.split(/(?<=\n)/);
        // Up to the grep call's start: it is running, its result still to come.
        const upTo = lines.findIndex((l) => l.includes('"started"') && l.includes('grep_1')) + 1;
        for (const l of lines.slice(0, upTo)) view.push(l);
        view.flush();
        const root = view.shadowRoot;
        const grep = () => root.querySelectorAll('.ds-tool-call')[0];
        const sel = root.getSelection ? root.getSelection() : document.getSelection();
        sel.selectAllChildren(grep().querySelector('.ds-tool-summary'));
        const selected = sel.toString();
        const before = grep().outerHTML;
        const rest = new TextEncoder().encode(lines.slice(upTo).join(''));
        const size = Math.floor(rest.length / 100);
        const seen = [];
        for (let at = 0; at < rest.length; at += size) {
          view.push(rest.subarray(at, at + size));
          view.flush();
          seen.push((root.getSelection ? root.getSelection() : document.getSelection()).toString());
        }
        view.finish();
        return { seen, selected, rerendered: grep().outerHTML !== before };
      }, text);
      assert.ok(r.seen.length >= 100, `${r.seen.length} chunks`);
      assert.ok(r.rerendered, 'the tool call was re-rendered by the patches (else this tests nothing)');
      assert.ok(r.selected.includes('Helo'), r.selected);
      r.seen.forEach((s, i) => assert.equal(s, r.selected, `chunk ${i}: the selection stays`));
      await assertClean(page);
    },
  },
  {
    name: 'replace_part and replace_document keep an opened disclosure, focus and a selection (100 times each)',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async () => {
        const { applyPatches } = await import('/pkg/apply.js');
        const host = document.createElement('div');
        document.getElementById('host').append(host);
        const conv = document.createElement('div');
        host.append(conv);
        const part = '<details class="ds-tool-result"><summary>Result</summary><p>some output text</p><button type="button">Act</button></details>';
        const doc = `<div class="ds-doc ds-tool-call" data-doc-id="d1"><div data-part="head">head</div><div data-part="result">${part}</div></div>`;
        applyPatches(conv, [
          { op: 'insert_turn', turn: 0, html: '<section class="ds-turn"><div class="ds-turn-header">t</div></section>' },
          { op: 'insert_document', turn: 0, index: 0, html: doc },
        ]);
        const act = () => {
          const d = conv.querySelector('details');
          d.open = true;
          d.querySelector('button').focus();
          document.getSelection().selectAllChildren(d.querySelector('p'));
        };
        const state = () => {
          const d = conv.querySelector('details');
          return { open: d.open, focused: document.activeElement === d.querySelector('button'), selected: document.getSelection().toString() };
        };
        act();
        const out = [];
        for (let i = 0; i < 100; i++) {
          applyPatches(conv, [{ op: 'replace_part', turn: 0, index: 0, part: 'result', html: part }]);
          out.push(state());
        }
        for (let i = 0; i < 100; i++) {
          applyPatches(conv, [{ op: 'replace_document', turn: 0, index: 0, html: doc }]);
          out.push(state());
        }
        host.remove();
        return out;
      });
      r.forEach((s, i) => assert.deepEqual(s, { open: true, focused: true, selected: 'some output text' }, `patch ${i}`));
      await assertClean(page);
    },
  },
];
