// The library's worker: reads stores off the page's thread. Given the files of a
// folder (or one file) it lists every conversation — Cursor's state.vscdb through
// SQLite (loaded only when a database is opened) over lazy File slices, Claude Code
// session files, other transcripts — then reads each once (docstream's DocStream,
// no DOM) for exact counts and the search index. Nothing is written anywhere and
// nothing leaves the page.
//
// Messages in:  {type: 'open', files: [{path, file}]}, {type: 'read', id, req},
//               {type: 'search', query, req}
// Messages out: {type: 'list', entries, stats}, {type: 'progress', done, total, phase},
//               {type: 'entries', entries} (updated counts), {type: 'indexed', stats},
//               {type: 'conversation', req, id, text, format, limits}, {type: 'hits', req, query, results},
//               {type: 'error', req?, message}

import init, { DocStream } from '../../../pkg/docstream.js';
import { installFileVfs } from './file-vfs.js';
import { asText, readComposer, promptText, workspaceComposers, workspaceFolder, assemble, scanClaude, listClaude, newEntry, order, digest, oneLine, MAX_ROW_BYTES, tooLarge, sizeText, readLimits } from './stores.js';

/**
 * Search text kept in memory, in UTF-16 code units (about 2 bytes each): beyond it
 * conversations are still listed and counted, and the search says it is partial.
 */
const SEARCH_BUDGET = 64 * 1024 * 1024;
/** Hits returned by a search, and per conversation. */
const MAX_HITS = 300;
const PER_CONVERSATION = 3;

const moduleReady = init();
let sqlitePromise = null;
let vfs = null;

/** SQLite, the first time a database is opened. */
function sqlite() {
  sqlitePromise ??= import('../vendor/sqlite-wasm/index.mjs')
    .then((m) => m.default({ print: () => {}, printErr: () => {} }))
    .then((s) => {
      vfs = installFileVfs(s);
      return s;
    });
  return sqlitePromise;
}

let generation = 0;
/** id → { entry, source } */
let items = new Map();
/** [{ id, parts: [[anchor, text, lower]] }] */
let index = [];
let indexedChars = 0;
let partial = 0;
const databases = [];

function post(msg) {
  self.postMessage(msg);
}

function closeDatabases() {
  for (const d of databases.splice(0)) {
    try {
      d.db.close();
    } catch {
      /* closing is best effort */
    }
    vfs?.unregister(d.name);
    vfs?.unregister(`${d.name}-wal`);
  }
}

/**
 * A value column read with its size guard: SQLite never loads a value over
 * MAX_ROW_BYTES (a generated column cannot make a gigabyte per row either: the
 * connection's length limit is MAX_ROW_BYTES).
 */
const guarded = (column) => `CASE WHEN octet_length(${column}) <= ${MAX_ROW_BYTES} THEN ${column} END, octet_length(${column})`;

/** The row value of a guarded read: its bytes, or { tooLarge } . */
const rowValue = (value, length) => (value == null && length > MAX_ROW_BYTES ? { tooLarge: length } : value);

/** Opens a registered database read-only, hardened against what the file holds. */
function connect(s, name) {
  const db = new s.oo1.DB({ filename: name, flags: 'r', vfs: vfs.name });
  const { capi } = s;
  if (capi.sqlite3_limit) capi.sqlite3_limit(db.pointer, capi.SQLITE_LIMIT_LENGTH ?? 0, MAX_ROW_BYTES);
  return db;
}

/**
 * Opens a Cursor database as the CLI does (src/library/store.rs): with its write-ahead
 * log when the folder has one (the log's index in memory: exclusive locking mode, set
 * before anything is read), else the file alone. A log that cannot be read is said.
 */
function openDb(s, name, path, wal) {
  const settle = (db) => {
    db.exec('PRAGMA trusted_schema = OFF; PRAGMA query_only = ON; PRAGMA cache_size = -2048');
    return db;
  };
  if (wal) {
    vfs.register(`${name}-wal`, wal);
    let db;
    try {
      db = connect(s, name);
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.selectValue('SELECT count(*) FROM sqlite_master');
      return { db: settle(db), note: null };
    } catch (e) {
      try {
        db?.close();
      } catch {
        /* closing is best effort */
      }
      vfs.unregister(`${name}-wal`);
      const note = `not read: ${path}-wal (${sizeText(wal.size)}), the write-ahead log of ${path}: it could not be read (${String(e?.message ?? e)}); the list is of the database file alone and may miss its newest messages`;
      return { db: settle(connect(s, name)), note };
    }
  }
  return { db: settle(connect(s, name)), note: null };
}

