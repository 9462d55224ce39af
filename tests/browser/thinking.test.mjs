// Thinking in <docstream-view>: open while it streams (its latest lines in view), folded
// when the answer starts, left as the reader set it, and the `thinking` attribute.
import assert from 'node:assert/strict';
import { readRoot } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

/** Streams the sample line by line into a view with `attrs`; after each line, whether the
 * thinking is open and whether a document follows it. `clickAt`: the line after which
 * the reader clicks the thinking's summary. */
function streamThinking([text, attrs, clickAt]) {
  const { T } = window;
  const view = T.make(attrs);
  const steps = [];
  const lines = text.split(/(?<=\n)/);
  lines.forEach((line, i) => {
    view.push(line);
    view.flush();
    const details = view.shadowRoot.querySelector('.ds-thinking details');
    if (!details) return;
    const doc = details.closest('.ds-doc');
    if (i === clickAt) details.querySelector('summary').click();
    steps.push({ open: details.open, answered: doc.nextElementSibling !== null });
  });
  view.finish();
  const details = view.shadowRoot.querySelector('.ds-thinking details');
  return { steps, finalOpen: details.open };
}

export const tests = [
  {
    name: 'thinking is open while it streams and folds when the answer starts; a reader\'s toggle is kept; thinking="open" and "closed"',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot('examples/cursor-session.jsonl', 'utf8');
      const live = await page.evaluate(streamThinking, [text, {}, -1]);
      const streaming = live.steps.filter((s) => !s.answered);
      const answered = live.steps.filter((s) => s.answered);
      assert.ok(streaming.length >= 2 && answered.length >= 1, JSON.stringify(live.steps));
      assert.ok(streaming.every((s) => s.open), 'open while it streams');
      assert.ok(answered.every((s) => !s.open), 'folded once the answer starts');
      assert.equal(live.finalOpen, false);

      // The reader opens it again after it folded (a click on the summary): it stays open.
      const firstAnswered = live.steps.findIndex((s) => s.answered);
      const lineOfFirstAnswer = await page.evaluate(([text]) => {
        const { T } = window;
        const view = T.make();
        const lines = text.split(/(?<=\n)/);
        for (let i = 0; i < lines.length; i++) {
          view.push(lines[i]);
          view.flush();
          const d = view.shadowRoot.querySelector('.ds-thinking');
          if (d?.nextElementSibling) return i;
        }
        return -1;
      }, [text]);
      assert.ok(firstAnswered >= 0 && lineOfFirstAnswer > 0);
      const kept = await page.evaluate(streamThinking, [text, {}, lineOfFirstAnswer - 1]);
      assert.equal(kept.finalOpen, false, 'a click while it is open closes it (the reader\'s choice)');
      const reopened = await page.evaluate(streamThinking, [text, {}, lineOfFirstAnswer]);
      assert.equal(reopened.finalOpen, true, 'a click after it folded opens it, and it stays open');

      const open = await page.evaluate(streamThinking, [text, { thinking: 'open' }, -1]);
      assert.ok(open.steps.every((s) => s.open) && open.finalOpen);
      const closed = await page.evaluate(streamThinking, [text, { thinking: 'closed' }, -1]);
      assert.ok(closed.steps.every((s) => !s.open) && !closed.finalOpen);
      await assertClean(page);
    },
  },
];
