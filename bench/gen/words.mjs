// Words, identifiers and file paths of a coding agent's session about a Rust + TypeScript
// project: the raw material of the prose, code and tool payloads.

const split = (s) => s.trim().split(/\s+/);

export const FILLER = split(`
  the a an to of and in for with that this is it on as be by from at we you can will
  should when which not but or if then so all each only also now first next just more
  into its there one two new same other before after because while without here every
  some any both still already instead again once either than most much very`);

export const NOUNS = split(`
  parser renderer stream chunk buffer token block fence delta message transcript session
  tool call result file path line diff hunk patch edit function module crate test build
  error type trait struct field method closure iterator string slice offset index cache
  state handler event callback request response payload schema config option flag value
  key map list item heading paragraph table cell row column snippet output input command
  process worker queue task lock channel runtime compiler benchmark baseline throughput
  latency allocation boundary encoder decoder arena component view layout selection
  cursor viewport node tree frame page element attribute style theme script loader`);

export const VERBS = split(`
  parse render stream split flush emit push update apply read write handle check verify
  compute return call store load convert escape encode decode merge append replace remove
  insert track cache reuse skip wrap move rename extract inline refactor fix add expose
  validate normalise measure profile batch defer`);

export const ADJECTIVES = split(`
  incremental streaming partial final current previous next empty unclosed nested inline
  fenced raw escaped stable large small fast simple naive quadratic linear correct invalid
  missing extra shared mutable public private async generic lazy eager`);

/** Words with characters outside ASCII, so fixed-size chunks cut UTF-8 sequences. */
export const NON_ASCII = ['—', '→', '✓', 'café', '…', '✅', '⚠️', '≈', '×', 'naïve', 'über', '🚀', 'Größe', '日本'];

const PARTS = split(`
  parse render stream chunk buf token node diff line block state config handler event msg
  session delta offset cursor idx cache queue writer reader span range src dst path file
  html md fence list item table cell row text code tool call result err value key map vec
  len count size start end prev next flush emit push pop apply update patch hunk edit old
  new pending open close depth frame page view`);

export const RUST_TYPES = ['String', 'Vec<u8>', 'usize', 'u32', 'bool', 'Option<String>', '&str', 'Range<usize>',
  'HashMap<String, usize>', 'Vec<Block>', 'Box<dyn Render>', 'Arc<Mutex<State>>', 'Result<(), Error>'];
export const TS_TYPES = ['string', 'number', 'boolean', 'string[]', 'Uint8Array', 'Map<string, number>',
  'Block[]', 'Promise<void>', 'ViewState', 'ToolCall | null', 'Record<string, unknown>'];
export const CRATES = ['pulldown-cmark', 'serde_json', 'wasm-bindgen', 'memchr', 'similar', 'tokio', 'bumpalo', 'smallvec'];

const DIRS = ['src', 'src/render', 'src/stream', 'src/diff', 'crates/core/src', 'crates/wasm/src', 'tests', 'benches'];
const TS_DIRS = ['web/src', 'web/src/components', 'web/src/lib', 'src'];

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** Identifier makers bound to one random source. */
export function identifiers(rng) {
  const snake = () => {
    const n = rng.int(1, 3);
    const p = [];
    for (let i = 0; i < n; i++) p.push(rng.pick(PARTS));
    return p.join('_');
  };
  const camel = () => {
    const n = rng.int(1, 3);
    let s = rng.pick(PARTS);
    for (let i = 1; i < n; i++) s += cap(rng.pick(PARTS));
    return s;
  };
  const pascal = () => cap(camel());
  const kebab = () => snake().replace(/_/g, '-');
  const filePath = (lang) => {
    lang ??= rng.weighted([[45, 'rs'], [35, 'ts'], [10, 'py'], [4, 'toml'], [3, 'json'], [3, 'md']]);
    switch (lang) {
      case 'rs': return `${rng.pick(DIRS)}/${snake()}.rs`;
      case 'ts': return `${rng.pick(TS_DIRS)}/${rng.chance(0.4) ? pascal() + '.tsx' : camel() + '.ts'}`;
      case 'py': return `scripts/${snake()}.py`;
      case 'toml': return rng.pick(['Cargo.toml', 'crates/core/Cargo.toml', 'crates/wasm/Cargo.toml']);
      case 'json': return rng.pick(['package.json', 'web/package.json', 'tsconfig.json']);
      default: return rng.pick(['README.md', 'docs/design.md', 'CHANGELOG.md', 'docs/streaming.md']);
    }
  };
  const word = () => rng.weighted([
    [40, () => rng.pick(FILLER)], [28, () => rng.pick(NOUNS)], [14, () => rng.pick(VERBS)],
    [12, () => rng.pick(ADJECTIVES)], [1.5, () => rng.pick(NON_ASCII)], [2, () => String(rng.int(2, 4096))],
  ]);
  return { snake, camel, pascal, kebab, filePath, word, cap };
}

/** The language of a path, by its extension. */
export function languageOf(path) {
  if (path.endsWith('.rs')) return 'rs';
  if (/\.tsx?$/.test(path)) return 'ts';
  if (path.endsWith('.py')) return 'py';
  if (path.endsWith('.toml')) return 'toml';
  if (path.endsWith('.json')) return 'json';
  return 'md';
}
