#!/usr/bin/env node
// docstream's browser benchmark: <docstream-view> side by side with the JavaScript
// pipelines a page would otherwise use, in headless Chromium (Debian's, driven by
// playwright-core; nothing is downloaded), on the transcripts of the Node benchmark
// (bench/gen/, the same seed and sizes) and a 100 MB saved session. See README.md §
// Speed; `bash bench/run.sh` runs it after the Node part (`--quick` for a smoke run).
//
// Parts (--only):
//   stream  every pipeline fed the transcript in 64 B chunks, each chunk a task of its
//           own, as fast as the page takes them (and the element's one-shot load of the
//           same bytes); every round runs every pipeline once, in a rotated order, each
//           in a fresh page; ratios are taken per round;
//   paced   the same at 50 KB/s;
//   viewer  www/viewer/ opening the saved session (first screen, longest task while
//           loading, searchable, DOM, memory, scrolling end to end);
//   append  one append to a thread of 10,000 documents against one to a short thread;
//   cold    a cold start on a throttled profile (1.6 Mbps, 150 ms, CPU ÷ 4): the first
//           document of docstream's default entry against the Streamdown page's.
//
// Main-thread time is the CPU time of the page's main thread (Performance.getMetrics
// ThreadTime) and, per task, from a Chrome trace (wall and CPU); on a machine shared
// with other work wall times grow with its load, so ratios of CPU times are the figures
// to compare. Nothing here is a test of speed: the failures are pipelines that did not
// render every document.

import { chromium } from 'playwright-core';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import os from 'node:os';

import { parseArgs } from './browser/args.mjs';
import { serve } from './browser/server.mjs';
import { buildPages } from './browser/build.mjs';
import { mainThreadTasks, TRACE_CATEGORIES } from './browser/trace.mjs';
import { summarise } from './browser/summary.mjs';
import { thread, pair } from './browser/thread.mjs';
import { goalRows, reportMarkdown } from './browser/report.mjs';
import { generate, SIZES } from './gen/transcript.mjs';
import { median, sig } from './lib/stats.mjs';
import { cpuSnapshot, othersShare } from './lib/noise.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const opts = parseArgs(process.argv.slice(2), REPO);
const started = performance.now();
const startCpu = cpuSnapshot();
const log = (...a) => console.log(...a);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const BYTES = { ...SIZES, '100m': 100_000_000 };
const LABEL = { '100k': '100 KB', '1m': '1 MB', '10m': '10 MB', '100m': '100 MB' };

// --report FILE: the tables again from a results file (summaries recomputed).
if (opts.report) {
  const r = JSON.parse(readFileSync(opts.report, 'utf8'));
  for (const z of [...Object.values(r.stream ?? {}), r.paced].filter(Boolean)) {
    z.medians = {};
    z.ratios = {};
    summarise(z);
  }
  r.goals = goalRows(r);
  writeFileSync(opts.report, JSON.stringify(r, null, 1));
  const md = reportMarkdown(r);
  writeFileSync(opts.report.replace(/\.json$/, '.md'), md + '\n');
  console.log(md);
  process.exit(0);
}

if (!existsSync(join(opts.pkg, 'define.js'))) {
  console.error(`${opts.pkg}/define.js is missing: build the package first (bash scripts/build-wasm.sh)`);
  process.exit(2);
}

