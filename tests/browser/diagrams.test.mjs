// The `diagrams` hook of <docstream-view>: Mermaid fences (or any code block) shown as
// what the embedder renders, once each block has ended; code by default.
import assert from 'node:assert/strict';
import { assertClean, openTestPage } from './element.test.mjs';

const SOURCE = 'graph TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]';

function answer() {
  const text = `Here is the flow:\n\n\`\`\`mermaid\n${SOURCE}\n\`\`\`\n\nAnd the code:\n\n\`\`\`js\nrun();\n\`\`\`\n`;
  const lines = [];
  for (let i = 0; i < text.length; i += 5) {
    lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: text.slice(i, i + 5) }] } });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

export const tests = [
  {
    name: 'the hook sees each code block once, whole, after it ended; its node replaces the code on screen, the copy button still copies the code',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const r = await page.evaluate(async (stream) => {
        const { T } = window;
        const calls = [];
        const view = T.make();
        view.diagrams = (lang, source) => {
          calls.push([lang, source]);
          if (lang !== 'mermaid') return null;
          const d = document.createElement('div');
          d.className = 'fake-diagram';
          d.textContent = `diagram of ${source.split('\n').length} lines`;
          return Promise.resolve(d);
        };
        const seenWhileStreaming = [];
        for (const line of stream.split(/(?<=\n)/)) {
          view.push(line);
          view.flush();
          seenWhileStreaming.push(calls.length);
        }
        view.finish();
        await new Promise((r) => setTimeout(r, 0));
        const figure = view.shadowRoot.querySelector('.ds-code-figure[data-ds-diagram]');
        let copied = null;
        view.addEventListener('docstream-copy', (e) => {
          copied = e.detail.text;
          e.preventDefault();
        });
        figure?.querySelector('.ds-copy')?.click();
        const plain = T.make();
        await plain.load(stream);
        return {
          calls,
          firstCallAt: seenWhileStreaming.findIndex((n) => n > 0),
          lines: stream.split('\n').length,
          diagram: figure?.querySelector('.ds-diagram')?.textContent,
          preHidden: figure && getComputedStyle(figure.querySelector('pre')).display === 'none',
          figures: view.shadowRoot.querySelectorAll('[data-ds-diagram]').length,
          copied,
          stripped: T.stripped(view),
          parsedHtml: T.parsed(view.html()),
          plainDiagrams: plain.shadowRoot.querySelectorAll('.ds-diagram').length,
        };
      }, answer());
      assert.deepEqual(r.calls, [['mermaid', SOURCE], ['js', 'run();']]);
      assert.ok(r.firstCallAt > 0, 'not called before the mermaid block ended');
      assert.equal(r.diagram, 'diagram of 3 lines');
      assert.ok(r.preHidden);
      assert.equal(r.figures, 1, 'a null result leaves the code');
      assert.equal(r.copied, SOURCE);
      assert.equal(r.stripped, r.parsedHtml);
      assert.equal(r.plainDiagrams, 0, 'without the hook, code stays code');
      await assertClean(page);
    },
  },
];
