// The transcript viewer: a static page around <docstream-view>. Opening, loading with
// progress and cancel, outline, filters, search, replay, export, theme and diff view.

import '../../pkg/define.js';
import * as docstream from '../../pkg/docstream.js';

/**
 * The sub-agent files of the conversation shown (a library session's: Claude Code's
 * `subagents/agent-<id>.jsonl`, `[[agentId, bytes]]`, as the library's worker names
 * them), given to each stream the element makes for it before its first byte — the
 * loading and every replay — as `DocStream.addSubagent`: each is read as the run of the
 * call that started it, as the CLI's page shows it.
 */
let subagents = [];

/** The shown conversation is a sub-agent's (a library entry with a parent): its prompts
 * are its parent agent's, never "You" (`DocStream.promptsFromParentAgent`). */
let fromParentAgent = false;

/** The binding's DocStream, handed the shown conversation's sub-agent files and whose
 * prompts they are. */
class ViewerDocStream extends docstream.DocStream {
  constructor(options) {
    super(options);
    if (fromParentAgent) this.promptsFromParentAgent();
    for (const [agent, bytes] of subagents) this.addSubagent(agent, bytes);
  }
}

// The viewer opens files of every format: one module reads them all. (The default
// entry's pair of modules, the full one loaded when a stream turns out to need it, is
// for pages that embed the element.)
await customElements.get('docstream-view').init({ default: docstream.default, DocStream: ViewerDocStream });
import { openSource, formatBytes, yieldToPage } from './load.js';
import { buildOutline } from './outline.js';
import { Replay } from './replay.js';
import { exportView, maskedSummary, download } from './export.js';
import { setupLibrary, isLibrary } from './library/ui.js';

const $ = (id) => document.getElementById(id);
const view = $('view');
const ui = {
  file: $('file'), followOpen: $('follow-open'), urlForm: $('url-form'), url: $('url'),
  pasteOpen: $('paste-open'), pasteDialog: $('paste-dialog'), pasteText: $('paste-text'),
  theme: $('theme'), diff: $('diff'),
  loading: $('loading'), progress: $('progress'), progressLabel: $('progress-label'), progressText: $('progress-text'), cancel: $('cancel'),
  status: $('status'), alert: $('alert'),
  outlineList: $('outline-list'), outlineSummary: $('outline-summary'),
  search: $('search'), searchForm: $('search-form'), searchPrev: $('search-prev'), searchCount: $('search-count'),
  play: $('play'), timing: $('timing'), speed: $('speed'), scrub: $('scrub'), scrubText: $('scrub-text'),
  exportHtml: $('export-html'), exportMd: $('export-md'), exportJson: $('export-json'), drop: $('drop'),
  exportRedact: $('export-redact'),
};

const state = {
  name: '',
  /** The whole input, kept for replay. */
  blob: null,
  loading: null,
  loaded: false,
};

/** The query the view's marks are for. */
const search = { query: '', result: null };
const replay = new Replay(view, onReplay);

// ---- messages -------------------------------------------------------------------

function say(text) {
  ui.status.textContent = text;
}

function alertBox(title, detail = '') {
  if (!title) {
    ui.alert.hidden = true;
    ui.alert.replaceChildren();
    return;
  }
  const strong = document.createElement('strong');
  strong.textContent = title;
  ui.alert.replaceChildren(strong);
  if (detail) ui.alert.append(document.createElement('br'), detail);
  ui.alert.hidden = false;
}

view.addEventListener('docstream-error', (e) => {
  alertBox('docstream reported an error.', `${e.detail?.code ?? ''} ${e.detail?.message ?? ''}`.trim());
});

// ---- loading --------------------------------------------------------------------

function setLoading(on) {
  ui.loading.hidden = !on;
  if (on) document.body.dataset.state = 'loading';
  for (const b of [ui.play, ui.scrub, ui.exportHtml, ui.exportMd, ui.exportJson]) b.disabled = on || !state.loaded;
}

/** Opens a File, `{ text, name?, format?, limits?, subagents?, fromParentAgent? }`,
 * `{ url }` or `{ follow, note? }` (a file still being written, followed until another
 * source is opened or "Stop following"; `note` says why it was opened afresh) and shows
 * it. */
