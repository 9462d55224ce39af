#!/usr/bin/env node
// A tiny static server for the examples: serves the repository root on 127.0.0.1 (so
// /pkg/, /www/ and /examples/ resolve) and prints the URL.
//
//   node scripts/serve.mjs [--port N]     (default 8080; 0 picks a free port)
//
// `serve()` is also what the browser tests use (with an optional handler that runs
// first, and optional extra response headers).
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.sse': 'text/event-stream; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Starts a static server for `root` on 127.0.0.1. Resolves to `{ server, url }`.
 * `handler(req, res, url)` may answer a request first (return true when it did);
 * `headers` (an object, or a function of the URL) are added to every file response;
 * `mounts` (`{ '/pkg/': dir }`) serves a URL prefix from another directory.
 */
export function serve({ root = ROOT, port = 0, handler, headers = {}, mounts = {} } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (handler && (await handler(req, res, url))) return;
      let path = decodeURIComponent(url.pathname);
      // `mounts` maps a URL prefix ('/pkg/') to another directory.
      const mount = Object.keys(mounts).find((prefix) => path.startsWith(prefix));
      const base = mount ? resolve(mounts[mount]) : root;
      const file = normalize(join(base, mount ? path.slice(mount.length) : path));
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      let target = file;
      const info = await stat(target).catch(() => null);
      if (info?.isDirectory()) {
        if (!path.endsWith('/')) {
          res.writeHead(301, { location: `${path}/${url.search}` }).end();
          return;
        }
        target = join(target, 'index.html');
      }
      const body = await readFile(target).catch(() => null);
      if (body === null) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...(typeof headers === 'function' ? headers(url) : headers),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      ok({ server, url: `http://127.0.0.1:${server.address().port}` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.PORT ?? 8080);
  const { url } = await serve({ port });
  console.log(`docstream: serving ${ROOT} at ${url}/`);
  console.log(`  demo:    ${url}/www/demo/`);
  if (!existsSync(join(ROOT, 'pkg', 'docstream.js'))) {
    console.log('  (pkg/ is not built: bash scripts/build-wasm.sh, then reload)');
  }
  console.log(`docstream: ready; open the viewer at ${url}/www/viewer/?src=../../examples/cursor-session.jsonl (Ctrl-C stops)`);
}
