// A small static file server for the viewer tests: the repository at `/`, and extra
// directories (the generated large transcript) under given prefixes. 127.0.0.1 only,
// on an ephemeral port.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Serves `root` (and `mounts`: { '/prefix/': dir }); resolves to { url, close() }. */
export async function serve(root, mounts = {}) {
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
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'text/plain; charset=utf-8',
        'content-length': info.size,
        'cache-control': 'no-store',
      });
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
