// Source files as lines: Rust, TypeScript (with JSX), Python, TOML and JSON, shaped like
// real code (imports, types, nested control flow, comments) so that reads, writes, edits
// and fences carry realistic payloads.

import { CRATES, RUST_TYPES, TS_TYPES } from './words.mjs';

/** Code makers bound to one random source and its identifier makers. */
export function codeWriter(rng, ids) {
  const { snake, camel, pascal, kebab } = ids;
  const comment = () => {
    const n = rng.int(3, 11);
    const w = [];
    for (let i = 0; i < n; i++) w.push(ids.word());
    return w.join(' ');
  };

  function rust(target) {
    const out = [];
    for (let i = rng.int(1, 5); i > 0; i--) {
      out.push(rng.pick(['use std::collections::HashMap;', 'use std::fmt;', 'use std::sync::{Arc, Mutex};',
        `use crate::${snake()}::{${pascal()}, ${pascal()}};`, `use ${rng.pick(CRATES).replace(/-/g, '_')}::${pascal()};`]));
    }
    out.push('');
    const statement = (depth) => '    '.repeat(depth) + rng.weighted([
      [5, () => `let ${snake()} = ${snake()}(${snake()}, ${rng.int(0, 64)});`],
      [3, () => `let mut ${snake()}: ${rng.pick(RUST_TYPES)} = ${rng.pick(['Vec::new()', 'String::new()', '0', 'None', 'false'])};`],
      [4, () => `${snake()}.${rng.pick(['push', 'extend_from_slice', 'insert', 'truncate', 'push_str'])}(${snake()});`],
      [3, () => `self.${snake()} ${rng.pick(['+=', '=', '-='])} ${rng.pick([snake(), String(rng.int(1, 16)), `${snake()}.len()`])};`],
      [2, () => `// ${comment()}`],
      [2, () => `return Ok(${snake()});`],
      [2, () => `${snake()}?;`],
      [1, () => `debug_assert!(${snake()} <= ${snake()}.len(), "${rng.pick(['offset', 'index', 'depth'])} out of range");`],
    ]);
    const body = (depth, n) => {
      const pad = '    '.repeat(depth);
      for (let i = 0; i < n; i++) {
        const r = rng.next();
        if (r < 0.12 && depth < 4) {
          out.push(`${pad}if ${snake()}.${rng.pick(['is_empty()', 'is_some()', 'len() > 0'])} {`);
          body(depth + 1, rng.int(1, 4));
          out.push(`${pad}}`);
        } else if (r < 0.2 && depth < 4) {
          out.push(`${pad}for ${snake()} in ${snake()}.${rng.pick(['iter()', 'iter_mut()', 'drain(..)', 'lines()'])} {`);
          body(depth + 1, rng.int(1, 4));
          out.push(`${pad}}`);
        } else if (r < 0.25 && depth < 4) {
          out.push(`${pad}match ${snake()} {`);
          for (let k = rng.int(2, 4); k > 0; k--) out.push(`${pad}    ${pascal()}::${pascal()} => ${snake()}(${snake()}),`);
          out.push(`${pad}    _ => {}`, `${pad}}`);
        } else {
          out.push(statement(depth));
        }
      }
    };
    while (out.length < target) {
      const r = rng.next();
      const name = pascal();
      if (r < 0.3) {
        out.push(`/// ${comment()}.`, '#[derive(Debug, Clone, PartialEq)]', `pub struct ${name} {`);
        for (let k = rng.int(2, 8); k > 0; k--) out.push(`    pub ${snake()}: ${rng.pick(RUST_TYPES)},`);
        out.push('}');
      } else if (r < 0.4) {
        out.push(`pub enum ${name} {`);
        for (let k = rng.int(2, 6); k > 0; k--) out.push(`    ${pascal()}${rng.chance(0.4) ? `(${rng.pick(RUST_TYPES)})` : ''},`);
        out.push('}');
      } else {
        out.push(`impl ${name} {`);
        for (let f = rng.int(1, 4); f > 0; f--) {
          out.push(`    pub fn ${snake()}(&${rng.chance(0.6) ? 'mut ' : ''}self, ${snake()}: ${rng.pick(RUST_TYPES)}) -> ${rng.pick(['Result<(), Error>', 'usize', 'Option<&str>', 'bool', 'Self'])} {`);
          body(2, rng.int(3, 14));
          out.push('    }');
          if (f > 1) out.push('');
        }
        out.push('}');
      }
      out.push('');
    }
    return out;
  }

  function typescript(target) {
    const out = [];
    for (let i = rng.int(1, 5); i > 0; i--) out.push(`import { ${camel()}, ${pascal()} } from '${rng.pick(['./', '../', '@/lib/'])}${camel()}';`);
    out.push('');
    const body = (depth, n) => {
      const pad = '  '.repeat(depth);
      for (let i = 0; i < n; i++) {
        const r = rng.next();
        if (r < 0.12 && depth < 5) {
          out.push(`${pad}if (${camel()} ${rng.pick(['===', '!==', '>', '<='])} ${rng.pick(['null', 'undefined', '0', camel() + '.length'])}) {`);
          body(depth + 1, rng.int(1, 4));
          out.push(`${pad}}`);
        } else if (r < 0.2 && depth < 5) {
          out.push(`${pad}for (const ${camel()} of ${camel()}) {`);
          body(depth + 1, rng.int(1, 4));
          out.push(`${pad}}`);
        } else {
          out.push(pad + rng.weighted([
            [5, () => `const ${camel()} = ${rng.pick(['await ', ''])}${camel()}(${camel()}, ${rng.int(0, 64)});`],
            [3, () => `let ${camel()}: ${rng.pick(TS_TYPES)} = ${rng.pick(['[]', "''", '0', 'null', 'new Map()'])};`],
            [3, () => `${camel()}.${rng.pick(['push', 'set', 'delete', 'append'])}(${camel()});`],
            [2, () => `// ${comment()}`],
            [2, () => `return { ...${camel()}, ${camel()}: ${camel()} };`],
            [1, () => `console.debug(\`${rng.pick(['chunk', 'patch', 'frame'])} \${${camel()}.length}\`);`],
          ]));
        }
      }
    };
    while (out.length < target) {
      const r = rng.next();
      const name = pascal();
      if (r < 0.3) {
        out.push(`export interface ${name} {`);
        for (let k = rng.int(2, 8); k > 0; k--) out.push(`  ${camel()}${rng.chance(0.3) ? '?' : ''}: ${rng.pick(TS_TYPES)};`);
        out.push('}');
      } else if (r < 0.45) {
        out.push(`export function ${pascal()}({ ${camel()}, ${camel()} }: ${name}Props) {`);
        body(1, rng.int(2, 6));
        out.push('  return (', `    <div className="${kebab()}">`);
        for (let k = rng.int(1, 4); k > 0; k--) out.push(`      <${pascal()} ${camel()}={${camel()}} />`);
        out.push('    </div>', '  );', '}');
      } else {
        out.push(`export ${rng.pick(['async ', ''])}function ${camel()}(${camel()}: ${rng.pick(TS_TYPES)}, ${camel()}: ${rng.pick(TS_TYPES)}): ${rng.pick(TS_TYPES)} {`);
        body(1, rng.int(3, 14));
        out.push('}');
      }
      out.push('');
    }
    return out;
  }

  function python(target) {
    const out = [];
    for (let i = rng.int(1, 4); i > 0; i--) out.push(rng.pick(['import json', 'import sys', 'from pathlib import Path', `from ${snake()} import ${pascal()}`]));
    out.push('');
    const body = (depth, n) => {
      const pad = '    '.repeat(depth);
      for (let i = 0; i < n; i++) {
        const r = rng.next();
        if (r < 0.15 && depth < 4) {
          out.push(`${pad}if ${snake()} ${rng.pick(['is None', '== 0', 'in ' + snake()])}:`);
          body(depth + 1, rng.int(1, 3));
        } else if (r < 0.25 && depth < 4) {
          out.push(`${pad}for ${snake()} in ${snake()}:`);
          body(depth + 1, rng.int(1, 3));
        } else {
          out.push(pad + rng.weighted([
            [5, () => `${snake()} = ${snake()}(${snake()}, ${rng.int(0, 99)})`],
            [2, () => `# ${comment()}`],
            [2, () => `${snake()}.append(${snake()})`],
            [2, () => `return ${snake()}`],
            [1, () => `print(f"${rng.pick(['rows', 'bytes', 'lines'])}: {${snake()}}")`],
          ]));
        }
      }
    };
    while (out.length < target) {
      if (rng.chance(0.3)) {
        out.push(`class ${pascal()}:`, `    def __init__(self, ${snake()}):`);
        body(2, rng.int(2, 6));
      } else {
        out.push(`def ${snake()}(${snake()}, ${snake()}=None):`, `    """${comment()}."""`);
        body(1, rng.int(3, 12));
      }
      out.push('');
    }
    return out;
  }

  function toml(target) {
    const out = ['[package]', `name = "${kebab()}"`, 'version = "0.1.0"', 'edition = "2021"', '', '[dependencies]'];
    while (out.length < target) {
      out.push(`${rng.pick(CRATES)} = ${rng.chance(0.5) ? `"${rng.int(0, 2)}.${rng.int(0, 40)}"` : `{ version = "${rng.int(0, 2)}.${rng.int(0, 20)}", features = ["${snake()}"] }`}`);
    }
    return out;
  }

  function json(target) {
    const out = ['{', `  "name": "${kebab()}",`, '  "private": true,', '  "dependencies": {'];
    while (out.length < target - 2) out.push(`    "${camel().toLowerCase()}": "^${rng.int(0, 20)}.${rng.int(0, 30)}.${rng.int(0, 9)}",`);
    out.push('  }', '}');
    return out;
  }

  function shell(target) {
    const out = [];
    while (out.length < target) {
      out.push(rng.pick([`cargo ${rng.pick(['test', 'build --release', 'clippy -- -D warnings'])}`,
        `npm run ${rng.pick(['build', 'test', 'lint'])}`, `rg -n "${camel()}" src`, 'git diff --stat',
        `node ${camel()}.mjs --size ${rng.pick(['100k', '1m'])}`]));
    }
    return out;
  }

  /** About `n` lines of code in `lang` (rs, ts, py, toml, json, bash). */
  function lines(lang, n) {
    switch (lang) {
      case 'ts': return typescript(n);
      case 'py': return python(n);
      case 'toml': return toml(n);
      case 'json': return json(n);
      case 'bash': return shell(n);
      default: return rust(n);
    }
  }

  /** Exactly `n` lines (fewer only if the language cannot make them). */
  function snippet(lang, n) {
    return lines(lang, n).slice(0, n);
  }

  return { lines, snippet };
}
