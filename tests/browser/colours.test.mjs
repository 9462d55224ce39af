// Terminal colours in <docstream-view>: a command's SGR output shows in the palette's
// colours, light and dark, with no escape left in the page; the same DOM however the
// stream is cut (escapes split across chunks); "Copy output" gives the plain text.
// Screenshots: terminal-colours-light.png and -dark.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, SEED, randomCuts, readRoot, rng } from './harness.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

const FIXTURE = 'tests/fixtures/claude-code-stream-json/terminal_colours.jsonl';

/** Pushes `text` in chunks of `cuts` bytes (the whole at once when empty) into a new view
 * with `attrs`; the view's id. */
async function streamInto(page, text, cuts, attrs) {
  return page.evaluate(
    async ([text, cuts, attrs]) => {
      const { T } = window;
      const view = T.make(attrs);
      view.id = `v${document.querySelectorAll('docstream-view').length}`;
      const bytes = new TextEncoder().encode(text);
      if (cuts.length === 0) view.push(bytes);
      let at = 0;
      for (const n of cuts) {
        view.push(bytes.subarray(at, at + n));
        at += n;
      }
      view.finish();
      await T.waitFor(view, '.ds-ansi-fg-1');
      return view.id;
    },
    [text, cuts, attrs],
  );
}

/** Computed styles of the first span of each class, and of the output around them. */
function styles(page, id) {
  return page.evaluate((id) => {
    const root = document.getElementById(id).shadowRoot;
    const get = (sel) => {
      const el = root.querySelector(sel);
      if (!el) return null;
      const s = getComputedStyle(el);
      return { color: s.color, background: s.backgroundColor, weight: s.fontWeight, italic: s.fontStyle, line: s.textDecorationLine, opacity: s.opacity };
    };
    const text = root.querySelector('.ds-conversation').textContent;
    return {
      output: get('.ds-output'),
      red: get('.ds-ansi-fg-1'),
      green: get('.ds-ansi-fg-2'),
      yellow256: get('.ds-ansi-fg-3'),
      bgRed: get('.ds-ansi-bg-1'),
      bold: get('.ds-ansi-bold'),
      dim: get('.ds-ansi-dim'),
      italic: get('.ds-ansi-italic'),
      underline: get('.ds-ansi-underline'),
      inverse: get('.ds-ansi-inverse:not([class*="-bg-"])'),
      escapes: [...text].filter((c) => c === '\u001b' || c === '\u009b' || c === '\u0007').length,
      ansiSpans: root.querySelectorAll('.ds-ansi').length,
      styleAttrs: root.querySelectorAll('.ds-output [style]').length,
    };
  }, id);
}

const rgb = (hex) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;

export const tests = [
  {
    name: 'SGR output shows in the palette colours, light and dark; no escape reaches the page; no style attribute',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot(FIXTURE, 'utf8');
      for (const [theme, red, green] of [
        ['light', '#cf222e', '#116329'],
        ['dark', '#ff7b72', '#3fb950'],
      ]) {
        const id = await streamInto(page, text, [], { theme });
        const s = await styles(page, id);
        assert.equal(s.escapes, 0, `${theme}: an escape or control character in the page`);
        assert.equal(s.styleAttrs, 0, `${theme}: a style attribute in the output`);
        assert.ok(s.ansiSpans >= 20, `${theme}: ${s.ansiSpans} coloured spans`);
        assert.equal(s.red.color, rgb(red), `${theme}: red`);
        assert.equal(s.green.color, rgb(green), `${theme}: green`);
        assert.notEqual(s.red.color, s.output.color, `${theme}: red is not the text colour`);
        assert.equal(s.bgRed.background, rgb(red), `${theme}: red background`);
        assert.equal(s.bold.weight, '700');
        assert.equal(s.italic.italic, 'italic');
        assert.ok(s.underline.line.includes('underline'), s.underline.line);
        assert.ok(Number(s.dim.opacity) < 1, `dim: ${s.dim.opacity}`);
        // Inverse with the default colours: the output's text colour as background.
        assert.equal(s.inverse.background, s.output.color, `${theme}: inverse`);
        // For the README: the first run's output (target/screenshots/ unless DS_SCREENSHOTS).
        const output = await page.evaluateHandle((id) => document.getElementById(id).shadowRoot.querySelector('.ds-terminal-command'), id);
        await output.asElement().screenshot({ path: join(screenshotDir(ROOT), `terminal-colours-${theme}.png`) });
        await page.evaluate((id) => document.getElementById(id).remove(), id);
      }
      await assertClean(page);
    },
  },
  {
    name: 'the same DOM however the stream is cut (escapes split across chunks)',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot(FIXTURE, 'utf8');
      const bytes = Buffer.byteLength(text);
      const whole = await streamInto(page, text, [], {});
      const cuts = [randomCuts(bytes, rng(SEED), 7), randomCuts(bytes, rng(SEED + 1), 64), Array(bytes).fill(1)];
      for (const c of cuts) {
        const id = await streamInto(page, text, c, {});
        const same = await page.evaluate(([a, b]) => {
          const { T } = window;
          return T.stripped(document.getElementById(a)) === T.stripped(document.getElementById(b));
        }, [whole, id]);
        assert.ok(same, `chunks of up to ${Math.max(...c)} bytes (DOCSTREAM_SEED=${SEED}) give another DOM`);
      }
      await assertClean(page);
    },
  },
  {
    name: '"Copy output" gives the plain text',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const text = readRoot(FIXTURE, 'utf8');
      const id = await streamInto(page, text, [], {});
      const copied = await page.evaluate(async (id) => {
        const { T } = window;
        const root = document.getElementById(id).shadowRoot;
        const before = T.events.length;
        root.querySelector('.ds-copy[data-copy="output"]').click();
        await new Promise((r) => setTimeout(r, 50));
        return T.events.slice(before).find((e) => e.type === 'docstream-copy')?.detail.text ?? null;
      }, id);
      assert.ok(copied !== null, 'no docstream-copy event');
      assert.ok(copied.startsWith('   Compiling shop v0.1.0\nerror: plain after default fg\n'), JSON.stringify(copied.slice(0, 80)));
      assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(copied), `control characters in ${JSON.stringify(copied)}`);
      assert.ok(copied.includes('24-bit pink 24-bit colon green 24-bit navy bg\n'));
    },
  },
];
