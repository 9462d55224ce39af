import type { Highlighter, LineTokenizer } from '../element.js';

/** A language docstream highlights: Shiki's grammar id, the fence names and the file
 * extensions (or names) that mean it. */
export interface Language {
  id: string;
  names: string[];
  files: string[];
}

/** Every language docstream highlights. */
export const LANGUAGES: readonly Language[];

/** The language a fence name (`rust`, `ts`) or a file path (`src/main.rs`) means. */
export function languageOf(nameOrPath: string): Language | undefined;

/** A tokenizer for one block in `lang`, or null for a language not highlighted. */
export function open(lang: string): Promise<LineTokenizer | null>;

/** The highlighter as `<docstream-view>`'s `highlighter` property takes it. */
export const highlighter: Highlighter;
