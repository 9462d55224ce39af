// The browser benchmark's tables: issue 36's goals against what the run measured, the
// pipelines side by side, and the viewer, append and cold-start figures.

import { markdownTable } from '../lib/report.mjs';
import { times } from '../lib/stats.mjs';

const LABEL = { '100k': '100 KB', '1m': '1 MB', '10m': '10 MB', '100m': '100 MB' };
const status = (ok) => (ok == null ? 'not measured' : ok ? 'met' : '**not met**');
// A ratio against a goal; a lower bound (a run stopped at the cap) decides only when it
// is already past the goal.
const le = (x, goal) => (x == null ? null : x.atLeast ? (x.median > goal ? false : null) : x.median <= goal);
const ge = (x, goal) => (x == null ? null : x.atLeast ? (x.median >= goal ? true : null) : x.median >= goal);
const ms = (x) => (x == null || !Number.isFinite(x) ? '–' : x < 10 ? `${x.toFixed(1)} ms` : x < 10_000 ? `${Math.round(x)} ms` : `${(x / 1000).toFixed(1)} s`);
const mb = (x) => (x == null || !Number.isFinite(x) ? '–' : `${(x / 1e6).toFixed(x < 1e7 ? 1 : 0)} MB`);
const int = (x) => (x == null || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const ratioText = (r) =>
  r
    ? `${r.atLeast ? '≥ ' : ''}${times(r.median)}${r.rounds > 1 ? ` [${times(r.min)} … ${times(r.max)}]` : ''}` +
      (r.atLeast ? ' (a run stopped at the cap: its time so far ÷ the whole one-shot)' : '') +
      (r.prefixBytes ? ` on the first ${mb(r.prefixBytes)} (a run stopped at the cap${r.proRata ? '; the one-shot\'s time pro rata' : ''})` : '') +
      (r.prorated ? `; ${times(r.prorated.median)} with the one-shot's time pro rata on the first ${mb(r.prorated.prefixBytes)}` : '')
    : '–';

/** Rows `[what, goal, measured, status]`. */
export function goalRows(r) {
  const rows = [];
  const sizes = Object.keys(r.stream ?? {});
  const big = sizes[sizes.length - 1];
  const z = big ? r.stream[big] : null;
  const m = (id) => z?.medians?.[id];
  const ds = m('ds.stream');
  const L = LABEL[big] ?? '';
  const over = ds?.overCap ? ' (over cap)' : '';

  {
    const a = ds?.over50Cpu;
    const w = ds?.over50Wall;
    rows.push([`Streaming ${L} into the element (64 B chunks): tasks over 50 ms, CPU / wall (longest of all rounds)`, 'none',
      ds ? `${int(a)} / ${int(w)} (longest ${ms(ds.worstTaskCpuMs)} / ${ms(ds.worstTaskWallMs)})${over}` : 'not measured', status(ds ? a === 0 : null)]);
  }
  {
    const x = z?.ratios?.['ds.stream/ds.load'];
    rows.push([`… its main-thread time ÷ the element's one-shot load() of the same bytes`, '≤ 1.5×', ratioText(x), status(le(x, 1.5))]);
  }
  {
    const x = z?.ratios?.['ds.stream/smd.stream'];
    rows.push([`… ÷ streaming-markdown's (DOM + JS ingest)`, '≤ 1×', ratioText(x), status(le(x, 1))]);
  }
  {
    const x = z?.ratios?.['sd.stream/ds.stream'];
    rows.push([`… Streamdown's ÷ the element's (how many times less)`, '≥ 5×', ratioText(x), status(ge(x, 5))]);
  }
  {
    const e = ds?.elements;
    rows.push([`… DOM elements at the end (page and shadow roots)`, '< 30,000 (the viewer\'s goal)', int(e), status(e == null ? null : e < 30_000)]);
    // A run stopped at the cap is held to the bytes it was fed.
    const bytes = ds?.overCap && ds.fed ? ds.fed : r.inputs?.[big]?.bytes;
    const mem = ds?.growth;
    rows.push([`… JS heap + wasm memory the stream added (after GC, less the page's before it) ÷ the input${ds?.overCap ? ' fed' : ''}`, '≤ 3× (the viewer\'s goal)', mem != null && bytes ? `${times(mem / bytes)} (${mb(mem)}; ${mb(ds.jsPlusWasm)} in all; Blink's DOM heap another ${mb(ds.dom)})` : '–', status(mem != null && bytes ? mem / bytes <= 3 : null)]);
  }
  {
    const p = r.paced?.medians?.['ds.stream'];
    rows.push([`Streaming ${LABEL[r.paced?.size] ?? ''} into the element at 50 KB/s: tasks over 50 ms, CPU / wall (longest)`, 'none',
      p ? `${int(p.over50Cpu)} / ${int(p.over50Wall)} (longest ${ms(p.worstTaskCpuMs)} / ${ms(p.worstTaskWallMs)})` : 'not measured', status(p ? p.over50Cpu === 0 : null)]);
  }
  const v = r.viewer;
  const VL = LABEL[v?.size] ?? '';
  const vOk = v && !v.overCap;
  const vOver = v?.crashed ? 'the page crashed' : v?.overCap ? `over cap (${r.viewerCapS ?? ''} s)` : 'not measured';
  rows.push([`Opening a ${VL} saved session in the viewer: first document on screen`, '≤ 1 s', v ? ms(v.firstDocMs) : 'not measured', status(v?.firstDocMs != null ? v.firstDocMs <= 1000 : null)]);
  // A viewer stopped at its cap: what it did by then decides the goals it already missed.
  const lt = v?.overCap && v.longTasks ? v.longTasks : null;
  rows.push(['… longest task while the rest loads, CPU / wall', '≤ 100 ms',
    vOk ? `${ms(v.tasks?.maxCpuMs)} / ${ms(v.tasks?.maxWallMs ?? v.longTasks?.max)}` : lt ? `– / ${ms(lt.max)} (long tasks until the cap; ${vOver})` : vOver,
    status(vOk && v.tasks ? v.tasks.maxCpuMs <= 100 : lt && lt.max > 100 ? false : null)]);
  rows.push(['… whole session searchable (loaded, then find() of the last message\'s words)', '≤ 10 s', vOk ? ms(v.searchableMs) : vOver, status(vOk ? v.searchableMs <= 10_000 : v?.overCap && !v.crashed ? false : null)]);
  rows.push(['… DOM elements', '< 30,000', vOk ? int(v.elements) : v?.elements != null ? `${int(v.elements)} (at the cap, ${mb(v.readBytes)} read)` : vOver, status(vOk ? v.elements < 30_000 : v?.elements >= 30_000 ? false : null)]);
  rows.push(['… scrolling end to end: longest frame (wall) / longest task (CPU)', '≤ 50 ms', vOk ? `${ms(v.scroll?.frames?.max)} / ${ms(v.scroll?.tasks?.maxCpuMs)}` : vOver, status(vOk && v.scroll?.tasks ? v.scroll.tasks.maxCpuMs <= 50 : null)]);
  rows.push(['… JS heap + wasm memory the session added (after GC) ÷ the file', '≤ 3×', vOk ? `${times(v.memoryRatio)} (${mb(v.memory?.growth)}; ${mb(v.memory?.jsPlusWasm)} in all; Blink's DOM heap another ${mb(v.memory?.dom)})` : vOver, status(vOk ? v.memoryRatio <= 3 : null)]);
  {
    const a = r.append;
    const x = a?.ratios?.cpuMs;
    rows.push([`Appending to a thread of ${int(a?.pages?.long?.docs)} documents ÷ to one of ${int(a?.pages?.short?.docs)} (main-thread CPU per append)`, '≤ 1.5×',
      x ? `${times(x.median)} [${times(x.min)} … ${times(x.max)}] (${ms(a.pages.long.medians.cpuMs)} vs ${ms(a.pages.short.medians.cpuMs)})` : 'not measured', status(x ? x.median <= 1.5 : null)]);
  }
  {
    const c = r.cold;
    const d = c?.medians?.docstream?.firstDocMs;
    const s = c?.medians?.streamdown?.firstDocMs;
    rows.push([`Cold start, ${LABEL[c?.size] ?? ''} transcript, 1.6 Mbps / 150 ms / CPU ÷ 4: first document, docstream/define vs the Streamdown page`, 'no later',
      c ? `${ms(d)} vs ${ms(s)}${c.ratio ? ` (${times(c.ratio.median)})` : ''}` : 'not measured', status(d != null && s != null ? d <= s : null)]);
  }
  return rows;
}

const WHAT = {
  'ds.stream': '`<docstream-view>` push() per 64 B chunk',
  'ds.load': '`<docstream-view>` load() of the whole input (one-shot)',
  'smd.stream': 'streaming-markdown into the DOM + JS ingest',
  'sd.stream': 'Streamdown (React 19)',
  'floor.stream': 'feeding only (the harness\'s own cost)',
};

/** Every pipeline at every size (and paced): medians over rounds. */
export function pipelineTable(r) {
  const rows = [];
  const add = (label, z, bytes) => {
    for (const [id, m] of Object.entries(z.medians ?? {})) {
      const overCap = m.crashed ? ' (the page crashed)' : m.overCap ? ` (over cap: ${m.fed == null ? 'a task longer than the cap' : `${Math.round((100 * m.fed) / bytes)}% fed in ${r.caps?.[id] ?? r.capS} s`})` : '';
      rows.push([
        `${WHAT[id] ?? id}, ${label}${overCap}`,
        ms(m.cpuMs), ms(m.taskMs), `${ms(m.maxTaskCpuMs)} / ${ms(m.maxTaskWallMs)}`, `${int(m.over50Cpu)} / ${int(m.over50Wall)}`,
        ms(m.firstDocMs), int(m.elements), `${mb(m.jsHeap)} + ${mb(m.wasm)}`, ms(m.wallMs),
      ]);
    }
  };
  for (const [size, z] of Object.entries(r.stream ?? {})) add(`${LABEL[size]}${z.rounds > 1 ? ` (${z.rounds} rounds)` : ''}`, z, r.inputs[size].bytes);
  if (r.paced) add(`${LABEL[r.paced.size]} at 50 KB/s`, r.paced, r.inputs[r.paced.size].bytes);
  return markdownTable(['pipeline, input (median over rounds)', 'main thread, CPU', 'in tasks, wall', 'longest task, CPU / wall', 'tasks > 50 ms, CPU / wall', 'first document', 'DOM elements', 'JS heap + wasm', 'wall time'], rows);
}

/** The viewer, append and cold-start figures. */
export function viewerTable(r) {
  const rows = [];
  const v = r.viewer;
  if (v) {
    const L = LABEL[v.size];
    if (v.overCap) rows.push([`viewer, ${L}`, `${v.crashed ? 'the page crashed' : `over cap (${r.viewerCapS} s)`}: ${mb(v.readBytes)} of ${mb(v.bytes)} read; first document ${ms(v.firstDocMs)}; by then ${int(v.elements)} DOM elements / ${int(v.memory?.nodes)} nodes, JS heap + wasm ${mb(v.memory?.jsHeap)} + ${mb(v.memory?.wasm)} (Blink's DOM heap ${mb(v.memory?.dom)})`]);
    else {
      rows.push([`viewer, ${L}: first document on screen / loaded / searchable`, `${ms(v.firstDocMs)} / ${ms(v.loadMs)} / ${ms(v.searchableMs)} (find() ${ms(v.find.ms)}, ${v.find.count} matches)`]);
      rows.push([`viewer, ${L}: main thread while loading, CPU / wall in tasks`, `${ms(v.cpuMs)} / ${ms(v.taskMs)}; ${int(v.tasks?.count)} tasks, ${int(v.tasks?.over50Cpu)} / ${int(v.tasks?.over50Wall)} over 50 ms, ${int(v.tasks?.over100Cpu)} / ${int(v.tasks?.over100Wall)} over 100 ms (CPU / wall)`]);
      rows.push([`viewer, ${L}: longest task while loading, CPU / wall; longest frame`, `${ms(v.tasks?.maxCpuMs)} / ${ms(v.tasks?.maxWallMs)}; ${ms(v.frames?.max)}`]);
      rows.push([`viewer, ${L}: DOM elements / nodes`, `${int(v.elements)} / ${int(v.memory?.nodes)}`]);
      rows.push([`viewer, ${L}: JS heap + wasm after GC (Blink's DOM heap)`, `${mb(v.memory?.jsHeap)} + ${mb(v.memory?.wasm)}, ${mb(v.memory?.growth)} more than before opening = ${times(v.memoryRatio)} the file (${mb(v.memory?.dom)})`]);
      const sc = v.scroll;
      const steps = sc?.overCap ? `stopped at the ${ms(sc.ms)} cap after ${sc.done} of ${sc.steps} steps` : `${sc?.steps} steps`;
      rows.push([`viewer, ${L}: scrolling end to end (${steps}, one a frame, ${int(sc?.height)} px)`, `longest frame ${ms(v.scroll?.frames?.max)}, ${int(v.scroll?.frames?.over50)} frames over 50 ms; longest task ${ms(v.scroll?.tasks?.maxCpuMs)} CPU / ${ms(v.scroll?.tasks?.maxWallMs)} wall`]);
    }
  }
  const a = r.append;
  if (a) {
    for (const name of ['short', 'long']) {
      const p = a.pages[name];
      rows.push([`append to a thread of ${int(p.docs)} documents (${int(p.elements)} elements; built in ${ms(p.setupMs)})`, `CPU ${ms(p.medians?.cpuMs)}, synchronous push+flush+layout ${ms(p.medians?.syncMs)}, wall in tasks ${ms(p.medians?.taskMs)} (medians of ${a.appends})`]);
    }
  }
  const c = r.cold;
  if (c) {
    for (const name of ['docstream', 'streamdown']) {
      const runs = c.runs[name];
      const last = runs[runs.length - 1];
      rows.push([`cold start, ${name === 'docstream' ? 'docstream/define + `src`' : 'the Streamdown page'} (${LABEL[c.size]})`, `first document ${ms(c.medians[name]?.firstDocMs)} (of ${runs.map((x) => ms(x.firstDocMs)).join(', ')}); ${mb(last?.transferAtFirstDoc?.bytes)} transferred by then; code ${mb(c.entryGzip?.[name])} gzip`]);
    }
  }
  return rows.length ? markdownTable(['', 'measured'], rows) : '';
}

/** The whole report: the run's conditions, the goals, the pipelines, the rest. */
export function reportMarkdown(r) {
  const m = r.machine;
  // A results file written by a run that was stopped has no end figures.
  const end = m.loadavgAtEnd
    ? ` and ${m.loadavgAtEnd.join(' ')} at the end; other processes used ${Math.round(100 * m.othersShare)}% of the machine during the run; ${r.seconds} s`
    : '; the run did not finish (the parts it ran are below)';
  return [
    `Browser benchmark (${r.quick ? 'quick' : 'full'} run, ${r.when}, \`${r.command}\`): Chromium ${r.versions.chromium} headless, ${m.nproc} cores (${m.cpu}), load average ${m.loadavgAtStart.join(' ')} at the start${end}. Main-thread time is the CPU time of the page's main thread (wall times grow with the machine's load; compare ratios, not times, across runs).`,
    '',
    markdownTable(['', 'goal (issue 36)', 'measured', ''], r.goals),
    '',
    pipelineTable(r),
    '',
    viewerTable(r),
  ].join('\n');
}
