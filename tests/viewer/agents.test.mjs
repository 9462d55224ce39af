// Codex CLI and Gemini CLI runs in the viewer: each kind of document they make is
// shown, and the screenshots docs/screenshots/codex-session.png and gemini-cli.png;
// Cursor's sub-agents as runs nested in their calls.
import { join } from 'node:path';
import { assert, openViewer, loadFile, outlineEntries } from './lib.mjs';
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
  {
    name: 'a compacted context is a "Context compacted" entry in the outline, not a response or a prompt',
    async run({ page, base, root }) {
      const cases = [
        {
          file: 'tests/fixtures/claude-code-transcript/compaction.jsonl',
          at: [2, 5],
          labels: ['Context compacted (auto, 155k → 12k tokens)', 'Context compacted (manual, 32k tokens)'],
          prompts: 3,
        },
        { file: 'tests/fixtures/codex-session/compaction.jsonl', at: [2, 4], prompts: 2 },
      ];
      for (const c of cases) {
        await openViewer(page, base);
        assert.equal(await loadFile(page, join(root, c.file)), 'loaded', c.file);
        const got = await page.evaluate(() => {
          const outline = document.getElementById('view').outline();
          return {
            turns: outline.turns.map((t) => ({ index: t.index, role: t.role, label: t.label })),
            summary: document.getElementById('outline-summary').textContent,
          };
        });
        got.entries = (await outlineEntries(page)).map((e) => ({ compaction: e.compaction, label: e.label, turn: e.turn }));
        const where = `${c.file}: ${JSON.stringify(got)}`;
        // The element's outline says what the turn is, from the page's divider.
        const compactions = got.turns.filter((t) => t.role === 'compaction');
        assert.deepEqual(compactions.map((t) => t.index), c.at, where);
        for (const t of compactions) assert.match(t.label, /^Context compacted\b/, where);
        if (c.labels) assert.deepEqual(compactions.map((t) => t.label), c.labels, where);
        assert.ok(got.turns.every((t) => t.role !== 'user' || !/^Context compacted/.test(t.label)), where);
        // The viewer's outline: one unnumbered entry per compaction, at its turn, and
        // the prompts numbered without them.
        const entries = got.entries.filter((e) => e.compaction);
        assert.deepEqual(entries.map((e) => e.turn), c.at, where);
        assert.deepEqual(entries.map((e) => e.label), compactions.map((t) => t.label), where);
        const numbered = got.entries.filter((e) => !e.compaction).map((e) => e.label.split('.')[0]);
        assert.deepEqual(numbered, Array.from({ length: c.prompts }, (_, i) => String(i + 1)), where);
        assert.ok(!got.entries.some((e) => /Response/.test(e.label)), where);
        assert.match(got.summary, new RegExp(`^${c.prompts} prompts · 2 compactions\\b`), where);
      }
    },
  },
];
