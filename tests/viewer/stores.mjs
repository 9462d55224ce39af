// Stores for the library tests, built here with the same SQLite the viewer uses
// (@sqlite.org/sqlite-wasm's Node build, in memory, then written out): a Cursor User
// folder (global database in the split and the older inline layout, a workspace
// database naming them, a malformed composer row, a missing and a malformed bubble
// row), a Claude Code projects folder with sub-agents, a truncated database, a large
// generated database of a given size, a store whose newest conversation is in its
// write-ahead log, a conversation whose bubbles total more than 16 MiB, and OpenCode's
// opencode.db.
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const sqlite3 = await sqlite3InitModule({ print: () => {}, printErr: () => {} });

/** Writes a database of `table` rows [[key, value]] (values as text). */
function kvDb(path, table, rows) {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    db.exec(`PRAGMA page_size = 4096;
      CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
      ${table === 'ItemTable' ? '' : `CREATE TABLE ${table} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`}`);
    const q = db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?)`);
    db.transaction(() => {
      for (const [k, v] of rows) q.bind([k, typeof v === 'string' ? v : JSON.stringify(v)]).stepReset();
    });
    q.finalize();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, sqlite3.capi.sqlite3_js_db_export(db));
  } finally {
    db.close();
  }
}

const jsonl = (lines) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');

/** A Cursor `User` folder under `root`; returns its path. */
export function cursorUserDir(root) {
  const user = join(root, 'User');
  const bubble = (c, id, v) => [`bubbleId:${c}:${id}`, v];
  kvDb(join(user, 'globalStorage', 'state.vscdb'), 'cursorDiskKV', [
    ['composerData:c-split', { _v: 3, composerId: 'c-split', createdAt: 1735000000000, lastUpdatedAt: 1735000500000,
      fullConversationHeadersOnly: [{ bubbleId: 'b1', type: 1 }, { bubbleId: 'b2', type: 2 }, { bubbleId: 'b3', type: 2 }], conversationMap: {} }],
    bubble('c-split', 'b1', { type: 1, bubbleId: 'b1', text: 'Make the greeting louder' }),
    bubble('c-split', 'b2', { type: 2, bubbleId: 'b2', text: 'Editing hello.py.',
      toolFormerData: { toolCallId: 'call-edit', name: 'edit_file', status: 'completed',
        rawArgs: JSON.stringify({ target_file: 'src/hello.py', code_edit: "print('HELLO')\n" }), result: '{"isApplied": true}' } }),
    bubble('c-split', 'b3', { type: 2, bubbleId: 'b3',
      toolFormerData: { toolCallId: 'call-run', name: 'run_terminal_cmd', status: 'completed',
        rawArgs: JSON.stringify({ command: 'python3 src/hello.py --shout' }), result: '{"output": "HELLO\\n", "exitCode": 0}' } }),
    ['composerData:c-inline', { _v: 1, composerId: 'c-inline', name: 'Old chat', createdAt: 1700000000000,
      conversation: [{ type: 1, bubbleId: 'i1', text: 'What does the tokenizer do?' }, { type: 2, bubbleId: 'i2', text: 'It splits **lines**.' }] }],
    ['composerData:c-gaps', { _v: 3, composerId: 'c-gaps', name: 'Gaps', createdAt: 1720000000000,
      fullConversationHeadersOnly: [{ bubbleId: 'g1', type: 1 }, { bubbleId: 'g2', type: 2 }, { bubbleId: 'g3', type: 2 }, { bubbleId: 'g4', type: 2 }] }],
    bubble('c-gaps', 'g1', { type: 1, bubbleId: 'g1', text: 'Count to three' }),
    ['bubbleId:c-gaps:g3', '{"type": 2, "text": "tw'],
    bubble('c-gaps', 'g4', { type: 2, bubbleId: 'g4', text: 'three' }),
    ['composerData:c-bad', '{"composerId": "c-bad", "fullConv'],
    ['composerData:c-empty', { _v: 3, composerId: 'c-empty', fullConversationHeadersOnly: [] }],
  ]);
  const ws = join(user, 'workspaceStorage', '7f3a');
  kvDb(join(ws, 'state.vscdb'), 'ItemTable', [
    ['composer.composerData', { allComposers: [{ type: 'head', composerId: 'c-split', name: 'Louder greeting' }, { type: 'head', composerId: 'c-inline' }] }],
  ]);
  writeFileSync(join(ws, 'workspace.json'), '{"folder": "file:///home/dev/hello%20app"}');
  return user;
}

/** A Claude Code `projects` folder under `root`; returns its path. */
export function claudeProjects(root) {
  const p = join(root, 'projects', '-home-dev-hello-app');
  mkdirSync(join(p, 's-main', 'subagents'), { recursive: true });
  const base = { sessionId: 's-main', isSidechain: false, cwd: '/home/dev/hello app', version: '2.0.30' };
  writeFileSync(join(p, 's-main.jsonl'), jsonl([
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2025-06-01T09:00:00.000Z', message: { role: 'user', content: 'Find where greet() is called and rename it' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2025-06-01T09:00:05.000Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [
      { type: 'text', text: 'I will ask a helper.' },
      { type: 'tool_use', id: 'toolu_find', name: 'Task', input: { description: 'Find callers', prompt: 'List every caller of greet()' } }],
      usage: { input_tokens: 1200, output_tokens: 80, cache_read_input_tokens: 900 } } },
    { ...base, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2025-06-01T09:01:00.000Z', toolUseResult: { status: 'completed', agentId: 'ab12' },
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_find', content: 'src/app.py:3' }] } },
    { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'u2', timestamp: '2025-06-01T09:02:00.000Z', message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [
      { type: 'tool_use', id: 'toolu_sed', name: 'Bash', input: { command: 'sed -i s/greet/welcome/ src/app.py' } }],
      usage: { input_tokens: 1500, output_tokens: 40 } } },
  ]));
  writeFileSync(join(p, 's-main', 'subagents', 'agent-ab12.jsonl'), jsonl([
    { type: 'user', sessionId: 's-main', agentId: 'ab12', isSidechain: true, uuid: 'x1', parentUuid: null, timestamp: '2025-06-01T09:00:30.000Z', message: { role: 'user', content: 'List every caller of greet()' } },
    { type: 'assistant', sessionId: 's-main', agentId: 'ab12', isSidechain: true, uuid: 'x2', parentUuid: 'x1', timestamp: '2025-06-01T09:00:40.000Z', message: { id: 'msg_x', role: 'assistant', content: [{ type: 'text', text: 'One caller: src/app.py line 3 (zebra-marker).' }], usage: { input_tokens: 300, output_tokens: 20 } } },
  ]));
  writeFileSync(join(p, 's-new.jsonl'), jsonl([
    { type: 'summary', summary: 'Rename greet to welcome', leafUuid: 'a2' },
    { type: 'user', sessionId: 's-new', uuid: 'n1', parentUuid: null, cwd: '/home/dev/hello app', timestamp: '2025-06-02T10:00:00.000Z', message: { role: 'user', content: 'Run the tests' } },
    { type: 'assistant', sessionId: 's-new', uuid: 'n2', parentUuid: 'n1', cwd: '/home/dev/hello app', timestamp: '2025-06-02T10:00:09.000Z', message: { id: 'msg_n', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'All 12 tests pass.' }], usage: { input_tokens: 5200, output_tokens: 30 } } },
  ]));
  return join(root, 'projects');
}

/**
 * A Cursor global database of about `mb` megabytes: composers of 40 bubbles each
 * (prompts, answers with Markdown, tool calls with large results). Returns
 * { path, bytes, composers, needle } where `needle` is a word in exactly one prompt.
 */
export function largeCursorDb(path, mb) {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const target = mb * 1024 * 1024;
  let bytes = 0;
  let composers = 0;
  const filler = 'lorem ipsum dolor sit amet consectetur '.repeat(60);
  const output = 'line of build output 0123456789\n'.repeat(700);
  try {
    db.exec('PRAGMA page_size = 4096; CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);');
    const q = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    db.transaction(() => {
      while (bytes < target) {
        const c = `large-${String(composers).padStart(5, '0')}`;
        const headers = [];
        for (let b = 0; b < 40; b++) {
          const id = `${c}-b${b}`;
          const human = b % 10 === 0;
          headers.push({ bubbleId: id, type: human ? 1 : 2 });
          const v = human
            ? { type: 1, bubbleId: id, text: `Task ${composers}.${b}: ${composers === 7 && b === 0 ? 'find the quokka-needle in the parser' : 'refactor the module'} ${filler.slice(0, 200)}` }
            : b % 3 === 0
              ? { type: 2, bubbleId: id, toolFormerData: { toolCallId: `call-${id}`, name: 'run_terminal_cmd', status: 'completed', rawArgs: JSON.stringify({ command: `cargo test -p crate${b}` }), result: JSON.stringify({ output, exitCode: 0 }) } }
              : { type: 2, bubbleId: id, text: `## Step ${b}\n\n${filler}\n\n\`\`\`rust\nfn step_${b}() {}\n\`\`\`` };
          const text = JSON.stringify(v);
          bytes += text.length + 60;
          q.bind([`bubbleId:${c}:${id}`, text]).stepReset();
        }
        q.bind([`composerData:${c}`, JSON.stringify({ _v: 3, composerId: c, name: `Generated conversation ${composers}`, createdAt: 1730000000000 + composers * 60000, fullConversationHeadersOnly: headers })]).stepReset();
        composers++;
      }
    });
    q.finalize();
    const out = sqlite3.capi.sqlite3_js_db_export(db);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, out);
    return { path, bytes: out.length, composers, needle: 'quokka-needle' };
  } finally {
    db.close();
  }
}

