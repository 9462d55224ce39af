// The viewer as a library: open a folder or a store (file input with directory
// selection, drag and drop of folders, the File System Access API where the browser
// has it), list every conversation, search across them, open one at a stable
// fragment (#c=<id>, #c=<id>&d=<document or prompt id>). The stores are read in a
// worker (worker.js); this module only shows what it reports.

const $ = (id) => document.getElementById(id);

/**
 * Names of files the library reads (a database's write-ahead log with it); everything
 * else in a folder is skipped.
 */
const WANTED = /(\.vscdb|\.vscdb-wal|\.jsonl|\.ndjson|\.json|\.sse)$|^opencode(-[^/]+)?\.db(-wal)?$/i;
/** A store's database, which opens as a library alone: Cursor's, OpenCode's (`opencode.db`, `opencode-<channel>.db`). */
const DATABASE = /\.vscdb$|^opencode(-[^/]+)?\.db$/i;
const AGENTS = { cursor: 'Cursor', 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI', 'copilot-cli': 'Copilot CLI', opencode: 'OpenCode', file: 'file' };

/** Whether a set of picked or dropped files is a library (more than one transcript). */
export function isLibrary(files) {
  return files.length > 1 || files.some((f) => DATABASE.test(f.name) || (f.path ?? '').includes('/'));
}

function keep(path) {
  const name = path.split('/').pop();
  return WANTED.test(name) && !name.startsWith('.');
}

/** Files of a dropped folder (FileSystemEntry API). */
async function entryFiles(entry, prefix, out) {
  if (entry.isFile) {
    const path = `${prefix}${entry.name}`;
    if (keep(path)) out.push({ path, file: await new Promise((res, rej) => entry.file(res, rej)) });
    return;
  }
  if (!entry.isDirectory || entry.name.startsWith('.') || entry.name === 'node_modules') return;
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
    if (!batch.length) break;
    for (const e of batch) await entryFiles(e, `${prefix}${entry.name}/`, out);
  }
}

/** Files below a directory handle (File System Access API). */
async function handleFiles(dir, prefix, out) {
  for await (const [name, h] of dir.entries()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    if (h.kind === 'directory') await handleFiles(h, `${prefix}${name}/`, out);
    else if (keep(`${prefix}${name}`)) out.push({ path: `${prefix}${name}`, file: await h.getFile() });
  }
}

