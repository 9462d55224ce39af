// Command-line options of bench/browser.mjs.

import { resolve } from 'node:path';

export const USAGE = `node bench/browser.mjs [options]
  --pkg DIR          docstream's built package (default pkg/; bash scripts/build-wasm.sh)
  --quick            a smoke run of a couple of minutes: streaming, paced and cold start at
                     100 KB, one round; the viewer on 1 MB; a thread of 1,000 documents
  --sizes LIST       streaming sizes, of 100k, 1m, 10m (default 1m,10m)
  --rounds N|LIST    rounds per size: one number or 1m=3,10m=2 (the default)
  --paced SIZE       the size streamed at 50 KB/s (default 1m; none to skip)
  --viewer SIZE      the saved session the viewer opens: 1m, 10m or 100m (default 100m; none to skip)
  --cold SIZE        the content of the cold start (default 1m; none to skip)
  --cold-rounds N    cold starts of each page (default 3)
  --append-docs N    the long thread's documents (default 10000; 0 to skip)
  --appends N        appends timed on each thread (default 30)
  --only LIST        parts to run, of stream, paced, viewer, append, cold (default all)
  --cap S            seconds a streaming run may take before it is stopped (default 240)
  --caps LIST        per pipeline, as sd.stream=240,ds.stream=900 (over --cap; default
                     sd.stream=120: at 10 MB Streamdown's ratio is taken on what it was fed)
  --pipelines LIST   streaming pipelines to run, of ds.stream, ds.load, smd.stream, sd.stream,
                     floor.stream (default all)
  --viewer-cap S     seconds the viewer may take to load (default 900)
  --scroll-cap S     seconds the viewer's scroll from top to bottom may take (default 60)
  --no-trace         no Chrome trace (no per-task CPU times; less overhead)
  --seed N           the generator's seed (default 42)
  --chromium PATH    the browser (default $CHROMIUM or /usr/bin/chromium)
  --out FILE         results JSON (default bench/results/browser-<time>.json; a .md beside it)
  --report FILE      no run: the tables again from a results JSON (summaries recomputed)`;

const SIZES = ['100k', '1m', '10m', '100m'];
const PARTS = ['stream', 'paced', 'viewer', 'append', 'cold'];

/** Parses `argv` into the run's options. */
export function parseArgs(argv, repo) {
  const o = {
    pkg: resolve(repo, 'pkg'), quick: false, sizes: ['1m', '10m'], rounds: { '100k': 3, '1m': 3, '10m': 2 },
    paced: '1m', viewer: '100m', cold: '1m', coldRounds: 3, appendDocs: 10_000, appends: 30,
    only: new Set(PARTS), capS: 240, caps: { 'sd.stream': 120 }, pipelines: null, viewerCapS: 900, scrollCapS: 60, trace: true, seed: 42,
    chromium: process.env.CHROMIUM ?? '/usr/bin/chromium', out: null, report: null,
  };
  const given = new Set();
  let roundsArg = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      given.add(a);
      return v;
    };
    const size = (v) => {
      if (v !== 'none' && !SIZES.includes(v)) throw new Error(`${a}: unknown size ${v} (${SIZES.join(', ')}, none)`);
      return v === 'none' ? null : v;
    };
    switch (a) {
      case '--pkg': o.pkg = resolve(value()); break;
      case '--quick': o.quick = true; break;
      case '--sizes': o.sizes = value().split(',').filter(Boolean); break;
      case '--rounds': roundsArg = value(); break;
      case '--paced': o.paced = size(value()); break;
      case '--viewer': o.viewer = size(value()); break;
      case '--cold': o.cold = size(value()); break;
      case '--cold-rounds': o.coldRounds = Number(value()); break;
      case '--append-docs': o.appendDocs = Number(value()); break;
      case '--appends': o.appends = Number(value()); break;
      case '--only': o.only = new Set(value().split(',').filter(Boolean)); break;
      case '--cap': o.capS = Number(value()); break;
      case '--viewer-cap': o.viewerCapS = Number(value()); break;
      case '--scroll-cap': o.scrollCapS = Number(value()); break;
      case '--caps': for (const kv of value().split(',').filter(Boolean)) { const [k, v] = kv.split('='); o.caps[k] = Number(v); } break;
      case '--pipelines': o.pipelines = value().split(',').filter(Boolean); break;
      case '--no-trace': o.trace = false; break;
      case '--seed': o.seed = Number(value()); break;
      case '--chromium': o.chromium = value(); break;
      case '--out': o.out = resolve(value()); break;
      case '--report': o.report = resolve(value()); break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  if (o.quick) {
    if (!given.has('--sizes')) o.sizes = ['100k'];
    o.rounds = { '100k': 1, '1m': 1, '10m': 1 };
    if (!given.has('--paced')) o.paced = '100k';
    if (!given.has('--viewer')) o.viewer = '1m';
    if (!given.has('--cold')) o.cold = '100k';
    if (!given.has('--cold-rounds')) o.coldRounds = 1;
    if (!given.has('--append-docs')) o.appendDocs = 1000;
    if (!given.has('--appends')) o.appends = 10;
    if (!given.has('--cap')) o.capS = 120;
    if (!given.has('--viewer-cap')) o.viewerCapS = 120;
    if (!given.has('--scroll-cap')) o.scrollCapS = 20;
  }
  if (roundsArg) {
    if (/^\d+$/.test(roundsArg)) for (const s of SIZES) o.rounds[s] = Number(roundsArg);
    else for (const kv of roundsArg.split(',')) { const [k, v] = kv.split('='); o.rounds[k] = Number(v); }
  }
  for (const s of o.sizes) if (!['100k', '1m', '10m'].includes(s)) throw new Error(`--sizes: unknown size ${s} (100k, 1m, 10m)`);
  for (const p of o.only) if (!PARTS.includes(p)) throw new Error(`--only: unknown part ${p} (${PARTS.join(', ')})`);
  for (const [k, v] of [['--cold-rounds', o.coldRounds], ['--append-docs', o.appendDocs], ['--appends', o.appends], ['--cap', o.capS], ['--viewer-cap', o.viewerCapS], ['--scroll-cap', o.scrollCapS], ['--seed', o.seed]]) {
    if (!Number.isFinite(v) || v < 0) throw new Error(`${k} takes a number`);
  }
  return o;
}
