// Following a transcript still being written, in the browser.
// - `docstream html --follow FILE`: the page the CLI serves on 127.0.0.1 streams a
//   transcript as lines are appended to it (ending with the same text as the page
//   `docstream html` writes of the whole file), starts afresh with a note when the file
//   is truncated, asks nothing of any other origin, and refuses a request that names
//   another host (DNS rebinding). Saves the follow screenshot.
// - The viewer's "Follow file…": the file's handle is read again as it grows, the view
//   streams the appended lines, and a truncated file is read afresh with a note.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, cli, expectedDocuments, openViewer, shownDocuments } from './lib.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';

/** Starts `docstream html --follow file`; resolves with its address once it listens. */
function follow(root, file) {
  const [cmd, args] = cli(['html', '--follow', file]);
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/at (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`docstream html --follow exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`no address after 120 s: ${err}`)), 120_000);
  });
  return { child, url };
}

const turns = (page) => page.locator('main.ds-conversation > .ds-turn').count();
const text = (page) => page.evaluate(() => document.querySelector('main.ds-conversation').innerText);

export const tests = [
  {
    name: 'html --follow streams appended lines, and starts afresh when the file is truncated',
    timeout: 150_000,
    async run({ page, context, root, tmp }) {
      const whole = readFileSync(join(root, 'tests/fixtures/claude-code-transcript/session.jsonl'), 'utf8');
      const lines = whole.split(/(?<=\n)/);
      const file = join(tmp, 'following.jsonl');
      writeFileSync(file, lines.slice(0, 2).join(''));
      const { child, url } = follow(root, file);
      try {
        const address = await url;
        const origins = new Set();
        page.on('request', (r) => origins.add(new URL(r.url()).origin));
        await page.goto(address);
        // The first line is the session's summary; the second its first prompt.
        await page.waitForFunction(() => document.querySelectorAll('main.ds-conversation > .ds-turn').length === 1);
        assert.equal(await page.locator('.ds-follow-status').textContent(), 'Following');

        // The rest arrives a line at a time, as an agent writes it.
        for (const line of lines.slice(2)) {
          appendFileSync(file, line);
          await page.waitForTimeout(60);
        }
        const [cmd, args] = cli(['html', file]);
        const staticPage = join(tmp, 'following.html');
        writeFileSync(staticPage, execFileSync(cmd, args, { cwd: root, encoding: 'utf8' }));
        const other = await context.newPage();
        await other.goto(pathToFileURL(staticPage).href);
        const want = await text(other);
        const wantTurns = await turns(other);
        await other.close();
        await page.waitForFunction((n) => document.querySelectorAll('main.ds-conversation > .ds-turn').length === n, wantTurns);
        await page.waitForFunction((t) => document.querySelector('main.ds-conversation').innerText === t, want, { timeout: 10_000 })
          .catch(async () => assert.equal(await text(page), want, 'the followed page shows what html writes of the file'));
        await page.screenshot({ path: join(screenshotDir(root), 'follow.png') });

        // A page that connects now catches up with the stream as it stands.
        const late = await context.newPage();
        await late.goto(address);
        await late.waitForFunction((n) => document.querySelectorAll('main.ds-conversation > .ds-turn').length === n, wantTurns);
        assert.equal(await text(late), want, 'a late page shows the same');
        await late.close();

        // Truncated and rewritten: the page starts again, and says why.
        writeFileSync(file, lines.slice(0, 2).join(''));
        await page.waitForFunction(() => /truncated/.test(document.querySelector('.ds-follow-status').textContent));
        await page.waitForFunction(() => document.querySelectorAll('main.ds-conversation > .ds-turn').length === 1);

        assert.deepEqual([...origins], [new URL(address).origin], 'no request leaves the page\'s origin');

        // Only GET; another host name for 127.0.0.1 (a rebinding attack) gets nothing.
        const port = new URL(address).port;
        const status = (method, host) => new Promise((resolve, reject) => {
          request(`${address}events`, { method, headers: { Host: host } }, (res) => {
            res.resume();
            resolve(res.statusCode);
          }).on('error', reject).end();
        });
        assert.equal(await status('POST', `127.0.0.1:${port}`), 405, 'only GET');
        assert.equal(await status('GET', `attacker.example:${port}`), 403, 'a request naming another host');
      } finally {
        child.kill();
      }
    },
  },
  {
    name: 'the viewer follows a file still being written, and reads it afresh when truncated',
    async run({ page, base, root }) {
      const whole = readFileSync(join(root, 'tests/fixtures/claude-code-transcript/session.jsonl'), 'utf8');
      const lines = whole.split(/(?<=\n)/);
      const golden = JSON.parse(readFileSync(join(root, 'tests/fixtures/claude-code-transcript/session.expected.json'), 'utf8'));
      // The picker is the browser's own dialog: the viewer is handed a file of the
      // origin's private file system instead, which the test writes as an agent would.
      await page.addInitScript(() => {
        window.showOpenFilePicker = async () => {
          const dir = await navigator.storage.getDirectory();
          return [await dir.getFileHandle('following.jsonl', { create: true })];
        };
      });
      await openViewer(page, base);
      const write = (text, append = true) => page.evaluate(async ([text, append]) => {
        const dir = await navigator.storage.getDirectory();
        const handle = await dir.getFileHandle('following.jsonl', { create: true });
        const w = await handle.createWritable({ keepExistingData: append });
        if (append) await w.seek((await handle.getFile()).size);
        else await w.truncate(0);
        await w.write(text);
        await w.close();
      }, [text, append]);
      await write(lines.slice(0, 2).join(''), false);
      await page.click('#follow-open');
      await page.waitForFunction(() => document.body.dataset.state === 'following');
      const turnsShown = () => page.evaluate(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-turn').length);
      await page.waitForFunction(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-turn').length === 1);
      assert.match(await page.textContent('#progress-label'), /^Following following\.jsonl/);
      for (const line of lines.slice(2)) await write(line);
      const want = expectedDocuments(golden);
      await page.waitForFunction((n) => document.getElementById('view').shadowRoot.querySelectorAll('.ds-turn .ds-doc').length === n, want.length);
      assert.deepEqual(await shownDocuments(page), want, 'the followed file shows what its golden holds');
      assert.equal(await turnsShown(), golden.turns.length);
      // The outline catches up once the file stops growing.
      await page.waitForFunction(() => document.querySelectorAll('#outline-list li').length > 0);
      await page.screenshot({ path: join(screenshotDir(root), 'viewer-follow.png') });

      await write(lines.slice(0, 2).join(''), false);
      await page.waitForFunction(() => /truncated: read afresh/.test(document.getElementById('status').textContent));
      await page.waitForFunction(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-turn').length === 1);
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'following');

      await page.click('#cancel');
      await page.waitForFunction(() => document.body.dataset.state === 'cancelled');
      assert.match(await page.textContent('#status'), /^Stopped following following\.jsonl/);
    },
  },
];
