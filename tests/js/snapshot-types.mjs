// The declarations against what the library hands out: every fixture's golden snapshot
// (tests/fixtures/**/*.expected.json, the JSON of `snapshot()`) assigned to
// `Conversation` from the packed package, type-checked strictly. A field the types lack
// is an excess property, a `null` where the types say optional is an error, and a field
// typed required but missing is an error. Then the fields docstream always writes
// (`cargo run -p docstream-model --example exact_types`) must be required in the declarations.
// Needs a built pkg/ (bash scripts/build-wasm.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(root, 'tests/fixtures');
const goldens = readdirSync(fixtures, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.expected.json'))
  .sort();

const work = mkdtempSync(join(tmpdir(), 'docstream-snapshot-types-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [{ filename }] = JSON.parse(run('npm', ['pack', join(root, 'pkg'), '--json', '--pack-destination', work], work));
  const project = join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docstream-snapshot-types', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, filename)], project);
  const files = goldens.map((g, i) => {
    const name = `s${i}.ts`;
    const json = readFileSync(join(fixtures, g), 'utf8');
    writeFileSync(join(project, name), `// ${relative(root, join(fixtures, g))}\nimport type { Conversation } from 'docstream';\nexport const snapshot: Conversation = ${json};\n`);
    return name;
  });
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, target: 'es2022',
      module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [],
    },
    files,
  }));
  try {
    execFileSync('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    // Name each fixture in the errors (sN.ts → its golden).
    const out = String(e.stdout).replace(/\bs(\d+)\.ts/g, (_, i) => goldens[Number(i)]);
    console.error(out);
    console.error(`snapshot-types: ${out.split('\n').filter((l) => l.includes('error TS')).length} type errors over ${goldens.length} snapshots`);
    process.exit(1);
  }
  console.log(`snapshot-types: ${goldens.length} fixture snapshots type-check as Conversation`);

  // And the fields docstream always writes are required in the declarations (not left
  // optional, as tsify types every field a reader may omit).
  const written = JSON.parse(run('cargo', ['run', '-q', '-p', 'docstream-model', '--example', 'exact_types'], root));
  const dts = readFileSync(join(root, 'pkg/docstream.d.ts'), 'utf8');
  const optional = [];
  for (const [type, fields] of Object.entries(written)) {
    const body = new RegExp(`^export interface ${type}\\b[^{]*\\{\\n([^]*?)\\n\\}`, 'm').exec(dts)?.[1] ?? '';
    for (const f of fields) if (!new RegExp(`^\\s+${f}:`, 'm').test(body)) optional.push(`${type}.${f}`);
  }
  if (optional.length) {
    console.error(`snapshot-types: always written, but not required in pkg/docstream.d.ts: ${optional.join(', ')}`);
    process.exit(1);
  }
  const count = Object.values(written).flat().length;
  console.log(`snapshot-types: the ${count} fields a snapshot always has are required in the declarations`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