function errorEntry(id, agent, source, message) {
  const e = newEntry(id, agent, source);
  e.title = id === source ? `Could not read ${source}` : `Unreadable conversation ${id}`;
  e.error = message;
  return e;
}

/** A SQLite error as a sentence naming the file. */
function dbMessage(path, e) {
  const m = String(e?.message ?? e);
  let hint = '';
  if (/NOTADB|not a database/i.test(m)) hint = ' (the file is not a SQLite database)';
  else if (/CORRUPT|malformed/i.test(m)) hint = ' (the file is damaged or truncated)';
  else if (/BUSY|LOCKED/i.test(m)) hint = ' (the database is locked)';
  return `cannot read ${path}: ${m}${hint}`;
}

async function listCursor(dbFiles, workspaceJson, wals, notes) {
  const out = [];
  if (!dbFiles.length) return out;
  const s = await sqlite();
  const workspaces = new Map();
  const globals = [];
  for (const { path, file } of dbFiles) {
    if (!file.size) {
      out.push({ entry: errorEntry(path, 'cursor', path, `cannot read ${path}: the file is empty (0 bytes): there is no database in it`), source: null });
      continue;
    }
    const name = `db${databases.length}-${path.replace(/[^\w.-]+/g, '_')}`;
    vfs.register(name, file);
    let db;
    try {
      const opened = openDb(s, name, path, wals.get(`${path}-wal`));
      db = opened.db;
      if (opened.note) notes.push(opened.note);
      databases.push({ name, db, path });
      const tables = new Set(db.selectValues("SELECT name FROM sqlite_master WHERE type = 'table'"));
      const composers = [];
      const prompts = new Map();
      if (tables.has('cursorDiskKV')) {
        db.exec({
          sql: `SELECT key, ${guarded('value')} FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;'`,
          rowMode: 'array',
          callback: ([key, value, length]) => {
            const id = key.slice('composerData:'.length);
            try {
              const v = rowValue(value, length);
              if (v?.tooLarge != null) throw new Error(tooLarge(key, v.tooLarge));
              composers.push([id, readComposer(id, v)]);
            } catch (e) {
              composers.push([id, e]);
            }
          },
        });
        const first = db.prepare(`SELECT ${guarded('value')} FROM cursorDiskKV WHERE key = ?`);
        try {
          for (const [id, c] of composers) {
            if (c instanceof Error || c.name || c.firstPrompt || !c.bubbles.length) continue;
            first.bind([`bubbleId:${id}:${c.bubbles[0]}`]);
            if (first.step()) {
              const v = first.get(0);
              const p = v == null ? null : promptText(v);
              if (p) prompts.set(id, p);
            }
            first.reset(true);
          }
        } finally {
          first.finalize();
        }
      }
      if (tables.has('ItemTable')) {
        const v = db.selectValue(`SELECT CASE WHEN octet_length(value) <= ${MAX_ROW_BYTES} THEN value END FROM ItemTable WHERE key = 'composer.composerData'`);
        if (v != null) {
          const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
          const folder = workspaceJson.get(dir) ?? null;
          for (const w of workspaceComposers(v)) workspaces.set(w.id, { folder, w });
        }
      }
      globals.push({ path, db, composers, prompts });
    } catch (e) {
      out.push({ entry: errorEntry(path, 'cursor', path, dbMessage(path, e)), source: null });
    }
  }
  let empty = 0;
  const listed = new Set();
  for (const g of globals) {
    for (const [id, c] of g.composers) {
      if (c instanceof Error) {
        out.push({ entry: errorEntry(id, 'cursor', g.path, c.message), source: null });
        continue;
      }
      if (!c.bubbles.length && !c.inline) {
        empty++;
        continue;
      }
      listed.add(id);
      const ws = workspaces.get(id);
      const e = newEntry(id, 'cursor', g.path);
      const title = c.name ?? ws?.w.name ?? c.firstPrompt ?? g.prompts.get(id);
      e.title = title ? oneLine(title) : `Conversation ${id}`;
      e.project = ws?.folder ?? null;
      e.created = c.created ?? ws?.w.created ?? null;
      e.updated = c.updated ?? ws?.w.updated ?? null;
      e.messages = c.messages;
      out.push({ entry: e, source: { kind: 'cursor', db: g.db, composer: id, bubbles: c.bubbles } });
    }
  }
  if (globals.every((g) => !g.composers.length)) {
    for (const [id, { folder, w }] of [...workspaces].sort()) {
      if (listed.has(id)) continue;
      const e = newEntry(id, 'cursor', '');
      e.title = w.name ?? `Conversation ${id}`;
      e.project = folder;
      e.created = w.created;
      e.error = "Its messages are in Cursor's globalStorage/state.vscdb, which was not opened; open the folder holding both globalStorage and workspaceStorage.";
      out.push({ entry: e, source: null });
    }
  }
  out.empty = empty;
  return out;
}

