// The page `docstream html` writes is one file that works offline: opened from
// file://, it asks nothing of any origin, its policy lets only its own inline script
// run (a violation would be a console error, which fails the test), the copy controls
// show once that script runs, and each copies what the element's copy controls copy.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, cli } from './lib.mjs';

export const tests = [
  {
    name: 'docstream html: one file from file://, no request, its copy controls copy',
    timeout: 150_000,
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
    async run({ page, root, tmp }) {
      const [command, args] = cli(['html', join(root, 'tests/fixtures/claude-code-transcript/session.jsonl')]);
      const file = join(tmp, 'session.html');
      writeFileSync(file, execFileSync(command, args, { cwd: root, encoding: 'utf8' }));
      const url = pathToFileURL(file).href;
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(url);
      await page.waitForFunction(() => document.body.classList.contains('ds-scripted'));
      assert.deepEqual(requests, [url], 'the page is the only request');

      const buttons = page.locator('.ds-terminal-command .ds-copy');
      assert.ok(await buttons.count() >= 2, 'a command and its output have copy controls');
      for (const [kind, want] of [['command', 'npm run build'], ['output', 'sh: npm: command not found']]) {
        const button = page.locator(`.ds-terminal-command .ds-copy[data-copy="${kind}"]`).first();
        assert.ok(await button.isVisible(), `the ${kind} control is shown`);
        await button.click();
        await page.waitForFunction((k) => document.querySelector(`.ds-copy[data-copy="${k}"]`).hasAttribute('data-ds-copied'), kind);
        assert.equal((await page.evaluate(() => navigator.clipboard.readText())).trim(), want, `copied ${kind}`);
      }
    },
  },
];
