#!/usr/bin/env node
// docstream's own benchmark: docstream side by side with the JavaScript pipelines a user
// would otherwise build, in one Node process, on generated Cursor stream-json transcripts
// and the same content as seed 000 document SSE. See README.md § Speed; run it with
// `bash bench/run.sh` (which builds the package and the CLI and installs the peers).
//
// Timings are medians over rounds; every round runs every pipeline once in a rotated
// order, so machine noise hits all alike, and ratios are taken per round. Nothing here
// is a test of speed: the only failure is docstream's streamed HTML differing from its
// one-shot HTML.

import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

import { parseArgs } from './lib/args.mjs';
import { generate, SIZES } from './gen/transcript.mjs';
import { loadPackage, streamPush, streamWire, streamPushChunks, streamWireChunks, oneShot, render } from './lib/docstream.mjs';
import { SINKS, streamNdjson, streamSse, markedOneShot, decodeSplitParse, PEER_PACKAGES } from './lib/peers.mjs';
import { deltaLines, longTable, pathologicalCases } from './lib/cases.mjs';
import { timeCli } from './lib/native.mjs';
import { median, percentile, max, sig, mbps, times, ms } from './lib/stats.mjs';
import { goalRows, markdownTable, timesTable } from './lib/report.mjs';
import { cpuSnapshot, othersShare } from './lib/noise.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc (bash bench/run.sh does)');
  process.exit(2);
}
const opts = parseArgs(process.argv.slice(2), HERE);
const started = performance.now();
const startCpu = cpuSnapshot();
const log = (...a) => console.log(...a);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// ---------------------------------------------------------------- set-up
const cpuModel = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m)?.[1] ?? os.cpus()[0]?.model;
  } catch {
    return os.cpus()[0]?.model;
  }
})();
const versions = Object.fromEntries(PEER_PACKAGES.map((p) => [p, JSON.parse(readFileSync(join(HERE, 'node_modules', p, 'package.json'), 'utf8')).version]));
const results = {
  when: new Date().toISOString(),
  command: `bash bench/run.sh ${process.argv.slice(2).join(' ')}`.trim(),
  machine: { nproc: os.availableParallelism?.() ?? os.cpus().length, cpu: cpuModel, node: process.version, loadavgAtStart: os.loadavg().map((x) => +x.toFixed(2)) },
  pkg: opts.pkg, cli: opts.cli, seed: opts.seed, rounds: opts.rounds, versions,
  sizes: {}, checks: [],
};
const outFile = opts.out ?? join(HERE, 'results', `bench-${results.when.replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(outFile), { recursive: true });
const save = () => writeFileSync(outFile, JSON.stringify(results, null, 1));
const check = (name, ok, detail = '') => {
  results.checks.push({ name, ok, detail });
  if (!ok) log(`CHECK FAILED: ${name} ${detail}`);
};

const ds = await loadPackage(opts.pkg);
log(`docstream benchmark: pkg ${opts.pkg}; ${results.machine.nproc} cores (${cpuModel}), node ${process.version}; peers ${JSON.stringify(versions)}`);

// ---------------------------------------------------------------- inputs
const inputDir = join(HERE, 'results', 'inputs');
mkdirSync(inputDir, { recursive: true });
const inputs = {};
for (const size of opts.sizes) {
  const g = generate(SIZES[size], opts.seed);
  const file = join(inputDir, `transcript-${size}-seed${opts.seed}.ndjson`);
  writeFileSync(file, g.ndjson);
  writeFileSync(file.replace(/\.ndjson$/, '.sse'), g.sse);
  inputs[size] = { nd: g.ndjson, sse: g.sse, file, stats: g.stats };
  const tools = Object.values(g.stats.tools).reduce((a, b) => a + b, 0);
  const b = g.stats.bytes;
  results.sizes[size] = {
    ndjsonBytes: g.ndjson.length, sseBytes: g.sse.length, markdownBytes: Buffer.byteLength(g.markdown),
    messages: g.stats.messages, deltas: g.stats.deltas, tools: g.stats.tools,
    mix: { assistant: sig(b.assistant / g.ndjson.length), tool_call: sig(b.tool_call / g.ndjson.length), result: sig(b.result / g.ndjson.length) },
    jobs: {}, ratios: {},
  };
  log(`input ${size}: ${g.ndjson.length} B NDJSON (${(100 * b.assistant / g.ndjson.length).toFixed(0)}% assistant deltas, ${(100 * b.tool_call / g.ndjson.length).toFixed(0)}% tool calls, ${(100 * b.result / g.ndjson.length).toFixed(0)}% result), ${g.sse.length} B SSE; ${g.stats.messages} messages, ${g.stats.deltas} deltas, ${tools} tool calls`);
}

// ---------------------------------------------------------------- jobs
function jobsFor(size) {
  const { nd, sse } = inputs[size];
  const jobs = [];
  const add = (id, buf, fn, reps = 1) => jobs.push({ id, bytes: buf.length, fn, reps, ts: [], perRound: [], out: null });
  for (const [suffix, buf] of [['', nd], ['.sse', sse]]) {
    add(`ds.push.64${suffix}`, buf, () => streamPush(ds, buf, 64));
    add(`ds.push.16${suffix}`, buf, () => streamPush(ds, buf, 16));
    add(`ds.wire.64${suffix}`, buf, () => streamWire(ds, buf, 64));
    add(`ds.wire.16${suffix}`, buf, () => streamWire(ds, buf, 16));
    add(`ds.oneshot${suffix}`, buf, () => oneShot(ds, buf), 3);
    add(`ds.render${suffix}`, buf, () => render(ds, buf), 3);
  }
  add('js.smd.64', nd, () => streamNdjson(nd, new SINKS.smd(), 64));
  add('js.blockmemo.64', nd, () => streamNdjson(nd, new SINKS.blockmemo(), 64));
  add('js.floor.64', nd, () => streamNdjson(nd, new SINKS.floor(), 64));
  add('js.marked_oneshot', nd, () => markedOneShot(nd), 3);
  add('js.decode_split_parse', nd, () => decodeSplitParse(nd), 3);
  add('js.smd.64.sse', sse, () => streamSse(sse, new SINKS.smd(), 64));
  return jobs;
}

// Ratios taken per round: [numerator, denominator] job ids.
const RATIOS = [];
for (const suffix of ['', '.sse']) {
  for (const f of ['push.64', 'push.16', 'wire.64', 'wire.16']) RATIOS.push([`ds.${f}${suffix}`, `ds.oneshot${suffix}`]);
  for (const f of ['push.64', 'wire.64']) RATIOS.push([`js.smd.64${suffix}`, `ds.${f}${suffix}`]);
}
for (const f of ['push.64', 'wire.64']) RATIOS.push([`js.blockmemo.64`, `ds.${f}`]);
RATIOS.push(['js.marked_oneshot', 'ds.oneshot'], ['js.marked_oneshot', 'ds.render'], ['ds.oneshot', 'js.decode_split_parse']);

// ---------------------------------------------------------------- checks (untimed)
/** What docstream made of an input: its format and how many documents of each type. */
function documentTypes(buf) {
  const s = new ds.DocStream();
  s.push(buf);
  s.finish();
  const out = { format: s.format };
  for (const turn of s.snapshot().turns ?? []) for (const d of turn.documents ?? []) out[d.type] = (out[d.type] ?? 0) + 1;
  s.free();
  return out;
}

// Streamed in every form, docstream's HTML is its one-shot HTML; what the patches hand
// out is measured against that HTML.
for (const size of opts.sizes) {
  for (const [suffix, buf] of [['', inputs[size].nd], ['.sse', inputs[size].sse]]) {
    const whole = oneShot(ds, buf, true);
    check(`${size}${suffix} write(whole)+end()+html() equals push(whole)+finish()+html()`, render(ds, buf, true) === whole);
    const z = results.sizes[size];
    z[`documents${suffix}`] = documentTypes(buf);
    z[`htmlChars${suffix}`] = whole.length;
    z[`patchRatio${suffix}`] = {};
    for (const [form, run] of [['push', streamPush], ['wire', streamWire]]) {
      for (const chunk of [64, 16]) {
        const r = run(ds, buf, chunk, { keepHtml: true });
        check(`${size}${suffix} ${form} ${chunk} B: streamed HTML equals one-shot HTML`, r.html === whole, r.html === whole ? '' : `(${r.html.length} vs ${whole.length} chars)`);
        z[`patchRatio${suffix}`][`${form}.${chunk}`] = sig(r.patchChars / whole.length);
      }
    }
  }
  const z = results.sizes[size];
  log(`checks ${size}: documents ${JSON.stringify(z.documents)}, SSE ${JSON.stringify(z['documents.sse'])}; patch chars ÷ page HTML ${JSON.stringify(z.patchRatio)} (${elapsed()})`);
}
{
  const failed = results.checks.filter((c) => !c.ok).length;
  log(`checks so far: ${results.checks.length - failed} passed, ${failed} failed`);
}
save();

// ---------------------------------------------------------------- timed rounds
{
  const small = opts.sizes[0];
  for (let i = 0; i < 2; i++) for (const j of jobsFor(small)) j.fn();
}
for (const size of opts.sizes) {
  const R = opts.rounds[size] ?? 3;
  const jobs = jobsFor(size);
  const t0 = performance.now();
  const cpu0 = cpuSnapshot();
  for (let r = 0; r < R; r++) {
    for (let k = 0; k < jobs.length; k++) {
      const j = jobs[(k + r) % jobs.length];
      const reps = [];
      for (let q = 0; q < j.reps; q++) {
        globalThis.gc();
        const t = performance.now();
        j.out = j.fn();
        reps.push(performance.now() - t);
      }
      j.ts.push(...reps);
      j.perRound.push(median(reps));
    }
  }
  const z = results.sizes[size];
  z.othersShare = othersShare(cpu0, cpuSnapshot());
  for (const j of jobs) {
    const m = median(j.perRound);
    z.jobs[j.id] = { ms: sig(m), min: sig(Math.min(...j.ts)), max: sig(max(j.ts)), MBps: sig(mbps(j.bytes, m)), inputBytes: j.bytes, runsMs: j.ts.map(sig) };
  }
  const by = Object.fromEntries(jobs.map((j) => [j.id, j]));
  for (const [a, b] of RATIOS) {
    if (!by[a] || !by[b]) continue;
    const per = by[a].perRound.map((x, i) => x / by[b].perRound[i]);
    z.ratios[`${a}/${b}`] = { median: sig(median(per)), min: sig(Math.min(...per)), max: sig(max(per)) };
  }
  log(`--- ${size}: ${R} rounds in ${((performance.now() - t0) / 1000).toFixed(1)} s; other processes used ${Math.round(100 * z.othersShare)}% of the machine meanwhile (${elapsed()})`);
  for (const j of jobs) log(`  ${j.id.padEnd(24)} ${ms(z.jobs[j.id].ms).padStart(10)}  ${z.jobs[j.id].MBps.toFixed(1).padStart(7)} MB/s`);
  for (const [k, v] of Object.entries(z.ratios)) log(`  ratio ${k}: ${times(v.median)} [${times(v.min)} … ${times(v.max)}]`);
  save();
}
if (results.sizes['1m'] && results.sizes['10m']) {
  const g = { input: sig(results.sizes['10m'].ndjsonBytes / results.sizes['1m'].ndjsonBytes) };
  for (const id of Object.keys(results.sizes['10m'].jobs)) g[id] = sig(results.sizes['10m'].jobs[id].ms / results.sizes['1m'].jobs[id].ms);
  results.growth = g;
}

// ---------------------------------------------------------------- per-chunk latency
{
  const size = opts.sizes[opts.sizes.length - 1];
  const buf = inputs[size].nd;
  results.latency = { size };
  const runs = [
    ['ds.push.64', 64, (t) => streamPush(ds, buf, 64, { times: t })],
    ['ds.wire.64', 64, (t) => streamWire(ds, buf, 64, { times: t })],
    ['ds.push.16', 16, (t) => streamPush(ds, buf, 16, { times: t })],
    ['ds.wire.16', 16, (t) => streamWire(ds, buf, 16, { times: t })],
    ['js.smd.64', 64, (t) => streamNdjson(buf, new SINKS.smd(), 64, t)],
  ];
  // Three instrumented runs each; the median of each figure, and the worst chunk of all.
  for (const [id, chunk, run] of runs) {
    const per = [];
    for (let i = 0; i < 3; i++) {
      const t = new Float64Array(Math.ceil(buf.length / chunk));
      globalThis.gc();
      run(t);
      per.push({ p50: percentile(t, 0.5), p99: percentile(t, 0.99), p999: percentile(t, 0.999), max: max(t), over1ms: t.filter((x) => x > 1).length, over16ms: t.filter((x) => x > 16).length });
    }
    const mid = (k) => sig(median(per.map((p) => p[k])));
    const l = { chunks: Math.ceil(buf.length / chunk), runs: 3, p50: mid('p50'), p99: mid('p99'), p999: mid('p999'), max: mid('max'), worstOfAll: sig(max(per.map((p) => p.max))), over1ms: mid('over1ms'), over16ms: mid('over16ms') };
    results.latency[id] = l;
    log(`latency ${size} ${id} (median of 3 runs): p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, p99.9 ${ms(l.p999)}, worst ${ms(l.max)} (${ms(l.worstOfAll)} in the worst run); ${l.over1ms} chunks > 1 ms, ${l.over16ms} > 16 ms`);
  }
  save();
}

// ---------------------------------------------------------------- wasm memory
// Each measurement in a fresh instance (wasm memory only grows): streamed, then html().
{
  const size = opts.sizes[opts.sizes.length - 1];
  const buf = inputs[size].nd;
  results.memory = { size, inputBytes: buf.length };
  const measure = async (name, run) => {
    const fresh = await loadPackage(opts.pkg);
    const before = fresh.memory.buffer.byteLength;
    const s = run(fresh);
    const afterStream = fresh.memory.buffer.byteLength;
    const html = s.html();
    const afterHtml = fresh.memory.buffer.byteLength;
    s.free();
    results.memory[name] = {
      before, afterStreamBytes: afterStream, afterHtmlBytes: afterHtml, htmlChars: html.length,
      afterStream: sig(afterStream / buf.length), afterHtml: sig(afterHtml / buf.length),
      grewInStream: sig((afterStream - before) / buf.length), grewInHtml: sig((afterHtml - afterStream) / buf.length),
    };
    log(`memory ${size} ${name}: wasm ${(before / 1e6).toFixed(1)} MB fresh, ${(afterStream / 1e6).toFixed(1)} MB after the stream (${times(afterStream / buf.length)} input), ${(afterHtml / 1e6).toFixed(1)} MB after html() (${times(afterHtml / buf.length)})`);
  };
  await measure('push.64', (d) => streamPush(d, buf, 64, { keep: true }).stream);
  await measure('wire.64', (d) => streamWire(d, buf, 64, { keep: true }).stream);
  await measure('oneshot', (d) => {
    const s = new d.DocStream();
    s.push(buf);
    s.finish();
    return s;
  });
  save();
}

// ---------------------------------------------------------------- a 2,000-row table
{
  const lines = deltaLines(longTable(2000), 16);
  const whole = Buffer.concat(lines);
  const one = oneShot(ds, whole, true);
  const rounds = opts.quick ? 3 : 5;
  const per = { wire: [], push: [] };
  const t = { oneshot: [], wire: [], push: [] };
  for (let r = 0; r < rounds; r++) {
    globalThis.gc();
    let t0 = performance.now();
    oneShot(ds, whole);
    const o = performance.now() - t0;
    globalThis.gc();
    t0 = performance.now();
    const w = streamWireChunks(ds, lines);
    const tw = performance.now() - t0;
    globalThis.gc();
    t0 = performance.now();
    const p = streamPushChunks(ds, lines);
    const tp = performance.now() - t0;
    if (r === 0) {
      check('2,000-row table write+pull: streamed HTML equals one-shot HTML', w.html === one);
      check('2,000-row table push: streamed HTML equals one-shot HTML', p.html === one);
    }
    t.oneshot.push(o);
    t.wire.push(tw);
    t.push.push(tp);
    per.wire.push(tw / o);
    per.push.push(tp / o);
  }
  results.table = {
    rows: 2000, deltas: lines.length - 1, ndjsonBytes: whole.length,
    ms: { oneshot: sig(median(t.oneshot)), wire: sig(median(t.wire)), push: sig(median(t.push)) },
    ratios: { wire: sig(median(per.wire)), push: sig(median(per.push)) },
  };
  log(`2,000-row table in ${lines.length - 1} deltas of 16 B: one-shot ${ms(results.table.ms.oneshot)}, write+pull ${ms(results.table.ms.wire)} (${times(results.table.ratios.wire)}), push ${ms(results.table.ms.push)} (${times(results.table.ratios.push)})`);
  save();
}

// ---------------------------------------------------------------- pathological Markdown
if (!opts.useCorpus) {
  results.pathological = { skipped: opts.quick ? 'skipped (--quick)' : 'skipped (--no-corpus)' };
} else {
  const cases = pathologicalCases(opts.corpus);
  if (!cases) {
    results.pathological = { skipped: `skipped: ${opts.corpus} is absent` };
    log(`pathological: ${opts.corpus} is absent, skipped`);
  } else {
    const out = [];
    const t0 = performance.now();
    for (const c of cases) {
      const lines = deltaLines(c.text, 16);
      const whole = Buffer.concat(lines);
      const one = oneShot(ds, whole, true);
      // One-shot and streamed runs alternate (their order too), and the ratio is the
      // median of each pair's: a case takes milliseconds, so a pause of the machine
      // during one of two separate series would move its ratio by a whole unit.
      // At least 5 pairs, more up to about 300 ms (21 at most).
      const oneTimes = [];
      const streamTimes = [];
      const ratios = [];
      let stopped = null;
      const timeOneShot = () => {
        globalThis.gc();
        const t = performance.now();
        oneShot(ds, whole);
        return performance.now() - t;
      };
      for (let spent = 0; ratios.length < 5 || (spent < 300 && ratios.length < 21);) {
        const first = ratios.length % 2 === 0 ? timeOneShot() : null;
        globalThis.gc();
        const t = performance.now();
        const r = streamWireChunks(ds, lines, t + Math.max(5000, 30 * (first ?? oneTimes.at(-1))));
        const d = performance.now() - t;
        const o = first ?? timeOneShot();
        if (r.stopped) {
          stopped = { afterMs: Math.round(d), fedDeltas: r.fed, deltas: lines.length - 1 };
          oneTimes.splice(0, oneTimes.length, o);
          streamTimes.splice(0, streamTimes.length, d);
          ratios.splice(0, ratios.length, d / o);
          break;
        }
        if (streamTimes.length === 0) check(`pathological ${c.id}: streamed HTML equals one-shot HTML`, r.html === one);
        oneTimes.push(o);
        streamTimes.push(d);
        ratios.push(d / o);
        spent += o + d;
      }
      const oneMs = median(oneTimes);
      const sMs = median(streamTimes);
      const row = { id: c.id, textBytes: Buffer.byteLength(c.text), ndjsonBytes: whole.length, oneshotMs: sig(oneMs), streamMs: sig(sMs), ratio: sig(median(ratios)), stopped };
      out.push(row);
      if (row.ratio > 3 || stopped) log(`  pathological ${c.id}: ${ms(sMs)} streamed vs ${ms(oneMs)} one-shot (medians), the median pair ${times(row.ratio)}${stopped ? ` (stopped after ${stopped.fedDeltas} of ${stopped.deltas} deltas: at least this)` : ''}`);
    }
    const worst = out.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    results.pathological = { cases: out, over3: out.filter((r) => r.ratio > 3 || r.stopped).length, worst: { id: worst.id, ratio: worst.ratio, stopped: !!worst.stopped } };
    log(`pathological: ${results.pathological.over3} of ${out.length} over 3× (worst ${worst.id} ${times(worst.ratio)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s (${elapsed()})`);
  }
  save();
}

// ---------------------------------------------------------------- native CLI
if (opts.cli && existsSync(opts.cli)) {
  results.native = {};
  const sizes = opts.sizes.filter((s) => s !== '100k');
  for (const size of sizes.length ? sizes : opts.sizes) {
    for (const mode of ['json', 'html']) {
      const r = timeCli(opts.cli, mode, inputs[size].file, 5);
      results.native[`${mode} ${size}`] = r;
      log(`native ${relative(process.cwd(), opts.cli)} ${mode} ${size}: ${ms(r.ms)}, ${r.MBps} MB/s (whole process)`);
    }
  }
  save();
} else {
  results.nativeSkipped = opts.cli ? `not run: ${opts.cli} is absent` : 'not run: no --cli';
  log(`native CLI ${results.nativeSkipped}`);
}

// ---------------------------------------------------------------- report
results.seconds = Math.round((performance.now() - started) / 1000);
results.machine.othersShare = othersShare(startCpu, cpuSnapshot());
results.goals = goalRows(results);
save();
const failed = results.checks.filter((c) => !c.ok);
log('');
log(`Machine: ${results.machine.nproc} cores, ${cpuModel}, node ${process.version}; other processes used ${Math.round(100 * results.machine.othersShare)}% of the machine during the run. Seed ${opts.seed}; ${Object.entries(opts.rounds).filter(([s]) => opts.sizes.includes(s)).map(([s, n]) => `${s} ${n} rounds`).join(', ')}; ${results.seconds} s.`);
log('');
log(markdownTable(['', 'goal (issue 12)', 'measured', ''], results.goals));
log('');
log(timesTable(results));
log('');
log(`results -> ${relative(process.cwd(), outFile)}`);
log(`checks: ${results.checks.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
