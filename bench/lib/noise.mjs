// How busy the rest of the machine was while we measured: the CPU time every process
// used (from /proc/stat) less our own, over wall time × cores. 0 is a quiet machine;
// 0.5 on 2 cores means another process kept one core busy all along.

import { readFileSync } from 'node:fs';
import os from 'node:os';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function cpuSnapshot() {
  let busy = NaN;
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    busy = (f.reduce((a, b) => a + b, 0) - f[3] - (f[4] || 0)) * TICK_MS;
  } catch {
    // not Linux: unknown
  }
  const u = process.cpuUsage();
  return { busy, own: (u.user + u.system) / 1000, wall: performance.now() };
}

/** The share of the machine other processes used between two snapshots (null if unknown). */
export function othersShare(a, b) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const share = (b.busy - a.busy - (b.own - a.own)) / ((b.wall - a.wall) * cores);
  return Number.isFinite(share) ? +Math.max(0, share).toFixed(2) : null;
}
