// Long sessions: <docstream-view> keeps only the documents near the viewport in its DOM
// (element-window.js), the others as records on shelves (one element for each stretch of
// far documents, their text in groups of 16 for the browser's find-in-page), and colours
// code only near the viewport; outline(), find(), reveal(), page(), the keyboard and the
// browser's own find-in-page still reach every document; an append to a thread of 10,000
// documents does the DOM work of an append to a thread of 100, in a turn of no more
// elements. Counted, not timed (timings: node tests/browser/window-probe.mjs).
import assert from 'node:assert/strict';
import { assertClean, openTestPage } from './element.test.mjs';

/** Builds, in the page, a view of a fixed height (`fixed`) or one the page scrolls,
 * showing one user prompt (another before every `prompts`-th document when given) and `n`
 * documents alternating an answer (with a code block every `codeEvery`-th) and a shell
 * run; `window.W` holds helpers. */
async function longSession(page, { n, fixed = true, highlight = 'off', codeEvery = 0, finish = true, prompts = 0 }) {
  await page.evaluate(
    async ({ n, fixed, highlight, codeEvery, finish, prompts }) => {
      const line = (o) => `${JSON.stringify(o)}\n`;
      const answer = (i) => {
        const code = codeEvery && i % codeEvery === 0 ? `\n\n\`\`\`rust\nfn f${i}() -> u32 { let x = ${i}; x + 1 }\n\`\`\`\n` : '';
        return line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: the parser keeps a buffer of token${i}x.${code}\n\n` }] }, session_id: 's' });
      };
      const run = (i) =>
        line({ type: 'tool_call', subtype: 'started', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo run${i}x` } } }, session_id: 's' }) +
        line({ type: 'tool_call', subtype: 'completed', call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo run${i}x` }, result: { success: { stdout: `out${i}x\n`, exitCode: 0 } } } }, session_id: 's' });
      const prompt = (i) => line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `Prompt ${i}: go on with step${i}y` }] }, session_id: 's' });
      let text = line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go' }] }, session_id: 's' });
      for (let i = 0; i < n; i++) {
        if (prompts && i && i % prompts === 0) text += prompt(i);
        text += i % 2 ? run(i) : answer(i);
      }
      const view = window.T.make(highlight === 'off' ? {} : { highlight });
      if (fixed) view.className = 'fixed';
      view.id = 'long';
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      /** Frames until the shelves and documents stop changing (the observer has seen
       * everything). */
      const settle = async () => {
        let last = -1;
        for (let same = 0, i = 0; same < 3 && i < 200; i++) {
          await frame();
          const k = view.shadowRoot.querySelectorAll('.ds-placeholder, .ds-doc').length;
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
      /** The top-level elements of the turns in the DOM, in page order: `{ doc, id }` for a document
       * whole in the DOM, `{ shelf, ids }` for a shelf and the ids of the documents it
       * stands for (the outline's, between the documents whole around it). */
      const layout = () => {
        const outline = view.outline();
        const out = [];
        const turns = [...view.shadowRoot.querySelector('.ds-conversation').children].filter((e) => e.classList.contains('ds-turn'));
        turns.forEach((turn) => {
          const index = Number(turn.getAttribute('data-turn-index'));
          const ids = outline.turns.find((t) => t.index === index).documents.map((d) => d.id);
          const kids = [...turn.children].filter((e) => e.matches('.ds-doc, .ds-placeholder'));
          let k = 0;
          kids.forEach((el, j) => {
            if (el.classList.contains('ds-placeholder')) {
              const next = kids.slice(j + 1).find((e) => e.classList.contains('ds-doc'));
              const end = next ? ids.indexOf(next.getAttribute('data-doc-id'), k) : ids.length;
              out.push({ shelf: el, ids: ids.slice(k, end) });
              k = end;
            } else out.push({ doc: el, id: ids[k++] });
          });
        });
        return out;
      };
      window.W = { view, text, settle, frame, nodes, run, answer, line, layout };
      if (finish) await view.load(text);
      else {
        view.push(text);
        view.flush();
      }
      await settle();
    },
    { n, fixed, highlight, codeEvery, finish, prompts },
  );
}

export const tests = [
  {
    name: 'a session of 3,000 documents keeps only those near the viewport in the DOM, the far ones on a few shelves; the outline, page() and find() still have every one',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 3000 });
      const r = await page.evaluate(() => {
        const { view, nodes, layout } = window.W;
        const root = view.shadowRoot;
        const outline = view.outline();
        const docs = outline.turns.flatMap((t) => t.documents);
        const snapshot = view.snapshot().turns.flatMap((t) => (t.documents ?? []).map((d) => d.id));
        const pageHtml = view.page();
        const items = layout();
        return {
          nodes: nodes(),
          live: root.querySelectorAll('.ds-doc').length,
          shelves: root.querySelectorAll('.ds-placeholder').length,
          groups: root.querySelectorAll('.ds-placeholder > [hidden="until-found"]').length,
          stored: items.reduce((n, it) => n + (it.shelf ? it.ids.length : 0), 0),
          children: root.querySelector('.ds-turn:last-child').children.length,
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
      console.log(`     3,000 documents: ${r.nodes} nodes in the shadow root, ${r.live} documents whole, ${r.stored} on ${r.shelves} shelves (${r.groups} groups), ${r.children} elements in the turn`);
      assert.equal(r.live + r.stored, r.snapshot.length, 'every document is whole or on a shelf');
      assert.ok(r.snapshot.length >= 3000 && r.stored > 2500, `far documents are on shelves: ${r.stored}`);
      assert.ok(r.shelves <= 4, `a shelf per stretch of far documents: ${r.shelves}`);
      assert.ok(r.children < 100, `elements in the turn: ${r.children}`);
      // Two nodes a group of 16 records, and a bounded number of whole documents.
      assert.ok(r.groups <= Math.ceil(r.stored / 16) + 2 * r.shelves, `groups: ${r.groups} for ${r.stored} records`);
      assert.ok(r.nodes < 2 * r.groups + 2000, `DOM nodes: ${r.nodes}`);
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
        const { view, settle, layout } = window.W;
        const root = view.shadowRoot;
        const whole = (id) => !!root.querySelector(`.ds-doc[data-doc-id="${id}"]`);
        const groupOf = (token) => [...root.querySelectorAll('.ds-placeholder > [hidden]')].find((p) => p.textContent.includes(token));
        const docs = view.outline().turns[1].documents;
        const idOf = (label) => docs.find((d) => d.label.includes(label)).id;
        const before = !!groupOf('token500x') && !whole(idOf('token500x'));
        const found = view.find('token500x');
        const moved = view.findNext();
        const current = [...CSS.highlights.get('ds-find-current')][0];
        const marked = current ? current.startContainer.data.slice(current.startOffset, current.endOffset) : null;
        const markedDoc = current?.startContainer.parentElement.closest('.ds-doc')?.isConnected ?? false;
        view.find('');
        // reveal() of a document far away.
        const target = docs[300];
        const wasStored = !whole(target.id);
        const revealed = view.reveal(target.id);
        const doc = root.querySelector(`.ds-doc[data-doc-id="${target.id}"]`);
        const focused = root.activeElement === doc;
        await settle();
        // The browser's find-in-page: every record's text is in the page, hidden until
        // found; a match found there (beforematch) puts the documents of its group back.
        const groups = [...root.querySelectorAll('.ds-placeholder > *')];
        const untilFound = groups.every((p) => p.hidden === 'until-found' && p.childNodes.length === 1);
        const g = groupOf('run701x');
        const id = idOf('run701x');
        const storedBefore = !whole(id);
        g?.dispatchEvent(new Event('beforematch'));
        const foundByBrowser = whole(id) && !g.isConnected;
        await settle();
        // The keyboard: focus reaching a shelf (from nothing focused, or from above) goes
        // into the document of its first record.
        root.activeElement?.blur();
        const shelf = layout().find((it) => it.shelf && it.ids.includes(idOf('token100x')));
        shelf?.shelf.focus();
        const into = root.activeElement?.closest('.ds-doc')?.getAttribute('data-doc-id');
        return { before, found, moved, marked, markedDoc, wasStored, revealed, focused, untilFound, count: groups.length, storedBefore, foundByBrowser, first: shelf?.ids[0], into, tab: shelf?.shelf.tabIndex };
      });
      assert.equal(r.before, true, 'the match is on a shelf at first');
      assert.deepEqual(r.found, { query: 'token500x', count: 1, current: -1, capped: false });
      assert.equal(r.moved.current, 0);
      assert.equal(r.marked, 'token500x', 'the match is marked in the document put back');
      assert.equal(r.markedDoc, true);
      assert.equal(r.wasStored, true);
      assert.equal(r.revealed, true);
      assert.equal(r.focused, true, 'reveal() focuses the document put back');
      assert.ok(r.count > 30 && r.untilFound, `groups are hidden until found: ${r.count}`);
      assert.equal(r.storedBefore, true);
      assert.equal(r.foundByBrowser, true);
      assert.equal(r.tab, 0, 'shelves are tab stops');
      assert.ok(r.first && r.into === r.first, `focus went into the shelf's first document: ${r.first} ${r.into}`);
      await assertClean(page);
    },
  },
  {
    name: 'Tab and Shift+Tab go through a long session document by document, far ones put back as focus reaches them',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 600 });
      // Focus on the first whole document after the first shelf, then Shift+Tab: the
      // shelf's last document; Tab from the document before a shelf: its first.
      const start = await page.evaluate(() => {
        const items = window.W.layout();
        const at = items.findIndex((it) => it.shelf);
        const after = items.slice(at + 1).find((it) => it.doc);
        after.doc.setAttribute('tabindex', '-1');
        after.doc.focus();
        return { expected: items[at].ids[items[at].ids.length - 1] };
      });
      const id = () => page.evaluate(() => window.W.view.shadowRoot.activeElement?.closest('.ds-doc')?.getAttribute('data-doc-id') ?? null);
      await page.keyboard.press('Shift+Tab');
      const back = await id();
      assert.equal(back, start.expected, 'Shift+Tab into a shelf: its last document');
      // Shift+Tab on, through the shelf: documents are reached in order, every one with a
      // control (a shell run's copy buttons) among them.
      const seen = [back];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Shift+Tab');
        const now = await id();
        if (now && now !== seen[seen.length - 1]) seen.push(now);
      }
      const docs = await page.evaluate(() => window.W.view.outline().turns[1].documents);
      const at = seen.map((s) => docs.findIndex((d) => d.id === s));
      assert.ok(at.every((k, i) => k >= 0 && (i === 0 || k < at[i - 1])), `reached in order: ${seen}`);
      const runs = docs.slice(at[at.length - 1], at[0]).filter((d) => d.type === 'terminal_command').map((d) => d.id);
      assert.ok(runs.length >= 10, `shell runs passed: ${runs.length}`);
      assert.deepEqual(runs.filter((r) => !seen.includes(r)), [], 'no shell run skipped');
      await page.evaluate(() => window.W.view.shadowRoot.activeElement?.blur());
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
        const wasStored = !root.querySelector(`.ds-doc[data-doc-id="${middle}"]`);
        // Scrolled to the middle of the page: what is in view is whole again.
        scrollTo(0, document.documentElement.scrollHeight / 2);
        await settle();
        const inView = (el) => {
          const b = el.getBoundingClientRect();
          return b.bottom > 0 && b.top < innerHeight;
        };
        const shelvesInView = [...root.querySelectorAll('.ds-placeholder')].filter(inView).length;
        const docsInView = [...root.querySelectorAll('.ds-doc')].filter(inView);
        const back = docsInView.find((d) => d.querySelector('code.language-rust'));
        for (let i = 0; i < 40 && back && !back.querySelector('span[class^="ds-hl-"]'); i++) await window.W.frame();
        const near = [...root.querySelectorAll('.ds-doc code.language-rust')].filter(inView);
        return {
          top,
          wasStored,
          shelvesInView,
          docsInView: docsInView.length,
          nearColoured: near.length > 0 && near.every((c) => c.querySelector('span[class^="ds-hl-"]')),
          nearBlocks: near.length,
          live: root.querySelectorAll('.ds-doc').length,
        };
      });
      console.log(`     at the top: ${JSON.stringify(r.top)}; after scrolling: ${r.live} whole, ${r.docsInView} in view, ${r.nearBlocks} blocks in view`);
      assert.ok(r.top.live < 300, `documents whole at the top: ${r.top.live}`);
      assert.ok(r.top.coloured > 0, 'code near the viewport is coloured');
      assert.ok(r.top.coloured < 60, `code far from the viewport is not coloured: ${r.top.coloured} of 120 blocks`);
      assert.equal(r.wasStored, true, 'the middle was on a shelf');
      assert.equal(r.shelvesInView, 0, 'scrolled to, the documents in view are whole again');
      assert.ok(r.docsInView > 3, `documents in view: ${r.docsInView}`);
      assert.ok(r.nearBlocks > 0 && r.nearColoured, 'code scrolled into view is coloured');
      await assertClean(page);
    },
  },
  {
    name: 'scrolling end to end in big jumps, a frame each: as many documents go back on shelves as come off them, the DOM stays level',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 3000, fixed: false });
      const r = await page.evaluate(async () => {
        const { view, nodes, settle } = window.W;
        const root = view.shadowRoot;
        const se = document.scrollingElement;
        const atRest = { nodes: nodes(), docs: root.querySelectorAll('.ds-doc').length };
        // As dragging the scroll bar does: a jump of a few viewports every frame, no
        // idle time between them.
        let most = 0;
        let mostDocs = 0;
        const steps = 80;
        for (let i = 1; i <= steps; i++) {
          se.scrollTop = ((se.scrollHeight - innerHeight) * i) / steps;
          await new Promise((r) => requestAnimationFrame(r));
          most = Math.max(most, nodes());
          mostDocs = Math.max(mostDocs, root.querySelectorAll('.ds-doc').length);
        }
        await settle();
        return { atRest, most, mostDocs, jump: Math.round(se.scrollHeight / steps), end: nodes(), innerHeight };
      });
      console.log(`     at rest ${r.atRest.nodes} nodes (${r.atRest.docs} documents whole); jumps of ${r.jump} px a frame: at most ${r.most} nodes (${r.mostDocs} documents), ${r.end} after`);
      assert.ok(r.jump > 2 * r.innerHeight, `jumps of several viewports: ${r.jump} px`);
      // The near band (the viewport and 1.5 viewports above and below) holds about 65 of
      // these documents; a frame holds its band and the one before it until that frame's
      // far ones are stored. Before the windowing stored as many as it put back in the
      // same frame, the whole ones grew to 500 and more.
      assert.ok(r.mostDocs < 250, `documents whole while scrolling: at most ${r.mostDocs}, ${r.atRest.docs} at rest`);
      assert.ok(r.end < 2 * r.atRest.nodes, `nodes after: ${r.end}`);
      await assertClean(page);
    },
  },
  {
    name: 'a stream read from its top: the documents it appends far below go on one shelf, none left whole once another follows it',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      // The page scrolls and stays at its top; the stream goes on far below. A document is
      // far as soon as it is added, while it is the one the stream grows (kept whole):
      // each must be put away once the next follows it (before, one in two stayed whole).
      await longSession(page, { n: 130, fixed: false, finish: false });
      const r = await page.evaluate(async () => {
        const { view, settle, frame, run, answer } = window.W;
        // Each shell run in two steps, frames apart: started (the document the stream
        // grows, seen far), then completed.
        for (let i = 130; i < 250; i++) {
          for (const part of (i % 2 ? run(i) : answer(i)).split(/(?<=\n)(?=.)/)) {
            view.push(part);
            view.flush();
            await frame();
            await frame();
          }
        }
        await settle();
        const turn = view.shadowRoot.querySelector('.ds-conversation').lastElementChild;
        const kids = [...turn.children];
        const docs = view.outline().turns.at(-1).documents.length;
        return {
          docs,
          elements: kids.length,
          shelves: kids.filter((e) => e.classList.contains('ds-placeholder')).length,
          whole: kids.filter((e) => e.classList.contains('ds-doc')).length,
          last: kids.at(-1).classList.contains('ds-doc'),
          scrollY,
        };
      });
      console.log(`     ${r.docs} documents: ${r.whole} whole, ${r.shelves} shelves, ${r.elements} elements in the turn`);
      assert.equal(r.scrollY, 0, 'the page stayed at its top');
      assert.equal(r.docs, 250);
      assert.ok(r.last, 'the document the stream grows is whole');
      assert.equal(r.shelves, 1, 'the far documents are on one shelf');
      assert.ok(r.whole < 60, `documents whole: ${r.whole} of ${r.docs} (those near the top and the last)`);
      await assertClean(page);
    },
  },
  {
    name: 'turns far from the viewport are kept out of the DOM too, on shelves of the conversation; the outline, page(), find(), reveal() and find-in-page reach their documents',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 2400, prompts: 8 });
      const r = await page.evaluate(async () => {
        const { view, nodes, settle } = window.W;
        const root = view.shadowRoot;
        const conversation = root.querySelector('.ds-conversation');
        const snapshot = view.snapshot().turns;
        const outline = view.outline();
        const pageHtml = view.page();
        const out = {
          nodes: nodes(),
          turnsWhole: conversation.querySelectorAll(':scope > .ds-turn').length,
          turnShelves: conversation.querySelectorAll(':scope > .ds-placeholder').length,
          headers: root.querySelectorAll('.ds-turn-header').length,
          outlineTurns: outline.turns.map((t) => `${t.index} ${t.role} ${t.id} ${t.documents.map((d) => d.id).join(',')}`),
          snapshotTurns: snapshot.map((t, i) => `${i} ${t.role} ${t.id} ${(t.documents ?? []).map((d) => d.id).join(',')}`),
          prompt: outline.turns.find((t) => t.label.includes('step8y'))?.label,
          pageDocs: pageHtml.split('class="ds-doc ').length - 1,
          pageTurns: pageHtml.split('<section class="ds-turn ').length - 1,
          pagePrompt: pageHtml.includes('step16y'),
          // One match in a header (a prompt), one in a document, of turns far away.
          inHeader: view.find('step16y').count,
          inDoc: view.find('token24x').count,
        };
        // findNext() puts back the turn and the document of the match and marks it.
        const moved = view.findNext();
        const current = [...CSS.highlights.get('ds-find-current')][0];
        out.moved = moved.current;
        out.marked = current ? current.startContainer.data.slice(current.startOffset, current.endOffset) : null;
        view.find('');
        await settle();
        // reveal() by turn id, by turn index and document id, of turns far away.
        const far = outline.turns[outline.turns.length - 60];
        out.farWasStored = !conversation.querySelector(`:scope > .ds-turn[data-turn-index="${far.index}"]`);
        out.byTurnId = view.reveal(far.id) && !!conversation.querySelector(`:scope > .ds-turn[data-turn-index="${far.index}"]`);
        await settle();
        const other = outline.turns.find((t, i) => i > 40 && t.documents.length > 3);
        const doc = other.documents[3];
        out.byIndex = view.reveal({ turn: other.index, document: doc.id }) && root.activeElement?.getAttribute('data-doc-id') === doc.id;
        await settle();
        // The browser's find-in-page: a group of a shelf of turns puts its turns back.
        const group = [...conversation.querySelectorAll(':scope > .ds-placeholder > [hidden]')].find((g) => g.textContent.includes('step200y'));
        group?.dispatchEvent(new Event('beforematch'));
        out.foundByBrowser = !!group && [...root.querySelectorAll('.ds-user-content')].some((u) => u.textContent.includes('step200y'));
        await settle();
        // ... and its documents' text is there too: the turn holding it is put back.
        const docGroup = [...conversation.querySelectorAll(':scope > .ds-placeholder > [hidden]')].find((g) => g.textContent.includes('run1001x'));
        docGroup?.dispatchEvent(new Event('beforematch'));
        out.docFoundByBrowser = !!docGroup && [...conversation.querySelectorAll(':scope > .ds-turn')].some((t) => t.textContent.includes('run1001x'));
        await settle();
        // The keyboard: focus on a shelf of turns goes into its first turn, then into
        // its first document.
        root.activeElement?.blur();
        const shelf = conversation.querySelector(':scope > .ds-placeholder');
        shelf.focus();
        out.focusIn = !!root.activeElement?.closest('.ds-turn') && conversation.contains(root.activeElement);
        return out;
      });
      console.log(`     2,400 documents in ${r.snapshotTurns.length} turns: ${r.nodes} nodes, ${r.turnsWhole} turns whole, ${r.turnShelves} shelves of turns, ${r.headers} headers in the DOM`);
      assert.ok(r.turnShelves >= 1 && r.turnShelves <= 4, `shelves of turns: ${r.turnShelves}`);
      assert.ok(r.turnsWhole < 60, `turns whole: ${r.turnsWhole} of ${r.snapshotTurns.length}`);
      assert.ok(r.headers < 60, `turn headers in the DOM: ${r.headers}`);
      assert.ok(r.nodes < 3000, `DOM nodes: ${r.nodes}`);
      assert.deepEqual(r.outlineTurns, r.snapshotTurns, 'the outline lists every turn and document in order');
      assert.equal(r.prompt, 'Prompt 8: go on with step8y');
      assert.equal(r.pageDocs, r.snapshotTurns.reduce((n, t) => n + (t.split(' ')[3] ? t.split(' ')[3].split(',').length : 0), 0), 'page() has every document');
      assert.ok(r.pageDocs >= 2400);
      assert.equal(r.pageTurns, r.snapshotTurns.length, 'page() has every turn');
      assert.equal(r.pagePrompt, true);
      assert.equal(r.inHeader, 1, 'find() searches the headers of turns kept out of the DOM');
      assert.equal(r.inDoc, 1, 'find() searches their documents');
      assert.equal(r.moved, 0);
      assert.equal(r.marked, 'token24x', 'the match is marked in the document put back');
      assert.equal(r.farWasStored, true);
      assert.equal(r.byTurnId, true, 'reveal() by turn id');
      assert.equal(r.byIndex, true, 'reveal() by turn index and document id, focused');
      assert.equal(r.foundByBrowser, true, 'find-in-page puts back the turns of the group');
      assert.equal(r.docFoundByBrowser, true, 'find-in-page finds the documents of turns kept out of the DOM');
      assert.equal(r.focusIn, true, 'focus on a shelf of turns goes into a turn');
      await assertClean(page);
    },
  },
  {
    name: 'a session of 40,000 documents in 10,000 turns stays under 30,000 DOM nodes; outline(), find(), reveal() and the keyboard reach every document',
    timeout: 300_000,
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      await longSession(page, { n: 40000, prompts: 8 });
      const r = await page.evaluate(async () => {
        const { view, nodes, settle } = window.W;
        const root = view.shadowRoot;
        const out = { nodes: nodes() };
        const ids = view.snapshot().turns.flatMap((t) => (t.documents ?? []).map((d) => d.id));
        let t = performance.now();
        const outline = view.outline();
        out.outlineMs = Math.round(performance.now() - t);
        out.turns = outline.turns.length;
        out.sameIds = JSON.stringify(outline.turns.flatMap((t) => t.documents.map((d) => d.id))) === JSON.stringify(ids);
        out.documents = ids.length;
        // find(): a match in each of three far documents (first, middle, last turns).
        t = performance.now();
        out.found = ['token2x', 'token20000x', 'run39999x'].map((q) => view.find(q).count);
        out.findMs = Math.round((performance.now() - t) / 3);
        view.find('token20000x');
        const moved = view.findNext();
        const current = [...CSS.highlights.get('ds-find-current')][0];
        out.marked = moved.current === 0 && current ? current.startContainer.data.slice(current.startOffset, current.endOffset) : null;
        view.find('');
        await settle();
        // reveal() of documents spread over the session, each focused.
        out.revealed = [5, 10001, 25003, 39990].map((k) => view.reveal(ids[k]) && root.activeElement?.getAttribute('data-doc-id') === ids[k]);
        await settle();
        // The keyboard: focus on the first shelf goes into a document or turn.
        root.activeElement?.blur();
        const shelf = root.querySelector('.ds-placeholder');
        shelf.focus();
        out.focusIn = !!root.activeElement && !root.activeElement.classList.contains('ds-placeholder');
        await settle();
        out.nodesAfter = nodes();
        return out;
      });
      // Nodes the page holds, in the DOM or not (elements put away must not be kept
      // alive), after a garbage collection.
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { nodes: held } = await cdp.send('Memory.getDOMCounters');
      console.log(`     40,000 documents in ${r.turns} turns: ${r.nodes} nodes after the load, ${r.nodesAfter} after find, reveal and focus, ${held} held by the page; outline() ${r.outlineMs} ms, find() ${r.findMs} ms (timed under load, not asserted)`);
      assert.ok(held < 30000, `nodes held by the page: ${held}`);
      assert.ok(r.documents >= 40000, `documents: ${r.documents}`);
      assert.ok(r.turns > 9000, `turns: ${r.turns}`);
      assert.ok(r.nodes < 30000 && r.nodesAfter < 30000, `DOM nodes: ${r.nodes}, ${r.nodesAfter}`);
      assert.equal(r.sameIds, true, 'the outline lists every document in order');
      assert.deepEqual(r.found, [1, 1, 1]);
      assert.equal(r.marked, 'token20000x');
      assert.deepEqual(r.revealed, [true, true, true, true]);
      assert.equal(r.focusIn, true);
      await assertClean(page);
    },
  },
  {
    name: 'an append to a thread of 10,000 documents does the DOM work of an append to a thread of 100, in a turn of no more elements',
    timeout: 120_000,
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const work = async (n) => {
        await longSession(page, { n, finish: false });
        return page.evaluate(async (n) => {
          const { view, run, frame, settle, nodes } = window.W;
          const conversation = view.shadowRoot.querySelector('.ds-conversation');
          const counts = [];
          const stores = [];
          const children = [];
          for (let i = 0; i < 5; i++) {
            // DOM changes of the append itself; those of documents that scroll away (the
            // view follows the bottom) and are put on a shelf are the windowing's: a
            // document removed alone (no patch removes one) and changes on shelves.
            let records = 0;
            let stored = 0;
            const onShelf = (n) => (n.nodeType === 1 ? n : n.parentElement)?.closest('.ds-placeholder');
            const count = (list) => {
              for (const m of list) {
                if (onShelf(m.target) || [...m.addedNodes, ...m.removedNodes].some((n) => n.classList?.contains('ds-placeholder'))) continue;
                if (!m.addedNodes.length && [...m.removedNodes].some((n) => n.classList?.contains('ds-doc'))) stored++;
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
            stores.push(stored);
            children.push(conversation.lastElementChild.children.length);
          }
          await settle();
          const out = { counts, stores, children, nodes: nodes() };
          view.remove();
          return out;
        }, n);
      };
      const short = await work(100);
      const long = await work(10000);
      console.log(`     per append: mutation records ${short.counts} (100 documents), ${long.counts} (10,000; documents put away: ${long.stores}); elements in the turn ${short.children} / ${long.children}; nodes ${short.nodes}, ${long.nodes}`);
      assert.deepEqual(long.counts, short.counts, 'the same DOM changes per append');
      // One document scrolls out of the near band per append; the observer may report a
      // few in one frame.
      assert.ok(long.stores.every((k) => k <= 8) && long.stores.reduce((a, b) => a + b) <= 12, `documents put away per append: ${long.stores}`);
      assert.ok(Math.max(...long.children) <= Math.min(...short.children), `a turn of 10,000 documents holds no more elements than one of 100: ${long.children} / ${short.children}`);
      assert.ok(long.nodes < 5000, `DOM nodes of the long thread: ${long.nodes}`);
      await assertClean(page);
    },
  },
];