// ---------------------------------------------------------------- results
const version = (p) => {
  try {
    return JSON.parse(readFileSync(join(HERE, 'node_modules', p, 'package.json'), 'utf8')).version;
  } catch {
    return JSON.parse(readFileSync(join(REPO, 'node_modules', p, 'package.json'), 'utf8')).version;
  }
};
const results = {
  when: new Date().toISOString(),
  command: `node bench/browser.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  quick: opts.quick,
  machine: { nproc: os.availableParallelism?.() ?? os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadavgAtStart: os.loadavg().map((x) => +x.toFixed(2)) },
  versions: Object.fromEntries(['streaming-markdown', 'streamdown', 'react', 'react-dom', 'diff', 'diff2html', 'playwright-core'].map((p) => [p, version(p)])),
  pkg: relative(REPO, opts.pkg) || '.',
  seed: opts.seed,
  capS: opts.capS,
  viewerCapS: opts.viewerCapS,
  inputs: {},
  stream: {},
  paced: null,
  viewer: null,
  append: null,
  cold: null,
  checks: [],
};
const outFile = opts.out ?? join(HERE, 'results', `browser-${results.when.replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(outFile), { recursive: true });
const save = () => writeFileSync(outFile, JSON.stringify(results, null, 1));
const check = (name, ok, detail = '') => {
  results.checks.push({ name, ok, detail });
  if (!ok) log(`CHECK FAILED: ${name} ${detail}`);
};

// ---------------------------------------------------------------- inputs
const inputDir = join(HERE, 'results', 'inputs');
mkdirSync(inputDir, { recursive: true });
const genHash = createHash('sha1');
for (const f of readdirSync(join(HERE, 'gen')).sort()) genHash.update(readFileSync(join(HERE, 'gen', f)));
const GEN = genHash.digest('hex').slice(0, 12);

/** A phrase of three words from the prose of the transcript's last message (for find()). */
function lastPhrase(markdown) {
  const lines = markdown.slice(-20_000).split('\n');
  let fence = false;
  let phrase = null;
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    else if (!fence && !/^\s*[|>]/.test(l)) {
      const m = [...l.matchAll(/(?<![\w`*_])([a-z]{4,} [a-z]{4,} [a-z]{4,})(?![\w`*_])/g)];
      if (m.length) phrase = m[m.length - 1][1];
    }
  }
  return phrase;
}

