// The library end to end: a folder holding a Cursor User folder and a Claude Code
// projects folder (built by stores.mjs with the real table and key shapes) opened
// with the directory input; the list equals `docstream list --json` of the same
// folder; search hits open the conversation at their document; sub-agents link to the
// call that started them; bad rows are error entries; a truncated database is named;
// the exported static site searches from file://; a store whose newest conversation
// is in its write-ahead log lists as the CLI lists it; a conversation of bubbles over
// 16 MiB in all shows every bubble; an OpenCode data folder lists and opens its
// sessions as the CLI does; Cursor agent transcripts say they record no times; a
// generated store (24 MB; LIBRARY_MB=200 for the README's figures) opens to its list
// (time and memory printed, not asserted). Saves the library screenshot.
import { execFileSync, execSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, cli, openViewer } from './lib.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';
import { cursorUserDir, claudeProjects, largeCursorDb, walStore, largeConversationDb, opencodeDb } from './stores.mjs';

function buildFolder(tmp, name) {
  const root = join(tmp, name);
  mkdirSync(root, { recursive: true });
  cursorUserDir(root);
  claudeProjects(root);
  return root;
}

/** The CLI's output (lib.mjs's `cli`). */
function docstream(root, args) {
  const [command, all] = cli(args);
  return execFileSync(command, all, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function openFolder(page, dir, state = 'indexed', timeout = 30_000) {
  await page.evaluate(() => delete document.body.dataset.library);
  await page.setInputFiles('#folder', dir);
  await page.waitForFunction((s) => document.body.dataset.library === s, state, { timeout });
}

const listed = (page) => page.evaluate(() => [...document.querySelectorAll('#library-rows tr')].map((tr) => ({
  id: tr.dataset.id,
  title: tr.querySelector('.title a, .title span')?.textContent,
  cells: [...tr.cells].slice(1).map((c) => c.textContent),
  error: tr.querySelector('.why')?.textContent ?? null,
})));

async function shownConversation(page, id) {
  await page.waitForFunction((want) => document.body.dataset.conversation === want && document.body.dataset.state === 'loaded' && document.body.dataset.mode === 'conversation', id);
  return page.evaluate(() => document.getElementById('view').shadowRoot.textContent);
}

/** Resident memory of the browser's renderer processes, in MB. */
function rendererRss() {
  const out = execSync('ps -eo rss,args', { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('--type=renderer')).reduce((n, l) => n + Number(l.trim().split(/\s+/)[0]), 0) / 1024;
}

export const tests = [
  {
    name: 'library: a folder of both stores lists, searches and opens conversations',
    timeout: 60_000,
    async run({ page, base, root, tmp }) {
      const dir = buildFolder(tmp, 'stores');
      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);

      // The viewer lists what the CLI lists: same ids in the same order, same titles and counts.
      const cli = JSON.parse(docstream(root, ['list', '--json', dir]));
      assert.deepEqual(rows.map((r) => r.id), cli.map((e) => e.id));
      for (const e of cli) {
        const r = rows.find((x) => x.id === e.id);
        assert.equal(r.title, e.title, e.id);
        // Counts of every entry, a Claude Code session's with its sub-agents' own files
        // (`s-main/subagents/agent-ab12.jsonl`) read into it as the CLI reads them (issue 37).
        if (!e.error) assert.deepEqual(r.cells.slice(3, 5), [String(e.messages), String(e.tools)], `${e.id} counts`);
        // Tokens and cost as the CLI sums them (issue 39).
        const tokens = e.error || !e.usage ? '' : e.usage.totalTokens.toLocaleString('en');
        assert.equal(r.cells[5], tokens, `${e.id} tokens`);
        assert.equal(r.cells[6] !== '', e.costUsd != null, `${e.id} cost`);
      }
      assert.ok(cli.filter((e) => !e.parent && e.usage?.totalTokens > 0).length >= 2, 'the folder has token counts to sort by');

      // The columns sort: largest first, then round; a sub-agent stays under its
      // conversation; what has no count goes last.
      const order = async (key, want) => {
        await page.click(`#library-table th button[data-sort="${key}"]`);
        assert.equal(await page.getAttribute(`#library-table th:has(button[data-sort="${key}"])`, 'aria-sort'), want);
        return listed(page);
      };
      const byId = new Map(cli.map((e) => [e.id, e]));
      const tokensOf = (r) => byId.get(r.id).usage?.totalTokens ?? null;
      const topLevel = (list) => list.filter((r) => !byId.get(r.id).parent);
      const checkOrder = (list, down) => {
        const values = topLevel(list).map(tokensOf);
        const known = values.filter((v) => v !== null);
        assert.deepEqual(values.slice(0, known.length), known, 'no count goes last');
        assert.deepEqual(known, [...known].sort((a, b) => (down ? b - a : a - b)), `tokens ${down ? 'largest' : 'smallest'} first`);
        list.forEach((r, i) => {
          const parent = byId.get(r.id).parent?.conversation;
          if (!parent || !byId.has(parent)) return;
          const above = list.slice(0, i).reverse().find((x) => !byId.get(x.id).parent || byId.get(x.id).parent.conversation !== parent);
          assert.equal(above?.id, parent, `${r.id} right under ${parent}`);
        });
        assert.equal(list.length, rows.length, 'every row stays');
      };
      checkOrder(await order('tokens', 'descending'), true);
      checkOrder(await order('tokens', 'ascending'), false);
      const titles = topLevel(await order('title', 'ascending')).map((r) => r.title.toLowerCase());
      assert.deepEqual(titles, [...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'titles A to Z');
      // The fixture has such a session: its sub-agent file is counted into it.
      const main = cli.find((e) => e.id === 's-main');
      assert.deepEqual(main.children, ['s-main.agent-ab12'], 's-main has a sub-agent file');
      const own = JSON.parse(docstream(root, ['list', '--json', join(dir, 'projects/-home-dev-hello-app/s-main.jsonl')]))[0];
      assert.ok(main.messages > own.messages, `s-main counts its sub-agent's messages: ${main.messages} in the folder, ${own.messages} alone`);
      const split = rows.find((r) => r.id === 'c-split');
      assert.equal(split.title, 'Louder greeting');
      assert.deepEqual(split.cells.slice(0, 2), ['Cursor', '/home/dev/hello app']);
      assert.match(rows.find((r) => r.id === 'c-bad').error, /composerData:c-bad is not valid JSON/);
      assert.equal(rows.find((r) => r.id === 'c-inline').title, 'Old chat');
      assert.ok(!rows.some((r) => r.id === 'c-empty'), 'an empty chat is not listed');
      assert.match(await page.textContent('#library-summary'), /1 empty Cursor chat/);

      // Open one by click: a stable fragment, the documents shown.
      await page.click('#library-rows tr[data-id="c-split"] a');
      assert.equal(new URL(page.url()).hash, '#c=c-split');
      assert.match(await shownConversation(page, 'c-split'), /python3 src\/hello\.py --shout/);
      assert.equal(await page.textContent('#crumb-title'), 'Louder greeting');

      // Gaps: the missing and the malformed bubble are errors; the rest is shown.
      await page.click('#crumb-back');
      await page.click('#library-rows tr[data-id="c-gaps"] a');
      const gaps = await shownConversation(page, 'c-gaps');
      assert.match(gaps, /g2/);
      assert.match(gaps, /three/);
      assert.equal(await page.evaluate(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-error').length), 2);

      // Back to the list, search across all: a command, a path, a sub-agent's text.
      await page.click('#crumb-back');
      await page.waitForFunction(() => document.body.dataset.mode === 'library');
      for (const [query, id] of [['sed -i s/greet', 's-main'], ['src/hello.py', 'c-split'], ['zebra-marker', 's-main.agent-ab12'], ['tokenizer', 'c-inline']]) {
        await page.fill('#library-search', query);
        await page.waitForFunction((q) => document.getElementById('library-results').dataset.query === q, query);
        const hrefs = await page.$$eval('#library-results a.hit', (as) => as.map((a) => a.getAttribute('href')));
        assert.ok(hrefs.some((h) => h.startsWith(`#c=${encodeURIComponent(id)}&d=`)), `${query}: ${hrefs}`);
      }
      // A hit opens at its document, marked.
      await page.fill('#library-search', 'sed -i s/greet');
      await page.waitForFunction(() => document.getElementById('library-results').dataset.query === 'sed -i s/greet');
      await page.click('#library-results a.hit');
      await shownConversation(page, 's-main');
      const target = await page.waitForFunction(() => document.getElementById('view').shadowRoot.querySelector('.ds-revealed')?.textContent);
      assert.match(await target.jsonValue(), /sed -i s\/greet\/welcome/);
      assert.match(new URL(page.url()).hash, /^#c=s-main&d=doc_/);

      // The session shows its sub-agent's run inside the Task call that started it, as the
      // CLI's page does: the worker hands the view the sub-agent's file with the session.
      const run = await page.waitForFunction(() => {
        const call = [...document.getElementById('view').shadowRoot.querySelectorAll('.ds-subagent-run')]
          .find((r) => r.querySelector('.ds-subagent')?.textContent.includes('zebra-marker'));
        return call?.closest('[data-doc-id]')?.textContent;
      }, null, { timeout: 10_000 });
      assert.match(await run.jsonValue(), /Find callers/, 'the run is inside the Task call');

      // The sub-agent and the call that started it link to each other.
      const sub = await page.$eval('#crumb-links a[data-doc]', (a) => ({ href: a.getAttribute('href'), doc: a.dataset.doc }));
      assert.equal(sub.href, `#c=${encodeURIComponent('s-main.agent-ab12')}`);
      await page.click('#crumb-links a[data-doc]');
      assert.match(await shownConversation(page, 's-main.agent-ab12'), /zebra-marker/);
      const back = await page.$eval('#crumb-links a', (a) => a.getAttribute('href'));
      assert.equal(back, `#c=s-main&d=${sub.doc}`);
      await page.click('#crumb-links a');
      await shownConversation(page, 's-main');
      await page.waitForFunction((doc) => document.getElementById('view').shadowRoot.querySelector('.ds-revealed')?.dataset.docId === doc, sub.doc);

      // The screenshot of the library for the README.
      await page.click('#crumb-back');
      await page.fill('#library-search', '');
      await page.dispatchEvent('#library-search', 'input');
      await page.waitForFunction(() => !document.getElementById('library-table').hidden);
      await page.screenshot({ path: join(screenshotDir(root), 'viewer-library.png') });
      await page.fill('#library-search', 'greet');
      await page.waitForFunction(() => !document.getElementById('library-results').hidden);
      await page.screenshot({ path: join(screenshotDir(root), 'viewer-library-search.png') });
    },
  },
  {
    name: 'library: a Codex sessions folder and a Gemini CLI run list as their agents, as the CLI lists them',
    timeout: 30_000,
    async run({ page, base, root, tmp }) {
      const dir = join(tmp, 'agents');
      const day = join(dir, 'sessions/2025/10/01');
      mkdirSync(day, { recursive: true });
      const fixture = (p) => join(root, 'tests/fixtures', p);
      copyFileSync(fixture('codex-session/session.jsonl'), join(day, 'rollout-2025-10-01T09-00-00-5973b6c0.jsonl'));
      copyFileSync(fixture('gemini-cli-stream-json/session.jsonl'), join(dir, 'gemini-run.jsonl'));
      copyFileSync(fixture('openai-messages/history.json'), join(dir, 'history.json'));
      writeFileSync(join(dir, 'package.json'), '{"name": "not-a-transcript"}');
      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);
      // The picker names files from the chosen folder itself: `agents/…`; the CLI from inside it.
      const agents = Object.fromEntries(rows.map((r) => [r.id.replace(/^agents\//, ''), r.cells[0]]));
      assert.deepEqual(agents, {
        'sessions/2025/10/01/rollout-2025-10-01T09-00-00-5973b6c0.jsonl': 'Codex',
        'gemini-run.jsonl': 'Gemini CLI',
        'history.json': 'file',
      });
      const cli = JSON.parse(docstream(root, ['list', '--json', dir]));
      const label = { codex: 'Codex', 'gemini-cli': 'Gemini CLI', file: 'file' };
      assert.deepEqual(Object.fromEntries(cli.map((e) => [e.id, label[e.agent]])), agents);
    },
  },
  {
    name: 'library: an OpenCode data folder lists and opens its sessions as the CLI does (opencode.db)',
    timeout: 60_000,
    async run({ page, base, root, tmp }) {
      const dir = join(tmp, 'opencode');
      const fixture = (p) => join(root, 'tests/fixtures', p);
      const session = JSON.parse(readFileSync(fixture('opencode-export/session.json'), 'utf8'));
      const child = {
        info: { id: 'ses_child', parentID: session.info.id, directory: '/home/dev/tool', title: 'Child session - 2026-10-05', time: { created: 1791200009000, updated: 1791200009000 } },
        messages: [{ info: { id: 'msg_child', role: 'user', time: { created: 1791200009000 } }, parts: [{ id: 'prt_child', type: 'text', text: 'Check the docs (walrus-marker)' }] }],
      };
      opencodeDb(join(dir, 'opencode.db'), [session, child]);
      // Beside the database: OpenCode's own files (auth.json holds credentials) and the
      // part files from before the database: not read, as the CLI does not read them.
      copyFileSync(fixture('opencode-export/session.json'), join(dir, 'auth.json'));
      mkdirSync(join(dir, 'storage/part/msg_1'), { recursive: true });
      copyFileSync(fixture('opencode-export/session.json'), join(dir, 'storage/part/msg_1/prt_1.json'));
      const cli = JSON.parse(docstream(root, ['list', '--json', dir]));
      const id = session.info.id;
      assert.deepEqual(cli.map((e) => e.id), [id, 'ses_child']);

      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);
      assert.deepEqual(rows.map((r) => r.id), cli.map((e) => e.id), JSON.stringify(rows));
      for (const e of cli) {
        const r = rows.find((x) => x.id === e.id);
        assert.equal(r.title, e.title, e.id);
        assert.equal(r.error, null, e.id);
        // Agent, folder, date (the list's minutes of `created`), messages, tool calls, tokens.
        const tokens = e.usage ? e.usage.totalTokens.toLocaleString('en') : '';
        assert.deepEqual(r.cells.slice(0, 6), ['OpenCode', e.project, e.created.slice(0, 16).replace('T', ' '), String(e.messages), String(e.tools), tokens], e.id);
      }
      assert.equal(rows[0].title, 'Add a verbose flag to the CLI');
      assert.equal(rows[1].title, 'OpenCode session ses_child');

      // Each session opens as the conversation `docstream json --conversation ID` gives.
      await page.click(`#library-rows tr[data-id="${id}"] a`);
      await shownConversation(page, id).catch(async (e) => {
        throw new Error(`${e.message}: ${JSON.stringify(await page.evaluate(() => ({ ...document.body.dataset, alert: document.getElementById('alert').textContent })))}`);
      });
      const want = JSON.parse(docstream(root, ['json', '--conversation', id, dir]));
      const shown = await page.evaluate(() => document.getElementById('view').snapshot());
      assert.equal(want.format, 'opencode-export');
      assert.deepEqual(shown.turns, want.turns, 'the same turns as the CLI reads');
      // The sub-agent and the session that started it link to each other.
      const sub = await page.$eval('#crumb-links a', (a) => a.getAttribute('href'));
      assert.equal(sub, '#c=ses_child');
      await page.click('#crumb-links a');
      assert.match(await shownConversation(page, 'ses_child'), /walrus-marker/);
      assert.equal(await page.$eval('#crumb-links a', (a) => a.getAttribute('href')), `#c=${id}`);

      // The database given alone lists the same.
      await page.click('#crumb-back');
      await page.evaluate(() => delete document.body.dataset.library);
      await page.setInputFiles('#file', join(dir, 'opencode.db'));
      await page.waitForFunction(() => document.body.dataset.library === 'indexed');
      assert.deepEqual((await listed(page)).map((r) => r.id), [id, 'ses_child']);
    },
  },
  {
    name: 'library: a damaged opencode.db is an OpenCode error entry naming the file, as the CLI lists it',
    async run({ page, base, root, tmp }) {
      const dir = join(tmp, 'opencode-bad');
      mkdirSync(join(dir, 'opencode'), { recursive: true });
      mkdirSync(join(dir, 'runs'), { recursive: true });
      writeFileSync(join(dir, 'opencode/opencode.db'), 'SQLite format 3\0 and then nothing');
      copyFileSync(join(root, 'tests/fixtures/gemini-cli-stream-json/session.jsonl'), join(dir, 'runs/gemini-run.jsonl'));
      // The CLI writes the list, then exits 1 naming what it could not read.
      let out;
      try {
        out = docstream(root, ['list', '--json', dir]);
        assert.fail('list exits 1 when a store cannot be read');
      } catch (e) {
        if (e.stdout == null) throw e;
        out = e.stdout;
      }
      const cli = JSON.parse(out);
      const bad = cli.find((e) => e.error);
      assert.equal(bad?.agent, 'opencode', JSON.stringify(cli));
      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);
      assert.equal(rows.length, cli.length, JSON.stringify(rows));
      const row = rows.find((r) => r.error);
      assert.equal(row?.cells[0], 'OpenCode', JSON.stringify(rows));
      assert.match(row.error, /opencode\/opencode\.db/);
      // The picker names files from the chosen folder itself: `opencode-bad/…`; the CLI from inside it.
      assert.equal(row.title, bad.title.replace('opencode/', 'opencode-bad/opencode/'));
    },
  },
  {
    name: 'library: Cursor agent transcripts say "no times recorded", as the CLI\'s list says; a sub-agent\'s prompts are its parent agent\'s, never "You"',
    async run({ page, base, root, tmp }) {
      const dir = join(tmp, 'cursor-agent');
      const id = '5f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
      const session = join(dir, 'projects/home-dev-shop/agent-transcripts', id);
      mkdirSync(join(session, 'subagents'), { recursive: true });
      copyFileSync(join(root, 'tests/fixtures/cursor-agent-transcript/session.jsonl'), join(session, `${id}.jsonl`));
      copyFileSync(join(root, 'tests/fixtures/cursor-agent-transcript/aborted.jsonl'), join(session, 'subagents/9b8c7d6e.jsonl'));
      const cli = JSON.parse(docstream(root, ['list', '--json', dir]));
      assert.equal(cli.length, 2);
      assert.ok(cli[0].noTimes && !cli[0].created, JSON.stringify(cli[0]));
      assert.match(docstream(root, ['list', dir]), /no times recorded/);
      await openViewer(page, base);
      await openFolder(page, dir);
      const [row, sub] = await listed(page);
      assert.deepEqual(row.cells.slice(0, 3), ['Cursor', 'home-dev-shop', 'no times recorded'], JSON.stringify(row));
      // Opened, the session's prompts are the user's, the sub-agent's its parent agent's
      // (as the CLI's page of that entry says).
      const roles = () => page.evaluate(() => [...document.getElementById('view').shadowRoot.querySelectorAll('.ds-user-body .ds-role')].map((r) => r.textContent.trim()));
      await page.click(`#library-rows tr[data-id="${row.id}"] a`);
      await shownConversation(page, row.id);
      const mine = await roles();
      assert.ok(mine.length && mine.every((r) => r.startsWith('You')), JSON.stringify(mine));
      await page.click('#crumb-back');
      await page.waitForFunction(() => document.body.dataset.mode === 'library');
      await page.click(`#library-rows tr[data-id="${sub.id}"] a`);
      await shownConversation(page, sub.id);
      const theirs = await roles();
      assert.ok(theirs.length && theirs.every((r) => r.startsWith('Parent agent')), JSON.stringify(theirs));
      // The CLI names entries from inside the folder, the viewer from the folder chosen.
      const page_ = docstream(root, ['html', '--conversation', cli.find((e) => e.parent).id, dir]);
      assert.match(page_, /ds-from-agent/);
      assert.doesNotMatch(page_, />You</);
    },
  },
  {
    name: 'library: a truncated database is an error naming the file; the rest loads',
    async run({ page, base, tmp }) {
      const dir = buildFolder(tmp, 'truncated');
      const db = join(dir, 'User', 'globalStorage', 'state.vscdb');
      truncateSync(db, Math.floor(statSync(db).size / 2));
      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);
      const bad = rows.find((r) => r.id.endsWith('globalStorage/state.vscdb'));
      assert.ok(bad, JSON.stringify(rows));
      assert.match(bad.error, /globalStorage\/state\.vscdb/);
      assert.match(bad.error, /damaged or truncated|not a SQLite database|malformed/);
      assert.ok(rows.some((r) => r.id === 's-main' && !r.error), 'Claude Code still loads');
    },
  },
  {
    name: 'library: a store whose newest conversation is in its write-ahead log lists as the CLI lists it',
    async run({ page, base, root, tmp }) {
      const dir = walStore(tmp);
      const cli = JSON.parse(docstream(root, ['list', '--json', dir]));
      assert.deepEqual(cli.map((e) => e.id), ['c-new', 'c-old']);
      await openViewer(page, base);
      await openFolder(page, dir);
      const rows = await listed(page);
      const notes = await page.$$eval('#library-notes li', (li) => li.map((l) => l.textContent));
      assert.deepEqual(rows.map((r) => r.id), cli.map((e) => e.id), JSON.stringify(notes));
      assert.ok(rows.every((r) => !r.error), JSON.stringify(rows));
      assert.deepEqual(notes, [], 'nothing left unread');
      await page.click('#library-rows tr[data-id="c-new"] a');
      assert.match(await shownConversation(page, 'c-new'), /The newest prompt, only in the log/);
    },
  },
  {
    name: 'library: the event limit applies to each Cursor bubble, not to the conversation',
    timeout: 120_000,
    async run({ page, base, tmp }) {
      const db = largeConversationDb(join(tmp, 'large-conversation', 'state.vscdb'));
      await openViewer(page, base);
      await page.evaluate(() => delete document.body.dataset.library);
      await page.setInputFiles('#file', db);
      await page.waitForFunction(() => document.body.dataset.library === 'indexed', null, { timeout: 110_000 });
      const rows = await listed(page);
      const large = rows.find((r) => r.id === 'c-large');
      assert.deepEqual(large.cells.slice(3, 5), ['40', '0'], JSON.stringify(large));
      // Every bubble was read: the last one's text and the bubbles around the one over
      // the limit are found, and so is that bubble's own error.
      for (const [query, id] of [['bubble 39 x', 'c-large'], ['bubble 02 after', 'c-huge'], ['over the 16 MiB a row may hold', 'c-huge']]) {
        await page.fill('#library-search', query);
        await page.waitForFunction((q) => document.getElementById('library-results').dataset.query === q, query);
        const hrefs = await page.$$eval('#library-results a.hit', (as) => as.map((a) => a.getAttribute('href')));
        assert.ok(hrefs.some((h) => h.startsWith(`#c=${id}&d=`)), `${query}: ${hrefs}`);
      }
      // Opened, the view reads it with the conversation's own limit: every bubble shows,
      // none is an error.
      await page.fill('#library-search', '');
      await page.click('#library-rows tr[data-id="c-large"] a');
      const text = await shownConversation(page, 'c-large');
      assert.match(text, /bubble 39 x/);
      assert.equal(await page.evaluate(() => document.getElementById('view').shadowRoot.querySelectorAll('.ds-error').length), 0);
    },
  },
  {
    name: 'library: the exported site searches and opens documents from file://',
    async run({ page, root, tmp }) {
      const dir = buildFolder(tmp, 'export');
      const out = join(tmp, 'site');
      docstream(root, ['export', '--out', out, dir]);
      await page.goto(pathToFileURL(join(out, 'index.html')).href);
      await page.waitForSelector('html[data-ready="true"]');
      assert.ok(await page.$('li[data-id="c-split"] a'));
      await page.fill('#q', 'python3 src/hello.py');
      await page.waitForSelector('#results a.dss-hit');
      const href = await page.$eval('#results a.dss-hit', (a) => a.getAttribute('href'));
      assert.match(href, /^c\/c-split\.html#doc_/);
      await page.click('#results a.dss-hit');
      await page.waitForSelector('html[data-ready="true"]');
      const marked = await page.$eval('.dss-target', (el) => el.textContent);
      assert.match(marked, /python3 src\/hello\.py --shout/);
      // The sub-agent page links back to the call that started it.
      await page.goto(pathToFileURL(join(out, 'c', 's-main.agent-ab12.html')).href);
      const parent = await page.$eval('.dss-parent a', (a) => a.getAttribute('href'));
      assert.match(parent, /^\.\.\/c\/s-main\.html#doc_/);
    },
  },
  {
    // 24 MB in the test run: hundreds of conversations, the list and the search whole.
    // The 200 MB figures in the README: LIBRARY_MB=200 node tests/viewer/run.mjs 'Cursor database'.
    name: 'library: a generated Cursor database of many conversations opens to its list (time and memory printed)',
    timeout: 600_000,
    async run({ page, base, tmp }) {
      const mb = Number(process.env.LIBRARY_MB ?? 24);
      const t0 = Date.now();
      const large = largeCursorDb(join(tmp, 'large-store', 'state.vscdb'), mb);
      console.log(`     generated ${(large.bytes / 1048576).toFixed(0)} MB, ${large.composers} conversations, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      await openViewer(page, base);
      const before = rendererRss();
      let peak = before;
      const sampler = setInterval(() => { peak = Math.max(peak, rendererRss()); }, 250);
      try {
        const start = Date.now();
        await page.evaluate(() => delete document.body.dataset.library);
        await page.setInputFiles('#file', large.path);
        await page.waitForFunction(() => ['listed', 'indexed'].includes(document.body.dataset.library), null, { timeout: 120_000 });
        const listedAfter = (Date.now() - start) / 1000;
        const peakListed = peak;
        const n = await page.$$eval('#library-rows tr', (r) => r.length);
        assert.equal(n, large.composers);
        await page.waitForFunction(() => document.body.dataset.library === 'indexed', null, { timeout: 540_000 });
        const indexedAfter = (Date.now() - start) / 1000;
        await page.fill('#library-search', large.needle);
        await page.waitForSelector('#library-results a.hit');
        const href = await page.$eval('#library-results a.hit', (a) => a.getAttribute('href'));
        assert.match(href, /^#c=large-00007&d=/);
        console.log(`     ${mb} MB store: list in ${listedAfter.toFixed(1)} s (renderer RSS peak ${peakListed.toFixed(0)} MB, ${before.toFixed(0)} MB before), ` +
          `indexed for search in ${indexedAfter.toFixed(1)} s (renderer RSS peak ${peak.toFixed(0)} MB)`);
      } finally {
        clearInterval(sampler);
      }
    },
  },
];
