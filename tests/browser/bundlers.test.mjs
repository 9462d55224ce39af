// The packed package bundled as an app that imports `docstream/define` (and its CSS)
// would be. Vite and webpack 5 copy the file named by `new URL('…wasm', import.meta.url)`
// and the stylesheet: the app renders a stream as it is. esbuild (ESM and IIFE) does not
// copy it: without help the element reports DS_WASM with the fixes in its message; with
// `DocstreamView.init(URL)` or the inline build it renders. Each app is served from its
// own origin by a route, with nothing beside it but what the bundler wrote. Rollup is
// given the plugins its users add for packages, CSS and `new URL` assets.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, newPage } from './harness.mjs';

const STREAM = readFileSync(join(ROOT, 'tests/fixtures/cursor-stream-json/tools.jsonl'), 'utf8');

/** The apps: their imports, and how each gets the wasm before it shows a stream. */
const APPS = {
  // Nothing done: the element must say what is wrong and how to fix it.
  plain: [`import 'docstream/define';`, 'Promise.resolve()'],
  // The .wasm served beside the bundle, named to init().
  url: [`import { DocstreamView } from 'docstream/define';`, `DocstreamView.init(new URL('docstream_bg.wasm', location.href))`],
  // The inline build: no file to serve.
  inline: [`import { DocstreamView } from 'docstream/define';\nimport * as inline from 'docstream/inline';`, 'DocstreamView.init(inline)'],
};

