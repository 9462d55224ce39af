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
 * ms, wall and CPU; `progress` is the CPU and wall time spent by each `bench-fed-<bytes>`
 * mark. A task is a `ThreadControllerImpl::RunTask` with the top-level events that
 * follow it on the thread until the next one: the microtask checkpoint after a task
 * (`BlinkScheduler_PerformMicrotaskCheckpoint`, where promise continuations run) is an
 * event of its own, and the Long Tasks API counts it in the task. Null when the marks
 * are missing.
 */
export function mainThreadTasks(trace, start = 'bench-start', end = 'bench-end') {
  const { traceEvents } = JSON.parse(trace);
  let a = null;
  let b = null;
  const fed = [];
  for (const e of traceEvents) {
    if (e.name === start) a = e;
    else if (e.name === end) b = e;
    else if (e.name?.startsWith('bench-fed-')) fed.push(e);
  }
  if (!a || !b) return null;
  const events = traceEvents
    .filter((e) => e.ph === 'X' && e.pid === a.pid && e.tid === a.tid && e.ts >= a.ts && e.ts <= b.ts)
    .sort((x, y) => x.ts - y.ts || y.dur - x.dur);
  const marks = fed.filter((e) => e.pid === a.pid && e.tid === a.tid && e.ts >= a.ts && e.ts <= b.ts).sort((x, y) => x.ts - y.ts);
  const out = { count: 0, wallMs: 0, cpuMs: 0, maxWallMs: 0, maxCpuMs: 0, over50Wall: 0, over50Cpu: 0, over100Wall: 0, over100Cpu: 0, progress: [] };
  let task = null;
  const close = () => {
    if (!task) return;
    out.count++;
    out.maxWallMs = Math.max(out.maxWallMs, task.wall);
    out.maxCpuMs = Math.max(out.maxCpuMs, task.cpu);
    if (task.wall > 50) out.over50Wall++;
    if (task.cpu > 50) out.over50Cpu++;
    if (task.wall > 100) out.over100Wall++;
    if (task.cpu > 100) out.over100Cpu++;
    task = null;
  };
  let next = 0;
  let until = -Infinity;
  for (const e of events) {
    if (e.ts < until) continue; // nested in an event before
    until = e.ts + e.dur;
    // Marks made before this event: the time spent so far (the event that made one included).
    for (; next < marks.length && marks[next].ts < e.ts; next++) out.progress.push([Number(marks[next].name.slice(10)), out.cpuMs, out.wallMs]);
    const wall = e.dur / 1000;
    const cpu = (e.tdur ?? e.dur) / 1000;
    out.wallMs += wall;
    out.cpuMs += cpu;
    if (e.name === TASK) {
      close();
      task = { wall: 0, cpu: 0 };
    }
    if (task) {
      task.wall += wall;
      task.cpu += cpu;
    } else {
      task = { wall, cpu }; // work before the first task of the window
    }
  }
  close();
  for (; next < marks.length; next++) out.progress.push([Number(marks[next].name.slice(10)), out.cpuMs, out.wallMs]);
  out.spanMs = (b.ts - a.ts) / 1000;
  return out;
}

/** The CPU time (ms) a run's main thread had spent when `bytes` were fed, from its
 * `progress` (linear between marks); null beyond the last mark. */
export function cpuAt(progress, bytes) {
  let prev = [0, 0];
  for (const p of progress ?? []) {
    if (p[0] >= bytes) return prev[1] + ((p[1] - prev[1]) * (bytes - prev[0])) / (p[0] - prev[0] || 1);
    prev = p;
  }
  return null;
}
