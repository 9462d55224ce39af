// Every attack vector of ../shared/corpora/md-url-vectors.json (read in place; skipped
// when ../shared is absent), streamed into <docstream-view>: no script runs, no request
// leaves the test server, no event handler attribute, no javascript: URL.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SEED, SHARED, randomCuts, rng, sharedAvailable } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

/** The Markdown as an assistant message of a Cursor stream-json transcript. */
function transcript(markdown) {
  const line = (o) => `${JSON.stringify(o)}\n`;
  return (
    line({ type: 'system', subtype: 'init', session_id: 's', model: 'm' }) +
    line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: markdown }] }, session_id: 's' }) +
    line({ type: 'result', subtype: 'success', is_error: false, result: markdown, session_id: 's' })
  );
}

/** In the page: everything in the shadow root that could run script or load something. */
function audit(view) {
  const bad = [];
  const allowedSchemes = ['http', 'https', 'mailto'];
  const scheme = (value) => {
    const cleaned = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(cleaned);
    return m ? m[1].toLowerCase() : null;
  };
  for (const el of view.shadowRoot.querySelectorAll('*')) {
    const tag = el.localName;
    if (['script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'form', 'base', 'meta', 'link', 'style', 'svg', 'math', 'audio', 'video', 'source', 'track', 'portal'].includes(tag))
      bad.push(`element <${tag}>`);
    for (const { name, value } of el.attributes) {
      if (name.startsWith('on')) bad.push(`<${tag} ${name}>`);
      if (['style', 'srcdoc', 'srcset', 'formaction', 'action', 'xlink:href', 'ping', 'background', 'poster', 'data', 'codebase'].includes(name))
        bad.push(`<${tag} ${name}>`);
      if (name === 'href' || name === 'src') {
        const s = scheme(value);
        if (s !== null && !allowedSchemes.includes(s)) bad.push(`<${tag} ${name}="${value}">`);
      }
    }
  }
  return bad;
}

export const tests = [
  {
    name: 'md-url-vectors: no script, no foreign request, no handler attribute, no javascript: link',
    async run({ context, url }) {
      const file = `${SHARED}corpora/md-url-vectors.json`;
      if (!sharedAvailable('corpora/md-url-vectors.json')) {
        console.log(`     skipped: ${file} is absent`);
        return;
      }
      const corpus = JSON.parse(readFileSync(file, 'utf8'));
      const page = await openTestPage(context, url);
      await page.evaluate(`window.__audit = ${audit.toString()}`);
      await page.evaluate(() => {
        window.__ran = [];
        for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) {
          window[name] = (...a) => window.__ran.push(`${name}(${a.join(',')})`);
        }
      });
      const random = rng(SEED);
      for (const v of corpus.vectors) {
        const text = transcript(v.markdown);
        const bytes = [...new TextEncoder().encode(text)];
        const cuts = randomCuts(bytes.length, random, 16);
        const r = await page.evaluate(
          async ([text, bytes, cuts]) => {
            const check = window.__audit;
            const whole = window.T.make();
            await whole.load(text);
            const streamed = window.T.make();
            let at = 0;
            for (const n of cuts) {
              streamed.push(new Uint8Array(bytes.slice(at, at + n)));
              at += n;
            }
            streamed.finish();
            // Give any injected handler or image a chance to fire.
            await new Promise((r) => setTimeout(r, 30));
            const out = {
              bad: [...check(whole), ...check(streamed)],
              same: window.T.conv(whole).innerHTML === window.T.conv(streamed).innerHTML,
              text: window.T.conv(whole).textContent,
            };
            whole.remove();
            streamed.remove();
            return out;
          },
          [text, bytes, cuts],
        ).catch((e) => {
          throw new Error(`vector ${v.id}: ${e.message}`);
        });
        assert.deepEqual(r.bad, [], `vector ${v.id} (${v.markdown})`);
        assert.ok(r.same, `vector ${v.id}: streamed DOM equals the one-shot load (seed ${SEED})`);
      }
      const ran = await page.evaluate(() => window.__ran);
      assert.deepEqual(ran, [], 'no script ran');
      assert.deepEqual(page.log.dialogs, []);
      const origin = new URL(url).origin;
      const foreign = page.log.requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('data:'));
      assert.deepEqual(foreign, [], 'no request to any origin but the test server');
      assert.ok(!page.log.requests.some((u) => u.includes(corpus.secret_marker)), 'the secret marker never leaves');
      await assertClean(page);
    },
  },
];