export async function open(source) {
  // A library conversation names its format; anything else is detected.
  view.setAttribute('format', source.format ?? 'auto');
  // A Cursor conversation's bubbles are one value: its limit is the sum of theirs.
  view.limits = source.limits ?? null;
  subagents = source.subagents ?? [];
  fromParentAgent = !!source.fromParentAgent;
  state.loading?.abort(new DOMException('replaced by another file', 'AbortError'));
  const controller = new AbortController();
  state.loading = controller;
  const { signal } = controller;
  replay.pause();
  clearSearch();
  alertBox('');
  state.loaded = false;
  document.body.classList.add('loaded');
  ui.progress.value = 0;
  ui.progress.removeAttribute('max');
  ui.progressText.textContent = '';
  setLoading(true);
  const started = performance.now();
  let read = 0;
  let total;
  let lastPaint = 0;
  try {
    // A followed file that shrank or was replaced is opened afresh (which aborts this).
    const replaced = (why) => open({ follow: source.follow, note: `${state.name} ${why}: read afresh.` });
    const src = await openSource(source, { signal, replaced });
    total = src.total;
    state.name = src.name;
    ui.progressLabel.textContent = src.following ? `Following ${src.name}` : `Loading ${src.name}`;
    ui.cancel.textContent = src.following ? 'Stop following' : 'Cancel';
    // A followed file has no end to measure against: the bytes read are said.
    ui.progress.hidden = !!src.following;
    if (src.following) {
      document.body.dataset.state = 'following';
      say(source.note ?? `Following ${src.name}: the view grows as the file does.`);
    }
    if (total) ui.progress.max = total;
    const showProgress = () => {
      if (total) ui.progress.value = read;
      ui.progressText.textContent = total ? `${formatBytes(read)} of ${formatBytes(total)}` : formatBytes(read);
    };
    // A followed file's outline and counts are brought up to date a second after it
    // stops growing (not while a large file is read in).
    let outlineTimer = 0;
    const onProgress = (e) => {
      read = e.detail.bytes;
      const now = performance.now();
      if (now - lastPaint > 50) {
        lastPaint = now;
        showProgress();
      }
      if (src.following) {
        clearTimeout(outlineTimer);
        outlineTimer = setTimeout(() => state.loading === controller && refresh(), 1000);
      }
    };
    await view.ready; // the WebAssembly module, before the clock of the slices starts
    view.addEventListener('docstream-progress', onProgress);
    try {
      await view.stream(src.chunks, { signal });
    } finally {
      view.removeEventListener('docstream-progress', onProgress);
      clearTimeout(outlineTimer);
    }
    signal.throwIfAborted(); // another file took the view over
    showProgress();
    state.blob = src.blob();
    state.loaded = true;
    // The time is worth saying for a file that took a while.
    const secs = (performance.now() - started) / 1000;
    await afterLoad(`${state.name}: ${formatBytes(read)} read${secs >= 1 ? ` in ${secs.toFixed(1)} s` : ''}`);
    document.body.dataset.state = 'loaded';
  } catch (err) {
    if (signal.aborted) {
      if (state.loading !== controller) return; // another file took over
      say(source.follow
        ? `Stopped following ${state.name} after ${formatBytes(read)}.`
        : `Loading ${state.name} cancelled after ${formatBytes(read)}${total ? ` of ${formatBytes(total)}` : ''}; showing what was read.`);
      refresh();
      document.body.dataset.state = 'cancelled';
    } else {
      document.body.dataset.state = 'failed';
      alertBox(`Could not open ${state.name || 'the transcript'}.`, err?.message ?? String(err));
      say('');
    }
  } finally {
    if (state.loading === controller) {
      state.loading = null;
      setLoading(false);
    }
  }
}

