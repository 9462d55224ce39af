// The browser benchmark's summaries: medians over rounds and ratios taken per round,
// from the runs of one part (stream at a size, or paced).

import { cpuAt } from './trace.mjs';
import { median, sig } from '../lib/stats.mjs';

/** CPU time spent against bytes fed: the trace's progress marks, and for a run that
 * went to the end, its end. */
function curve(run) {
  const p = run.tasks?.progress ?? [];
  return run.overCap || run.tasks?.cpuMs == null ? p : [...p, [run.fed, run.tasks.cpuMs]];
}

/** Medians over rounds, and the ratios taken per round. */
export function summarise(z) {
  for (const [id, runs] of Object.entries(z.runs)) {
    const ok = runs.filter((r) => !r.killed);
    if (!runs.length) continue;
    const mid = (f) => {
      const v = ok.map(f).filter((x) => x != null && Number.isFinite(x));
      return v.length ? sig(median(v)) : null;
    };
    z.medians[id] = {
      cpuMs: mid((r) => r.cpuMs), taskMs: mid((r) => r.taskMs), maxTaskCpuMs: mid((r) => r.tasks?.maxCpuMs), maxTaskWallMs: mid((r) => r.tasks?.maxWallMs),
      over50Cpu: mid((r) => r.tasks?.over50Cpu), over50Wall: mid((r) => r.tasks?.over50Wall ?? r.longTasks?.count),
      worstTaskCpuMs: ok.length ? sig(Math.max(...ok.map((r) => r.tasks?.maxCpuMs ?? 0))) : null,
      worstTaskWallMs: ok.length ? sig(Math.max(...ok.map((r) => r.tasks?.maxWallMs ?? r.longTasks?.max ?? 0))) : null,
      firstDocMs: mid((r) => r.firstDocMs), elements: mid((r) => r.elements), nodes: mid((r) => r.memory?.nodes),
      jsPlusWasm: mid((r) => r.memory?.jsPlusWasm), growth: mid((r) => r.memory?.growth), jsHeap: mid((r) => r.memory?.jsHeap), wasm: mid((r) => r.memory?.wasm), dom: mid((r) => r.memory?.dom),
      wallMs: mid((r) => r.wallMs), lateMs: mid((r) => r.lateMs),
      overCap: runs.some((r) => r.overCap || r.killed), crashed: runs.some((r) => r.crashed), fed: ok.length ? Math.min(...ok.map((r) => r.fed)) : null, runs: runs.length,
    };
  }
  // Per round: the whole runs' CPU times when both ran to the end; when one stopped at
  // the cap, the CPU times each had spent on the bytes both were fed (from the trace's
  // progress marks), and the ratio says on how many bytes.
  const ratio = (a, b) => {
    const per = [];
    const prefix = [];
    const atLeast = [];
    const prorated = [];
    const A = z.runs[a] ?? [];
    const B = z.runs[b] ?? [];
    for (let i = 0; i < Math.min(A.length, B.length); i++) {
      if (A[i].killed || B[i].killed) continue;
      if (!A[i].overCap && !B[i].overCap) {
        if (B[i].cpuMs > 0) per.push(A[i].cpuMs / B[i].cpuMs);
        continue;
      }
      const [ka, kb] = [curve(A[i]), curve(B[i])];
      const bytes = Math.min(ka.at(-1)?.[0] ?? 0, kb.at(-1)?.[0] ?? 0);
      const ca = bytes > 0 ? cpuAt(ka, bytes) : null;
      const cb = bytes > 0 ? cpuAt(kb, bytes) : null;
      // A one-shot load has no progress marks: its time on a prefix is its whole time
      // pro rata (an estimate), and the stopped run's time so far against its whole time
      // is a bound from below, which decides a goal it already misses.
      const oneShot = A[i].mode === 'load' || B[i].mode === 'load';
      if (ca != null && cb > 0) (oneShot ? prorated : prefix).push([ca / cb, bytes]);
      if (A[i].overCap && !B[i].overCap && B[i].mode === 'load' && B[i].cpuMs > 0) atLeast.push(A[i].cpuMs / B[i].cpuMs);
    }
    const stats = (v) => ({ median: sig(median(v)), min: sig(Math.min(...v)), max: sig(Math.max(...v)), rounds: v.length });
    const onBytes = (v) => ({ ...stats(v.map((p) => p[0])), prefixBytes: Math.min(...v.map((p) => p[1])) });
    if (per.length) return stats(per);
    if (prefix.length) return onBytes(prefix);
    if (atLeast.length) return { ...stats(atLeast), atLeast: true, ...(prorated.length ? { prorated: onBytes(prorated) } : {}) };
    if (prorated.length) return { ...onBytes(prorated), proRata: true };
    return null;
  };
  for (const [a, b] of [['ds.stream', 'ds.load'], ['ds.stream', 'smd.stream'], ['sd.stream', 'ds.stream'], ['smd.stream', 'ds.stream'], ['ds.load', 'smd.stream'], ['floor.stream', 'ds.stream']]) {
    const r = ratio(a, b);
    if (r) z.ratios[`${a}/${b}`] = r;
  }
}

