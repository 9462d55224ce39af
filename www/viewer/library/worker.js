// The library's worker: reads stores off the page's thread. Given the files of a
// folder (or one file) it lists every conversation — Cursor's state.vscdb and
// OpenCode's opencode.db through SQLite (loaded only when a database is opened) over lazy File slices, Claude Code
// session files read in pieces, other transcripts — then reads each once for exact
// counts and the search index. Nothing is written anywhere and nothing leaves the page.
//
// The rules are Rust's: this worker does the IO (stores.js) and hands every row and
// byte to docstream-library's readers, compiled to ../vendor/library/ (crates/library-wasm,
// built by scripts/build-library-wasm.sh) — the readers `docstream list` uses, so the
// viewer lists what the CLI lists. That module parses the conversations too: the worker
// loads no other docstream module.
//
// Messages in:  {type: 'open', files: [{path, file}]}, {type: 'read', id, req},
//               {type: 'search', query, req}
// Messages out: {type: 'list', entries, stats}, {type: 'progress', done, total, phase},
//               {type: 'entries', entries} (updated counts), {type: 'indexed', stats},
//               {type: 'conversation', req, id, text, format, limits, subagents: [[agentId, bytes]]},
//               {type: 'hits', req, query, results},
//               {type: 'error', req?, message}

import init, { Assembler, Catalog, CursorDb, OpenCodeAssembler, OpenCodeDb, Reader, Scanner, cursorEventLimit, fileKind, isOpenCodeDb, leftBesideOpenCodeDb, maxRowBytes, maxSubagentFile, maxWorkspaceJson, searched, emptyDatabase } from '../vendor/library/library.js';
import { Database, fileError, pieces } from './stores.js';

/**
 * Search text kept in memory, in UTF-16 code units (about 2 bytes each): beyond it
 * conversations are still listed and counted, and the search says it is partial.
 */
const SEARCH_BUDGET = 64 * 1024 * 1024;
/** Hits returned by a search, and per conversation. */
const MAX_HITS = 300;
const PER_CONVERSATION = 3;

const moduleReady = init();

let generation = 0;
/** The files given, by number (the catalog names them so). */
let files = [];
/** Open databases, by file number. */
let databases = new Map();
/** The list (Rust's), and id → { entry, at, source, calls }. */
let listing = null;
let items = new Map();
/** [{ id, parts: [[anchor, text, lower]] }] */
let index = [];
let indexedChars = 0;
let partial = 0;

function post(msg, transfer = []) {
  self.postMessage(msg, transfer);
}

function reset() {
  for (const d of databases.values()) d.close();
  databases = new Map();
  listing?.free();
  listing = null;
  items = new Map();
  index = [];
  indexedChars = 0;
  partial = 0;
}

const dirOf = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * Whether a file of the given folder is read: no folder below it hidden or node_modules,
 * and nothing OpenCode keeps beside its database (`homes`: the folders holding one) but
 * the database, as the CLI's folder scan leaves them.
 */
function wanted(path, homes) {
  const parts = path.split('/');
  // The first part of a picked folder's paths is that folder, given by the person.
  if (!parts.slice(parts.length > 1 ? 1 : 0).every(searched)) return false;
  // Each folder on the way (from the top, ''): is the next part left beside its database?
  for (let i = 0; i < parts.length; i++) {
    if (homes.has(parts.slice(0, i).join('/')) && leftBesideOpenCodeDb(parts[i], i === parts.length - 1)) return false;
  }
  return true;
}

/** The folders holding an OpenCode database ('' for the files given at the top). */
function openCodeHomes(given) {
  const homes = new Set();
  for (const { path } of given) if (isOpenCodeDb(path.split('/').pop())) homes.add(dirOf(path));
  return homes;
}

/** An OpenCode database's `session` rows handed to Rust's OpenCodeDb, or false when it lacks OpenCode's tables. */
function readOpenCode(catalog, path, n, db) {
  if (!OpenCodeDb.tables().every((t) => db.hasTable(t))) return false;
  const sql = OpenCodeDb.sql('sessions');
  const d = new OpenCodeDb(db.columns(sql));
  try {
    db.each(sql, [], (row) => d.row(row));
  } catch (e) {
    d.free();
    throw e;
  }
  if (db.note) catalog.note(db.note);
  catalog.opencode(path, n, d);
  return true;
}

