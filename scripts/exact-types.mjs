// Makes the fields docstream always writes required in a declaration file that tsify
// generated (`node scripts/exact-types.mjs pkg/docstream.d.ts < fields.json`, the JSON
// from `cargo run --example exact_types`): tsify types every field with
// `#[serde(default)]` optional, since a reader may leave it out, but a snapshot always
// has it. Fails when a type or field named is not in the file (the two disagree).
import { readFileSync, writeFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
const written = JSON.parse(readFileSync(0, 'utf8'));
let dts = readFileSync(file, 'utf8');
let made = 0;
const problems = [];
for (const [type, fields] of Object.entries(written)) {
  const head = new RegExp(`^export interface ${type}\\b[^{]*\\{\\n`, 'm').exec(dts);
  if (!head) {
    problems.push(`no interface ${type}`);
    continue;
  }
  const start = head.index + head[0].length;
  const end = dts.indexOf('\n}', start);
  let body = dts.slice(start, end);
  for (const field of fields) {
    const optional = new RegExp(`^(\\s+)${field}\\?:`, 'm');
    if (optional.test(body)) {
      body = body.replace(optional, `$1${field}:`);
      made++;
    } else if (!new RegExp(`^\\s+${field}:`, 'm').test(body)) {
      problems.push(`no field ${type}.${field}`);
    }
  }
  dts = dts.slice(0, start) + body + dts.slice(end);
}
if (problems.length) {
  console.error(`exact-types: ${file} and the model disagree: ${problems.join(', ')}`);
  process.exit(1);
}
writeFileSync(file, dts);
console.log(`exact-types: ${made} fields always written made required in ${file}`);
