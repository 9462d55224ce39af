// The assistant's Markdown: sentences with inline code, emphasis and links; headings,
// lists (ordered, nested, task lists), fenced code (with languages, Cursor's
// `start:end:path` references and diffs), tables, quotes and rules.

import { CRATES, FILLER, NOUNS, ADJECTIVES, VERBS, RUST_TYPES, languageOf } from './words.mjs';

const OPENERS = ["I'll", 'Let me', 'Now', 'Next,', 'The', 'This', 'Looking at', 'It looks like', 'Good —',
  'First,', 'To fix this,', 'Here', 'Since', 'Note that', 'Finally,', 'I see that', 'Done.', 'So'];

/** Markdown makers bound to one random source, its identifiers and its code writer. */
export function markdownWriter(rng, ids, code) {
  const { snake, camel, pascal, filePath, word, cap } = ids;

  const inlineCode = () => {
    const c = rng.weighted([
      [30, snake], [15, () => camel() + '()'], [12, () => filePath()], [10, pascal],
      [8, () => `${pascal()}::${snake()}`], [6, () => `--${rng.pick(['release', 'features', 'target', 'locked'])}`],
      [6, () => `cargo ${rng.pick(['test', 'build', 'clippy', 'bench'])}`], [5, () => `${snake()}: ${rng.pick(RUST_TYPES)}`],
      [4, () => `npm run ${rng.pick(['build', 'test', 'dev'])}`], [4, () => rng.pick(['null', 'None', 'Some(_)', '&mut self', '\\n', '<pre>', '```'])],
    ]);
    return c.includes('`') ? '`` ' + c + ' ``' : '`' + c + '`';
  };

  const link = () => rng.weighted([
    [5, () => { const c = rng.pick(CRATES); return `[${c}](https://docs.rs/${c}/latest/${c.replace(/-/g, '_')}/)`; }],
    [3, () => { const p = filePath(); return `[${p}](${p})`; }],
    [2, () => `https://github.com/${rng.pick(['rust-lang', 'markedjs', 'example'])}/${rng.pick(['rust', 'marked', 'site'])}/issues/${rng.int(10, 9999)}`],
    [2, () => `[the ${rng.pick(NOUNS)} docs](https://developer.mozilla.org/en-US/docs/Web/API/${pascal()})`],
  ]);

  function sentence({ min = 5, max = 22, plain = false, end } = {}) {
    const n = rng.int(min, max);
    const parts = [plain ? cap(word()) : rng.pick(OPENERS)];
    for (let i = 0; i < n; i++) {
      const r = rng.next();
      if (r < 0.1) parts.push(inlineCode());
      else if (r < 0.125) parts.push(`*${word()} ${word()}*`);
      else if (r < 0.15) parts.push(`**${word()} ${word()}**`);
      else if (r < 0.158) parts.push(link());
      else if (r < 0.161) parts.push(`_${word()}_`);
      else if (r < 0.163) parts.push(`~~${word()}~~`);
      else parts.push(word());
      if (i > 2 && i < n - 1 && rng.chance(0.05)) parts[parts.length - 1] += ',';
    }
    return parts.join(' ') + (end ?? rng.weighted([[85, '.'], [8, ':'], [4, '!'], [3, '?']]));
  }

  const paragraph = (lo = 1, hi = 4) => {
    const s = [];
    for (let i = rng.int(lo, hi); i > 0; i--) s.push(sentence());
    return s.join(' ');
  };

  const title = () => {
    const w = [cap(rng.pick(rng.chance(0.5) ? VERBS : NOUNS))];
    for (let i = rng.int(1, 5); i > 0; i--) w.push(rng.chance(0.2) ? inlineCode() : rng.pick(rng.chance(0.5) ? NOUNS : rng.chance(0.5) ? ADJECTIVES : FILLER));
    return w.join(' ');
  };

  function list(ordered) {
    const task = !ordered && rng.chance(0.08);
    const bullet = rng.chance(0.8) ? '- ' : '* ';
    const out = [];
    for (let i = 0, n = rng.int(2, 7); i < n; i++) {
      const marker = ordered ? `${i + 1}. ` : task ? (rng.chance(0.5) ? '- [x] ' : '- [ ] ') : bullet;
      out.push(marker + rng.weighted([
        [3, () => sentence({ min: 3, max: 14, plain: true })],
        [2, () => `**${cap(rng.pick(NOUNS))} ${rng.pick(NOUNS)}**: ${sentence({ min: 3, max: 12, plain: true })}`],
        [2, () => `${inlineCode()} — ${sentence({ min: 2, max: 10, plain: true, end: '' })}`],
      ]));
      if (rng.chance(0.15)) {
        const pad = ' '.repeat(marker.length);
        for (let j = rng.int(1, 3); j > 0; j--) out.push(`${pad}- ${sentence({ min: 2, max: 10, plain: true, end: '' })}`);
      }
    }
    return out.join('\n');
  }

  function table() {
    const cols = rng.int(2, 4);
    const row = (cells) => '| ' + cells.join(' | ') + ' |';
    const head = [];
    for (let c = 0; c < cols; c++) head.push(cap(rng.pick(NOUNS)));
    const out = [row(head), row(head.map(() => rng.pick(['---', ':---', '---:'])))];
    for (let r = rng.int(2, 6); r > 0; r--) {
      const cells = [];
      for (let c = 0; c < cols; c++) cells.push(rng.chance(0.3) ? inlineCode() : rng.chance(0.2) ? `${rng.int(1, 999)} ms` : `${word()} ${word()}`);
      out.push(row(cells));
    }
    return out.join('\n');
  }

  function fence() {
    const n = rng.low(3, 40, 1.6);
    const kind = rng.weighted([[30, 'rust'], [25, 'ts'], [20, 'ref'], [10, 'bash'], [7, 'python'], [5, 'json'], [3, 'diff']]);
    let info;
    let lines;
    if (kind === 'ref') {
      const path = filePath(rng.chance(0.6) ? 'rs' : 'ts');
      const start = rng.int(1, 400);
      lines = code.snippet(languageOf(path), n);
      info = `${start}:${start + lines.length - 1}:${path}`;
    } else if (kind === 'diff') {
      info = 'diff';
      lines = code.snippet('rs', n).map((l) => (rng.chance(0.15) ? '-' : rng.chance(0.15) ? '+' : ' ') + l);
    } else {
      info = kind;
      lines = code.snippet({ rust: 'rs', python: 'py' }[kind] ?? kind, Math.max(n, kind === 'json' ? 5 : n));
    }
    return '```' + info + '\n' + lines.join('\n') + '\n```';
  }

  function block() {
    return rng.weighted([
      [40, () => paragraph()],
      [9, () => `${rng.pick(['##', '##', '###', '###', '####'])} ${title()}\n\n${paragraph(1, 3)}`],
      [16, () => list(false)],
      [7, () => list(true)],
      [19, fence],
      [2, () => `> ${rng.pick(['**Note:** ', '**Warning:** ', ''])}${sentence()}`],
      [4, table],
      [2, () => '---'],
      [1, () => `${paragraph(1, 1)}\n${paragraph(1, 2)}`],
    ]);
  }

  /** An assistant message: `short` (a sentence), `medium` or `long` (blocks). */
  function message(kind) {
    kind ??= rng.weighted([[50, 'short'], [38, 'medium'], [12, 'long']]);
    if (kind === 'short') return sentence({ min: 4, max: 18 });
    const blocks = kind === 'long' ? [`## ${title()}`] : [];
    for (let i = kind === 'medium' ? rng.int(2, 5) : rng.int(5, 16); i > 0; i--) blocks.push(block());
    return blocks.join('\n\n');
  }

  /** A Markdown file of about `n` lines. */
  function document(n) {
    const out = [`# ${title()}`, ''];
    while (out.length < n) out.push(...block().split('\n'), '');
    return out;
  }

  return { sentence, message, document };
}

// Pieces like a model's tokenizer makes them: a word with its leading space, digits,
// single punctuation characters, runs of newlines or spaces (long words cut in two).
const TOKEN = /\n+| ?[A-Za-z]+| ?\d+| +|[^A-Za-z\d\s]/gu;

/** Cuts a message into streamed deltas of 1 to 20 pieces, mostly few. */
export function toDeltas(rng, text) {
  const pieces = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    if (t.length > 9 && /^ ?[A-Za-z]+$/.test(t)) {
      const k = rng.int(3, t.length - 3);
      pieces.push(t.slice(0, k), t.slice(k));
    } else {
      pieces.push(t);
    }
  }
  const deltas = [];
  for (let i = 0; i < pieces.length;) {
    const k = 1 + Math.floor(19 * rng.next() * rng.next());
    deltas.push(pieces.slice(i, i + k).join(''));
    i += k;
  }
  if (deltas.join('') !== text) throw new Error('toDeltas lost characters');
  return deltas;
}
