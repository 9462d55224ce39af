import type { Conversation, DocumentType } from './docstream.js';

/** `docstream-choice`: a clarification option was picked. */
export interface DocstreamChoiceDetail {
  questionId: string;
  optionId: string;
  /** `data-doc-id` of the clarification document. */
  documentId: string;
}
/** `docstream-copy` (cancelable: `preventDefault()` keeps the element off the clipboard). */
export interface DocstreamCopyDetail {
  text: string;
  /** The copied document's `data-doc-id` ('' for a whole turn). */
  documentId: string;
  /** For a turn's "Copy as Markdown": the turn's index (`data-turn-index`). */
  turn?: number;
}
/** `docstream-error`: `code` is one of docstream's (`DS_FINISHED`, `DS_BAD_CHUNK`,
 * `DS_BAD_OPTIONS`, `DS_UNKNOWN_FORMAT`, `DS_INTERNAL`) or the element's own:
 * `DS_WASM` (the WebAssembly module did not load; the message names the fixes),
 * `DS_FETCH` (loading `src` failed), `DS_SOURCE` (the stream being read failed),
 * `DS_CLIPBOARD` (writing to the clipboard failed), `DS_DIAGRAM` (the `diagrams` hook
 * failed), `DS_MATH` (the formulas' module did not load). */
export interface DocstreamErrorDetail {
  code: string;
  message: string;
}
export interface DocstreamDoneDetail {
  conversation: Conversation;
}
export interface DocstreamProgressDetail {
  /** Bytes pushed since the stream started (strings counted as UTF-8). */
  bytes: number;
}

/** A document in `outline()`. */
export interface DocstreamOutlineDocument {
  /** Its `data-doc-id`. */
  id: string;
  /** Its document type, as the snapshot names it (`text`, `file_edit`, `terminal_command`, `tool_call`, …). */
  type: DocumentType;
  /** Its header's words on one line (a file edit's path, a command, a tool's name and
   * summary, a plan's title, an error's code), '' when it has none. */
  label: string;
  /** The status its header shows (`success`, `error`, `rejected`, `no-result`, …; a
   * plan put to the user: `approved`, `rejected`), '' when none. */
  status: string;
}
/** A turn in `outline()`. */
export interface DocstreamOutlineTurn {
  index: number;
  /** Its `data-turn-id`. */
  id: string;
  /** `compaction`: the context was compacted here (the page's "Context compacted"
   * divider, its summary folded), neither a prompt nor an answer. */
  role: 'user' | 'assistant' | 'compaction';
  /** A user turn's prompt on one line; a compaction's divider as the page says it
   * ("Context compacted (auto, 155k → 12k tokens)"); '' for the agent's. */
  label: string;
  /** Its documents in page order, sub-agents' documents included. */
  documents: DocstreamOutlineDocument[];
}
export interface DocstreamOutline {
  turns: DocstreamOutlineTurn[];
}
/** Where `find()` stands. */
export interface DocstreamFindResult {
  query: string;
  /** Matches marked. */
  count: number;
  /** The match `findNext()` moved to, from 0; -1 before the first move. */
  current: number;
  /** More than 10,000 matches: the rest are not marked. */
  capped: boolean;
}
/** What `reveal()` scrolls to: a document or turn id, or a turn index and a document id
 * in it. */
export type DocstreamRevealTarget = string | { turn: number | string; document?: string };

export interface DocstreamViewEventMap extends HTMLElementEventMap {
  'docstream-choice': CustomEvent<DocstreamChoiceDetail>;
  'docstream-copy': CustomEvent<DocstreamCopyDetail>;
  'docstream-error': CustomEvent<DocstreamErrorDetail>;
  'docstream-done': CustomEvent<DocstreamDoneDetail>;
  'docstream-progress': CustomEvent<DocstreamProgressDetail>;
}

/** `<docstream-view>`: a coding agent's stream shown as live documents. Not registered
 * by this module; import `docstream/define` or call `customElements.define`. */
/** A token of a line of code: its text, and its kind (a class suffix: `keyword` is
 * `ds-hl-keyword`) or null for plain text. */
export type HighlightToken = [text: string, kind: string | null];

/** Tokenizes one block of code, line by line, carrying its state between lines. */
export interface LineTokenizer {
  /** The next complete line's tokens; the state moves past it. */
  line(text: string): HighlightToken[];
  /** Tokens of a line still growing; the state stays where it was. */
  peek(text: string): HighlightToken[];
}

/** The `highlighter` hook: a tokenizer for one block in `lang` (a fence name such as
 * `rust` or `ts`, or a file path such as `src/main.rs`), or null for a language it does
 * not know. */
export interface Highlighter {
  open(lang: string): LineTokenizer | null | Promise<LineTokenizer | null>;
}

export class DocstreamView extends HTMLElement {
  /** Initialises the WebAssembly modules once. By default two, beside `docstream.js`:
   * `docstream-lite_bg.wasm` (the Cursor CLI's formats; every other is detected) at
   * start, and `docstream_bg.wasm` (every format) only when a stream needs it. Given one
   * module (`module_or_path` of docstream's `init`: URL, bytes, module or response of
   * `docstream_bg.wasm`), that one reads every stream; `{ lite, full }` gives both of the
   * pair; a module namespace switches to another build of the binding, such as
   * `import * as docstream from 'docstream/inline'`. */
  static init(
    input?:
      | URL
      | string
      | BufferSource
      | WebAssembly.Module
      | Response
      | { module_or_path: unknown }
      | { lite?: URL | string | BufferSource | WebAssembly.Module | Response; full?: URL | string | BufferSource | WebAssembly.Module | Response }
      | { default: (input?: unknown) => Promise<unknown>; DocStream: new (options?: any) => unknown },
  ): Promise<void>;
  static readonly observedAttributes: string[];

