// The JSX declarations as a React user gets them: `npm pack` pkg/, install the tarball
// and the dev tree's @types/react offline into a temp project, and type-check
// tests/js/jsx-types.tsx with `jsx: react-jsx`, strict, libraries checked.
// Needs a built pkg/ (bash scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = join(root, 'pkg');
if (!existsSync(join(pkg, 'jsx.d.ts'))) {
  console.error('jsx-types: pkg/ is not built; run bash scripts/build-wasm.sh first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'docstream-jsx-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [{ filename }] = JSON.parse(run('npm', ['pack', pkg, '--json', '--pack-destination', work], work));
  const project = join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docstream-jsx-test', private: true, type: 'module' }, null, 2));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error',
    join(work, filename), join(root, 'node_modules/@types/react'), join(root, 'node_modules/csstype')], project);
  copyFileSync(join(root, 'tests/js/jsx-types.tsx'), join(project, 'check.tsx'));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', jsx: 'react-jsx',
      module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom', 'dom.iterable'], types: [],
    },
    files: ['check.tsx'],
  }, null, 2));
  execFileSync('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, stdio: 'inherit' });
  console.log('jsx-types: <docstream-view> type-checks in React JSX (attributes, hooks, wrong values rejected)');
} finally {
  rmSync(work, { recursive: true, force: true });
}
