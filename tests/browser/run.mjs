// Runs the browser tests of the built package (pkg/, from `bash scripts/build-wasm.sh`)
// in headless Chromium: node tests/browser/run.mjs [filter]
//
// Pages are served from 127.0.0.1 on an ephemeral port. The test pages get a strict
// CSP header (no 'unsafe-inline', Trusted Types required); every page fails its test on
// a console error, a page error, a dialog or a CSP violation.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT, SEED, launch, serve } from './harness.mjs';

export const STRICT_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; require-trusted-types-for 'script'; trusted-types docstream test";

if (!existsSync(`${ROOT}/pkg/element.js`) || !existsSync(`${ROOT}/pkg/docstream_bg.wasm`)) {
  console.error('browser tests: pkg/ is not built (run bash scripts/build-wasm.sh)');
  process.exit(1);
}

const filter = process.argv[2] ?? '';
const modules = ['element.test.mjs', 'highlight.test.mjs', 'thinking.test.mjs', 'tables.test.mjs', 'diagrams.test.mjs', 'math.test.mjs', 'keep-state.test.mjs', 'lifecycle.test.mjs', 'navigate.test.mjs', 'manifest.test.mjs', 'bundlers.test.mjs', 'startup.test.mjs', 'split.test.mjs', 'a11y.test.mjs', 'safety.test.mjs', 'embed.test.mjs', 'window.test.mjs', 'markdown.test.mjs', 'colours.test.mjs'];

/** The VS Code webview page, filled in as extension.js does (cspSource = this server). */
function vscodeHandler(req, res, url) {
  if (url.pathname !== '/__vscode/index.html') return false;
  const origin = `http://${req.headers.host}`;
  const nonce = randomBytes(16).toString('base64');
  const html = readFileSync(`${ROOT}/www/vscode/webview.html`, 'utf8')
    .replaceAll('{{nonce}}', nonce)
    .replaceAll('{{cspSource}}', origin)
    .replaceAll('{{docstream}}', `${origin}/pkg`)
    .replaceAll('{{script}}', `${origin}/www/vscode/webview.js`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
  return true;
}

/** The package as npm would install it: `npm pack pkg/`, unpacked; served as /pkg/. */
function packedPackage() {
  const dir = mkdtempSync(join(tmpdir(), 'docstream-browser-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, `${ROOT}/pkg`], {
    encoding: 'utf8',
  }).trim().split('\n').pop();
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  return join(dir, 'package');
}

const packed = packedPackage();
const { server, url } = await serve({
  handler: vscodeHandler,
  mounts: { '/pkg/': packed },
  headers: (u) => (u.pathname.startsWith('/tests/browser/pages/') ? { 'content-security-policy': STRICT_CSP } : {}),
});
const browser = await launch();
console.log(`browser tests: ${url}, seed ${SEED} (DOCSTREAM_SEED=${SEED} replays it); /pkg/ is the packed tarball unpacked in ${packed}`);

let failed = 0;
let ran = 0;
for (const file of modules) {
  const { tests } = await import(`./${file}`);
  for (const t of tests) {
    const name = `${file.replace('.test.mjs', '')}: ${t.name}`;
    if (filter && !name.includes(filter)) continue;
    ran++;
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const started = Date.now();
    try {
      await t.run({ browser, context, url, packed });
      console.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n${String(e?.stack ?? e).replace(/^/gm, '     ')}`);
    } finally {
      await context.close();
    }
  }
}
await browser.close();
server.close();
console.log(`browser tests: ${ran - failed} passed, ${failed} failed`);
process.exit(failed || ran === 0 ? 1 : 0);