/** After a complete load: messages, outline, counts, replay. */
async function afterLoad(summary) {
  await yieldToPage();
  const { turns } = view.outline();
  const unknown = turns.some((t) => t.documents.some((d) => d.type === 'error' && /UNKNOWN_FORMAT/.test(d.label)));
  if (state.blob.size === 0) {
    alertBox('The file is empty.', 'There is nothing to show.');
  } else if (unknown) {
    // The core's details name the formats it knows (a file it could not read holds
    // nothing else, so its snapshot is small).
    const details = unknownFormatDetails(view.snapshot());
    alertBox('This file is not in a format docstream reads.', details || 'It is not a Server-Sent Event stream, NDJSON or JSON of a known kind.');
  } else if (!turns.length) {
    alertBox('Nothing to show.', 'The file was read, but it holds no turns.');
  }
  let detail = '';
  try {
    // The format, and events not understood (a snapshot of a very large file is skipped).
    if (state.blob.size <= 8 << 20) {
      const c = view.snapshot();
      if (c?.format) detail += ` · format ${c.format}`;
      const n = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
      if (c?.stats?.unknownEvents) detail += ` · ${n(c.stats.unknownEvents, 'event')} not understood`;
      if (c?.stats?.badEvents) detail += ` · ${n(c.stats.badEvents, 'bad event')}`;
    }
  } catch {
    /* the snapshot is only for the message */
  }
  say(summary + detail);
  refresh();
  // Replay needs the text split into lines; for a large file that waits until used.
  state.replayReady = null;
  if (state.blob.size <= 8 << 20) await ensureReplay();
  else {
    lastReplayPosition = 0;
    onReplay({ position: 0, length: 0, playing: false, time: 0 });
  }
  setLoading(false);
}

/** The details of the snapshot's UNKNOWN_FORMAT error, if any. */
function unknownFormatDetails(conversation) {
  for (const turn of conversation.turns) {
    for (const doc of turn.documents ?? []) {
      if (doc.type === 'error' && /UNKNOWN_FORMAT/.test(doc.metadata?.errorCode ?? '')) return doc.metadata?.details ?? doc.content;
    }
  }
  return '';
}

/** Prepares replay from the loaded input (once per load). */
function ensureReplay() {
  const blob = state.blob;
  if (!blob) return Promise.resolve();
  state.replayReady ??= blob.text().then((text) => {
    if (state.blob === blob) {
      // Taking the text puts the replay at its end, which the view already shows: the
      // outline built after the load stands (no second build).
      adoptingText = true;
      try {
        replay.setText(text);
      } finally {
        adoptingText = false;
      }
      lastReplayPosition = replay.position;
    }
  });
  return state.replayReady;
}

/** Outline, filter counts and search after the view changed. */
function refresh() {
  // Rebuilding the outline keeps keyboard focus on the same entry (outline.js).
  const outline = buildOutline(view, ui.outlineList, ui.outlineSummary);
  const n = (type) => outline.turns.reduce((k, t) => k + t.documents.filter((d) => d.type === type).length, 0);
  $('count-thinking').textContent = `(${n('thinking')})`;
  $('count-tools').textContent = `(${n('tool_call')})`;
  $('count-output').textContent = `(${n('terminal_command')})`;
  if (search.query) runSearch(false);
}

ui.cancel.addEventListener('click', () => state.loading?.abort(new DOMException('cancelled', 'AbortError')));

ui.file.addEventListener('change', () => {
  const files = [...(ui.file.files ?? [])];
  if (files.length && isLibrary(files)) {
    library.openPicked(files);
  } else if (files[0]) {
    leaveLibrary();
    open(files[0]);
  }
  ui.file.value = '';
});

// Following a file still being written needs its handle, to read it again as it grows
// (a File from the file input is a snapshot that stops reading once the file changes).
if ('showOpenFilePicker' in window) {
  ui.followOpen.hidden = false;
  ui.followOpen.addEventListener('click', async () => {
    let handle;
    try {
      [handle] = await window.showOpenFilePicker({ id: 'docstream-follow' });
    } catch {
      return; // the picker was closed
    }
    leaveLibrary();
    open({ follow: handle });
  });
}

ui.urlForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const url = ui.url.value.trim();
  if (!url) return;
  const u = new URL(location.href);
  u.searchParams.set('src', url);
  history.replaceState(null, '', u);
  open({ url });
});

ui.pasteOpen.addEventListener('click', () => {
  ui.pasteText.value = '';
  ui.pasteDialog.showModal();
});
ui.pasteDialog.addEventListener('close', () => {
  if (ui.pasteDialog.returnValue === 'load' && ui.pasteText.value) open({ text: ui.pasteText.value });
});

