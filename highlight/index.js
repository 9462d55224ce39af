// docstream's default syntax highlighter: Shiki's TextMate grammars (the ones VS Code
// uses) on its JavaScript regex engine, so no second WebAssembly module is fetched. It
// is loaded the first time a code block appears and each grammar when first needed.
//
// It implements the element's `highlighter` hook: `open(lang)` gives a tokenizer for one
// block that carries the grammar's state from line to line, so a streaming block is
// tokenized once, line by line, and a line shown is never tokenized again.
import { createShikiPrimitiveAsync, codeToTokensBase, getLastGrammarState } from '@shikijs/primitive';
import { createCssVariablesTheme } from '@shikijs/core';
import { createJavaScriptRegexEngine } from '@shikijs/engine-javascript';
import { languageOf } from './languages.js';

export { LANGUAGES, languageOf } from './languages.js';

const THEME = 'docstream';
/** Token colours are CSS variables; each becomes a class (`var(--ds-hl-token-string)` is
 * `string`), so the colours come from docstream.css and the theme, never from styles. */
const KIND = /^var\(--ds-hl-token-([a-z-]+)\)$/;
/** Lines longer than this are shown plain (minified files): tokenizing them costs more
 * than it shows. */
const MAX_LINE = 2000;

let primitive = null;
const loaded = new Map();

function core() {
  primitive ??= createShikiPrimitiveAsync({
    themes: [createCssVariablesTheme({ name: THEME, variablePrefix: '--ds-hl-', fontStyle: false })],
    langs: [],
    engine: createJavaScriptRegexEngine(),
  });
  return primitive;
}

async function grammar(lang) {
  let ready = loaded.get(lang.id);
  if (!ready) {
    ready = core().then(async (p) => {
      await p.loadLanguage(lang.load());
      return p;
    });
    loaded.set(lang.id, ready);
    ready.catch(() => loaded.delete(lang.id));
  }
  return ready;
}

/** Tokens of one line: `[text, kind]`, `kind` null for plain text. */
function tokensOf(line) {
  return line.map((t) => [t.content, KIND.exec(t.color ?? '')?.[1] ?? null]);
}

/**
 * A tokenizer for one block of code in `lang` (a fence name or a file path), or null
 * where the language is not one docstream highlights.
 */
export async function open(lang) {
  const language = languageOf(lang);
  if (!language) return null;
  const p = await grammar(language);
  let state;
  const tokenize = (text, advance) => {
    if (text.length > MAX_LINE) return [[text, null]];
    const tokens = (grammarState) => codeToTokensBase(p, text, { lang: language.id, theme: THEME, grammarState });
    let lines;
    try {
      lines = tokens(state);
    } catch {
      // A grammar loaded since can have made Shiki load this one again (one that embeds
      // it lazily, or is injected into it): the state carried is the old grammar's. The
      // block goes on from this line afresh; a line that still fails stays plain.
      state = undefined;
      try {
        lines = tokens(undefined);
      } catch {
        return [[text, null]];
      }
    }
    if (advance) state = getLastGrammarState(p, lines);
    return tokensOf(lines[0] ?? []);
  };
  return {
    /** The next complete line: its tokens, the state carried to the line after it. */
    line: (text) => tokenize(text, true),
    /** A line still growing: its tokens, the state left where it was. */
    peek: (text) => tokenize(text, false),
  };
}

/** The highlighter as the element's `highlighter` property takes it. */
export const highlighter = { open };