/**
 * A Cursor global database whose newest conversation (`c-new`) is only in its
 * write-ahead log, copied without a `-shm` (as a folder copied while no program had it
 * open): `c-old` is in the database file. Written by Python's sqlite3 (the WAL needs a
 * real file system, which the Node build of sqlite-wasm does not have). Returns the
 * folder holding `state.vscdb` and `state.vscdb-wal`.
 */
export function walStore(root) {
  const dir = join(root, 'wal-store');
  mkdirSync(dir, { recursive: true });
  const composer = (id, bubble, text) => [
    [`composerData:${id}`, JSON.stringify({ _v: 3, composerId: id, name: `Conversation ${id}`, createdAt: id === 'c-new' ? 1736000000000 : 1735000000000, fullConversationHeadersOnly: [{ bubbleId: bubble, type: 1 }] })],
    [`bubbleId:${id}:${bubble}`, JSON.stringify({ type: 1, bubbleId: bubble, text })],
  ];
  const script = `
import json, os, shutil, sqlite3, sys
d, old, new = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
work = os.path.join(d, 'work.db')
c = sqlite3.connect(work, isolation_level=None)
c.execute('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
c.execute('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
c.execute('PRAGMA journal_mode = wal')
c.executemany('INSERT INTO cursorDiskKV VALUES (?, ?)', old)
c.execute('PRAGMA wal_checkpoint(TRUNCATE)')
c.execute('PRAGMA wal_autocheckpoint = 0')
c.executemany('INSERT INTO cursorDiskKV VALUES (?, ?)', new)
shutil.copy(work, os.path.join(d, 'state.vscdb'))
shutil.copy(work + '-wal', os.path.join(d, 'state.vscdb-wal'))
c.close()
for suffix in ('', '-wal', '-shm'):
    if os.path.exists(work + suffix):
        os.remove(work + suffix)
`;
  execFileSync('python3', ['-c', script, dir, JSON.stringify(composer('c-old', 'o1', 'The old prompt')), JSON.stringify(composer('c-new', 'n1', 'The newest prompt, only in the log'))]);
  return dir;
}

