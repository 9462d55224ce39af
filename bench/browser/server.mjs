// The browser benchmark's static server, as the viewer tests serve the repository
// (tests/viewer/server.mjs): the repository at `/` (so www/viewer/ finds ../../pkg/),
// other directories under prefixes, 127.0.0.1 on an ephemeral port. Unlike the tests'
// server it compresses (gzip, when the browser accepts it) what a production server
// would: the cold-start run throttles the network, which counts the bytes sent.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.ndjson': 'application/x-ndjson',
  '.jsonl': 'application/x-ndjson',
  '.svg': 'image/svg+xml',
};
const COMPRESS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.ndjson', '.jsonl', '.svg']);
/** Files up to this size are compressed (once, kept while unchanged). */
const COMPRESS_MAX = 64 << 20;

/** Serves `root` (and `mounts`: { '/prefix/': dir }); resolves to { url, close() }. */
export async function serve(root, mounts = {}) {
  const gz = new Map();
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let base = root;
      let rel = path;
      for (const [prefix, dir] of Object.entries(mounts)) {
        if (path.startsWith(prefix)) {
          base = dir;
          rel = path.slice(prefix.length - 1);
        }
      }
      let file = normalize(join(base, rel));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside'), { status: 403 });
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const ext = extname(file);
      const headers = { 'content-type': TYPES[ext] ?? 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
      if (COMPRESS.has(ext) && info.size <= COMPRESS_MAX && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const key = `${file}:${info.mtimeMs}:${info.size}`;
        let body = gz.get(key);
        if (!body) {
          body = gzipSync(await readFile(file), { level: 6 });
          gz.set(key, body);
        }
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': body.length, vary: 'accept-encoding' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': info.size });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch (e) {
      res.writeHead(e.status ?? 404, { 'content-type': 'text/plain' });
      res.end(e.status === 403 ? 'forbidden' : 'not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
