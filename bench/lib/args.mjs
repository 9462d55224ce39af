// Command-line options of bench.mjs.

import { resolve } from 'node:path';

export const USAGE = `node --expose-gc bench/bench.mjs --pkg DIR [options]
  --pkg DIR          docstream's built package (docstream.js + docstream_bg.wasm)
  --cli PATH         the native docstream binary (timed as a child process); left out when absent
  --sizes LIST       of 100k, 1m, 10m (default all three)
  --rounds N|LIST    streaming rounds: one number, or per size like 100k=9,1m=15,10m=5 (the default)
  --quick            100 KB only, 3 rounds, no pathological corpus: a smoke run of a few seconds
  --seed N           the generator's seed (default 42)
  --corpus PATH      pathological-markdown.json (default ../shared/corpora/, skipped when absent)
  --no-corpus        skip the pathological inputs
  --out FILE         results JSON (default bench/results/bench-<time>.json)`;

const DEFAULT_ROUNDS = { '100k': 9, '1m': 15, '10m': 5 };

/** Parses `argv` into the run's options. */
export function parseArgs(argv, benchDir) {
  const o = {
    pkg: null, cli: null, sizes: ['100k', '1m', '10m'], rounds: { ...DEFAULT_ROUNDS }, quick: false, seed: 42,
    corpus: resolve(benchDir, '..', '..', 'shared', 'corpora', 'pathological-markdown.json'), useCorpus: true, out: null,
  };
  let roundsArg = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    switch (a) {
      case '--pkg': o.pkg = resolve(value()); break;
      case '--cli': o.cli = resolve(value()); break;
      case '--sizes': o.sizes = value().split(',').filter(Boolean); break;
      case '--rounds': roundsArg = value(); break;
      case '--quick': o.quick = true; break;
      case '--seed': o.seed = Number(value()); break;
      case '--corpus': o.corpus = resolve(value()); break;
      case '--no-corpus': o.useCorpus = false; break;
      case '--out': o.out = resolve(value()); break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  if (o.quick) {
    o.sizes = ['100k'];
    o.rounds = { '100k': 3 };
    o.useCorpus = false;
  }
  if (roundsArg) {
    if (/^\d+$/.test(roundsArg)) for (const s of o.sizes) o.rounds[s] = Number(roundsArg);
    else for (const kv of roundsArg.split(',')) { const [k, v] = kv.split('='); o.rounds[k] = Number(v); }
  }
  for (const s of o.sizes) if (!['100k', '1m', '10m'].includes(s)) throw new Error(`unknown size ${s} (100k, 1m, 10m)`);
  if (!o.pkg) throw new Error(`--pkg is required\n${USAGE}`);
  if (!Number.isInteger(o.seed)) throw new Error('--seed takes an integer');
  return o;
}
