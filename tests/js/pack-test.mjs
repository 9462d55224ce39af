// The npm package as a user gets it: `npm pack` pkg/ into a temp dir, install the
// tarball offline into a separate temp project, and run tests/js/pack-check.mjs there,
// which imports `docstream`, `docstream/inline` and `docstream/stream` by name.
// Needs a built pkg/ (bash scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = join(root, 'pkg');
if (!existsSync(join(pkg, 'package.json'))) {
  console.error('pack-test: pkg/ is not built; run bash scripts/build-wasm.sh first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'docstream-pack-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const packed = JSON.parse(run('npm', ['pack', pkg, '--json', '--pack-destination', work], work));
  const { filename, files } = packed[0];
  const names = files.map((f) => f.path).sort();
  console.log(`pack-test: ${filename}: ${names.join(', ')}`);
  for (const needed of ['docstream.js', 'docstream.d.ts', 'docstream_bg.wasm', 'inline.js', 'inline.d.ts',
    'stream.js', 'stream.d.ts', 'chunks.js', 'element.js', 'define.js', 'docstream.css', 'package.json', 'README.md', 'LICENSE',
    'highlight/index.js', 'highlight/index.d.ts', 'convert.js', 'convert.d.ts', 'convert_bg.wasm']) {
    if (!names.includes(needed)) throw new Error(`pack-test: the tarball lacks ${needed}`);
  }
  // Every module a packed module imports (statically or with import()) is packed too.
  for (const name of names.filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(join(pkg, name), 'utf8');
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = posix.normalize(posix.join(posix.dirname(name), m[1]));
      if (!names.includes(target)) throw new Error(`pack-test: ${name} imports ${m[1]}, which the tarball lacks`);
    }
  }

  const project = join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'),
    JSON.stringify({ name: 'docstream-pack-test', private: true, type: 'module' }, null, 2));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, filename)], project);
  copyFileSync(join(root, 'tests/js/pack-check.mjs'), join(project, 'check.mjs'));
  execFileSync('node', ['check.mjs', join(root, 'tests/fixtures')], { cwd: project, stdio: 'inherit' });

  // The declarations, as a TypeScript user resolves them (strict, libraries checked too).
  copyFileSync(join(root, 'tests/js/pack-types.ts'), join(project, 'check-types.ts'));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, skipLibCheck: false, target: 'es2022',
      module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom', 'dom.iterable', 'dom.asynciterable'], types: [],
    },
    files: ['check-types.ts'],
  }, null, 2));
  execFileSync('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, stdio: 'inherit' });
  console.log('pack-test: the declarations type-check');
  console.log('pack-test: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
