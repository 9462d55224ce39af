// The page's main-thread tasks from a Chrome trace (categories `toplevel` and
// `blink.user_timing`): every `ThreadControllerImpl::RunTask` of the thread that made
// the run's `bench-start` and `bench-end` marks, between them. Each task has its wall
// time (`dur`) and the CPU time its thread got (`tdur`): on a machine shared with other
// work, wall time grows with the machine's load, CPU time much less.

/** The categories the benchmark traces with. */
export const TRACE_CATEGORIES = ['toplevel', 'blink.user_timing'];

const TASK = 'ThreadControllerImpl::RunTask';

/**
 * Main-thread tasks between the marks `start` and `end` (the last of each name) of a
 * trace (a Buffer or string of Chrome's JSON trace format): counts, sums and maxima in
 * ms, wall and CPU. Null when the marks are missing.
 */
export function mainThreadTasks(trace, start = 'bench-start', end = 'bench-end') {
  const { traceEvents } = JSON.parse(trace);
  let a = null;
  let b = null;
  for (const e of traceEvents) {
    if (e.name === start) a = e;
    else if (e.name === end) b = e;
  }
  if (!a || !b) return null;
  const tasks = traceEvents
    .filter((e) => e.ph === 'X' && e.name === TASK && e.pid === a.pid && e.tid === a.tid && e.ts >= a.ts && e.ts <= b.ts)
    .sort((x, y) => x.ts - y.ts);
  const out = { count: 0, wallMs: 0, cpuMs: 0, maxWallMs: 0, maxCpuMs: 0, over50Wall: 0, over50Cpu: 0, over100Wall: 0, over100Cpu: 0 };
  let until = -Infinity;
  for (const t of tasks) {
    if (t.ts < until) continue; // nested in the task before (a nested run loop)
    until = t.ts + t.dur;
    const wall = t.dur / 1000;
    const cpu = (t.tdur ?? t.dur) / 1000;
    out.count++;
    out.wallMs += wall;
    out.cpuMs += cpu;
    out.maxWallMs = Math.max(out.maxWallMs, wall);
    out.maxCpuMs = Math.max(out.maxCpuMs, cpu);
    if (wall > 50) out.over50Wall++;
    if (cpu > 50) out.over50Cpu++;
    if (wall > 100) out.over100Wall++;
    if (cpu > 100) out.over100Cpu++;
  }
  out.spanMs = (b.ts - a.ts) / 1000;
  return out;
}