document.addEventListener('paste', (e) => {
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
  const file = e.clipboardData?.files?.[0];
  const text = e.clipboardData?.getData('text/plain');
  if (file) open(file);
  else if (text) open({ text });
  else return;
  e.preventDefault();
});

// Drag and drop anywhere on the page.
let dragDepth = 0;
const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
document.addEventListener('dragenter', (e) => {
  if (!hasFiles(e)) return;
  dragDepth++;
  ui.drop.hidden = false;
});
document.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    ui.drop.hidden = true;
  }
});
document.addEventListener('dragover', (e) => {
  if (hasFiles(e)) e.preventDefault();
});
document.addEventListener('drop', (e) => {
  dragDepth = 0;
  ui.drop.hidden = true;
  const f = e.dataTransfer?.files?.[0];
  if (!f) return;
  e.preventDefault();
  // Folders, several files or a Cursor database open as a library.
  const items = [...(e.dataTransfer.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (items.some((x) => x.isDirectory) || isLibrary([...e.dataTransfer.files])) {
    library.openDrop(e.dataTransfer);
  } else {
    leaveLibrary();
    open(f);
  }
});

// ---- the library (a folder or store of many conversations) ----------------------------

/** Scrolls to a document or prompt of the shown conversation and marks it. */
function jumpToAnchor(anchor) {
  view.reveal(anchor, { open: true });
}

const library = setupLibrary({
  openConversation: (source) => open(source),
  jump: jumpToAnchor,
  say,
  alertBox,
});

/** A single file opened: the library's view of the page gives way to it. */
function leaveLibrary() {
  delete document.body.dataset.mode;
  const crumb = document.getElementById('crumb');
  if (crumb) crumb.hidden = true;
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

// ---- theme and diff ---------------------------------------------------------------

function applyTheme(value) {
  if (value === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = value;
  view.setAttribute('theme', value === 'system' ? 'auto' : value);
}
function applyDiff(value) {
  view.setAttribute('diff', value);
}
function pref(key, fallback, allowed) {
  try {
    const v = localStorage.getItem(`docstream-viewer.${key}`);
    return allowed.includes(v) ? v : fallback;
  } catch {
    return fallback;
  }
}
function store(key, value) {
  try {
    localStorage.setItem(`docstream-viewer.${key}`, value);
  } catch {
    /* private mode */
  }
}
ui.theme.value = pref('theme', 'system', ['system', 'light', 'dark']);
ui.diff.value = pref('diff', 'unified', ['unified', 'split']);
applyTheme(ui.theme.value);
applyDiff(ui.diff.value);
ui.theme.addEventListener('change', () => {
  applyTheme(ui.theme.value);
  store('theme', ui.theme.value);
});
ui.diff.addEventListener('change', () => {
  applyDiff(ui.diff.value);
  store('diff', ui.diff.value);
});

// ---- filters ------------------------------------------------------------------------

/** Each box shows a part the element's `hide` can hide. */
const filterBoxes = { thinking: $('show-thinking'), tools: $('show-tools'), output: $('show-output') };
for (const box of Object.values(filterBoxes)) {
  box.addEventListener('change', () => {
    view.hide = Object.entries(filterBoxes)
      .filter(([, b]) => !b.checked)
      .map(([part]) => part)
      .join(' ');
    if (search.query) runSearch(false);
  });
}

// ---- search ---------------------------------------------------------------------------

/** "3 of 41" */
function showCount() {
  const r = search.result;
  let label = '';
  if (r?.query) {
    const total = r.capped ? `${r.count}+` : `${r.count}`;
    label = !r.count ? 'no matches' : r.current < 0 ? `${total} matches` : `${r.current + 1} of ${total}`;
  }
  ui.searchCount.textContent = label;
}
function runSearch(jump) {
  search.query = ui.search.value.trim();
  search.result = view.find(search.query);
  if (jump) search.result = view.findNext(1);
  showCount();
}
function moveSearch(step) {
  search.result = view.findNext(step);
  showCount();
}
function clearSearch() {
  search.query = '';
  search.result = view.find('');
  showCount();
}
let searchTimer = 0;
ui.search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => runSearch(false), 150);
});
ui.searchForm.addEventListener('submit', (e) => {
  e.preventDefault();
  clearTimeout(searchTimer);
  if (search.query !== ui.search.value.trim()) runSearch(true);
  else moveSearch(1);
});
ui.searchPrev.addEventListener('click', () => {
  if (search.query !== ui.search.value.trim()) runSearch(false);
  moveSearch(-1);
});
ui.search.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && e.shiftKey) {
    e.preventDefault();
    ui.searchPrev.click();
  } else if (e.key === 'Escape') {
    ui.search.value = '';
    clearSearch();
  }
});
document.addEventListener('keydown', (e) => {
  const t = e.target;
  const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t?.isContentEditable;
  if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    ui.search.focus();
    ui.search.select();
  }
});

