// Writes a large Cursor Agent CLI `stream-json` transcript (NDJSON) for the viewer's
// load test: many sessions one after another (user prompt, thinking, streamed text,
// file edits, shell runs with long output, a plan, todo updates, result), with
// `timestamp_ms` on the streamed lines. The output is generated, never committed.
//
//   node tests/viewer/gen-large.mjs [--mb 50] [--out FILE]
// prints the path written (default: a new temp dir).
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';

/** Deterministic pseudo-random numbers (mulberry32), so every run writes the same file. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the parser reads each chunk and keeps a buffer of the unfinished line so that ' +
  'a split anywhere gives the same documents state render patch stream markdown fence code ' +
  'diff plan todo terminal output error thinking tool result window scroll viewer test').split(' ');

function sentence(r, n) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
  const s = w.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

/** Lines of one session (one user prompt and the agent's answer), as JSON strings. */
function* session(r, k, clock) {
  const sid = `large-${k}`;
  const line = (o) => JSON.stringify({ ...o, session_id: sid });
  const tick = (ms) => (clock.t += ms);
  yield line({ type: 'system', subtype: 'init', cwd: '/repo', model: 'Auto' });
  yield line({
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: `Task ${k + 1}: ${sentence(r, 8)}` }] },
  });
  for (let i = 0; i < 6; i++) {
    yield line({ type: 'thinking', subtype: 'delta', text: sentence(r, 12) + ' ', timestamp_ms: tick(40) });
  }
  yield line({ type: 'thinking', subtype: 'completed', timestamp_ms: tick(10) });
  if (k % 5 === 0) {
    const todos = [
      { id: `a${k}`, content: 'Read the code', status: 'TODO_STATUS_PENDING', dependencies: [] },
      { id: `b${k}`, content: 'Change it', status: 'TODO_STATUS_PENDING', dependencies: [`a${k}`] },
      { id: `c${k}`, content: 'Run the tests', status: 'TODO_STATUS_PENDING', dependencies: [`b${k}`] },
    ];
    yield line({
      type: 'interaction_query', subtype: 'request', query_type: 'createPlanRequestQuery',
      query: { createPlanRequestQuery: { args: { plan: `# Plan ${k + 1}\n\n${sentence(r, 20)}`, todos, overview: sentence(r, 10), name: `Plan ${k + 1}` } } },
    });
    yield line({
      type: 'interaction_query', subtype: 'response', query_type: 'createPlanRequestQuery',
      response: { createPlanRequestResponse: { result: { success: {} } } },
    });
  }
  // Streamed answer text, in small deltas as the CLI sends them.
  for (let p = 0; p < 4; p++) {
    const para = (p === 2 ? '```rust\nfn main() {\n    println!("' + sentence(r, 4) + '");\n}\n```\n\n' : '') +
      sentence(r, 30) + ' ' + sentence(r, 25) + '\n\n';
    for (let i = 0; i < para.length; i += 24) {
      yield line({
        type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: para.slice(i, i + 24) }] },
        timestamp_ms: tick(15),
      });
    }
  }
  // File edits.
  for (let e = 0; e < 3; e++) {
    const id = `edit_${k}_${e}`;
    const path = `/repo/src/mod_${k % 40}_${e}.rs`;
    const before = Array.from({ length: 30 }, (_, i) => `    let v${i} = ${i}; // ${sentence(r, 5)}`).join('\n') + '\n';
    const after = before.replace('let v3 = 3;', 'let v3 = 33;').replace('let v17 = 17;', 'let v17 = compute(17);');
    const args = { path, toolCallId: id };
    yield line({ type: 'tool_call', subtype: 'started', call_id: id, tool_call: { editToolCall: { args } }, timestamp_ms: tick(30) });
    yield line({
      type: 'tool_call', subtype: 'completed', call_id: id, timestamp_ms: tick(200),
      tool_call: { editToolCall: { args, result: { success: { path, linesAdded: 2, linesRemoved: 2, beforeFullFileContent: before, afterFullFileContent: after } } } },
    });
  }
  // Shell runs, one with long output.
  for (let s = 0; s < 2; s++) {
    const id = `sh_${k}_${s}`;
    const args = { command: s ? 'cargo test' : 'cargo build', workingDirectory: '/repo', timeout: 30000, toolCallId: id, isBackground: false };
    const out = Array.from({ length: s ? 400 : 40 }, (_, i) => `test case_${i} ... ok (${sentence(r, 3)})`).join('\n') + '\n';
    yield line({ type: 'tool_call', subtype: 'started', call_id: id, tool_call: { shellToolCall: { args } }, timestamp_ms: tick(30) });
    yield line({
      type: 'tool_call', subtype: 'completed', call_id: id, timestamp_ms: tick(900),
      tool_call: { shellToolCall: { args, result: { success: { command: args.command, workingDirectory: '/repo', exitCode: 0, signal: '', stdout: out, stderr: '', executionTime: 900 } } } },
    });
  }
  // A generic tool call with a large result.
  {
    const id = `grep_${k}`;
    const args = { pattern: 'fn ', path: 'src' };
    const matches = Array.from({ length: 120 }, (_, i) => ({ file: `src/f${i}.rs`, matches: [{ lineNumber: i, content: sentence(r, 6) }] }));
    yield line({ type: 'tool_call', subtype: 'started', call_id: id, tool_call: { grepToolCall: { args } }, timestamp_ms: tick(20) });
    yield line({
      type: 'tool_call', subtype: 'completed', call_id: id, timestamp_ms: tick(120),
      tool_call: { grepToolCall: { args, result: { success: { pattern: 'fn ', workspaceResults: { '/repo': { content: { matches } } } } } } },
    });
  }
  yield line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Done with task ${k + 1}.` }] }, timestamp_ms: tick(20) });
  yield line({ type: 'result', subtype: 'success', duration_ms: 4000, duration_api_ms: 3500, is_error: false, result: `Done with task ${k + 1}.` });
}

/** Writes about `mb` megabytes to `out`; resolves to the byte count written. */
export async function generate(out, mb = 50) {
  const target = mb * 1024 * 1024;
  const r = rng(42);
  const clock = { t: 1_750_000_000_000 };
  const ws = createWriteStream(out);
  let bytes = 0;
  for (let k = 0; bytes < target; k++) {
    let buf = '';
    for (const l of session(r, k, clock)) buf += l + '\n';
    bytes += Buffer.byteLength(buf);
    if (!ws.write(buf)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
  return bytes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const mb = Number(arg('--mb', '50'));
  const out = arg('--out', join(mkdtempSync(join(tmpdir(), 'docstream-large-')), 'large.jsonl'));
  const bytes = await generate(out, mb);
  console.log(`${out} ${bytes}`);
}