function fmtDate(iso) {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

/**
 * An entry's date: when it started (else last changed); for a source that records no
 * times (Cursor's agent transcripts, `noTimes`) said so, as the CLI's list says it.
 */
/** The library table's columns that sort: each entry's value, and whether it sorts
 * largest first when first chosen. A value of `null` (not known, not read yet) sorts
 * last either way. */
const SORTS = {
  title: { of: (e) => e.title.toLowerCase() },
  agent: { of: (e) => AGENTS[e.agent] ?? e.agent },
  project: { of: (e) => e.project?.toLowerCase() ?? null },
  date: { of: (e) => e.created ?? e.updated ?? null, down: true },
  messages: { of: (e) => (e.error ? null : e.messages), down: true },
  tools: { of: (e) => (e.error ? null : e.tools), down: true },
  tokens: { of: (e) => e.usage?.totalTokens ?? null, down: true },
  cost: { of: (e) => e.costUsd ?? null, down: true },
};

/** `entries` in the order of column `key` (`down`: largest first), each sub-agent right
 * after the conversation that started it, in the same order among its siblings. */
export function sortedEntries(entries, key, down) {
  const of = SORTS[key].of;
  const compare = (a, b) => {
    const x = of(a);
    const y = of(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (down ? -1 : 1);
  };
  const ids = new Set(entries.map((e) => e.id));
  const children = new Map();
  const top = [];
  for (const e of entries) {
    const parent = e.parent?.conversation;
    if (parent && ids.has(parent)) {
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(e);
    } else top.push(e);
  }
  const out = [];
  const visit = (e) => {
    out.push(e);
    for (const c of (children.get(e.id) ?? []).sort(compare)) visit(c);
  };
  for (const e of top.sort(compare)) visit(e);
  return out;
}

/** "12,345" tokens; "$0.0123" */
const fmtTokens = (n) => n.toLocaleString('en');
const fmtCost = (usd) => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

function when(e) {
  const at = e.created ?? e.updated;
  return at ? fmtDate(at) : e.noTimes ? 'no times recorded' : '';
}

/**
 * Sets up the library. `openConversation({ text, name, format, limits, subagents,
 * fromParentAgent })` loads one into the viewer and resolves when it is shown (`limits`,
 * when set, are the DocStream limits to read it with: a Cursor conversation's event limit
 * is per bubble; `subagents`, `[[agentId, bytes]]`, a Claude Code session's sub-agent
 * files, read as the runs of the calls that started them; `fromParentAgent`: the entry is
 * a sub-agent's, its prompts its parent agent's); `jump(anchor)`
 * scrolls to a document.
 */
export function setupLibrary({ openConversation, jump, say, alertBox }) {
  const picker = { folder: $('folder'), storeButton: $('open-store') };
  /** The library's elements, put in place from their template when first opened. */
  let ui = null;
  function mount() {
    if (ui) return;
    const t = $('library-template');
    t.replaceWith(t.content.cloneNode(true));
    ui = {
      section: $('library'), title: $('library-title'), summary: $('library-summary'),
      progress: $('library-progress'), progressText: $('library-progress-text'),
      search: $('library-search'), searchForm: $('library-search-form'), count: $('library-count'),
      results: $('library-results'), table: $('library-table'), rows: $('library-rows'),
      crumb: $('crumb'), crumbTitle: $('crumb-title'), crumbLinks: $('crumb-links'),
    };
    ui.table.tHead.addEventListener('click', (e) => {
      const key = e.target instanceof Element ? e.target.closest('button[data-sort]')?.dataset.sort : null;
      if (!key) return;
      // A column chosen again turns its order round.
      sort = sort?.key === key ? { key, down: !sort.down } : { key, down: !!SORTS[key].down };
      applySort();
    });
    ui.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(runSearch, 150);
    });
    ui.searchForm.addEventListener('submit', (e) => {
      e.preventDefault();
      clearTimeout(timer);
      runSearch();
    });
  }
  let worker = null;
  let entries = [];
  const byId = new Map();
  const rows = new Map();
  let req = 0;
  const pending = new Map();
  let shown = null; // id of the conversation in the view
  let name = '';

  function ask(msg) {
    const r = ++req;
    return new Promise((resolve, reject) => {
      pending.set(r, { resolve, reject });
      worker.postMessage({ ...msg, req: r });
    });
  }

  function startWorker() {
    worker?.terminate();
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.req && pending.has(data.req)) {
        const p = pending.get(data.req);
        pending.delete(data.req);
        if (data.type === 'error') p.reject(new Error(data.message));
        else p.resolve(data);
        return;
      }
      if (data.type === 'list') onList(data);
      else if (data.type === 'entries') onEntries(data.entries);
      else if (data.type === 'progress') onProgress(data);
      else if (data.type === 'indexed') onIndexed(data.stats);
      else if (data.type === 'error') alertBox('The library could not be read.', data.message);
    };
    worker.onerror = (e) => alertBox('The library could not be read.', e.message ?? String(e));
  }

  // ---- the list --------------------------------------------------------------------

  function cell(text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    td.textContent = text;
    return td;
  }

  function row(e) {
    const tr = document.createElement('tr');
    tr.dataset.id = e.id;
    if (e.parent) tr.classList.add('sub');
    if (e.error) tr.classList.add('bad');
    const title = document.createElement('td');
    title.className = 'title';
    if (e.error) {
      const s = document.createElement('span');
      s.textContent = e.title;
      const why = document.createElement('div');
      why.className = 'why';
      why.textContent = e.error;
      title.append(s, why);
    } else {
      const a = document.createElement('a');
      a.href = `#c=${encodeURIComponent(e.id)}`;
      a.textContent = e.title;
      title.append(a);
    }
    // Tokens and cost are known once the conversation was read (`tools` is null until).
    const read = !e.error && e.tools != null;
    tr.append(title, cell(AGENTS[e.agent] ?? e.agent), cell(e.project ?? '', 'project'), cell(when(e)),
      cell(e.error ? '' : String(e.messages), 'num'), cell(e.error ? '' : (e.tools == null ? '…' : String(e.tools)), 'num'),
      cell(e.error ? '' : !read ? '…' : e.usage ? fmtTokens(e.usage.totalTokens) : '', 'num'),
      cell(read && e.costUsd != null ? fmtCost(e.costUsd) : '', 'num'));
    return tr;
  }

  /** The column the list is sorted by (`null`: the listing's own order). */
  let sort = null;

  /** Puts the rows in the order of `sort`, and says it on the column headers. */
  function applySort() {
    for (const th of ui.table.tHead.rows[0].cells) {
      const key = th.querySelector('button')?.dataset.sort;
      if (sort && key === sort.key) th.setAttribute('aria-sort', sort.down ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    }
    if (!sort) return;
    ui.rows.replaceChildren(...sortedEntries(entries, sort.key, sort.down).map((e) => rows.get(e.id)).filter(Boolean));
  }

  function onList({ entries: list, stats }) {
    entries = list;
    byId.clear();
    rows.clear();
    const frag = document.createDocumentFragment();
    for (const e of list) {
      e.tools = null; // until indexed
      byId.set(e.id, e);
      const tr = row(e);
      rows.set(e.id, tr);
      frag.append(tr);
    }
    ui.rows.replaceChildren(frag);
    applySort();
    const n = list.length;
    ui.summary.textContent = `${n} conversation${n === 1 ? '' : 's'} listed in ${(stats.ms / 1000).toFixed(1)} s from ${stats.files} file${stats.files === 1 ? '' : 's'}${stats.empty ? ` · ${stats.empty} empty Cursor chats not listed` : ''}`;
    // What was left out or read only in part (a write-ahead log that could not be read).
    let notes = document.getElementById('library-notes');
    if (!notes) {
      notes = document.createElement('ul');
      notes.id = 'library-notes';
      notes.className = 'muted';
      ui.summary.after(notes);
    }
    notes.replaceChildren(...(stats.notes ?? []).map((text) => {
      const li = document.createElement('li');
      li.textContent = text;
      return li;
    }));
    notes.hidden = !stats.notes?.length;
    ui.section.dataset.state = 'listed';
    document.body.dataset.library = 'listed';
    route();
  }

  function onEntries(list) {
    for (const e of list) {
      const tr = rows.get(e.id);
      if (e.removed) {
        tr?.remove();
        rows.delete(e.id);
        byId.delete(e.id);
        entries = entries.filter((x) => x.id !== e.id);
        continue;
      }
      byId.set(e.id, e);
      entries = entries.map((x) => (x.id === e.id ? e : x));
      const fresh = row(e);
      rows.set(e.id, fresh);
      tr?.replaceWith(fresh);
    }
  }

  function onProgress({ done, total }) {
    ui.progress.hidden = false;
    ui.progress.max = total || 1;
    ui.progress.value = done;
    ui.progressText.textContent = `Indexing for search: ${done} of ${total} conversations read`;
  }

  function onIndexed(stats) {
    ui.progress.hidden = true;
    const secs = (stats.ms / 1000).toFixed(1);
    ui.progressText.textContent = `Indexed ${stats.conversations} conversation${stats.conversations === 1 ? '' : 's'} in ${secs} s${stats.notSearchable ? ` · ${stats.notSearchable} over the search memory budget are listed but not searched` : ''}.`;
    ui.section.dataset.state = 'indexed';
    document.body.dataset.library = 'indexed';
    // Counts, tokens and costs are all known now.
    applySort();
    if (ui.search.value.trim()) runSearch();
  }

  // ---- search ------------------------------------------------------------------------

  async function runSearch() {
    const query = ui.search.value.trim();
    if (!query) {
      ui.results.hidden = true;
      ui.table.hidden = false;
      ui.count.textContent = '';
      return;
    }
    const { results, partial } = await ask({ type: 'search', query });
    if (ui.search.value.trim() !== query) return;
    const frag = document.createDocumentFragment();
    let hits = 0;
    for (const r of results) {
      const e = byId.get(r.id);
      if (!e) continue;
      const li = document.createElement('li');
      const head = document.createElement('a');
      head.href = `#c=${encodeURIComponent(r.id)}`;
      head.className = 'hit-title';
      head.textContent = e.title;
      const facts = document.createElement('span');
      facts.className = 'muted';
      facts.textContent = ` · ${AGENTS[e.agent] ?? e.agent}${e.project ? ` · ${e.project}` : ''}`;
      const ul = document.createElement('ul');
      for (const h of r.hits) {
        if (!h.anchor) continue;
        hits++;
        const a = document.createElement('a');
        a.href = `#c=${encodeURIComponent(r.id)}&d=${encodeURIComponent(h.anchor)}`;
        a.className = 'hit';
        const at = Math.max(0, h.at);
        const mark = document.createElement('mark');
        mark.textContent = h.snippet.slice(at, at + h.len);
        a.append(h.snippet.slice(0, at), mark, h.snippet.slice(at + h.len));
        const hl = document.createElement('li');
        hl.append(a);
        ul.append(hl);
      }
      li.append(head, facts, ul);
      frag.append(li);
    }
    ui.results.replaceChildren(frag);
    ui.results.dataset.query = query;
    ui.results.hidden = false;
    ui.table.hidden = true;
    const n = results.length;
    ui.count.textContent = n ? `${n} conversation${n === 1 ? '' : 's'}, ${hits} match${hits === 1 ? '' : 'es'}${partial ? ' (search covers part of the library)' : ''}` : 'no matches';
  }
  let timer = 0;

  // ---- routing: #c=<id>&d=<anchor> ---------------------------------------------------

  function parseHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    return { id: p.get('c'), anchor: p.get('d') };
  }

  function link(id, anchor, text) {
    const a = document.createElement('a');
    a.href = `#c=${encodeURIComponent(id)}${anchor ? `&d=${encodeURIComponent(anchor)}` : ''}`;
    a.textContent = text;
    return a;
  }

  async function showConversation(id, anchor) {
    const e = byId.get(id);
    if (!e) {
      alertBox(`No conversation ${id} in this library.`, 'The library may have been opened from other files.');
      return;
    }
    document.body.dataset.mode = 'conversation';
    ui.crumbTitle.textContent = e.title;
    ui.crumb.hidden = false;
    if (shown !== id) {
      const data = await ask({ type: 'read', id });
      const links = [];
      if (e.parent) {
        const p = byId.get(e.parent.conversation);
        const span = document.createElement('span');
        // The link leads to the call; its raw id (`toolu_…`) is no label.
        span.append('Started by ', link(e.parent.conversation, data.parentDoc, p?.title ?? e.parent.conversation));
        links.push(span);
      }
      if (data.children.length) {
        const span = document.createElement('span');
        span.append('Sub-agents: ');
        data.children.forEach(([cid, doc], i) => {
          if (i) span.append(' · ');
          const a = link(cid, null, byId.get(cid)?.title ?? cid);
          if (doc) a.dataset.doc = doc;
          span.append(a);
          if (doc) span.append(' ', link(id, doc, '(its call)'));
        });
        links.push(span);
      }
      ui.crumbLinks.replaceChildren(...links);
      shown = id;
      delete document.body.dataset.conversation;
      await openConversation({ text: data.text, name: e.title, format: data.format, limits: data.limits, subagents: data.subagents, fromParentAgent: !!e.parent });
      // Tests and scripts wait for this: the conversation shown is this one.
      document.body.dataset.conversation = id;
    }
    if (anchor) jump(anchor);
  }

  function showList() {
    document.body.dataset.mode = 'library';
    ui.crumb.hidden = true;
    say('');
  }

  async function route() {
    if (!worker || !entries) return;
    const { id, anchor } = parseHash();
    try {
      if (id) await showConversation(id, anchor);
      else showList();
    } catch (err) {
      alertBox(`Could not open ${id}.`, err.message);
    }
  }
  addEventListener('hashchange', route);

  // ---- opening -------------------------------------------------------------------------

  /** Opens files [{ path, file }] as a library. */
  function openFiles(files, label) {
    const wanted = files.filter((f) => keep(f.path));
    if (!wanted.length) {
      alertBox(`Nothing to read in ${label}.`, 'A library is a Cursor state.vscdb, an OpenCode opencode.db, a Claude Code projects folder, or a folder of .jsonl, .json or .sse transcripts.');
      return;
    }
    alertBox('');
    mount();
    name = label;
    shown = null;
    startWorker();
    ui.title.textContent = `Library: ${label}`;
    ui.summary.textContent = `Reading ${wanted.length} file${wanted.length === 1 ? '' : 's'}…`;
    ui.progress.hidden = false;
    ui.progress.removeAttribute('value');
    ui.progressText.textContent = 'Listing conversations…';
    ui.section.hidden = false;
    ui.section.dataset.state = 'listing';
    document.body.dataset.library = 'listing';
    ui.results.hidden = true;
    ui.table.hidden = false;
    ui.search.value = '';
    ui.count.textContent = '';
    ui.rows.replaceChildren();
    entries = null;
    if (parseHash().id == null) history.replaceState(null, '', '#');
    document.body.dataset.mode = parseHash().id ? 'conversation' : 'library';
    say(`Opening ${label}; nothing leaves this page.`);
    worker.postMessage({ type: 'open', files: wanted });
  }

  picker.folder.addEventListener('change', () => {
    const files = [...picker.folder.files].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
    const top = files[0]?.path.split('/')[0] ?? 'folder';
    picker.folder.value = '';
    if (files.length) openFiles(files, top);
  });

  if ('showDirectoryPicker' in window) {
    picker.storeButton.hidden = false;
    picker.storeButton.addEventListener('click', async () => {
      let dir;
      try {
        dir = await window.showDirectoryPicker({ mode: 'read' });
      } catch {
        return; // cancelled
      }
      const files = [];
      await handleFiles(dir, `${dir.name}/`, files);
      openFiles(files, dir.name);
    });
  }

  return {
    /** Opens picked files (a File list) as a library. */
    openPicked(fileList) {
      const files = [...fileList].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
      openFiles(files, files.length === 1 ? files[0].path : `${files.length} files`);
    },
    /** Opens a drop: folders are walked. Returns false when it is no library. */
    async openDrop(dataTransfer) {
      const items = [...(dataTransfer.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
      const dirs = items.some((e) => e.isDirectory);
      const files = [...(dataTransfer.files ?? [])];
      if (!dirs && !isLibrary(files.map((f) => ({ name: f.name })))) return false;
      const out = [];
      for (const e of items) await entryFiles(e, '', out);
      openFiles(out, items.length === 1 ? items[0].name : `${items.length} items`);
      return true;
    },
    /** Whether a library is open. */
    get open() {
      return worker != null;
    },
    get name() {
      return name;
    },
  };
}
