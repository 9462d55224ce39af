// Where the bytes of docstream_bg.wasm go: the code of each function, by name, summed
// by crate and module, and the largest functions.
//
//   bash scripts/build-wasm.sh                 # builds target/…/docstream_wasm.wasm too
//   node scripts/wasm-sizes.mjs [--top N] [--lite] [--diff OTHER.json] [--save FILE.json]
//
// --lite: the default module (docstream-lite_bg.wasm, the default formats) instead of
// the full one. --save writes the groups and functions as JSON; --diff compares with
// such a file (what a change added or took off, by group and by function).
//
// The module is optimised as the package's is (wasm-bindgen, then wasm-opt -Oz) but
// keeps its names (-g), into target/wasm-sizes/. A function counts where it was not
// inlined: a format's typed deserialisers inlined into its `payload` count as the format.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const top = Number(arg('--top')) || 25;
const lite = process.argv.includes('--lite');
const raw = path(`target/wasm32-unknown-unknown/wasm-release/docstream_wasm${lite ? '_lite' : ''}.wasm`);
const out = path(`target/wasm-sizes/${lite ? 'lite/' : ''}`);
mkdirSync(out, { recursive: true });
execFileSync('wasm-bindgen', [raw, '--out-dir', out, '--target', 'web', '--out-name', 'docstream']);
execFileSync(path('node_modules/.bin/wasm-opt'), [
  '-g', '-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types',
  `${out}docstream_bg.wasm`, '-o', `${out}named.wasm`,
]);

/** Function body sizes, function names and the data size of a wasm binary. */
function read(buf) {
  let p = 8;
  const leb = () => {
    let r = 0;
    let shift = 0;
    let b;
    do {
      b = buf[p++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const name = () => {
    const n = leb();
    const s = buf.toString('utf8', p, p + n);
    p += n;
    return s;
  };
  let imported = 0;
  let data = 0;
  const bodies = [];
  const names = new Map();
  while (p < buf.length) {
    const id = buf[p++];
    const size = leb();
    const end = p + size;
    if (id === 2) {
      for (let i = leb(); i > 0; i--) {
        name();
        name();
        const kind = buf[p++];
        if (kind === 0) {
          leb();
          imported++;
        } else if (kind === 1) {
          p++;
          if (leb() & 1) leb();
          leb();
        } else if (kind === 2) {
          if (leb() & 1) leb();
          leb();
        } else if (kind === 3) p += 2;
      }
    } else if (id === 10) {
      for (let i = leb(); i > 0; i--) {
        const s = leb();
        bodies.push(s);
        p += s;
      }
    } else if (id === 11) {
      data = size;
    } else if (id === 0 && name() === 'name') {
      while (p < end) {
        const sub = buf[p++];
        const subEnd = leb() + p;
        if (sub === 1) {
          for (let i = leb(); i > 0; i--) {
            const index = leb();
            names.set(index, name());
          }
        }
        p = subEnd;
      }
    }
    p = end;
  }
  return { functions: bodies.map((size, i) => ({ size, name: names.get(i + imported) ?? `#${i}` })), data };
}

/** The group a function's bytes count in: serde's deserialisers, a docstream module,
 * or a crate. */
function group(name) {
  if (/serde(_core)?::de|Deserialize|Visitor|serde_json::(de|value::de)/.test(name)) return 'serde deserialisers';
  const own = name.match(/(docstream_[a-z]+)::([a-z_]+)(?:::([a-z_0-9]+))?/);
  if (own) return `${own[1]}::${own[2]}${own[3] && own[3] !== own[2] && /^[a-z]/.test(own[3]) ? `::${own[3]}` : ''}`;
  // The standard library by module (core::fmt, core::unicode …).
  const std = name.match(/^<?&?(?:mut )?(core|alloc|std)::([a-z_0-9]+)/);
  if (std) return `${std[1]}::${std[2]}`;
  const crate = name.match(/^<?&?(?:mut )?([a-z_0-9]+)(?:\[[0-9a-f]+\])?::/);
  return crate ? crate[1] : 'other';
}

const { functions, data } = read(readFileSync(`${out}named.wasm`));
const code = functions.reduce((a, f) => a + f.size, 0);
const groups = new Map();
for (const f of functions) groups.set(group(f.name), (groups.get(group(f.name)) ?? 0) + f.size);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
console.log(`code ${kb(code)} in ${functions.length} functions, data ${kb(data)}`);
console.log('\nby crate and module:');
for (const [g, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(size)}  ${g}`);
console.log('\nlargest functions:');
const short = (name) => name.replace(/::h[0-9a-f]{16}$/, '');
for (const f of [...functions].sort((a, b) => b.size - a.size).slice(0, top)) {
  console.log(`${kb(f.size)}  ${short(f.name).slice(0, 140)}`);
}
const summary = {
  code,
  data,
  groups: Object.fromEntries(groups),
  functions: Object.fromEntries(functions.map((f) => [short(f.name), f.size])),
};
if (arg('--save')) writeFileSync(arg('--save'), JSON.stringify(summary));
if (arg('--diff')) {
  // What changed against a saved run: groups and functions by how much they grew or shrank.
  const before = JSON.parse(readFileSync(arg('--diff'), 'utf8'));
  const delta = (a, b) => Object.entries({ ...b, ...a })
    .map(([k]) => [k, (a[k] ?? 0) - (b[k] ?? 0)])
    .filter(([, d]) => d !== 0)
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
  const signed = (n) => `${n > 0 ? '+' : ''}${(n / 1024).toFixed(1)} KB`.padStart(10);
  console.log(`\nagainst ${arg('--diff')}: code ${signed(code - before.code)}, data ${signed(data - before.data)}`);
  for (const [g, d] of delta(summary.groups, before.groups).slice(0, top)) console.log(`${signed(d)}  ${g}`);
  console.log('functions:');
  for (const [f, d] of delta(summary.functions, before.functions).slice(0, top)) console.log(`${signed(d)}  ${f.slice(0, 140)}`);
}