/** A Cursor database: its rows handed to Rust's CursorDb, then to the catalog. */
async function readDatabase(catalog, path, n, byPath) {
  const file = files[n];
  // The open databases of this folder (another opened meanwhile has its own).
  const mine = databases;
  if (!file.size) {
    catalog.unreadable('database', path, n, emptyDatabase(path));
    return;
  }
  const d = new CursorDb();
  let db;
  try {
    db = await Database.open(path, file, files[byPath.get(`${path}-wal`)]);
    if (readOpenCode(catalog, path, n, db)) {
      d.free();
      if (mine === databases) mine.set(n, db);
      else db.close();
      return;
    }
    if (db.note) d.note(db.note);
    if (db.hasTable('cursorDiskKV')) {
      const [from, to] = CursorDb.composerRange();
      db.range('cursorDiskKV', from, to, (key, value, length) => d.composerRow(key, value, length));
      for (const [id, key] of d.titleKeys()) {
        const row = db.value('cursorDiskKV', key);
        if (row && row[0] != null) d.titleRow(id, row[0]);
      }
    }
    if (db.hasTable('ItemTable')) {
      const row = db.value('ItemTable', CursorDb.workspaceKey());
      if (row) d.workspaceRow(path, row[0], row[1]);
    }
    const wsPath = `${dirOf(path) ? `${dirOf(path)}/` : ''}workspace.json`;
    const ws = byPath.get(wsPath);
    if (d.wantsWorkspaceJson() && ws !== undefined) {
      const f = files[ws];
      d.workspaceJson(wsPath, f.size > maxWorkspaceJson() ? null : new Uint8Array(await f.arrayBuffer()), f.size);
    }
  } catch (e) {
    d.free();
    db?.close();
    catalog.unreadable('database', path, n, String(e?.message ?? e));
    return;
  }
  if (mine === databases) mine.set(n, db);
  else db.close();
  catalog.database(path, n, d);
}

/** A transcript file read whole into `reader`. */
async function readWhole(n, reader) {
  for await (const piece of pieces(files[n])) reader.push(piece);
  return reader;
}

/** A `lines` file: scanned in pieces; read whole when it is not a session file. */
async function readLines(catalog, path, n) {
  const scanner = new Scanner();
  try {
    for await (const piece of pieces(files[n])) scanner.push(piece);
  } catch (e) {
    scanner.free();
    catalog.unreadable('lines', path, n, fileError(path, e));
    return;
  }
  if (catalog.sessionFile(path, n, scanner)) await readFile(catalog, 'lines', path, n);
}

async function readFile(catalog, kind, path, n) {
  const reader = new Reader();
  try {
    await readWhole(n, reader);
  } catch (e) {
    reader.free();
    catalog.unreadable(kind, path, n, fileError(path, e));
    return;
  }
  catalog.file(kind, path, n, reader);
}

/** A Cursor conversation's rows, assembled by Rust. */
function assembled({ file, composer }) {
  const db = databases.get(file);
  const a = new Assembler(composer, ...(db.value('cursorDiskKV', Assembler.key(composer)) ?? [undefined, 0]));
  try {
    const [from, to] = a.range();
    db.range('cursorDiskKV', from, to, (key, value, length) => a.row(key, value, length));
  } catch (e) {
    a.free();
    throw e;
  }
  return a.finish();
}

/** An OpenCode session's rows, assembled by Rust as `opencode export` writes it. */
function assembledOpenCode({ file, session }) {
  const db = databases.get(file);
  const sql = OpenCodeDb.sql('session');
  let row;
  db.each(sql, [session], (r) => { row ??= r; });
  const a = new OpenCodeAssembler(session, db.columns(sql), row);
  try {
    const bind = [session, maxRowBytes()];
    db.each(OpenCodeDb.sql('parts'), bind, ([id, data, length, message]) => a.part(String(message ?? ''), String(id ?? ''), data, length ?? 0));
    db.each(OpenCodeDb.sql('messages'), bind, ([id, data, length]) => a.message(String(id ?? ''), data, length ?? 0));
  } catch (e) {
    a.free();
    throw e;
  }
  return a.finish();
}

/**
 * The own files of entry `at`'s sub-agents (a Claude Code session's
 * `subagents/agent-<id>.jsonl`, as Rust's catalog names them): `[[agentId, bytes]]`, read
 * as the CLI reads them — one over the limit or that cannot be read is left out (it is
 * still listed on its own).
 */
async function subagentsOf(at) {
  const out = [];
  for (const { agent, file } of listing.subagents(at)) {
    const f = files[file];
    if (!f || f.size > maxSubagentFile()) continue;
    try {
      out.push([agent, new Uint8Array(await f.arrayBuffer())]);
    } catch {
      /* left out, as the CLI leaves it */
    }
  }
  return out;
}

/** The reader of a conversation (not a transcript file: those were read to be listed). */
async function readerOf(source, at) {
  if (source.kind === 'cursor') {
    const bytes = assembled(source);
    const r = new Reader('cursor-store', cursorEventLimit(bytes.length));
    r.push(bytes);
    return r;
  }
  if (source.kind === 'opencode') {
    const bytes = assembledOpenCode(source);
    const r = new Reader('opencode-export', cursorEventLimit(bytes.length));
    r.push(bytes);
    return r;
  }
  const r = new Reader('claude-code-transcript');
  try {
    if (!source.lines) {
      // A session: its sub-agents' own files first, read as their calls' runs.
      for (const [agent, bytes] of await subagentsOf(at)) r.addSubagent(agent, bytes);
      return await readWhole(source.file, r);
    }
    const file = files[source.file];
    const max = maxRowBytes() + 1;
    for (const [a, b] of source.lines) {
      // The scan never gives a longer line; a file changed since is not trusted.
      if (b <= a || b - a > max) continue;
      r.pushLine(new Uint8Array(await file.slice(a, b).arrayBuffer()));
    }
    return r;
  } catch (e) {
    r.free();
    throw e;
  }
}