  /** URL of a transcript or stream to load (streamed as it arrives). */
  src: string;
  /** `auto` or a format name (`cursor-stream-json`, `document-sse`, …); read when a stream starts. */
  format: string;
  theme: 'auto' | 'light' | 'dark' | 'vscode' | (string & {});
  diff: 'unified' | 'split' | (string & {});
  /** Space-separated origins whose images may load (attribute `allow-images`). */
  allowImages: string;
  locale: 'en' | 'de' | (string & {});
  /** `live` (default): thinking is open while it streams, its latest lines in view, and
   * folds when the answer starts (unless the reader toggled it); `open`; `closed`. */
  thinking: 'live' | 'open' | 'closed';
  /** Parts not shown, space-separated: `thinking`, `tools` (tool calls), `output`
   * (terminal output). `find()` and `page()` leave them out too. */
  hide: string;
  /** Renders finished code blocks as something else (Mermaid fences as diagrams): called
   * once per code block after it ended with its fence language and exact code; a node
   * returned is shown in place of the code (copy still copies the code), null keeps the
   * code. `null` (default): code stays code. */
  diagrams: ((lang: string, source: string) => Node | null | Promise<Node | null>) | null;
  /** Colours code blocks, code references and both sides of diffs. By default docstream's
   * own (`docstream/highlight`, Shiki grammars), loaded with the first code block;
   * `null` (or the attribute `highlight="off"`) turns colouring off. */
  highlighter: Highlighter | null;
  /** Size and depth limits of the next stream, as `DocStream`'s option `limits`; `null`
   * (default): the defaults (16 MiB a line or event). Set it before the stream starts. */
  limits: { maxEventBytes?: number; maxDepth?: number } | null;
  /** A price table for the next stream, as `DocStream`'s option `prices` (per model id, US
   * dollars per million tokens); a response whose source states no cost shows one
   * computed from it, marked "≈". `null` (default): costs only as stated. Read when a
   * stream starts; a stream with prices is read by the full module. */
  prices: Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number; reasoning?: number }> | null;
  /** Resolves once the WebAssembly module is ready. */
  readonly ready: Promise<void>;
  /** A stream is in progress (pushed to, not finished). */
  readonly busy: boolean;

  /** Reads a chunk; what it changes shows at the next animation frame (or `flush()`). */
  push(chunk: Uint8Array | ArrayBuffer | string): void;
  /** Applies what was pushed now, instead of at the next animation frame. */
  flush(): void;
  finish(): void;
  load(input: string | Uint8Array | ArrayBuffer): Promise<void>;
  stream(
    source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  clear(): void;
  html(): string;
  /** The conversation as GitHub-flavoured Markdown (what `docstream md` writes); with
   * `{ turn }`, that turn alone (what its "Copy as Markdown" control copies). A promise:
   * for a stream the default module reads, the full module (docstream_bg.wasm) is loaded
   * once and writes it; rejects with an `Error` with code `DS_WASM` when that does not
   * load. */
  toMarkdown(options?: { turn?: number; redact?: boolean }): Promise<string>;
  /** The conversation as Markdown, a standalone page (as `page()`; masked, the page
   * `docstream html --redact` writes, without the view's theme and code colours) or
   * JSON, with `redact` (default: the `redact` attribute) every
   * credential-shaped value masked as `[redacted: kind]`: `masked` counts them by kind.
   * The masking module (redact_bg.wasm) is loaded once; rejects with `DS_WASM` when it
   * does not load. */
  export(options?: {
    as?: 'markdown' | 'html' | 'json';
    turn?: number;
    title?: string;
    redact?: boolean;
  }): Promise<{ text: string; masked: Record<string, number> }>;
  /** Exports mask credential-shaped values (the boolean attribute `redact`). */
  redact: boolean;
  snapshot(): Conversation;
  /** What the view shows, turn by turn, each document with a one-line label and status
   * (read from the screen: `flush()` first to include what was just pushed). */
  outline(): DocstreamOutline;
  /** Scrolls to a turn or document, opens the disclosures around it (and its own, with
   * `open`), focuses and flashes it; false when there is no such target. */
  reveal(target: DocstreamRevealTarget, options?: { open?: boolean }): boolean;
  /** Marks every match of `query` (case-insensitive) with `::highlight(ds-find)`; an
   * empty query clears. The same query again keeps its place. */
  find(query: string): DocstreamFindResult;
  /** Moves to the next (`1`) or previous (`-1`) match, opening and scrolling to it. */
  findNext(step?: 1 | -1): DocstreamFindResult;
  /** The view as a standalone HTML page (the CLI's frame): styles inlined, hidden parts
   * and copy controls left out, no script. */
  page(options?: { title?: string }): string;

  addEventListener<K extends keyof DocstreamViewEventMap>(
    type: K,
    listener: (this: DocstreamView, ev: DocstreamViewEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof DocstreamViewEventMap>(
    type: K,
    listener: (this: DocstreamView, ev: DocstreamViewEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'docstream-view': DocstreamView;
  }
}
