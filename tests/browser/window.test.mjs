// Long sessions: <docstream-view> keeps only the documents near the viewport in its DOM
// (element-window.js), the others as placeholders of two nodes each, and colours code only
// near the viewport; outline(), find(), reveal(), page(), the keyboard and the browser's
// own find-in-page still reach every document; an append to a thread of thousands of
// documents does the DOM work of an append to a short one. Counted, not timed (timings:
// node tests/browser/window-probe.mjs).
import assert from 'node:assert/strict';
import { assertClean, openTestPage } from './element.test.mjs';

/** Builds, in the page, a view of a fixed height (`fixed`) or one the page scrolls,
 * showing one user prompt and `n` documents alternating an answer (with a code block
 * every `codeEvery`-th) and a shell run; `window.W` holds helpers. */
async function longSession(page, { n, fixed = true, highlight = 'off', codeEvery = 0, finish = true }) {
  await page.evaluate(
    async ({ n, fixed, highlight, codeEvery, finish }) => {
      const line = (o) => `${JSON.stringify(o)}\n`;
      const answer = (i) => {
        const code = codeEvery && i % codeEvery === 0 ? `\n\n\`\`\`rust\nfn f${i}() -> u32 { let x = ${i}; x + 1 }\n\`\`\`\n` : '';
        return line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: the parser keeps a buffer of token${i}x.${code}\n\n` }] }, session_id: 's' });
      };
      const run = (i) =>
        line({ type: 'tool_call', subtype: 'started', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo run${i}x` } } }, session_id: 's' }) +
        line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo run${i}x` }, result: { success: { stdout: `out${i}x\n`, exitCode: 0 } } } }, session_id: 's' });
      let text = line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go' }] }, session_id: 's' });
      for (let i = 0; i < n; i++) text += i % 2 ? run(i) : answer(i);
      const view = window.T.make(highlight === 'off' ? {} : { highlight });
      if (fixed) view.className = 'fixed';
      view.id = 'long';
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      /** Frames until the placeholders stop changing (the observer has seen everything). */
      const settle = async () => {
        let last = -1;
        for (let same = 0, i = 0; same < 3 && i < 200; i++) {
          await frame();
          const k = view.shadowRoot.querySelectorAll('.ds-placeholder').length;
          same = k === last ? same + 1 : 0;
          last = k;
        }
      };
      const nodes = () => {
        const w = document.createTreeWalker(view.shadowRoot, NodeFilter.SHOW_ALL);
        let k = 0;
        while (w.nextNode()) k++;
        return k;
      };
      window.W = { view, text, settle, frame, nodes, run, answer, line };
      if (finish) await view.load(text);
      else {
        view.push(text);
        view.flush();
      }
      await settle();
    },
    { n, fixed, highlight, codeEvery, finish },
  );
}

export const tests = [
  {
    name: 'a session of 3,000 documents keeps only those near the viewport in the DOM; the outline, page() and find() still have every one',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 3000 });
      const r = await page.evaluate(() => {
        const { view, nodes } = window.W;
        const root = view.shadowRoot;
        const outline = view.outline();
        const docs = outline.turns.flatMap((t) => t.documents);
        const snapshot = view.snapshot().turns.flatMap((t) => (t.documents ?? []).map((d) => d.id));
        const pageHtml = view.page();
        return {
          nodes: nodes(),
          live: root.querySelectorAll('.ds-doc').length,
          placeholders: root.querySelectorAll('.ds-placeholder').length,
          ids: docs.map((d) => d.id),
          snapshot,
          first: docs[0],
          second: docs[1],
          inPage: pageHtml.split('class="ds-doc ').length - 1,
          token: pageHtml.includes('token0x') && pageHtml.includes('out2999x'),
          found: view.find('TOKEN10X').count,
          runs: view.find('out').count,
        };
      });
      console.log(`     3,000 documents: ${r.nodes} nodes in the shadow root, ${r.live} documents whole, ${r.placeholders} placeholders`);
      assert.equal(r.live + r.placeholders, r.snapshot.length, 'every document is whole or a placeholder');
      assert.ok(r.snapshot.length >= 3000 && r.placeholders > 2500, `far documents are placeholders: ${r.placeholders}`);
      // Two nodes a placeholder, and a bounded number of whole documents.
      assert.ok(r.nodes < 2 * r.placeholders + 2000, `DOM nodes: ${r.nodes}`);
      assert.deepEqual(r.ids, r.snapshot, 'the outline lists every document in order');
      assert.deepEqual(r.first, { id: r.snapshot[0], type: 'text', label: 'Answer 0: the parser keeps a buffer of token0x.', status: '' });
      assert.equal(r.second.type, 'terminal_command');
      assert.equal(r.second.label, 'echo run1x');
      assert.equal(r.second.status, 'success');
      assert.equal(r.inPage, r.snapshot.length, 'page() has every document');
      assert.equal(r.token, true);
      assert.equal(r.found, 1, 'find() searches the documents kept out of the DOM');
      assert.equal(r.runs, 1500, 'one output a run');
      await assertClean(page);
    },
  },
  {
    name: 'find() moves to matches in far documents, reveal() and the keyboard reach them, find-in-page text stays in the page',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 1000 });
      const r = await page.evaluate(async () => {
        const { view, settle } = window.W;
        const root = view.shadowRoot;
        const placeholderOf = (token) => [...root.querySelectorAll('.ds-placeholder')].find((p) => p.textContent.includes(token));
        const before = !!placeholderOf('token500x');
        const found = view.find('token500x');
        const moved = view.findNext();
        const current = [...CSS.highlights.get('ds-find-current')][0];
        const marked = current ? current.startContainer.data.slice(current.startOffset, current.endOffset) : null;
        const markedDoc = current?.startContainer.parentElement.closest('.ds-doc')?.isConnected ?? false;
        view.find('');
        // reveal() of a document far away.
        const target = view.outline().turns[1].documents[300];
        const wasPlaceholder = !!root.querySelector(`.ds-placeholder[data-doc-id="${target.id}"]`);
        const revealed = view.reveal(target.id);
        const doc = root.querySelector(`.ds-doc[data-doc-id="${target.id}"]`);
        const focused = root.activeElement === doc;
        await settle();
        // The browser's find-in-page: every placeholder's text is in the page, hidden until
        // found; a match found there (beforematch) puts the document back.
        const placeholders = [...root.querySelectorAll('.ds-placeholder')];
        const untilFound = placeholders.every((p) => p.hidden === 'until-found');
        const p = placeholderOf('run701x');
        const id = p?.getAttribute('data-doc-id');
        p?.dispatchEvent(new Event('beforematch'));
        const foundByBrowser = !!root.querySelector(`.ds-doc[data-doc-id="${id}"]`);
        await settle();
        // The keyboard: focus reaching a placeholder goes into its document.
        const q = placeholderOf('token100x');
        const qid = q?.getAttribute('data-doc-id');
        q?.focus();
        const into = root.activeElement?.closest('.ds-doc')?.getAttribute('data-doc-id');
        return { before, found, moved, marked, markedDoc, wasPlaceholder, revealed, focused, untilFound, count: placeholders.length, foundByBrowser, qid, into, tab: q?.tabIndex };
      });
      assert.equal(r.before, true, 'the match is in a placeholder at first');
      assert.deepEqual(r.found, { query: 'token500x', count: 1, current: -1, capped: false });
      assert.equal(r.moved.current, 0);
      assert.equal(r.marked, 'token500x', 'the match is marked in the document put back');
      assert.equal(r.markedDoc, true);
      assert.equal(r.wasPlaceholder, true);
      assert.equal(r.revealed, true);
      assert.equal(r.focused, true, 'reveal() focuses the document put back');
      assert.ok(r.count > 500 && r.untilFound, `placeholders are hidden until found: ${r.count}`);
      assert.equal(r.foundByBrowser, true);
      assert.equal(r.tab, 0, 'placeholders are tab stops');
      assert.ok(r.qid && r.into === r.qid, `focus went into the document: ${r.qid} ${r.into}`);
      await assertClean(page);
    },
  },
  {
    name: 'in a page that scrolls, only documents near the viewport are whole; scrolling puts them back, and code is coloured only near the viewport',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 1200, fixed: false, highlight: 'on', codeEvery: 10 });
      const r = await page.evaluate(async () => {
        const { view, settle } = window.W;
        const root = view.shadowRoot;
        const waitColours = async () => {
          for (let i = 0; i < 200 && !root.querySelector('span[class^="ds-hl-"]'); i++) await new Promise((r) => setTimeout(r, 25));
        };
        await waitColours();
        await settle();
        const coloured = () => [...root.querySelectorAll('.ds-doc code.language-rust')].filter((c) => c.querySelector('span[class^="ds-hl-"]')).length;
        const top = { live: root.querySelectorAll('.ds-doc').length, coloured: coloured(), blocks: root.querySelectorAll('.ds-doc code.language-rust').length };
        const middle = view.outline().turns[1].documents[600].id;
        const el = root.querySelector(`[data-doc-id="${middle}"]`);
        const wasPlaceholder = el.classList.contains('ds-placeholder');
        el.scrollIntoView();
        await settle();
        const back = root.querySelector(`.ds-doc[data-doc-id="${middle}"]`);
        for (let i = 0; i < 40 && !back?.nextElementSibling?.querySelector?.('span[class^="ds-hl-"]') && !back?.querySelector('span[class^="ds-hl-"]'); i++) await window.W.frame();
        const near = [...root.querySelectorAll('.ds-doc code.language-rust')].filter((c) => {
          const b = c.getBoundingClientRect();
          return b.bottom > 0 && b.top < innerHeight;
        });
        return {
          top,
          wasPlaceholder,
          back: !!back,
          nearColoured: near.length > 0 && near.every((c) => c.querySelector('span[class^="ds-hl-"]')),
          nearBlocks: near.length,
          live: root.querySelectorAll('.ds-doc').length,
        };
      });
      console.log(`     at the top: ${JSON.stringify(r.top)}; after scrolling: ${r.live} whole, ${r.nearBlocks} blocks in view`);
      assert.ok(r.top.live < 300, `documents whole at the top: ${r.top.live}`);
      assert.ok(r.top.coloured > 0, 'code near the viewport is coloured');
      assert.ok(r.top.coloured < 60, `code far from the viewport is not coloured: ${r.top.coloured} of 120 blocks`);
      assert.equal(r.wasPlaceholder, true, 'the middle was a placeholder');
      assert.equal(r.back, true, 'scrolled to, it is whole again');
      assert.ok(r.nearBlocks > 0 && r.nearColoured, 'code scrolled into view is coloured');
      await assertClean(page);
    },
  },
  {
    name: 'an append to a thread of 4,000 documents does the DOM work of an append to a thread of 10',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const work = async (n) => {
        await longSession(page, { n, finish: false });
        return page.evaluate(async (n) => {
          const { view, run, frame, settle, nodes } = window.W;
          const conversation = view.shadowRoot.querySelector('.ds-conversation');
          const counts = [];
          const swaps = [];
          for (let i = 0; i < 5; i++) {
            // DOM changes of the append itself; documents that scroll away (the view
            // follows the bottom) and become placeholders are the windowing's.
            let records = 0;
            let windowing = 0;
            const placeholder = (nodes) => [...nodes].some((n) => n.classList?.contains('ds-placeholder'));
            const count = (list) => {
              for (const m of list) {
                if (placeholder(m.addedNodes) || placeholder(m.removedNodes)) windowing++;
                else records++;
              }
            };
            const mo = new MutationObserver(count);
            mo.observe(conversation, { subtree: true, childList: true, attributes: true, characterData: true });
            view.push(run(n + 2 * i + 1));
            view.flush();
            await frame();
            await frame();
            count(mo.takeRecords());
            mo.disconnect();
            counts.push(records);
            swaps.push(windowing);
          }
          await settle();
          const out = { counts, swaps, nodes: nodes() };
          view.remove();
          return out;
        }, n);
      };
      const short = await work(10);
      const long = await work(4000);
      console.log(`     mutation records per append: ${short.counts} (10 documents), ${long.counts} (4,000; documents put away: ${long.swaps}); nodes ${short.nodes}, ${long.nodes}`);
      assert.deepEqual(long.counts, short.counts, 'the same DOM changes per append');
      assert.ok(long.swaps.every((k) => k <= 4), `documents put away per append: ${long.swaps}`);
      assert.ok(long.nodes < 2 * 4000 + 5000, `DOM nodes of the long thread: ${long.nodes}`);
      await assertClean(page);
    },
  },
];