/** The text of a conversation, its format and the limits to read it with. */
async function conversationText({ entry, source }) {
  const decoder = new TextDecoder();
  if (source.kind === 'cursor') {
    const bytes = assembled(source);
    return { text: decoder.decode(bytes), format: 'cursor-store', limits: { maxEventBytes: cursorEventLimit(bytes.length) } };
  }
  if (source.kind === 'opencode') {
    const bytes = assembledOpenCode(source);
    return { text: decoder.decode(bytes), format: 'opencode-export', limits: { maxEventBytes: cursorEventLimit(bytes.length) } };
  }
  const file = files[source.file];
  if (source.kind === 'claude' && source.lines) {
    const lines = [];
    for (const [a, b] of source.lines) {
      const l = decoder.decode(await file.slice(a, b).arrayBuffer());
      lines.push(l.endsWith('\n') ? l : `${l}\n`);
    }
    return { text: lines.join(''), format: 'claude-code-transcript', limits: null };
  }
  try {
    return { text: await file.text(), format: source.kind === 'claude' ? 'claude-code-transcript' : 'auto', limits: null };
  } catch (e) {
    throw new Error(fileError(entry.source, e));
  }
}

async function open(given, gen) {
  reset();
  const started = performance.now();
  await moduleReady;
  files = given.map((f) => f.file);
  const byPath = new Map(given.map((f, n) => [f.path, n]));
  const catalog = new Catalog(given.length === 1 && !given[0].path.includes('/'));
  const homes = openCodeHomes(given);
  for (const [n, { path }] of given.entries()) {
    if (gen !== generation) {
      catalog.free();
      return;
    }
    if (!wanted(path, homes)) continue;
    const kind = fileKind(path.split('/').pop());
    if (kind === 'database') await readDatabase(catalog, path, n, byPath);
    else if (kind === 'lines') await readLines(catalog, path, n);
    else if (kind === 'other') await readFile(catalog, 'other', path, n);
  }
  // Another folder was opened while the last file was read: this list is not wanted.
  if (gen !== generation) {
    catalog.free();
    return;
  }
  listing = catalog.finish();
  const entries = listing.entries();
  entries.forEach((entry, at) => items.set(entry.id, { entry, at, source: listing.source(at), calls: null }));
  post({ type: 'list', entries, stats: { empty: listing.emptySkipped, ms: performance.now() - started, files: given.length, notes: listing.notes() } });

  // Index: read each conversation once.
  const toRead = entries.filter((e) => !e.error);
  let done = 0;
  let batch = [];
  let lastPost = 0;
  for (const e of toRead) {
    if (gen !== generation) return;
    const it = items.get(e.id);
    try {
      const reader = it.source.kind === 'file' ? undefined : await readerOf(it.source, it.at);
      if (gen !== generation) {
        reader?.free();
        return;
      }
      const { entry, parts, calls } = listing.index(it.at, reader);
      it.entry = entry;
      it.calls = calls;
      const chars = parts.reduce((n, [, t]) => n + t.length, 0);
      if (indexedChars + chars <= SEARCH_BUDGET) {
        indexedChars += chars;
        index.push({ id: e.id, parts: parts.map(([a, t]) => [a, t, t.toLocaleLowerCase()]) });
      } else partial++;
    } catch (err) {
      it.entry = listing.failed(it.at, String(err?.message ?? err));
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
      const { text, format, limits } = await conversationText(it);
      // A session's sub-agents, for the view to read with it (as the CLI's page shows them).
      const subagents = it.source.kind === 'claude' && !it.source.lines ? await subagentsOf(it.at) : [];
      // Where the sub-agent links go: the document of the tool call that started it.
      const docOf = (conversation, call) => (call ? items.get(conversation)?.calls?.find(([c]) => c === call)?.[1] ?? null : null);
      const parent = it.entry.parent;
      const parentDoc = parent ? docOf(parent.conversation, parent.toolCallId) : null;
      const children = it.entry.children.map((id) => [id, docOf(data.id, items.get(id)?.entry.parent?.toolCallId)]);
      post({ type: 'conversation', req: data.req, id: data.id, text, format, limits, subagents, parentDoc, children }, subagents.map(([, b]) => b.buffer));
    } else if (data.type === 'search') {
      post({ type: 'hits', req: data.req, query: data.query, results: search(data.query), partial });
    }
  } catch (e) {
    post({ type: 'error', req: data.req, message: String(e?.message ?? e) });
  }
};