/**
 * A Cursor global database of one conversation of 40 bubbles of 500 KB (20 MB in all,
 * over the 16 MiB one event may hold) and one whose second bubble is 17 MiB.
 */
export function largeConversationDb(path) {
  const rows = [];
  const add = (id, texts) => {
    rows.push([`composerData:${id}`, { _v: 3, composerId: id, name: `Conversation ${id}`, createdAt: 1735000000000, fullConversationHeadersOnly: texts.map((_, i) => ({ bubbleId: `b${i}`, type: i % 2 ? 2 : 1 })) }]);
    texts.forEach((text, i) => rows.push([`bubbleId:${id}:b${i}`, { type: i % 2 ? 2 : 1, bubbleId: `b${i}`, text }]));
  };
  add('c-large', Array.from({ length: 40 }, (_, i) => `bubble ${String(i).padStart(2, '0')} ${'x'.repeat(500_000)}`));
  add('c-huge', ['bubble 00 before', 'y'.repeat(17 * 1024 * 1024), 'bubble 02 after']);
  kvDb(path, 'cursorDiskKV', rows);
  return path;
}

/**
 * OpenCode's `opencode.db` at `path`, with the tables of its schema (as
 * `docstream_testkit::stores::opencode_db` writes them: `session`, `message`, `part`, the
 * `data` columns the message or part without the ids the row holds), holding each
 * session of `exports` (`opencode export` output: `{info, messages: [{info, parts}]}`).
 */
export function opencodeDb(path, exports) {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const without = (v, keys) => JSON.stringify(Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k))));
  try {
    db.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text,
        parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL,
        version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer,
        summary_files integer, summary_diffs text, cost real NOT NULL DEFAULT 0, revert text,
        permission text, agent text, model text, time_created integer NOT NULL,
        time_updated integer NOT NULL, time_compacting integer, time_archived integer);
      CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL,
        time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
      CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
        time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);`);
    db.transaction(() => {
      for (const { info, messages } of exports) {
        const created = info.time.created;
        db.exec({
          sql: `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
            VALUES (?, 'prj', ?, 'slug', ?, ?, '1.0.0', ?, ?)`,
          bind: [info.id, info.parentID ?? null, info.directory ?? '', info.title ?? '', created, info.time.updated ?? created],
        });
        for (const m of messages) {
          const at = m.info.time.created;
          db.exec({ sql: 'INSERT INTO message VALUES (?, ?, ?, ?, ?)', bind: [m.info.id, info.id, at, at, without(m.info, ['id', 'sessionID'])] });
          for (const p of m.parts) {
            db.exec({ sql: 'INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', bind: [p.id, m.info.id, info.id, at, at, without(p, ['id', 'sessionID', 'messageID'])] });
          }
        }
      }
    });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, sqlite3.capi.sqlite3_js_db_export(db));
  } finally {
    db.close();
  }
}
