// Terminal runs an agent makes: test runs (some failing), builds (some with a compiler
// error), searches, git and ls output, with stdout, stderr and exit codes.

import { CRATES } from './words.mjs';

/** A shell-run maker bound to one random source, its identifiers and code writer. */
export function shellWriter(rng, ids, code) {
  const { snake, camel, kebab, filePath } = ids;
  const seconds = (max) => (rng.next() * max).toFixed(2);

  function cargoTest() {
    const command = `cargo test${rng.chance(0.4) ? ' -p ' + kebab() : ''}${rng.chance(0.3) ? ' ' + snake() : ''}`;
    const n = rng.low(2, 50, 1.3);
    const failing = rng.chance(0.2);
    const stderr = `   Compiling ${kebab()} v0.1.0 (/home/dev/${snake()})\n    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${seconds(20)}s\n     Running unittests src/lib.rs (target/debug/deps/core-${rng.hex(16)})`;
    const out = ['', `running ${n} tests`];
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const f = failing && rng.chance(0.1);
      if (f) failed++;
      out.push(`test ${snake()}::tests::${snake()} ... ${f ? 'FAILED' : 'ok'}`);
    }
    if (failed) {
      out.push('', 'failures:', '', `---- ${snake()}::tests::${snake()} stdout ----`,
        `thread '${snake()}' panicked at src/${snake()}.rs:${rng.int(10, 900)}:${rng.int(5, 60)}:`,
        'assertion `left == right` failed', `  left: "${rng.pick(['<p>', '<pre><code>', '</ul>'])}${snake()}"`, ` right: "${snake()}"`);
    }
    out.push('', `test result: ${failed ? 'FAILED' : 'ok'}. ${n - failed} passed; ${failed} failed; 0 ignored; 0 measured; 0 filtered out; finished in ${seconds(1)}s`, '');
    return { command, stdout: out.join('\n'), stderr, exitCode: failed ? 101 : 0 };
  }

  function cargoBuild() {
    const command = `cargo build ${rng.pick(['--release', '', '--target wasm32-unknown-unknown --release'])}`.trim();
    let stderr = '';
    for (let i = rng.low(1, 25, 1.5); i > 0; i--) stderr += `   Compiling ${rng.pick(CRATES)} v${rng.int(0, 2)}.${rng.int(0, 40)}.${rng.int(0, 20)}\n`;
    let exitCode = 0;
    if (rng.chance(0.2)) {
      exitCode = 101;
      const line = rng.int(1, 500);
      stderr += `error[E0${rng.int(100, 799)}]: mismatched types\n  --> src/${snake()}.rs:${line}:${rng.int(1, 80)}\n   |\n${line} |     let ${snake()}: usize = ${snake()}.${snake()}();\n   |                ^^^^^ expected \`usize\`, found \`Option<usize>\`\n`;
    } else {
      stderr += `    Finished \`release\` profile [optimized] target(s) in ${seconds(60)}s\n`;
    }
    return { command, stdout: '', stderr, exitCode };
  }

  function search() {
    const pattern = rng.pick([camel(), snake(), 'TODO', 'unwrap()', 'render_']);
    const out = [];
    for (let i = rng.low(0, 60, 1.5); i > 0; i--) {
      const lang = rng.chance(0.5) ? 'rs' : 'ts';
      out.push(`${filePath(lang)}:${rng.int(1, 800)}:${rng.pick(['    ', '  ', '        '])}${code.snippet(lang, 3)[rng.int(0, 2)].trim()}`);
    }
    const exitCode = out.length ? 0 : 1;
    out.push('');
    return { command: `rg -n "${pattern}" ${rng.pick(['src', 'web/src', 'tests'])}`, stdout: out.join('\n'), stderr: '', exitCode };
  }

  function npmTest() {
    const out = ['', '> web@0.1.0 test', '> vitest run', '', ` RUN  v${rng.int(1, 3)}.${rng.int(0, 9)}.${rng.int(0, 9)} /home/dev/web`, ''];
    const n = rng.low(1, 30, 1.4);
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const f = rng.chance(0.05);
      if (f) failed++;
      out.push(` ${f ? '×' : '✓'} src/${camel()}.test.ts (${rng.int(1, 40)} tests) ${rng.int(2, 900)}ms`);
    }
    out.push('', ` Test Files  ${failed ? failed + ' failed | ' : ''}${n - failed} passed (${n})`, `      Tests  ${rng.int(n, n * 20)} passed`, `   Duration  ${seconds(9)}s`, '');
    return { command: rng.pick(['npm test', 'npx vitest run']), stdout: out.join('\n'), stderr: '', exitCode: failed ? 1 : 0 };
  }

  function gitStatus() {
    const out = [];
    for (let i = rng.low(0, 20, 1.5); i > 0; i--) out.push(`${rng.pick([' M', '??', 'A ', ' D', 'M '])} ${filePath()}`);
    out.push('');
    return { command: 'git status --short', stdout: out.join('\n'), stderr: '', exitCode: 0 };
  }

  function gitDiffStat() {
    const out = [];
    let files = 0;
    let added = 0;
    let removed = 0;
    for (let i = rng.low(1, 20, 1.5); i > 0; i--) {
      const a = rng.int(0, 200);
      const d = rng.int(0, 80);
      added += a;
      removed += d;
      files++;
      out.push(` ${filePath().padEnd(42)} | ${String(a + d).padStart(4)} ${'+'.repeat(Math.min(30, a >> 3))}${'-'.repeat(Math.min(20, d >> 3))}`);
    }
    out.push(` ${files} files changed, ${added} insertions(+), ${removed} deletions(-)`, '');
    return { command: 'git diff --stat', stdout: out.join('\n'), stderr: '', exitCode: 0 };
  }

  function listing() {
    const out = [`total ${rng.int(8, 400)}`];
    for (let i = rng.low(2, 30, 1.3); i > 0; i--) {
      out.push(`-rw-r--r--  1 dev  staff  ${String(rng.int(100, 60000)).padStart(6)} Nov ${rng.int(1, 28)} ${rng.int(10, 23)}:${String(rng.int(0, 59)).padStart(2, '0')} ${snake()}.${rng.pick(['rs', 'ts', 'tsx', 'md'])}`);
    }
    out.push('');
    return { command: `ls -la ${rng.pick(['src', 'src/render', 'web/src', 'tests'])}`, stdout: out.join('\n'), stderr: '', exitCode: 0 };
  }

  function lineCount() {
    const out = [];
    let total = 0;
    for (let i = rng.low(1, 15, 1.3); i > 0; i--) {
      const n = rng.int(10, 900);
      total += n;
      out.push(`${String(n).padStart(8)} ${filePath('rs')}`);
    }
    out.push(`${String(total).padStart(8)} total`, '');
    return { command: 'wc -l src/*.rs', stdout: out.join('\n'), stderr: '', exitCode: 0 };
  }

  /** One terminal run: `{ command, stdout, stderr, exitCode }`. */
  return function run() {
    return rng.weighted([[25, cargoTest], [15, cargoBuild], [15, search], [12, npmTest], [10, gitStatus], [10, gitDiffStat], [8, listing], [5, lineCount]]);
  };
}
