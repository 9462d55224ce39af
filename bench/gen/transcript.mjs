// One generated agent session, written in two wire forms from the same events:
//
// - Cursor Agent CLI `stream-json` with partial output (NDJSON): `system`/`init`, `user`,
//   one `assistant` line per text delta, `tool_call` `started`/`completed` for
//   readToolCall, writeToolCall, editToolCall and shellToolCall, and a final `result`
//   whose text is every message again;
// - the document SSE stream of seed 000 §5: `document_start`, `content_delta`,
//   `tool_call_start`, `tool_call_arguments`, `tool_result`, `document_end`, `done`
//   (the same text deltas and tool calls, the seed's tool names; no user prompt, which
//   that format has no place for).
//
// The byte mix of the NDJSON form is steered to about 48% assistant-delta lines, 47%
// tool_call lines and 5% the final result at every size: after each message come one to
// four tool calls, as many as keep tool_call lines near half of the bytes so far.

import { Rng } from './random.mjs';
import { identifiers, languageOf } from './words.mjs';
import { codeWriter } from './code.mjs';
import { markdownWriter, toDeltas } from './markdown.mjs';
import { shellWriter } from './shell.mjs';

export const SIZES = { '100k': 100_000, '1m': 1_000_000, '10m': 10_000_000 };

const CWD = '/home/dev/transcript-view';
const START_MS = 1_764_000_000_000;

/**
 * Generates a session of about `targetBytes` of NDJSON from `seed`.
 * Returns `{ ndjson, sse, markdown, stats }` (`ndjson` and `sse` as Buffers).
 */
