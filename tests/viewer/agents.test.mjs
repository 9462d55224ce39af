// Codex CLI and Gemini CLI runs in the viewer: each kind of document they make is
// shown, and the screenshots docs/screenshots/codex-session.png and gemini-cli.png;
// Cursor's sub-agents as runs nested in their calls.
import { join } from 'node:path';
import { assert, openViewer, loadFile } from './lib.mjs';
import { screenshotDir } from '../shared/screenshots.mjs';

/** How many of each kind of document are shown, and facts the screenshots rely on. */
function shown(page) {
  return page.evaluate(() => {
    const root = document.getElementById('view').shadowRoot;
    const count = (sel) => root.querySelectorAll(sel).length;
    return {
      prompts: count('.ds-turn.ds-user'),
      thinking: count('.ds-doc.ds-thinking'),
      terminal: count('.ds-doc.ds-terminal-command'),
      edits: count('.ds-doc.ds-file-edit'),
      diffRows: count('.ds-doc.ds-file-edit .ds-diff-unified tr.ds-diff-added'),
      plans: count('.ds-doc.ds-plan'),
      todoUpdates: count('.ds-doc.ds-todo-update'),
      toolCalls: count('.ds-doc.ds-tool-call'),
      failedExits: count('.ds-doc.ds-terminal-command .ds-exit.ds-status-error'),
      progress: root.querySelector('.ds-doc.ds-plan .ds-progress')?.textContent.trim(),
    };
  });
}

async function screenshot(page, root, name) {
  const dir = screenshotDir(root);
  await page.evaluate(() => document.activeElement?.blur());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(dir, name), animations: 'disabled' });
}

export const tests = [
  {
    name: 'a saved Codex session: prompts, thinking, commands, patches as diffs, the plan; screenshot',
    context: { viewport: { width: 1280, height: 1400 }, colorScheme: 'light' },
    async run({ page, base, root }) {
      await openViewer(page, base);
      assert.equal(await loadFile(page, join(root, 'tests/fixtures/codex-session/session.jsonl')), 'loaded');
      assert.match(await page.textContent('#status'), /format codex-session\b/);
      const s = await shown(page);
      assert.deepEqual(
        { prompts: s.prompts, thinking: s.thinking, terminal: s.terminal, edits: s.edits, plans: s.plans, todoUpdates: s.todoUpdates, toolCalls: s.toolCalls },
        { prompts: 3, thinking: 2, terminal: 5, edits: 3, plans: 1, todoUpdates: 1, toolCalls: 2 },
      );
      assert.ok(s.diffRows >= 10, `added lines shown in the diffs: ${s.diffRows}`);
      assert.equal(s.failedExits, 1, 'the failing test run is marked');
      assert.match(s.progress, /3\/3/, 'the plan shows the statuses of its updates');
      await screenshot(page, root, 'codex-session.png');
    },
  },
  {
    name: 'a Gemini CLI stream: tools as terminal runs, edits and the plan; screenshot',
    context: { viewport: { width: 1280, height: 1400 }, colorScheme: 'light' },
    async run({ page, base, root }) {
      await openViewer(page, base);
      assert.equal(await loadFile(page, join(root, 'tests/fixtures/gemini-cli-stream-json/session.jsonl')), 'loaded');
      assert.match(await page.textContent('#status'), /format gemini-cli-stream-json\b/);
      const s = await shown(page);
      assert.deepEqual(
        { prompts: s.prompts, terminal: s.terminal, edits: s.edits, plans: s.plans, todoUpdates: s.todoUpdates, toolCalls: s.toolCalls },
        { prompts: 1, terminal: 2, edits: 3, plans: 1, todoUpdates: 1, toolCalls: 5 },
      );
      assert.ok(s.diffRows >= 2, `added lines shown in the diffs: ${s.diffRows}`);
      assert.match(s.progress, /2\/2/);
      await screenshot(page, root, 'gemini-cli.png');
    },
  },
  {
    name: 'Cursor sub-agents: each finished taskToolCall holds its run, folded, with its Markdown',
    async run({ page, base, root }) {
      await openViewer(page, base);
      assert.equal(await loadFile(page, join(root, 'tests/fixtures/cursor-stream-json/subagents.jsonl')), 'loaded');
      const runs = await page.evaluate(() => {
        const root = document.getElementById('view').shadowRoot;
        return [...root.querySelectorAll('.ds-subagent-run > details.ds-subagent')].map((d) => {
          d.open = true;
          return {
            type: d.querySelector('.ds-subagent-type')?.textContent,
            tables: d.querySelectorAll('table').length,
            scripts: d.querySelectorAll('script').length,
            text: d.textContent,
          };
        });
      });
      assert.deepEqual(runs.map((r) => r.type), ['explore', undefined], 'the two runs with steps, by agent kind');
      assert.equal(runs[0].tables, 1, 'the run\'s Markdown table is a table');
      assert.match(runs[0].text, /Searched/, 'the sub-agent\'s own tool calls are in its run');
      assert.equal(runs[0].scripts, 0);
      assert.match(runs[0].text, /Let me search/);
      assert.match(runs[0].text, /<script>alert\(1\)<\/script>/, 'raw HTML in a run is shown as text');
    },
  },
];
