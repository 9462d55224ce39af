// A thread of many small documents for the append run, in Cursor stream-json: one
// user prompt, then pairs of a short assistant message (three deltas of Markdown) and
// a shell call with a few lines of output; each pair is two documents. The thread is
// left open (no `result` line), so that more can be appended to it.

const SID = 'bench-thread-0000';

const line = (o) => `${JSON.stringify({ ...o, session_id: SID })}\n`;
const delta = (text) => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });

/** The lines of pair `k`: a message and a shell call (two documents). */
export function pair(k) {
  const id = `toolu_bench_${k}`;
  const args = { command: `cargo test -p crate_${k % 97} -- step_${k}`, workingDirectory: '', timeout: 120000 };
  const stdout = `running 3 tests\ntest step_${k}::parses ... ok\ntest step_${k}::renders ... ok\ntest step_${k}::streams ... ok\n\ntest result: ok. 3 passed; 0 failed\n`;
  return (
    delta(`Step ${k}: I read \`src/step_${k}.rs\` and `) +
    delta(`changed **one** line; the tests of crate_${k % 97} `) +
    delta('should pass now:\n\n- parse\n- render\n') +
    line({ type: 'tool_call', subtype: 'started', call_id: id, tool_call: { shellToolCall: { args } } }) +
    line({ type: 'tool_call', subtype: 'completed', call_id: id, tool_call: { shellToolCall: { args, result: { success: { command: args.command, exitCode: 0, stdout, stderr: '', executionTime: 900 } } } } })
  );
}

/** A thread of about `docs` documents (a prompt and docs/2 pairs), open at its end. */
export function thread(docs) {
  const parts = [
    line({ type: 'system', subtype: 'init', cwd: '/home/dev/bench', model: 'Auto', permissionMode: 'default' }),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Go through every step and run its tests.' }] } }),
  ];
  for (let k = 0; k < Math.floor(docs / 2); k++) parts.push(pair(k));
  return Buffer.from(parts.join(''));
}
