// A smoke run of the browser benchmark's harness (bench/browser.mjs): every streaming
// pipeline once on the 100 KB transcript, and the viewer opening the 100 KB session, in
// headless Chromium. It checks that the harness measures what its tables print — every
// run fed to the end, every figure present, the ratios taken, the report written — and
// that the pipelines rendered every document (the harness's own checks); it asserts no
// time. Needs a built pkg/ (bash scripts/build-wasm.sh) and the benchmark's peers
// (bench/node_modules, installed by scripts/setup.sh). About 20–30 s.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
for (const need of ['pkg/define.js', 'bench/node_modules/streamdown', 'bench/node_modules/streaming-markdown']) {
  if (!existsSync(join(root, need))) {
    console.error(`bench-browser-smoke: ${need} is missing (bash scripts/setup.sh; bash scripts/build-wasm.sh)`);
    process.exit(1);
  }
}

const PIPELINES = ['ds.stream', 'ds.load', 'smd.stream', 'sd.stream'];
const work = mkdtempSync(join(tmpdir(), 'docstream-bench-smoke-'));
const out = join(work, 'smoke.json');
let passed = 0;
let failed = 0;
const ok = (name, cond, detail = '') => {
  if (cond) passed++;
  else {
    failed++;
    console.error(`FAILED: ${name} ${detail}`);
  }
};

try {
  const args = ['bench/browser.mjs', '--quick', '--only', 'stream,viewer', '--sizes', '100k', '--viewer', '100k',
    '--scroll-cap', '1', '--pipelines', PIPELINES.join(','), '--out', out];
  let status = 0;
  try {
    execFileSync('node', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
  } catch (e) {
    status = e.status ?? 1;
    process.stdout.write(e.stdout ?? '');
  }
  ok('the harness exits 0 (its own checks passed)', status === 0, `(exit ${status}: node ${args.join(' ')})`);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  for (const c of r.checks) ok(`harness check: ${c.name}`, c.ok, c.detail);

  const z = r.stream['100k'];
  const bytes = r.inputs['100k'].bytes;
  for (const id of PIPELINES) {
    const run = z?.runs?.[id]?.[0];
    const name = `${id} 100k`;
    ok(`${name}: ran`, run != null);
    if (!run) continue;
    ok(`${name}: fed to the end`, !run.overCap && !run.killed && run.fed === bytes, `(${run.fed} of ${bytes} B)`);
    ok(`${name}: main-thread time measured`, run.cpuMs > 0 && run.taskMs > 0, JSON.stringify({ cpuMs: run.cpuMs, taskMs: run.taskMs }));
    ok(`${name}: tasks from the trace`, run.tasks?.count > 0 && run.tasks.maxCpuMs > 0 && run.tasks.maxWallMs > 0 && Number.isInteger(run.tasks.over50Cpu), JSON.stringify(run.tasks && { count: run.tasks.count, max: run.tasks.maxCpuMs }));
    ok(`${name}: first document on screen`, run.firstDocMs != null && run.firstDocMs >= 0, String(run.firstDocMs));
    ok(`${name}: documents and DOM counted`, run.docs > 0 && run.elements > run.docs && run.memory?.nodes > run.elements, JSON.stringify({ docs: run.docs, elements: run.elements, nodes: run.memory?.nodes }));
    ok(`${name}: JS heap measured`, run.memory?.jsHeap > 0 && run.memory.jsPlusWasm >= run.memory.jsHeap, JSON.stringify(run.memory));
    if (id.startsWith('ds.')) ok(`${name}: wasm memory measured`, run.memory?.wasm > 0, String(run.memory?.wasm));
  }
  for (const k of ['ds.stream/ds.load', 'ds.stream/smd.stream', 'sd.stream/ds.stream']) {
    ok(`ratio ${k} taken in the round`, z?.ratios?.[k]?.median > 0 && z.ratios[k].rounds === 1, JSON.stringify(z?.ratios?.[k]));
  }

  const v = r.viewer;
  ok('viewer: the session loaded', v?.state === 'loaded', String(v?.state));
  ok('viewer: first document, loaded, searchable in that order', v?.firstDocMs >= 0 && v.loadMs >= v.firstDocMs && v.searchableMs >= v.loadMs, JSON.stringify(v && { first: v.firstDocMs, loaded: v.loadMs, searchable: v.searchableMs }));
  ok('viewer: the last message found', v?.find?.count > 0, JSON.stringify(v?.find));
  ok('viewer: longest task while loading', v?.tasks?.maxCpuMs > 0, JSON.stringify(v?.tasks?.maxCpuMs));
  ok('viewer: DOM and memory', v?.elements > 0 && v.memory?.nodes > 0 && v.memory.wasm > 0 && v.memoryRatio > 0, JSON.stringify(v && { elements: v.elements, memory: v.memory }));
  ok('viewer: the scroll ran (stopped at its cap or at the bottom)', v?.scroll?.done > 0 && (v.scroll.overCap || v.scroll.atBottom), JSON.stringify(v?.scroll && { done: v.scroll.done, overCap: v.scroll.overCap }));

  const md = readFileSync(out.replace(/\.json$/, '.md'), 'utf8');
  ok('the report has the goal table', md.includes('| goal (issue 36) |') && r.goals.length >= 10, `(${r.goals?.length} goal rows)`);
  ok('the report has every pipeline', ['push() per 64 B chunk', 'load() of the whole input', 'streaming-markdown', 'Streamdown'].every((w) => md.includes(w)));
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`bench-browser-smoke: tests: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
