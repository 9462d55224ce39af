// Where the bytes of docstream_bg.wasm go: the code of each function, by name, summed
// by crate and module, and the largest functions.
//
//   bash scripts/build-wasm.sh                 # builds target/…/docstream_wasm.wasm too
//   node scripts/wasm-sizes.mjs [--top N]
//
// The module is optimised as the package's is (wasm-bindgen, then wasm-opt -Oz) but
// keeps its names (-g), into target/wasm-sizes/. A function counts where it was not
// inlined: a format's typed deserialisers inlined into its `payload` count as the format.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 25;
const raw = path('target/wasm32-unknown-unknown/wasm-release/docstream_wasm.wasm');
const out = path('target/wasm-sizes/');
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
  const own = name.match(/docstream::([a-z_]+)(?:::([a-z_0-9]+))?/);
  if (own) return `docstream::${own[1]}${own[2] && own[2] !== own[1] ? `::${own[2]}` : ''}`;
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
for (const f of [...functions].sort((a, b) => b.size - a.size).slice(0, top)) {
  console.log(`${kb(f.size)}  ${f.name.replace(/::h[0-9a-f]{16}$/, '').slice(0, 140)}`);
}
