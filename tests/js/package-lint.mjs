// The packed package through publint (--strict: warnings fail too) and arethetypeswrong
// (ESM-only profile: the package has no CommonJS build, so `require` is not checked):
// every subpath resolves, with types, for Node's ESM resolution and for bundlers.
// Needs a built pkg/ (bash scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);
const work = mkdtempSync(join(tmpdir(), 'docstream-lint-'));
try {
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', join(root, 'pkg'), '--json', '--pack-destination', work], { cwd: work, encoding: 'utf8' }));
  const tarball = join(work, filename);
  execFileSync(bin('publint'), ['--strict', tarball], { stdio: 'inherit' });
  execFileSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped'], { stdio: 'inherit' });
  console.log('package-lint: publint and arethetypeswrong report no problems');
} finally {
  rmSync(work, { recursive: true, force: true });
}
