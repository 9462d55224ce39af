// What the browser probes (stream-probe.mjs, heap-probe.mjs) share: their options, the
// first `--mb` MB of the benchmark's generated 10 MB transcript (bench/results/inputs/
// transcript-10m-seed42.ndjson, written by a bench run) cut at a line's end, and a server
// of the package (`--pkg`, default pkg/) with that input at `/input`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, serve } from './harness.mjs';

/** The command line: `args`, `arg(name, default)` for `--name value`, and `has(name)`. */
export function options() {
  const args = process.argv.slice(2);
  const arg = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : dflt;
  };
  return { arg, has: (name) => args.includes(`--${name}`) };
}

/** The input (`--mb` MB of the transcript) and a server of the package with it at
 * `/input`: `{ input, server, url }`. */
export async function serveInput({ arg }) {
  const mb = Number(arg('mb', '2'));
  const data = readFileSync(`${ROOT}/bench/results/inputs/transcript-10m-seed42.ndjson`);
  let cut = Math.min(data.length, mb << 20);
  while (cut < data.length && data[cut - 1] !== 10) cut++;
  const input = data.subarray(0, cut);
  const { server, url } = await serve({
    mounts: { '/pkg/': resolve(arg('pkg', `${ROOT}/pkg`)) },
    handler: (req, res, u) => {
      if (u.pathname !== '/input') return false;
      res.writeHead(200);
      res.end(input);
      return true;
    },
  });
  return { input, server, url };
}