export function generate(targetBytes, seed = 42) {
  const rng = new Rng(seed);
  const ids = identifiers(rng);
  const code = codeWriter(rng, ids);
  const md = markdownWriter(rng, ids, code);
  const shell = shellWriter(rng, ids, code);

  const sessionId = rng.uuid();
  const model = rng.pick(['Claude 4.5 Sonnet', 'GPT-5', 'Auto']);
  const stats = {
    lines: 0, messages: 0, deltas: 0,
    tools: { read: 0, write: 0, edit: 0, shell: 0 },
    bytes: { assistant: 0, tool_call: 0, result: 0, other: 0 },
  };
  const nd = [];
  let ndBytes = 0;
  const line = (text, kind) => {
    nd.push(text);
    const n = Buffer.byteLength(text) + 1;
    ndBytes += n;
    stats.bytes[kind] += n;
    stats.lines++;
  };
  const sse = [];
  const event = (name, data) => sse.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  let docs = 0;
  const nextDoc = () => `doc_${String(++docs).padStart(3, '0')}`;
  const messages = [];
  let markdownBytes = 0;
  let now = START_MS;

  line(JSON.stringify({ type: 'system', subtype: 'init', apiKeySource: 'login', cwd: CWD, session_id: sessionId, model, permissionMode: 'default' }), 'other');
  const prompt = `${md.sentence({ min: 8, max: 20 })} ${md.sentence({ min: 5, max: 15 })}\n\n- ${md.sentence({ min: 3, max: 10, plain: true })}\n- ${md.sentence({ min: 3, max: 10, plain: true })}`;
  line(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] }, session_id: sessionId }), 'other');

  const sid = JSON.stringify(sessionId);
  function message(kind) {
    const text = md.message(kind);
    const deltas = toDeltas(rng, text);
    messages.push(text);
    markdownBytes += Buffer.byteLength(text) + 2;
    stats.messages++;
    stats.deltas += deltas.length;
    const id = nextDoc();
    event('document_start', { id, type: 'text', sequence: docs });
    for (const d of deltas) {
      const t = JSON.stringify(d);
      line(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":${t}}]},"session_id":${sid}}`, 'assistant');
      sse.push(`event: content_delta\ndata: {"documentId":"${id}","delta":${t}}\n\n`);
    }
    event('document_end', { documentId: id });
  }

  const recent = []; // files the agent has seen: { path, lines }
  const remember = (file) => {
    recent.push(file);
    if (recent.length > 8) recent.shift();
  };
  const fileLines = (lang, n) => (lang === 'md' ? md.document(n) : code.lines(lang, n));

  function mutate(lines, lang) {
    const out = [];
    for (const l of lines) {
      const r = rng.next();
      if (r < 0.08 && lines.length > 1) continue;
      out.push(r < 0.33 ? l.replace(/[a-z_]{3,}/, () => ids.snake()) : l);
      if (rng.chance(0.1)) out.push(l.match(/^\s*/)[0] + (code.snippet(lang === 'md' ? 'rs' : lang, 6)[rng.int(0, 5)] ?? '').trim());
    }
    if (out.join('\n') === lines.join('\n')) out.push(lines[lines.length - 1].match(/^\s*/)[0] + '// changed');
    return out;
  }

  function tool(kind) {
    const callId = `toolu_01${rng.chars(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}${rng.chance(0.3) ? '\nfc_' + rng.hex(24) : ''}`;
    const modelCallId = `${rng.uuid()}-${rng.int(0, 9)}`;
    let key, args, result, seedName, seedArgs, seedData, docType;
    if (kind === 'read') {
      const lang = rng.weighted([[45, 'rs'], [35, 'ts'], [10, 'py'], [4, 'toml'], [3, 'json'], [3, 'md']]);
      const path = ids.filePath(lang);
      const lines = fileLines(lang, rng.low(20, 400, 1.7));
      const content = lines.join('\n');
      remember({ path, lines });
      key = 'readToolCall';
      args = { path };
      result = { success: { content, isEmpty: false, exceededLimit: false, totalLines: lines.length, totalChars: content.length } };
      docType = 'tool_call';
      seedName = 'read_file';
      seedArgs = { target_file: path };
      seedData = content;
    } else if (kind === 'write') {
      const lang = rng.weighted([[50, 'rs'], [40, 'ts'], [10, 'py']]);
      const path = ids.filePath(lang);
      const lines = code.lines(lang, rng.low(20, 400, 1.7));
      const fileText = lines.join('\n') + '\n';
      remember({ path, lines });
      key = 'writeToolCall';
      args = { path, fileText, toolCallId: callId };
      result = { success: { path: `${CWD}/${path}`, linesCreated: lines.length, fileSize: Buffer.byteLength(fileText) } };
      docType = 'file_edit';
      seedName = 'write';
      seedArgs = { file_path: path, contents: fileText };
      seedData = { linesCreated: lines.length };
    } else if (kind === 'edit') {
      let file = recent.length && rng.chance(0.85) ? rng.pick(recent) : null;
      if (!file) {
        const lang = rng.chance(0.5) ? 'rs' : 'ts';
        file = { path: ids.filePath(lang), lines: code.lines(lang, 60) };
      }
      const n = Math.min(file.lines.length, rng.low(1, 40, 1.4));
      const at = rng.int(0, file.lines.length - n);
      const oldLines = file.lines.slice(at, at + n);
      const newLines = mutate(oldLines, languageOf(file.path));
      file.lines = [...file.lines.slice(0, at), ...newLines, ...file.lines.slice(at + n)];
      const oldString = oldLines.join('\n');
      const newString = newLines.join('\n');
      key = 'editToolCall';
      args = { path: file.path, oldString, newString };
      result = { success: { path: `${CWD}/${file.path}`, linesAdded: newLines.length, linesRemoved: oldLines.length } };
      docType = 'file_edit';
      seedName = 'edit_file';
      seedArgs = { target_file: file.path, old_string: oldString, new_string: newString };
      seedData = 'ok';
    } else {
      const run = shell();
      key = 'shellToolCall';
      args = { command: run.command, workingDirectory: '', timeout: 120000 };
      result = { success: { command: run.command, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, executionTime: rng.int(50, 60000) } };
      docType = 'terminal_command';
      seedName = 'run_terminal_cmd';
      seedArgs = { command: run.command, cwd: CWD };
      seedData = { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
    }
    stats.tools[kind]++;
    now += rng.int(5, 4000);
    line(JSON.stringify({ type: 'tool_call', subtype: 'started', call_id: callId, tool_call: { [key]: { args } }, model_call_id: modelCallId, session_id: sessionId, timestamp_ms: now }), 'tool_call');
    const took = rng.int(5, 20000);
    now += took;
    line(JSON.stringify({ type: 'tool_call', subtype: 'completed', call_id: callId, tool_call: { [key]: { args, result } }, model_call_id: modelCallId, session_id: sessionId, timestamp_ms: now }), 'tool_call');
    const id = nextDoc();
    event('document_start', { id, type: docType, sequence: docs });
    event('tool_call_start', { documentId: id, toolName: seedName, toolCallId: callId });
    event('tool_call_arguments', { documentId: id, arguments: seedArgs });
    event('tool_result', { documentId: id, result: { status: 'success', data: seedData }, duration_ms: took });
    event('document_end', { documentId: id });
  }

  // An opening like a real session's: a short plan, a look around, a first edit.
  message('short');
  tool('read');
  tool('shell');
  message('short');
  tool('edit');
  // Stop when the closing summary (about 9 KB of delta lines), the result (every message
  // again) and half a round of message and tools (about 8 KB) would reach the target.
  const projected = () => ndBytes + markdownBytes * 1.06 + 17_000;
  while (projected() < targetBytes) {
    // Near the end, no long message (one can add 50 KB of delta lines).
    message(targetBytes - projected() < 60_000 ? rng.weighted([[57, 'short'], [43, 'medium']]) : undefined);
    for (let n = 0; n < 4 && (n === 0 || stats.bytes.tool_call < 0.5 * ndBytes); n++) {
      tool(rng.weighted([[40, 'read'], [27, 'edit'], [20, 'shell'], [13, 'write']]));
    }
  }
  message('medium');
  const markdown = messages.join('\n\n');
  const duration = now - START_MS;
  line(JSON.stringify({ type: 'result', subtype: 'success', duration_ms: duration, duration_api_ms: duration, is_error: false, result: markdown, session_id: sessionId, request_id: rng.uuid() }), 'result');
  event('done', { conversationId: sessionId, model, usage: { promptTokens: 18_000 + stats.messages * 900, completionTokens: stats.deltas * 4, totalTokens: 18_000 + stats.messages * 900 + stats.deltas * 4 }, metadata: { duration_ms: duration } });
  return {
    ndjson: Buffer.from(nd.join('\n') + '\n'),
    sse: Buffer.from(sse.join('')),
    markdown,
    stats,
  };
}