// ---- outline ----------------------------------------------------------------------

// Activating an entry (click, Enter, Space) reveals it in the view: outline.js.

// ---- replay -------------------------------------------------------------------------

function clock(ms) {
  const s = ms / 1000;
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
}
let outlineTimer = 0;
/** The timing the reader picked, if any. */
let timingChosen = null;
let lastReplayPosition = -1;
/** True while the replay takes a loaded file's text (ensureReplay). */
let adoptingText = false;
function onReplay({ position, length, playing, time }) {
  ui.play.textContent = playing ? 'Pause' : 'Play';
  ui.play.setAttribute('aria-pressed', String(playing));
  ui.scrub.max = String(length);
  ui.scrub.value = String(position);
  ui.scrub.setAttribute('aria-valuetext', `line ${position} of ${length}`);
  ui.scrubText.textContent = `${position}/${length} · ${clock(time)}`;
  // Timestamps when the format carries them, unless the reader chose a fixed rate.
  ui.timing.options[0].disabled = !replay.hasStamps;
  const timing = replay.hasStamps ? (timingChosen ?? 'stamps') : 'fixed';
  if (ui.timing.value !== timing || replay.timing !== timing) {
    ui.timing.value = timing;
    replay.setTiming(timing);
  }
  // The outline follows the replay, at most a few times a second.
  // Not while a file loads (the load ends with a build of its own).
  if (state.loaded && !adoptingText && position !== lastReplayPosition && !outlineTimer) {
    lastReplayPosition = position;
    outlineTimer = setTimeout(() => {
      outlineTimer = 0;
      refresh();
    }, 250);
  }
}
ui.play.addEventListener('click', async () => {
  await ensureReplay();
  replay.toggle();
});
ui.scrub.addEventListener('focus', () => ensureReplay());
ui.scrub.addEventListener('pointerdown', () => ensureReplay());
ui.timing.addEventListener('change', () => {
  timingChosen = ui.timing.value;
  replay.setTiming(ui.timing.value);
});
ui.speed.addEventListener('change', () => replay.setSpeed(Number(ui.speed.value)));
ui.scrub.addEventListener('input', async () => {
  const to = Number(ui.scrub.value);
  await ensureReplay();
  replay.pause();
  replay.seek(to);
});
replay.setTiming(ui.timing.value);
replay.setSpeed(Number(ui.speed.value));

// ---- export ---------------------------------------------------------------------------

function baseName() {
  return (state.name || 'transcript').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'transcript';
}
/** Downloads the view as `as` (html, markdown, json), secrets masked unless the reader
 * unticked "Mask secrets"; says how many were masked. */
async function exportAs(as, extension, type) {
  const redact = ui.exportRedact.checked;
  try {
    const { text, masked } = await exportView(view, { as, redact, title: `${state.name} — docstream` });
    download(`${baseName()}.${extension}`, type, text);
    if (redact) say(maskedSummary(masked));
  } catch (e) {
    alertBox('The export failed.', String(e?.message ?? e));
  }
}
ui.exportHtml.addEventListener('click', () => exportAs('html', 'html', 'text/html'));
ui.exportMd.addEventListener('click', () => exportAs('markdown', 'md', 'text/markdown'));
ui.exportJson.addEventListener('click', () => exportAs('json', 'json', 'application/json'));

// ---- start --------------------------------------------------------------------------

async function start() {
  await customElements.whenDefined('docstream-view');
  const src = new URLSearchParams(location.search).get('src');
  if (src) {
    ui.url.value = src;
    open({ url: src });
  }
  document.documentElement.dataset.ready = 'true';
}
start();
