// <docstream-view> by the book: properties set before the element is defined, removal
// stops a `src` load and frees the stream, reconnection and clear() load `src` afresh,
// format and locale changes reload a `src`, copies are announced politely.
import assert from 'node:assert/strict';
import { assertClean, openTestPage } from './element.test.mjs';

export const tests = [
  {
    name: 'properties set before definition are kept; removal aborts the src load and frees the stream; reconnect, clear() and a locale change load src again',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async () => {
        const { T } = window;
        const { DocstreamView } = T;
        // Upgrade: a property set on the element before its class is defined.
        const early = document.createElement('docstream-early');
        early.theme = 'dark';
        early.highlighter = null;
        early.locale = 'de';
        document.getElementById('host').append(early);
        customElements.define('docstream-early', class extends DocstreamView {});
        const upgraded = {
          theme: early.getAttribute('theme'),
          locale: early.getAttribute('locale'),
          highlighter: early.highlighter,
          ownTheme: Object.prototype.hasOwnProperty.call(early, 'theme'),
        };
        early.remove();

        // A src whose response never ends: removal must abort it.
        const signals = [];
        const realFetch = window.fetch;
        window.fetch = (input, init) => {
          signals.push(init?.signal);
          const body = new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"type":"system","subtype":"init","session_id":"s"}\n'));
            },
          });
          return Promise.resolve(new Response(body, { status: 200 }));
        };
        const view = T.make({ src: '/never-ends.jsonl' });
        await new Promise((r) => setTimeout(r, 50));
        const busyBefore = view.busy;
        view.remove();
        await Promise.resolve();
        await new Promise((r) => setTimeout(r, 0));
        const afterRemove = { aborted: signals[0]?.aborted === true, busy: view.busy, html: view.html() };
        document.getElementById('host').append(view);
        await new Promise((r) => setTimeout(r, 20));
        const reconnectFetches = signals.length;
        view.clear();
        view.setAttribute('src', '/never-ends.jsonl');
        await new Promise((r) => setTimeout(r, 20));
        const clearFetches = signals.length;
        view.setAttribute('locale', 'de');
        await new Promise((r) => setTimeout(r, 20));
        const localeFetches = signals.length;
        // Moved within the page in one task: nothing is aborted.
        const moved = signals.length;
        document.getElementById('host').prepend(view);
        await new Promise((r) => setTimeout(r, 20));
        const movedAborted = signals[moved - 1]?.aborted;
        view.remove();
        window.fetch = realFetch;
        return { upgraded, busyBefore, afterRemove, reconnectFetches, clearFetches, localeFetches, movedFetches: signals.length - moved, movedAborted };
      });
      assert.deepEqual(r.upgraded, { theme: 'dark', locale: 'de', highlighter: null, ownTheme: false });
      assert.equal(r.busyBefore, true, 'the src load was under way');
      assert.deepEqual(r.afterRemove, { aborted: true, busy: false, html: '' }, 'removal aborts the load and frees the stream');
      assert.equal(r.reconnectFetches, 2, 'connected again: src loads afresh');
      assert.equal(r.clearFetches, 3, 'clear() then the same src loads it again');
      assert.equal(r.localeFetches, 4, 'a locale change reloads src');
      assert.equal(r.movedFetches, 0, 'a move within the page does not reload');
      assert.equal(r.movedAborted, false, 'nor abort');
      await assertClean(page);
    },
  },
  {
    name: 'a successful copy is announced in the polite live region',
    async run({ context, url }) {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await openTestPage(context, url);
      const live = await page.evaluate(async () => {
        const { T } = window;
        const view = T.make();
        await view.load('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"```sh\\nls\\n```\\n"}]}}\n');
        view.shadowRoot.querySelector('.ds-copy').click();
        for (let i = 0; i < 40 && !view.shadowRoot.querySelector('.ds-live').textContent.includes('Copied'); i++)
          await new Promise((r) => setTimeout(r, 25));
        const region = view.shadowRoot.querySelector('.ds-live');
        return { text: region.textContent, polite: region.getAttribute('aria-live') };
      });
      assert.deepEqual(live, { text: 'Copied', polite: 'polite' });
      await assertClean(page);
    },
  },
];
