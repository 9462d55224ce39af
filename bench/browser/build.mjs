// Bundles the peers' pages (pages/smd.js, pages/streamdown.jsx) with esbuild, minified
// and in React's production mode, as an app would ship them.
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Writes `<out>/smd.js` and `<out>/streamdown.js`; returns their sizes { name: { bytes, gzip } }. */
export async function buildPages(pagesDir, out) {
  mkdirSync(out, { recursive: true });
  const entries = { smd: join(pagesDir, 'smd.js'), streamdown: join(pagesDir, 'streamdown.jsx') };
  await build({
    entryPoints: entries,
    outdir: out,
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const sizes = {};
  for (const name of Object.keys(entries)) {
    const b = readFileSync(join(out, `${name}.js`));
    sizes[name] = { bytes: b.length, gzip: gzipSync(b, { level: 6 }).length };
  }
  return sizes;
}
