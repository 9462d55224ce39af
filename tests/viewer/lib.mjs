// Helpers shared by the viewer tests.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export { assert };

/** The CLI and its arguments, `[command, args]`: $DOCSTREAM_CLI (scripts/test.sh names
 * the binary its Rust tests built), or built by cargo when needed (a build of its own
 * features: a minute and more, cold). */
export function cli(args) {
  return process.env.DOCSTREAM_CLI
    ? [process.env.DOCSTREAM_CLI, args]
    : ['cargo', ['run', '--quiet', '--bin', 'docstream', '--', ...args]];
}

/** Opens the viewer (with an optional query string) and waits until it is ready. */
export async function openViewer(page, base, query = '') {
  await page.goto(`${base}/www/viewer/${query}`);
  await page.waitForSelector('html[data-ready="true"]');
}

/** Waits until the load in progress is over; returns the body's state. */
export async function settled(page, timeout) {
  await page.waitForFunction(() => document.body.dataset.state && document.body.dataset.state !== 'loading', null, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

/** Opens a file through the file picker and waits for it to be shown. */
export async function loadFile(page, path, timeout) {
  await page.evaluate(() => delete document.body.dataset.state);
  await page.setInputFiles('#file', path);
  return settled(page, timeout);
}

/** The documents shown: [{ turn, id, type }] in order, read from the shadow root. */
export function shownDocuments(page) {
  return page.evaluate(() => {
    const root = document.getElementById('view').shadowRoot;
    return [...root.querySelectorAll('.ds-turn .ds-doc')].map((d) => ({
      turn: Number(d.closest('.ds-turn').dataset.turnIndex),
      id: d.dataset.docId,
      type: [...d.classList].find((c) => c.startsWith('ds-') && c !== 'ds-doc').slice(3).replace(/-/g, '_'),
    }));
  });
}

/** The documents of a golden conversation, in the same shape and page order: a
 * sub-agent's run (a turn whose `parent` names a call) right after its call. */
export function expectedDocuments(conversation) {
  const turns = conversation.turns;
  const out = [];
  const visit = (turn) =>
    (turns[turn].documents ?? []).forEach((d, index) => {
      out.push({ turn, id: d.id, type: d.type });
      const run = d.metadata?.subagent?.turn;
      const parent = run === undefined ? undefined : turns[run]?.parent;
      if (parent?.turn === turn && parent.index === index) visit(run);
    });
  turns.forEach((t, turn) => {
    if (!t.parent) visit(turn);
  });
  return out;
}

/** The project's fixtures: [{ format, name, path, expected }] (inputs with a golden JSON). */
export function fixtures(root) {
  const dir = join(root, 'tests', 'fixtures');
  const out = [];
  for (const format of readdirSync(dir).sort()) {
    for (const f of readdirSync(join(dir, format)).sort()) {
      // Goldens, the folder's README, and a case's folder of other files (sub-agents).
      if (f.includes('.expected.') || f === 'README.md' || statSync(join(dir, format, f)).isDirectory()) continue;
      const name = f.replace(/\.[^.]+$/, '');
      const golden = join(dir, format, `${name}.expected.json`);
      let expected;
      try {
        expected = JSON.parse(readFileSync(golden, 'utf8'));
      } catch {
        continue;
      }
      out.push({ format, name, path: join(dir, format, f), expected });
    }
  }
  return out;
}

/** Every entry of the viewer's (virtual) outline, read row by row by moving its active
 * row through all of them: [{ label, counts, compaction, turn, setsize, items: [{ kind,
 * label, turn, doc }] }], one per prompt or compaction. */
export function outlineEntries(page) {
  return page.evaluate(async () => {
    const { outlineOf } = await import('/www/viewer/outline.js');
    const list = document.getElementById('outline-list');
    const tree = outlineOf(list);
    const out = [];
    for (let r = 0; r < (tree?.rows ?? 0); r++) {
      tree.moveTo(r);
      const li = list.querySelector(`[data-row="${r}"]`);
      if (li.getAttribute('aria-level') === '1') {
        out.push({
          label: li.querySelector('.label').textContent,
          counts: li.querySelector('.counts')?.textContent,
          compaction: li.classList.contains('compaction'),
          turn: Number(li.dataset.turn),
          setsize: Number(li.getAttribute('aria-setsize')),
          items: [],
        });
      } else {
        out.at(-1).items.push({ kind: li.querySelector('.kind').textContent, label: li.title, turn: Number(li.dataset.turn), doc: li.dataset.doc });
      }
    }
    if (tree?.rows) tree.moveTo(0);
    return out;
  });
}
