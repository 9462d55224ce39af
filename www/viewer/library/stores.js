// What the library reads of each store, for the worker (the CLI's counterpart is
// src/library/: cursor.rs, claude_code.rs, digest.rs — the same rules, kept in step by
// tests that open the same store shapes in both).

/** One line, at most `max` characters. */
export function oneLine(text, max = 100) {
  const s = String(text ?? '').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const decoder = new TextDecoder();
/** A SQLite value (TEXT or BLOB) as text. */
export function asText(v) {
  if (v == null) return '';
  return typeof v === 'string' ? v : decoder.decode(v);
}

/** Cursor's times: ms (or s) since 1970 → ISO 8601. */
export function timeOf(v) {
  if (typeof v === 'string' && v) return v;
  if (typeof v !== 'number' || !(v >= 0 && v <= 1e15)) return null;
  return new Date(v < 1e11 ? v * 1000 : v).toISOString();
}

const isHuman = (t) => (t === 1 ? true : t === 2 ? false : typeof t === 'string' ? /HUMAN$|^USER$/i.test(t) : null);

function countTurns(types) {
  let n = 0;
  let inResponse = false;
  for (const h of types) {
    if (h === true) {
      n++;
      inResponse = false;
    } else if (h === false && !inResponse) {
      n++;
      inResponse = true;
    }
  }
  return n;
}

// ---- Cursor ----------------------------------------------------------------------

/** The largest row read (a bubble, a composer, a workspace list): the event limit. */
export const MAX_ROW_BYTES = 16 * 1024 * 1024;
/** The deepest JSON a conversation may hold (Limits::MAX_DEPTH). */
const MAX_DEPTH = 128;

/** A size for messages: `17 MiB`, `1.5 MiB`, `512 KiB`, `20 bytes` (cursor.rs `size_text`). */
export function sizeText(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1048576) return `${Math.floor(n / 1024)} KiB`;
  return n % 1048576 === 0 ? `${n / 1048576} MiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

/** Why a row is not read (cursor.rs `too_large`). */
export function tooLarge(what, n) {
  return `${what} is ${sizeText(n)}, over the ${sizeText(MAX_ROW_BYTES)} a row may hold (Limits::max_event_bytes); it was not read`;
}

/** How deep a JSON text nests (brackets in strings skipped). */
function depthOf(text) {
  let d = 0;
  let max = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++d);
    else if (c === 125 || c === 93) d = Math.max(0, d - 1);
  }
  return max;
}

/**
 * The limits a conversation assembled from rows is read with: each bubble is held to
 * MAX_ROW_BYTES already, so the whole may be as large as it is (cursor.rs `read_limits`).
 */
export function readLimits(text) {
  return { maxEventBytes: Math.max(MAX_ROW_BYTES, text.length * 3 + 1) };
}

/** A `composerData:<id>` row: { id, name, created, updated, bubbles, inline, messages, firstPrompt }. */
export function readComposer(keyId, value) {
  let o;
  try {
    o = JSON.parse(asText(value));
  } catch (e) {
    throw new Error(`composerData:${keyId} is not valid JSON: ${e.message}`);
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error(`composerData:${keyId} is not a JSON object`);
  const c = {
    id: typeof o.composerId === 'string' && o.composerId ? o.composerId : keyId,
    name: typeof o.name === 'string' && o.name.trim() ? o.name : null,
    created: timeOf(o.createdAt),
    updated: timeOf(o.lastUpdatedAt),
    bubbles: [],
    inline: 0,
    messages: 0,
    firstPrompt: null,
  };
  if (Array.isArray(o.fullConversationHeadersOnly)) {
    c.bubbles = o.fullConversationHeadersOnly.map((h) => h?.bubbleId).filter((b) => typeof b === 'string');
    c.messages = countTurns(o.fullConversationHeadersOnly.map((h) => isHuman(h?.type)));
  }
  let inline = [];
  if (Array.isArray(o.conversation)) inline = o.conversation.flatMap((b) => (Array.isArray(b?.messages) ? b.messages : [b]));
  else if (o.conversationMap && typeof o.conversationMap === 'object' && !c.bubbles.length) inline = Object.values(o.conversationMap);
  c.inline = inline.length;
  if (!c.bubbles.length) c.messages = countTurns(inline.map((b) => isHuman(b?.type)));
  const first = inline.find((b) => isHuman(b?.type) === true && typeof b.text === 'string' && b.text.trim());
  c.firstPrompt = first?.text ?? null;
  return c;
}

/** The text of a bubble row if it is a prompt. */
export function promptText(value) {
  try {
    const o = JSON.parse(asText(value));
    return isHuman(o?.type) === true && typeof o.text === 'string' && o.text.trim() ? o.text : null;
  } catch {
    return null;
  }
}

/** A workspace's `composer.composerData`: [{ id, name, created, updated }]. */
export function workspaceComposers(value) {
  try {
    const o = JSON.parse(asText(value));
    return (Array.isArray(o?.allComposers) ? o.allComposers : [])
      .filter((c) => typeof c?.composerId === 'string')
      .map((c) => ({ id: c.composerId, name: typeof c.name === 'string' && c.name.trim() ? c.name : null, created: timeOf(c.createdAt), updated: timeOf(c.lastUpdatedAt) }));
  } catch {
    return [];
  }
}

/** The folder of a `workspace.json`. */
export function workspaceFolder(text) {
  try {
    const o = JSON.parse(text);
    const uri = o.folder ?? o.workspace;
    if (typeof uri !== 'string') return null;
    return uri.startsWith('file://') ? decodeURIComponent(uri.slice(7)) : uri;
  } catch {
    return null;
  }
}

/**
 * A composer row and its bubble rows (Map id → value, or { tooLarge: bytes } for a row
 * over MAX_ROW_BYTES; absent = missing) as one saved conversation: a bubble that cannot
 * be read is a string saying why, which the reader shows as that bubble's error.
 */
export function assemble(composerValue, rows, bubbleIds) {
  const o = JSON.parse(asText(composerValue));
  const hadMap = 'conversationMap' in o;
  const map = o.conversationMap && typeof o.conversationMap === 'object' ? o.conversationMap : {};
  for (const id of bubbleIds) {
    if (!rows.has(id)) continue;
    const row = rows.get(id);
    if (row?.tooLarge != null) {
      map[id] = tooLarge(`row ${id}`, row.tooLarge);
      continue;
    }
    const text = asText(row);
    try {
      const v = JSON.parse(text);
      if (!v || typeof v !== 'object' || Array.isArray(v)) map[id] = `row ${id} holds ${typeof v}, not a bubble`;
      // The conversation and its map hold each bubble two levels down.
      else if (depthOf(text) + 2 > MAX_DEPTH) map[id] = `row ${id} is JSON nested deeper than ${MAX_DEPTH - 2} levels`;
      else map[id] = v;
    } catch (e) {
      map[id] = `row ${id} is not valid JSON: ${e.message}`;
    }
  }
  delete o.conversationMap;
  if (hadMap || Object.keys(map).length) o.conversationMap = map;
  return JSON.stringify(o);
}

// ---- Claude Code -----------------------------------------------------------------

const TASK_TOOLS = new Set(['Task', 'Agent']);

function promptOf(message) {
  const c = message?.content;
  let t = null;
  if (typeof c === 'string') t = c;
  else if (Array.isArray(c)) {
    const texts = c.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text);
    if (texts.length) t = texts.join('\n');
  }
  return t && t.trim() ? t : null;
}

function titlePrompt(text) {
  const t = text.trim();
  const cmd = /^<command-name>([^<]*)/.exec(t);
  if (cmd) return cmd[1];
  if (t.startsWith('<') || t.startsWith('Caveat:')) return null;
  return t;
}

/** Reads one JSONL file's text: what the list needs (see claude_code.rs `scan`). */
export function scanClaude(text) {
  const s = { isTranscript: false, sessionId: null, agentId: null, sidechainFile: false, cwd: null, firstTime: null, lastTime: null, firstPrompt: null, summaries: [], uuids: new Set(), tasks: [], taskAgents: [], sidechains: [] };
  let firstMessage = true;
  const chains = new Map();
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const range = [at, end + 1];
    const raw = text.slice(at, end);
    at = end + 1;
    let line;
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!line || typeof line !== 'object') continue;
    if (line.type === 'summary') {
      if (typeof line.summary === 'string') {
        s.isTranscript = true;
        s.summaries.push([line.leafUuid ?? null, line.summary]);
      }
      continue;
    }
    if ((line.type !== 'user' && line.type !== 'assistant') || !line.message) continue;
    if (line.sessionId || line.uuid) s.isTranscript = true;
    if (firstMessage) {
      s.sidechainFile = line.isSidechain === true;
      firstMessage = false;
    }
    s.sessionId ??= line.sessionId ?? null;
    s.agentId ??= line.agentId ?? null;
    s.cwd ??= line.cwd ?? null;
    if (line.timestamp) {
      s.firstTime ??= line.timestamp;
      s.lastTime = line.timestamp;
    }
    if (line.uuid) s.uuids.add(line.uuid);
    const prompt = line.type === 'user' && !line.isMeta ? promptOf(line.message) : null;
    if (line.isSidechain === true && !s.sidechainFile) {
      let chain = line.parentUuid != null ? chains.get(line.parentUuid) : undefined;
      if (chain === undefined) {
        s.sidechains.push({ prompt: null, lines: [] });
        chain = s.sidechains.length - 1;
      }
      if (line.uuid) chains.set(line.uuid, chain);
      const c = s.sidechains[chain];
      c.prompt ??= prompt;
      c.lines.push(range);
      continue;
    }
    if (s.firstPrompt == null && prompt) s.firstPrompt = titlePrompt(prompt);
    const blocks = Array.isArray(line.message.content) ? line.message.content : [];
    for (const b of blocks) {
      if (b?.type === 'tool_use' && TASK_TOOLS.has(b.name) && typeof b.id === 'string') {
        s.tasks.push({ id: b.id, description: b.input?.description ?? null, prompt: b.input?.prompt ?? null });
      } else if (b?.type === 'tool_result' && typeof line.toolUseResult?.agentId === 'string' && b.tool_use_id) {
        s.taskAgents.push([b.tool_use_id, line.toolUseResult.agentId]);
      }
    }
  }
  return s;
}

const stem = (path) => path.split('/').pop().replace(/\.jsonl$/, '');
const subTitle = (task, prompt) => `Sub-agent: ${oneLine(task?.description ?? prompt ?? 'sub-agent', 90)}`;

function newEntry(id, agent, source) {
  return { id, agent, title: '', project: null, created: null, updated: null, messages: 0, tools: 0, source, parent: null, children: [], error: null };
}
export { newEntry };

/** The conversations of a folder's session files: [{ entry, file, lines }] (see claude_code.rs `list`). */
export function listClaude(files) {
  const items = [];
  const owner = new Map();
  files.forEach(({ scan }, i) => scan.uuids.forEach((u) => owner.set(u, i)));
  const summary = new Map();
  files.forEach(({ scan }, i) => {
    for (const [leaf, text] of scan.summaries) summary.set(leaf != null && owner.has(leaf) ? owner.get(leaf) : i, text);
  });
  const bySession = new Map();
  files.forEach(({ path, scan: s }, i) => {
    if (s.sidechainFile || !s.uuids.size) return;
    const id = s.sessionId ?? stem(path);
    const e = newEntry(id, 'claude-code', path);
    const t = summary.get(i) ?? s.firstPrompt;
    e.title = t ? oneLine(t) : `Session ${id}`;
    e.project = s.cwd;
    e.created = s.firstTime;
    e.updated = s.lastTime;
    bySession.set(id, items.length);
    items.push({ entry: e, file: i, lines: null });
    s.sidechains.forEach((chain, n) => {
      const task = chain.prompt != null ? s.tasks.find((t) => t.prompt === chain.prompt) : undefined;
      const c = newEntry(`${id}.sidechain-${n + 1}`, 'claude-code', path);
      c.title = subTitle(task, chain.prompt);
      c.project = s.cwd;
      c.parent = { conversation: id, toolCallId: task?.id ?? null };
      items.push({ entry: c, file: i, lines: chain.lines });
    });
  });
  files.forEach(({ path, scan: s }, i) => {
    if (!s.sidechainFile) return;
    const p = s.sessionId != null ? bySession.get(s.sessionId) : undefined;
    const ps = p !== undefined ? files[items[p].file].scan : null;
    const agent = s.agentId ?? stem(path).replace(/^agent-/, '');
    let task;
    if (ps) {
      const byAgent = ps.taskAgents.find(([, a]) => a === agent);
      task = byAgent ? ps.tasks.find((t) => t.id === byAgent[0]) : undefined;
      task ??= s.firstPrompt != null ? ps.tasks.find((t) => t.prompt === s.firstPrompt) : undefined;
    }
    const base = p !== undefined ? items[p].entry.id : (s.sessionId ?? '');
    const e = newEntry(base ? `${base}.agent-${agent}` : `agent-${agent}`, 'claude-code', path);
    e.title = subTitle(task, s.firstPrompt);
    e.project = s.cwd;
    e.created = s.firstTime;
    e.updated = s.lastTime;
    if (p !== undefined) e.parent = { conversation: items[p].entry.id, toolCallId: task?.id ?? null };
    items.push({ entry: e, file: i, lines: null });
  });
  for (const it of items) {
    const p = it.entry.parent && bySession.get(it.entry.parent.conversation);
    if (p !== undefined && p !== null) items[p].entry.children.push(it.entry.id);
  }
  return items;
}

/** Newest first; a sub-agent right after the conversation that started it. */
export function order(entries) {
  const key = (e) => e.created ?? e.updated ?? '';
  const sorted = [...entries].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
  const top = sorted.filter((e) => !e.parent);
  const children = sorted.filter((e) => e.parent);
  const out = [];
  for (const e of top) {
    out.push(e);
    for (let i = 0; i < children.length; i++) {
      if (children[i] && children[i].parent.conversation === e.id) {
        out.push(children[i]);
        children[i] = null;
      }
    }
  }
  return out.concat(children.filter(Boolean));
}

// ---- the digest of a parsed conversation (digest.rs) -------------------------------

const MAX_ARGUMENT = 300;
function strings(v, out) {
  if (typeof v === 'string') {
    if (v.length <= MAX_ARGUMENT) out.push(v);
  } else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
}

/** Counts, first prompt, paths, commands, and searchable text by anchor of a snapshot. */
export function digest(conversation) {
  const d = { messages: 0, tools: 0, errors: 0, firstPrompt: null, created: null, paths: [], commands: [], parts: [], calls: [] };
  for (const turn of conversation.turns ?? []) {
    d.messages++;
    d.created ??= turn.created ?? null;
    if (turn.role === 'user') {
      const lines = [turn.content ?? ''];
      for (const a of turn.attachments ?? []) if (a.path) lines.push(a.path);
      if (d.firstPrompt == null && turn.content?.trim()) d.firstPrompt = turn.content;
      const text = lines.join('\n');
      if (text.trim()) d.parts.push([turn.id, text]);
      continue;
    }
    for (const doc of turn.documents ?? []) {
      const m = doc.metadata ?? {};
      if (m.toolCallId) d.calls.push([m.toolCallId, doc.id]);
      const lines = [];
      switch (doc.type) {
        case 'text': case 'code_block': case 'code_reference': case 'thinking': case 'clarification':
          lines.push(doc.content ?? '');
          break;
        case 'file_edit':
          d.tools++;
          lines.push(m.filePath ?? '');
          if (m.filePath && !d.paths.includes(m.filePath)) d.paths.push(m.filePath);
          if (m.newPath) lines.push(m.newPath);
          break;
        case 'terminal_command':
          d.tools++;
          lines.push(m.command ?? '');
          if (m.command) d.commands.push(m.command);
          break;
        case 'tool_call':
          d.tools++;
          lines.push(m.toolName ?? '');
          strings(m.arguments, lines);
          break;
        case 'plan':
          d.tools++;
          lines.push(m.title ?? '', m.overview ?? '', ...(m.todos ?? []).map((t) => t.content ?? ''));
          break;
        case 'todo_update':
          d.tools++;
          break;
        case 'error':
          d.errors++;
          lines.push(doc.content ?? '', m.details ?? '');
          break;
        default:
          break;
      }
      const text = lines.filter(Boolean).join('\n');
      if (text.trim()) d.parts.push([doc.id, text]);
    }
  }
  return d;
}
