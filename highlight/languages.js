// The languages docstream highlights, written once: Shiki's grammar, the names a fence
// may give it, and the file extensions (or file names) that mean it. Each grammar is a
// separate chunk, fetched the first time a block in that language appears.

/** @type {{ id: string, load: () => Promise<unknown>, names: string[], files: string[] }[]} */
export const LANGUAGES = [
  { id: 'rust', load: () => import('@shikijs/langs/rust'), names: ['rs'], files: ['.rs'] },
  { id: 'typescript', load: () => import('@shikijs/langs/typescript'), names: ['ts', 'mts', 'cts'], files: ['.ts', '.mts', '.cts'] },
  { id: 'tsx', load: () => import('@shikijs/langs/tsx'), names: [], files: ['.tsx'] },
  { id: 'javascript', load: () => import('@shikijs/langs/javascript'), names: ['js', 'mjs', 'cjs', 'node'], files: ['.js', '.mjs', '.cjs'] },
  { id: 'jsx', load: () => import('@shikijs/langs/jsx'), names: [], files: ['.jsx'] },
  { id: 'python', load: () => import('@shikijs/langs/python'), names: ['py', 'py3', 'python3'], files: ['.py', '.pyi'] },
  { id: 'go', load: () => import('@shikijs/langs/go'), names: ['golang'], files: ['.go'] },
  { id: 'java', load: () => import('@shikijs/langs/java'), names: [], files: ['.java'] },
  { id: 'kotlin', load: () => import('@shikijs/langs/kotlin'), names: ['kt', 'kts'], files: ['.kt', '.kts'] },
  { id: 'c', load: () => import('@shikijs/langs/c'), names: ['h'], files: ['.c', '.h'] },
  { id: 'cpp', load: () => import('@shikijs/langs/cpp'), names: ['c++', 'cc', 'cxx', 'hpp'], files: ['.cpp', '.cc', '.cxx', '.hpp', '.hh', '.hxx'] },
  { id: 'csharp', load: () => import('@shikijs/langs/csharp'), names: ['c#', 'cs'], files: ['.cs'] },
  { id: 'ruby', load: () => import('@shikijs/langs/ruby'), names: ['rb'], files: ['.rb', 'Gemfile', 'Rakefile'] },
  { id: 'php', load: () => import('@shikijs/langs/php'), names: [], files: ['.php'] },
  { id: 'swift', load: () => import('@shikijs/langs/swift'), names: [], files: ['.swift'] },
  { id: 'shellscript', load: () => import('@shikijs/langs/shellscript'), names: ['sh', 'bash', 'zsh', 'shell', 'console', 'shellsession'], files: ['.sh', '.bash', '.zsh'] },
  { id: 'json', load: () => import('@shikijs/langs/json'), names: ['jsonc', 'json5'], files: ['.json', '.jsonc'] },
  { id: 'yaml', load: () => import('@shikijs/langs/yaml'), names: ['yml'], files: ['.yaml', '.yml'] },
  { id: 'toml', load: () => import('@shikijs/langs/toml'), names: [], files: ['.toml'] },
  { id: 'html', load: () => import('@shikijs/langs/html'), names: ['htm', 'xhtml'], files: ['.html', '.htm'] },
  { id: 'css', load: () => import('@shikijs/langs/css'), names: [], files: ['.css'] },
  { id: 'sql', load: () => import('@shikijs/langs/sql'), names: [], files: ['.sql'] },
  { id: 'markdown', load: () => import('@shikijs/langs/markdown'), names: ['md'], files: ['.md', '.markdown'] },
  { id: 'docker', load: () => import('@shikijs/langs/docker'), names: ['dockerfile'], files: ['Dockerfile', '.dockerfile'] },
  { id: 'diff', load: () => import('@shikijs/langs/diff'), names: ['patch'], files: ['.diff', '.patch'] },
];

const byName = new Map();
for (const lang of LANGUAGES) {
  byName.set(lang.id, lang);
  for (const n of lang.names) byName.set(n, lang);
}
const byFile = new Map();
for (const lang of LANGUAGES) for (const f of lang.files) byFile.set(f.toLowerCase(), lang);

/**
 * The language a fence name (`rust`, `ts`, `c++`) or a file path (`src/main.rs`,
 * `Dockerfile`) means, or `undefined`.
 */
export function languageOf(nameOrPath) {
  const s = String(nameOrPath).trim();
  const named = byName.get(s.toLowerCase());
  if (named) return named;
  const base = s.slice(s.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return byFile.get(dot > 0 ? base.slice(dot) : base) ?? byFile.get(base);
}
