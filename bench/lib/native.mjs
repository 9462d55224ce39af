// The native CLI timed as a child process (start-up included), like a user runs it.

import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { median, mbps, sig } from './stats.mjs';

/** Runs `cli MODE file` once untimed, then `runs` times; median wall ms and MB/s. */
export function timeCli(cli, mode, file, runs) {
  const bytes = statSync(file).size;
  const ts = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(cli, [mode, file], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
    const t = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${cli} ${mode} ${file} exited ${r.status}: ${r.stderr}`);
    if (i > 0) ts.push(t);
  }
  const m = median(ts);
  return { ms: sig(m), min: sig(Math.min(...ts)), max: sig(Math.max(...ts)), MBps: sig(mbps(bytes, m)), runs: ts.length, bytes };
}