async function listClaudeFiles(jsonl) {
  const out = [];
  const files = [];
  const others = [];
  for (const f of jsonl) {
    const text = await f.file.text();
    const scan = scanClaude(text);
    if (scan.isTranscript) files.push({ path: f.path, scan, file: f.file });
    else others.push(f);
  }
  for (const it of listClaude(files)) {
    out.push({ entry: it.entry, source: { kind: 'claude', file: files[it.file].file, lines: it.lines } });
  }
  return { out, others };
}

/** The agent a transcript file's format belongs to (as `Agent::of_format` in Rust). */
function agentOf(format) {
  const agent = ['cursor', 'claude-code', 'codex', 'gemini-cli'].find((a) => format.startsWith(`${a}-`));
  return agent ?? 'file';
}

function listFiles(files) {
  return files.map(({ path, file }) => {
    const e = newEntry(path, 'file', path);
    e.title = path.split('/').pop();
    return { entry: e, source: { kind: 'file', file } };
  });
}

/** The text of a conversation and its format. */
async function conversationText({ source }) {
  if (source.kind === 'cursor') {
    const { db, composer, bubbles } = source;
    const key = `composerData:${composer}`;
    const [value, length] = db.selectArray(`SELECT ${guarded('value')} FROM cursorDiskKV WHERE key = ?`, [key]) ?? [];
    if (value == null && length > MAX_ROW_BYTES) throw new Error(tooLarge(key, length));
    const rows = new Map();
    const prefix = `bubbleId:${composer}:`;
    db.exec({
      sql: `SELECT key, ${guarded('value')} FROM cursorDiskKV WHERE key >= ? AND key < ?`,
      bind: [prefix, `${prefix.slice(0, -1)};`],
      rowMode: 'array',
      callback: ([k, v, n]) => rows.set(k.slice(prefix.length), rowValue(v, n)),
    });
    return { text: assemble(value, rows, bubbles), format: 'cursor-store' };
  }
  if (source.kind === 'claude') {
    const text = await source.file.text();
    if (!source.lines) return { text, format: 'claude-code-transcript' };
    return { text: source.lines.map(([a, b]) => { const l = text.slice(a, b); return l.endsWith('\n') ? l : `${l}\n`; }).join(''), format: 'claude-code-transcript' };
  }
  return { text: await source.file.text(), format: 'auto' };
}

function parse(text, format) {
  // The event limit applies to each bubble (assemble held them to it), not to the whole.
  const s = new DocStream(format === 'cursor-store' ? { format, limits: readLimits(text) } : { format });
  try {
    s.push(text);
    s.finish();
    return s.snapshot();
  } finally {
    s.free();
  }
}