/** The transcript of `size` (generated once per generator version and seed). */
function input(size) {
  if (results.inputs[size]) return results.inputs[size];
  const file = join(inputDir, `transcript-${size}-seed${opts.seed}.ndjson`);
  const metaFile = file.replace(/\.ndjson$/, '.meta.json');
  let meta = null;
  try {
    meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    if (meta.gen !== GEN || statSync(file).size !== meta.bytes) meta = null;
  } catch {
    meta = null;
  }
  if (!meta) {
    const t = performance.now();
    const g = generate(BYTES[size], opts.seed);
    writeFileSync(file, g.ndjson);
    const tools = Object.values(g.stats.tools).reduce((a, b) => a + b, 0);
    meta = {
      gen: GEN, bytes: g.ndjson.length, messages: g.stats.messages, deltas: g.stats.deltas, tools,
      // A document per user prompt, message and tool call, as the peers render them.
      peerDocs: 1 + g.stats.messages + tools,
      phrase: lastPhrase(g.markdown),
    };
    writeFileSync(metaFile, JSON.stringify(meta));
    log(`generated ${relative(REPO, file)}: ${meta.bytes} B, ${meta.messages} messages, ${tools} tool calls (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
  results.inputs[size] = { file, url: `/__inputs__/${relative(inputDir, file)}`, ...meta };
  return results.inputs[size];
}

// ---------------------------------------------------------------- browser and pages
const pageSizes = await buildPages(join(HERE, 'browser', 'pages'), join(HERE, 'results', 'browser-pages'));
results.bundles = pageSizes;
const server = await serve(REPO, { '/pkg/': opts.pkg, '/__inputs__/': inputDir, '/__pages__/': join(HERE, 'results', 'browser-pages') });
const PAGES = '/bench/browser/pages';
const PIPELINES = {
  'ds.stream': { page: `${PAGES}/element.html`, mode: 'fast', wasm: true, what: '<docstream-view> push() per 64 B chunk' },
  'ds.load': { page: `${PAGES}/element.html`, mode: 'load', wasm: true, what: '<docstream-view> load() of the whole input (one-shot)' },
  'smd.stream': { page: `${PAGES}/smd.html`, mode: 'fast', what: 'streaming-markdown into the DOM + JS ingest, 64 B chunks' },
  'sd.stream': { page: `${PAGES}/streamdown.html`, mode: 'fast', what: 'Streamdown in React 19, 64 B chunks' },
  'floor.stream': { page: `${PAGES}/floor.html`, mode: 'fast', what: 'feeding only (the harness: a task per chunk, nothing rendered)' },
};
const PACED = ['ds.stream', 'smd.stream', 'sd.stream'];

const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
// Playwright gives the browser a fresh, temporary --user-data-dir of its own (and
// removes it at the end); each run below also gets a fresh browser context.
const browser = await chromium.launch({ executablePath: opts.chromium, args: LAUNCH_ARGS });
results.versions.chromium = browser.version();
const PROBE = join(HERE, 'browser', 'probe.js');
log(`docstream browser benchmark: ${relative(REPO, opts.pkg)}; Chromium ${browser.version()}; ${results.machine.nproc} cores, load average ${results.machine.loadavgAtStart.join(' ')}; peers ${JSON.stringify(results.versions)}`);
log(`peer bundles (gzip): streaming-markdown page ${(pageSizes.smd.gzip / 1024).toFixed(0)} KB, Streamdown page ${(pageSizes.streamdown.gzip / 1024).toFixed(0)} KB`);

/** A fresh context and page with the probe, a CDP session and its errors. */
async function openPage(url, { viewport = { width: 1280, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript({ path: PROBE });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
  if (url) await page.goto(server.url + url);
  return { context, page, cdp, errors };
}

/** Main-thread figures of the page so far (ms; cumulative). */
async function metrics(cdp) {
  const { metrics: m } = await cdp.send('Performance.getMetrics');
  const g = (n) => m.find((x) => x.name === n)?.value ?? NaN;
  return {
    cpuMs: g('ThreadTime') * 1000, taskMs: g('TaskDuration') * 1000, scriptMs: g('ScriptDuration') * 1000,
    layoutMs: g('LayoutDuration') * 1000, styleMs: g('RecalcStyleDuration') * 1000, nodes: g('Nodes'),
  };
}
const delta = (a, b) => ({
  cpuMs: sig(b.cpuMs - a.cpuMs), taskMs: sig(b.taskMs - a.taskMs), scriptMs: sig(b.scriptMs - a.scriptMs),
  layoutMs: sig(b.layoutMs - a.layoutMs), styleMs: sig(b.styleMs - a.styleMs),
});

/** JS heap (V8), DOM (Blink's heap) and wasm memory after a full GC (bytes). */
async function memory(page, cdp, wasm) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const h = await cdp.send('Runtime.getHeapUsage');
  const wasmBytes = wasm
    ? await page.evaluate(() => import('/pkg/docstream.js').then((m) => m.default()).then((w) => w.memory.buffer.byteLength))
    : 0;
  const { nodes } = await metrics(cdp);
  return { jsHeap: h.usedSize, dom: h.embedderHeapUsedSize ?? null, wasm: wasmBytes, jsPlusWasm: h.usedSize + wasmBytes, nodes };
}

class Timeout extends Error {}
/** `promise`, or a Timeout after `ms`. */
function within(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Timeout(`over ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

/** Starts a trace (when tracing); `stop()` gives the main-thread tasks between the marks. */
async function tracing(page) {
  if (!opts.trace) return { stop: async () => null };
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  return {
    async stop() {
      const buf = await browser.stopTracing();
      const t = mainThreadTasks(buf);
      if (!t) return null;
      for (const k of Object.keys(t)) t[k] = sig(t[k]);
      t.progress = t.progress.map((p) => p.map(sig));
      return t;
    },
  };
}

/** One measured run of `id` on `size` in a fresh page; `mode` overrides the pipeline's. */
async function measure(id, size, { mode = PIPELINES[id].mode, rate } = {}) {
  const p = PIPELINES[id];
  const inp = input(size);
  const capMs = (opts.caps[id] ?? opts.capS) * 1000;
  const { context, page, cdp, errors } = await openPage(p.page);
  let crashed = false;
  page.on('crash', () => (crashed = true));
  try {
    await page.waitForFunction(() => window.__pipeline);
    await page.evaluate(() => window.__pipeline.ready);
    const base = await memory(page, cdp, p.wasm);
    const before = await metrics(cdp);
    const trace = await tracing(page);
    let r;
    try {
      r = await within(page.evaluate((o) => window.__run(o), { url: inp.url, mode, rate, capMs }), capMs + 120_000);
    } catch (e) {
      await trace.stop().catch(() => null);
      if (e instanceof Timeout) return { id, size, mode, overCap: true, killed: true, fed: null, note: `no answer ${capMs / 1000 + 120} s after the start: one task longer than that` };
      if (crashed) return { id, size, mode, overCap: true, killed: true, crashed: true, fed: null, note: `the page crashed (${String(e.message).split('\n')[0]})` };
      throw e;
    }
    const tasks = await trace.stop();
    const after = await metrics(cdp);
    const elements = await page.evaluate(() => window.__bench.countElements());
    const mem = await memory(page, cdp, p.wasm);
    mem.before = base.jsPlusWasm;
    mem.growth = mem.jsPlusWasm - base.jsPlusWasm;
    const out = {
      id, size, mode, bytes: r.bytes, fed: r.fed, overCap: r.overCap, lateMs: r.lateMs == null ? undefined : sig(r.lateMs),
      ...delta(before, after), tasks, longTasks: r.longTasks, frames: r.frames && { ...r.frames, max: sig(r.frames.max), p99: sig(r.frames.p99) },
      firstDocMs: sig(r.firstDocMs), wallMs: sig(r.wallMs), feedMs: sig(r.feedMs), docs: r.docs, elements, memory: mem, errors: errors.slice(0, 5),
    };
    if (id.startsWith('ds.')) out.htmlChars = await page.evaluate(() => window.__pipeline.htmlLength());
    return out;
  } finally {
    await context.close();
  }
}

const fmt = (x, unit = 'ms') => (x == null || !Number.isFinite(x) ? '–' : `${x < 10 ? x.toFixed(1) : Math.round(x)}${unit}`);
function say(r) {
  if (r.killed) return `${r.id} ${r.size}: over cap (${r.note})`;
  const t = r.tasks;
  return `${r.id.padEnd(12)} ${r.size.padEnd(4)} ${r.mode.padEnd(5)} main thread ${fmt(r.cpuMs, ' ms CPU')} (${fmt(r.taskMs, ' ms wall in tasks')})` +
    (t ? `, longest task ${fmt(t.maxCpuMs)} CPU / ${fmt(t.maxWallMs)} wall, ${t.over50Cpu} / ${t.over50Wall} over 50 ms` : '') +
    `, first doc ${fmt(r.firstDocMs)}, ${r.docs} docs, ${r.elements} elements, JS ${(r.memory.jsHeap / 1e6).toFixed(1)} MB + wasm ${(r.memory.wasm / 1e6).toFixed(1)} MB, wall ${fmt(r.wallMs / 1000, ' s')}` +
    (r.overCap ? ` — OVER CAP after ${r.fed} of ${r.bytes} B` : '') + (r.errors?.length ? ` errors: ${r.errors.join('; ')}` : '');
}

function checkDocs(r) {
  if (r.killed || r.overCap) return;
  const inp = results.inputs[r.size];
  if (r.id === 'smd.stream' || r.id === 'sd.stream') {
    check(`${r.id} ${r.size} ${r.mode}: every document rendered`, r.docs === inp.peerDocs, `(${r.docs} of ${inp.peerDocs})`);
  }
  check(`${r.id} ${r.size} ${r.mode}: no page error`, r.errors.length === 0, r.errors.join('; '));
}

// ---------------------------------------------------------------- stream
for (const id of [...(opts.pipelines ?? []), ...Object.keys(opts.caps)]) {
  if (!PIPELINES[id]) throw new Error(`unknown pipeline ${id} (${Object.keys(PIPELINES).join(', ')})`);
}
results.caps = opts.caps;
if (opts.only.has('stream')) {
  const ids = opts.pipelines ?? Object.keys(PIPELINES);
  for (const size of opts.sizes) {
    input(size);
    const R = opts.rounds[size] ?? 1;
    const z = { rounds: R, runs: Object.fromEntries(ids.map((id) => [id, []])), medians: {}, ratios: {} };
    results.stream[size] = z;
    const cpu0 = cpuSnapshot();
    for (let round = 0; round < R; round++) {
      for (let k = 0; k < ids.length; k++) {
        const id = ids[(k + round) % ids.length];
        const r = await measure(id, size);
        r.round = round;
        z.runs[id].push(r);
        checkDocs(r);
        log(`  ${say(r)} (${elapsed()})`);
        save();
      }
      const [s, l] = [z.runs['ds.stream']?.[round], z.runs['ds.load']?.[round]];
      if (s && l && !s.overCap && !l.overCap) {
        check(`${size} round ${round}: streamed element shows the one-shot's documents`, s.docs === l.docs && s.htmlChars === l.htmlChars, `(${s.docs} vs ${l.docs} documents, ${s.htmlChars} vs ${l.htmlChars} chars of html())`);
      }
    }
    z.othersShare = othersShare(cpu0, cpuSnapshot());
    summarise(z);
    log(`--- stream ${size}: ${R} round(s); other processes used ${Math.round(100 * z.othersShare)}% of the machine meanwhile; ratios of CPU time per round: ${JSON.stringify(z.ratios)} (${elapsed()})`);
    save();
  }
}

// ---------------------------------------------------------------- paced
if (opts.only.has('paced') && opts.paced) {
  const size = opts.paced;
  input(size);
  const z = { size, rateBytesPerS: 50_000, runs: Object.fromEntries(PACED.map((id) => [id, []])), medians: {}, ratios: {} };
  results.paced = z;
  for (const id of PACED) {
    const r = await measure(id, size, { mode: 'paced', rate: 50_000 });
    r.round = 0;
    z.runs[id].push(r);
    checkDocs(r);
    log(`  ${say(r)}${r.lateMs != null ? `, the last chunk ${fmt(r.lateMs)} late` : ''} (${elapsed()})`);
    save();
  }
  summarise(z);
  save();
}

// ---------------------------------------------------------------- append
if (opts.only.has('append') && opts.appendDocs > 0) {
  const docs = opts.appendDocs;
  const threads = { short: 10, long: docs };
  const z = { docs: threads, appends: opts.appends, pages: {}, perAppend: { short: [], long: [] }, ratios: {} };
  results.append = z;
  const open = {};
  for (const [name, n] of Object.entries(threads)) {
    const file = join(inputDir, `thread-${n}.ndjson`);
    writeFileSync(file, thread(n));
    const o = await openPage(`${PAGES}/element.html`);
    await o.page.waitForFunction(() => window.__pipeline);
    const setup = await within(
      o.page.evaluate(async (url) => {
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        await window.__pipeline.reset();
        const ms = window.__pipeline.append(bytes);
        await window.__bench.afterFrames(3);
        return { ms, docs: window.__pipeline.count(), elements: window.__bench.countElements() };
      }, `/__inputs__/thread-${n}.ndjson`),
      opts.capS * 1000,
    );
    z.pages[name] = { bytes: statSync(file).size, setupMs: sig(setup.ms), docs: setup.docs, elements: setup.elements };
    open[name] = { ...o, next: Math.floor(n / 2) };
    log(`  append: ${name} thread of ${setup.docs} documents (${setup.elements} elements) built in ${fmt(setup.ms)} (${elapsed()})`);
  }
  const appendOne = async (name) => {
    const o = open[name];
    const text = pair(o.next++);
    const before = await metrics(o.cdp);
    const syncMs = await o.page.evaluate(async (t) => {
      const ms = window.__pipeline.append(new TextEncoder().encode(t));
      await window.__bench.afterFrames(2);
      return ms;
    }, text);
    const after = await metrics(o.cdp);
    return { syncMs, cpuMs: after.cpuMs - before.cpuMs, taskMs: after.taskMs - before.taskMs };
  };
  for (let i = 0; i < 3; i++) for (const name of ['short', 'long']) await appendOne(name); // warm-up
  for (let i = 0; i < opts.appends; i++) {
    const order = i % 2 ? ['long', 'short'] : ['short', 'long'];
    const got = {};
    for (const name of order) got[name] = await appendOne(name);
    z.perAppend.short.push(got.short);
    z.perAppend.long.push(got.long);
  }
  for (const name of ['short', 'long']) {
    const a = z.perAppend[name];
    z.pages[name].medians = { syncMs: sig(median(a.map((x) => x.syncMs))), cpuMs: sig(median(a.map((x) => x.cpuMs))), taskMs: sig(median(a.map((x) => x.taskMs))) };
    z.pages[name].docsAfter = await open[name].page.evaluate(() => window.__pipeline.count());
    z.pages[name].errors = open[name].errors.slice(0, 5);
    check(`append ${name}: no page error`, open[name].errors.length === 0, open[name].errors.join('; '));
  }
  for (const k of ['syncMs', 'cpuMs', 'taskMs']) {
    const per = z.perAppend.long.map((x, i) => x[k] / z.perAppend.short[i][k]).filter(Number.isFinite);
    z.ratios[k] = { median: sig(median(per)), min: sig(Math.min(...per)), max: sig(Math.max(...per)) };
  }
  check(`append: every append added two documents`, z.pages.long.docsAfter === z.pages.long.docs + 2 * (opts.appends + 3) && z.pages.short.docsAfter === z.pages.short.docs + 2 * (opts.appends + 3),
    `(${z.pages.short.docs} → ${z.pages.short.docsAfter}, ${z.pages.long.docs} → ${z.pages.long.docsAfter})`);
  for (const o of Object.values(open)) await o.context.close();
  log(`  append: one append to ${z.pages.long.docs} documents ÷ to ${z.pages.short.docs}: CPU ${JSON.stringify(z.ratios.cpuMs)}, synchronous part ${JSON.stringify(z.ratios.syncMs)}; medians short ${JSON.stringify(z.pages.short.medians)}, long ${JSON.stringify(z.pages.long.medians)} (${elapsed()})`);
  save();
}

// ---------------------------------------------------------------- viewer
if (opts.only.has('viewer') && opts.viewer) {
  const inp = input(opts.viewer);
  const z = { size: opts.viewer, bytes: inp.bytes, phrase: inp.phrase };
  results.viewer = z;
  const { context, page, cdp, errors } = await openPage('/www/viewer/');
  page.on('crash', () => (z.crashed = true));
  try {
    await page.waitForSelector('html[data-ready="true"]');
    await page.evaluate(() => {
      const b = window.__bench;
      // Capture on window: before the viewer's own handler of the file input.
      window.addEventListener('change', (e) => {
        if (e.target?.id !== 'file') return;
        b.openAt = performance.now();
        performance.mark('bench-start');
        b.watchFirstDoc();
        b.startFrames();
      }, true);
      new MutationObserver(() => {
        const s = document.body.dataset.state;
        if (b.openAt != null && b.doneAt == null && s && s !== 'loading') {
          b.doneAt = performance.now();
          b.doneState = s;
          performance.mark('bench-end');
        }
      }).observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
    });
    const base = await memory(page, cdp, true);
    const before = await metrics(cdp);
    const trace = await tracing(page);
    await page.setInputFiles('#file', inp.file);
    let overCap = false;
    try {
      await page.waitForFunction(() => window.__bench.doneAt != null, null, { timeout: opts.viewerCapS * 1000, polling: 500 });
    } catch {
      overCap = true;
    }
    if (overCap) {
      await trace.stop().catch(() => null);
      const read = await within(page.evaluate(() => document.getElementById('progress').value), 60_000).catch(() => null);
      Object.assign(z, { overCap: true, readBytes: read, firstDocMs: await page.evaluate(() => (window.__bench.firstDocAt == null ? null : window.__bench.firstDocAt - window.__bench.openAt)).catch(() => null) });
      // What the page holds for what it read by then, and its long tasks so far.
      if (!z.crashed) {
        z.longTasks = await within(page.evaluate(() => window.__bench.longTasksIn(window.__bench.openAt)), 120_000).catch(() => null);
        z.elements = await within(page.evaluate(() => window.__bench.countElements()), 120_000).catch(() => null);
        z.memory = await within(memory(page, cdp, true), 120_000).catch(() => null);
        if (z.memory) z.memory.growth = z.memory.jsPlusWasm - base.jsPlusWasm;
      }
      log(`  viewer ${opts.viewer}: ${z.crashed ? 'the page CRASHED' : `OVER CAP (${opts.viewerCapS} s)`}, ${read} of ${inp.bytes} B read`);
    } else {
      const tasks = await trace.stop();
      const after = await metrics(cdp);
      const r = await page.evaluate(() => {
        const b = window.__bench;
        return { openAt: b.openAt, doneAt: b.doneAt, state: b.doneState, firstDocMs: b.firstDocAt == null ? null : b.firstDocAt - b.openAt, frames: b.stopFrames(), longTasks: b.longTasksIn(b.openAt, b.doneAt) };
      });
      const find = await page.evaluate((q) => {
        const view = document.getElementById('view');
        const t = performance.now();
        const f = view.find(q);
        const ms = performance.now() - t;
        view.find('');
        return { ms, count: f.count, capped: f.capped };
      }, inp.phrase);
      const elements = await page.evaluate(() => window.__bench.countElements());
      const mem = await memory(page, cdp, true);
      mem.before = base.jsPlusWasm;
      mem.growth = mem.jsPlusWasm - base.jsPlusWasm;
      // Scrolling end to end: the page (the viewer scrolls the window) from the top to
      // the bottom in 300 steps, one a frame, as dragging the scroll bar does.
      const scrollTrace = await tracing(page);
      const scroll = await page.evaluate(async (capMs) => {
        const b = window.__bench;
        const se = document.scrollingElement;
        se.scrollTop = 0;
        await b.afterFrames(3);
        performance.mark('bench-start');
        const t0 = performance.now();
        b.startFrames();
        const steps = 300;
        let done = 0;
        // A page whose frames take seconds would take an hour: stop at the cap, and say
        // how far it got.
        while (done < steps && performance.now() - t0 < capMs) {
          se.scrollTop = ((se.scrollHeight - innerHeight) * ++done) / steps;
          await b.afterFrames(1);
        }
        await b.afterFrames(2);
        const t1 = performance.now();
        performance.mark('bench-end');
        return { ms: t1 - t0, steps, done, overCap: done < steps, height: se.scrollHeight, atBottom: se.scrollTop + innerHeight >= se.scrollHeight - 2, frames: b.stopFrames(), longTasks: b.longTasksIn(t0, t1) };
      }, opts.scrollCapS * 1000);
      scroll.tasks = await scrollTrace.stop();
      Object.assign(z, {
        state: r.state, loadMs: sig(r.doneAt - r.openAt), firstDocMs: sig(r.firstDocMs), searchableMs: sig(r.doneAt - r.openAt + find.ms), find,
        ...delta(before, after), tasks, longTasks: r.longTasks, frames: r.frames, elements, memory: mem,
        memoryRatio: sig(mem.growth / inp.bytes), scroll, errors: errors.slice(0, 5),
      });
      check(`viewer ${opts.viewer}: loaded`, r.state === 'loaded', r.state);
      check(`viewer ${opts.viewer}: the last message's words are found`, find.count > 0, `("${inp.phrase}": ${find.count})`);
      check(`viewer ${opts.viewer}: no page error`, errors.length === 0, errors.join('; '));
      log(`  viewer ${opts.viewer}: first document ${fmt(z.firstDocMs)}, loaded in ${fmt(z.loadMs / 1000, ' s')} (main thread ${fmt(z.cpuMs / 1000, ' s CPU')}, ${fmt(z.taskMs / 1000, ' s wall in tasks')}), longest task ${fmt(tasks?.maxCpuMs)} CPU / ${fmt(tasks?.maxWallMs ?? r.longTasks?.max)} wall, searchable at ${fmt(z.searchableMs / 1000, ' s')} (find ${fmt(find.ms)}, ${find.count} matches), ${elements} elements, JS ${(mem.jsHeap / 1e6).toFixed(0)} MB + wasm ${(mem.wasm / 1e6).toFixed(0)} MB (${z.memoryRatio}× the file); scrolling: longest frame ${fmt(scroll.frames?.max)}, longest task ${fmt(scroll.tasks?.maxCpuMs)} CPU / ${fmt(scroll.tasks?.maxWallMs)} wall (${elapsed()})`);
    }
  } finally {
    await context.close();
  }
  save();
}

// ---------------------------------------------------------------- cold start
if (opts.only.has('cold') && opts.cold) {
  const inp = input(opts.cold);
  copyFileSync(inp.file, join(inputDir, 'cold.ndjson'));
  const z = { size: opts.cold, network: { downloadMbps: 1.6, latencyMs: 150, uploadMbps: 0.75 }, cpuSlowdown: 4, runs: { docstream: [], streamdown: [] }, medians: {} };
  results.cold = z;
  const pages = { docstream: `${PAGES}/element-cold.html`, streamdown: `${PAGES}/streamdown.html?src=/__inputs__/cold.ndjson` };
  for (let round = 0; round < opts.coldRounds; round++) {
    for (const name of round % 2 ? ['streamdown', 'docstream'] : ['docstream', 'streamdown']) {
      const { context, page, cdp, errors } = await openPage(`${PAGES}/blank.html`);
      try {
        const transfer = { bytes: 0, byType: {} };
        const types = new Map();
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
        cdp.on('Network.loadingFinished', (e) => {
          transfer.bytes += e.encodedDataLength;
          const t = types.get(e.requestId) ?? 'Other';
          transfer.byType[t] = (transfer.byType[t] ?? 0) + e.encodedDataLength;
        });
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (0.75e6 / 8) });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(server.url + pages[name], { waitUntil: 'commit' });
        let firstDocMs = null;
        try {
          await page.waitForFunction(() => window.__bench?.firstDocAt != null, null, { timeout: opts.capS * 1000, polling: 200 });
          firstDocMs = await page.evaluate(() => window.__bench.firstDocAt);
        } catch {
          // over cap
        }
        const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
        const r = { round, firstDocMs: sig(firstDocMs), fcpMs: sig(fcp), transferAtFirstDoc: { bytes: transfer.bytes, byType: { ...transfer.byType } }, errors: errors.slice(0, 5) };
        z.runs[name].push(r);
        check(`cold ${name}: a document shown`, firstDocMs != null);
        log(`  cold start ${name} (${opts.cold}): first document at ${fmt(firstDocMs)} (first paint ${fmt(fcp)}), ${(transfer.bytes / 1024).toFixed(0)} KB transferred by then ${JSON.stringify(Object.fromEntries(Object.entries(transfer.byType).map(([k, v]) => [k, Math.round(v / 1024)])))} KB (${elapsed()})`);
      } finally {
        await context.close();
      }
    }
  }
  for (const name of ['docstream', 'streamdown']) {
    const v = z.runs[name].map((r) => r.firstDocMs).filter((x) => x != null);
    z.medians[name] = { firstDocMs: v.length ? sig(median(v)) : null, runs: z.runs[name].length };
  }
  const per = z.runs.docstream.map((r, i) => r.firstDocMs / z.runs.streamdown[i]?.firstDocMs).filter(Number.isFinite);
  z.ratio = per.length ? { median: sig(median(per)), min: sig(Math.min(...per)), max: sig(Math.max(...per)) } : null;
  // What each page's code weighs, gzip (as served).
  const gz = (f) => gzipSync(readFileSync(f), { level: 6 }).length;
  z.entryGzip = { docstream: staticGraph(opts.pkg, 'define.js').reduce((n, f) => n + gz(join(opts.pkg, f)), 0), streamdown: pageSizes.streamdown.gzip };
  save();
}

await browser.close();
await server.close();

/** The files a module pulls in statically (relative imports, and the .wasm files it
 * names), from `entry` in `dir`. */
function staticGraph(dir, entry) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || !existsSync(join(dir, f))) return;
    seen.add(f);
    if (!f.endsWith('.js')) return;
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["']\.\/([^"']+)["']/g)) visit(m[1]);
    for (const m of text.matchAll(/["']([\w-]+\.wasm)["']/g)) visit(m[1]);
  };
  visit(entry);
  return [...seen];
}

// ---------------------------------------------------------------- report
results.seconds = Math.round((performance.now() - started) / 1000);
results.machine.othersShare = othersShare(startCpu, cpuSnapshot());
results.machine.loadavgAtEnd = os.loadavg().map((x) => +x.toFixed(2));
results.goals = goalRows(results);
save();
const failed = results.checks.filter((c) => !c.ok);
const md = reportMarkdown(results);
writeFileSync(outFile.replace(/\.json$/, '.md'), md + '\n');
log('');
log(md);
log('');
log(`results -> ${relative(process.cwd(), outFile)} and ${relative(process.cwd(), outFile.replace(/\.json$/, '.md'))}`);
log(`checks: ${results.checks.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