const MAIN = ([imports, setup]) => `${imports}
${setup}.then(() => {
  const view = document.createElement('docstream-view');
  view.setAttribute('highlight', 'off');
  document.body.append(view);
  view.addEventListener('docstream-error', (e) => { window.errors.push(e.detail); });
  view.addEventListener('docstream-done', () => { window.done = true; });
  view.push(${JSON.stringify(STREAM)});
  view.finish();
});
`;

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/** Builds `source` with esbuild into `dir` (format esm or iife); returns the page's HTML. */
function build(project, dir, source, format) {
  mkdirSync(dir, { recursive: true });
  const entry = join(project, `entry-${format}-${Date.now()}.js`);
  writeFileSync(entry, source);
  execFileSync(join(ROOT, 'node_modules/.bin/esbuild'), [entry, '--bundle', `--format=${format}`, '--target=es2022',
    `--outfile=${join(dir, 'app.js')}`, '--log-level=error'], { cwd: project });
  const script = format === 'esm' ? '<script type="module" src="app.js"></script>' : '<script src="app.js"></script>';
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script>window.errors = [];</script>${script}</body>`);
}

async function open(context, dir) {
  const origin = `http://app-${Math.random().toString(36).slice(2)}.test`;
  await context.route(`${origin}/**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\//, '') || 'index.html';
    try {
      route.fulfill({ status: 200, contentType: TYPES[extname(path)] ?? 'application/octet-stream', body: readFileSync(join(dir, path)) });
    } catch {
      route.fulfill({ status: 404, body: 'not found' });
    }
  });
  const page = await newPage(context);
  await page.goto(`${origin}/index.html`);
  return page;
}

/** Builds the plain app (with `import 'docstream/docstream.css'`) with Vite or webpack
 * into `dir`. */
function buildWith(bundler, project, dir) {
  writeFileSync(join(project, 'main.js'), `import 'docstream/docstream.css';\n${MAIN(APPS.plain)}`);
  if (bundler === 'vite') {
    writeFileSync(join(project, 'index.html'), '<!doctype html><meta charset="utf-8"><body><script>window.errors = [];</script><script type="module" src="./main.js"></script></body>');
    execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--outDir', dir, '--emptyOutDir'], { cwd: project });
  } else if (bundler === 'rollup') {
    // Rollup needs plugins for what the others do by themselves: resolving packages,
    // CSS, and assets named by `new URL('…', import.meta.url)`.
    const plugin = (name) => JSON.stringify(pathToFileURL(join(ROOT, 'node_modules', name)).href);
    writeFileSync(join(project, 'rollup.config.mjs'), `import { nodeResolve } from ${plugin('@rollup/plugin-node-resolve/dist/es/index.js')};
import { importMetaAssets } from ${plugin('@web/rollup-plugin-import-meta-assets/index.mjs')};
import css from ${plugin('rollup-plugin-css-only/dist/index.mjs')};
export default { input: 'main.js', output: { dir: ${JSON.stringify(dir)}, format: 'es' },
  plugins: [nodeResolve(), css({ output: 'app.css' }), importMetaAssets()] };
`);
    execFileSync(join(ROOT, 'node_modules/.bin/rollup'), ['-c', 'rollup.config.mjs', '--silent'], { cwd: project });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="app.css"><body><script>window.errors = [];</script><script type="module" src="main.js"></script></body>');
  } else {
    execFileSync(join(ROOT, 'node_modules/.bin/webpack'), ['--mode', 'production', '--entry', './main.js', '--output-path', dir,
      '--output-filename', 'app.js', '--no-stats'], { cwd: project });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="app.css"><body><script>window.errors = [];</script><script src="app.js"></script></body>');
  }
}

/** In the page: once the stream is shown, what it shows and whether the page got the CSS. */
async function shown(page, label) {
  await page.waitForFunction(() => window.done === true || window.errors.length > 0, null, { timeout: 10000 });
  assert.deepEqual(await page.evaluate(() => window.errors), [], label);
  const docs = await page.evaluate(() => document.querySelector('docstream-view').shadowRoot.querySelectorAll('.ds-doc').length);
  assert.ok(docs >= 2, `${label}: ${docs} documents`);
}

export const tests = [
  {
    name: 'Vite, webpack 5 and Rollup (with its asset and CSS plugins): the app renders a stream, the wasm and the stylesheet bundled',
    async run({ context, packed }) {
      const project = mkdtempSync(join(tmpdir(), 'docstream-bundlers-'));
      try {
        mkdirSync(join(project, 'node_modules'));
        symlinkSync(packed, join(project, 'node_modules', 'docstream'));
        for (const bundler of ['vite', 'webpack', 'rollup']) {
          const dir = join(project, `out-${bundler}`);
          buildWith(bundler, project, dir);
          const files = readdirSync(dir, { recursive: true }).map(String);
          assert.ok(files.some((f) => f.endsWith('.wasm')), `${bundler} copied the wasm: ${files}`);
          const css = files.filter((f) => f.endsWith('.css')).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
          assert.match(css, /\.ds-conversation/, `${bundler} kept docstream.css`);
          const page = await open(context, dir);
          await shown(page, bundler);
          await page.close();
        }
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'esbuild, ESM and IIFE: without help DS_WASM names the fixes; with init(URL) or the inline build a stream renders',
    async run({ context, packed }) {
      const project = mkdtempSync(join(tmpdir(), 'docstream-esbuild-'));
      try {
        mkdirSync(join(project, 'node_modules'));
        symlinkSync(packed, join(project, 'node_modules', 'docstream'));
        for (const format of ['esm', 'iife']) {
          for (const [name, setup] of Object.entries(APPS)) {
            const dir = join(project, 'out', `${format}-${name}`);
            build(project, dir, MAIN(setup), format);
            if (name === 'url') copyFileSync(join(packed, 'docstream_bg.wasm'), join(dir, 'docstream_bg.wasm'));
            const page = await open(context, dir);
            const label = `${format} ${name}`;
            if (name === 'plain') {
              await page.waitForFunction(() => window.errors.length > 0, null, { timeout: 10000 });
              const [error] = await page.evaluate(() => window.errors);
              assert.equal(error.code, 'DS_WASM', `${label}: ${JSON.stringify(error)}`);
              assert.match(error.message, /DocstreamView\.init\(/, label);
              assert.match(error.message, /docstream\/inline/, label);
            } else {
              await page.waitForFunction(() => window.done === true || window.errors.length > 0, null, { timeout: 10000 });
              assert.deepEqual(await page.evaluate(() => window.errors), [], label);
              const text = await page.evaluate(() => document.querySelector('docstream-view').shadowRoot.textContent);
              assert.match(text, /\S/, `${label}: rendered`);
              const docs = await page.evaluate(() => document.querySelector('docstream-view').shadowRoot.querySelectorAll('.ds-doc').length);
              assert.ok(docs >= 2, `${label}: ${docs} documents`);
            }
            await page.close();
          }
        }
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  },
];