async function open(files, gen) {
  closeDatabases();
  items = new Map();
  index = [];
  indexedChars = 0;
  partial = 0;
  const started = performance.now();
  await moduleReady;
  const dbs = [];
  const jsonl = [];
  const other = [];
  const workspaceJson = new Map();
  const wals = new Map();
  const notes = [];
  for (const f of files) {
    const name = f.path.split('/').pop();
    if (name.endsWith('.vscdb')) dbs.push(f);
    else if (name.endsWith('.vscdb-wal')) wals.set(f.path, f.file);
    else if (name === 'workspace.json') {
      const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
      workspaceJson.set(dir, workspaceFolder(await f.file.text()));
    } else if (/\.(jsonl|ndjson)$/.test(name)) jsonl.push(f);
    else if (/\.(json|sse|txt|log)$/.test(name)) other.push(f);
  }
  const cursorItems = await listCursor(dbs, workspaceJson, wals, notes);
  if (gen !== generation) return;
  const { out: claudeItems, others } = await listClaudeFiles(jsonl);
  const all = [...cursorItems, ...claudeItems, ...listFiles([...others, ...other])];
  const seen = new Set();
  for (const it of all) {
    let id = it.entry.id;
    for (let n = 2; seen.has(id); n++) id = `${it.entry.id}~${n}`;
    it.entry.id = id;
    seen.add(id);
    items.set(id, it);
  }
  const ordered = order(all.map((it) => it.entry));
  post({ type: 'list', entries: ordered, stats: { empty: cursorItems.empty ?? 0, ms: performance.now() - started, files: files.length, notes } });

  // Index: read each conversation once.
  const toRead = ordered.filter((e) => !e.error);
  let done = 0;
  let batch = [];
  let lastPost = 0;
  for (const e of toRead) {
    if (gen !== generation) return;
    const it = items.get(e.id);
    try {
      const { text, format } = await conversationText(it);
      const snap = parse(text, format);
      const d = digest(snap);
      if (it.source.kind === 'file') {
        if (!snap.format) {
          // Not a transcript: dropped from the list.
          items.delete(e.id);
          batch.push({ id: e.id, removed: true });
          done++;
          continue;
        }
        if (d.firstPrompt) it.entry.title = oneLine(d.firstPrompt);
        it.entry.format = snap.format;
        it.entry.agent = agentOf(snap.format);
      }
      it.entry.messages = d.messages;
      it.entry.tools = d.tools;
      it.entry.errors = d.errors;
      it.entry.created ??= d.created;
      it.calls = d.calls;
      const chars = d.parts.reduce((n, [, t]) => n + t.length, 0);
      if (indexedChars + chars <= SEARCH_BUDGET) {
        indexedChars += chars;
        index.push({ id: e.id, parts: d.parts.map(([a, t]) => [a, t, t.toLocaleLowerCase()]) });
      } else partial++;
    } catch (err) {
      it.entry.error = String(err?.message ?? err);
    }
    batch.push(it.entry);
    done++;
    const now = performance.now();
    if (now - lastPost > 100 || done === toRead.length) {
      lastPost = now;
      post({ type: 'entries', entries: batch });
      post({ type: 'progress', phase: 'indexing', done, total: toRead.length });
      batch = [];
    }
  }
  if (batch.length) post({ type: 'entries', entries: batch });
  post({ type: 'indexed', stats: { conversations: toRead.length, ms: performance.now() - started, searchChars: indexedChars, notSearchable: partial } });
}

function search(query) {
  const needle = query.trim().toLocaleLowerCase();
  const results = [];
  if (!needle) return results;
  let hits = 0;
  const byId = new Map(index.map((x) => [x.id, x]));
  for (const [id, it] of items) {
    const found = [];
    const e = it.entry;
    if (`${e.title}\n${e.project ?? ''}`.toLocaleLowerCase().includes(needle)) found.push({ anchor: null, snippet: e.title, at: e.title.toLocaleLowerCase().indexOf(needle), len: needle.length });
    for (const [anchor, text, lower] of byId.get(id)?.parts ?? []) {
      if (found.length >= PER_CONVERSATION) break;
      const at = lower.indexOf(needle);
      if (at < 0) continue;
      const from = Math.max(0, at - 60);
      const snippet = `${from > 0 ? '…' : ''}${text.slice(from, at + needle.length + 80)}`.replace(/\s+/g, ' ');
      found.push({ anchor, snippet, at: snippet.toLocaleLowerCase().indexOf(needle), len: needle.length });
    }
    if (!found.length) continue;
    results.push({ id, hits: found });
    hits += found.length;
    if (hits >= MAX_HITS) break;
  }
  return results;
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'open') {
      const gen = ++generation;
      await open(data.files, gen);
    } else if (data.type === 'read') {
      const it = items.get(data.id);
      if (!it) throw new Error(`no conversation ${data.id}`);
      if (!it.source) throw new Error(it.entry.error ?? 'nothing to read');
      const { text, format } = await conversationText(it);
      // Where the sub-agent links go: the document of the tool call that started it.
      const docOf = (conversation, call) => (call ? items.get(conversation)?.calls?.find(([c]) => c === call)?.[1] ?? null : null);
      const parent = it.entry.parent;
      const parentDoc = parent ? docOf(parent.conversation, parent.toolCallId) : null;
      const children = it.entry.children.map((id) => [id, docOf(data.id, items.get(id)?.entry.parent?.toolCallId)]);
      // The limits it is to be read with: the event limit per bubble, not per conversation.
      const limits = format === 'cursor-store' ? readLimits(text) : null;
      post({ type: 'conversation', req: data.req, id: data.id, text, format, limits, parentDoc, children });
    } else if (data.type === 'search') {
      post({ type: 'hits', req: data.req, query: data.query, results: search(data.query), partial });
    }
  } catch (e) {
    post({ type: 'error', req: data.req, message: String(e?.message ?? e) });
  }
};
