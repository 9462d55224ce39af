// <docstream-view>: a coding agent's stream shown as live documents.
//
// This module defines the class and does not register it (import `docstream/define`
// for that). Patches from the wasm renderer are applied with the least DOM work: new
// turns and documents are inserted at their index, a growing text document gets its
// finished blocks appended and only its unfinished tail replaced, nothing else is
// touched. Styles live in the shadow root as a constructed stylesheet, so the element
// works under a strict Content-Security-Policy (no inline styles or scripts).
//
// The class is the element's public face: its attributes and properties, its lifecycle
// and its methods, each handed to the module that does the work: element-view.js (the
// shadow root, labels, busy state, events), element-wasm.js (the WebAssembly module),
// element-feed.js (the stream and what is read into it), element-decorate.js (what is
// added to the rendered documents and how it answers clicks), element-figures.js
// (diagrams and formulas), element-scroll.js (following the bottom, reveal()), find.js,
// outline.js and element-page.js (the view as a standalone page).
// scripts/build-wasm.sh bundles the element-*.js modules into the package's element.js.
import { Feed } from './element-feed.js';
import { initModule } from './element-wasm.js';
import { View, hiddenSelector } from './element-view.js';
import { Decorator } from './element-decorate.js';
import { Figures } from './element-figures.js';
import { Scroll } from './element-scroll.js';
import { pageOf } from './element-page.js';
import { hiddenMask } from './element-window.js';
import { Finder } from './find.js';
import { outlineOf } from './outline.js';

/** Public properties re-applied on connection (the upgrade-property pattern). */
const UPGRADED_PROPERTIES = ['src', 'format', 'theme', 'diff', 'allowImages', 'locale', 'thinking', 'hide', 'highlighter', 'diagrams', 'limits', 'prices'];

/** Where `HTMLElement` does not exist (server-side rendering, Node), the class still
 * loads, on an empty base: importing the module defines nothing and touches no DOM. */
const ElementBase = globalThis.HTMLElement ?? class {};

/**
 * `<docstream-view>`: a coding agent's stream shown as live documents. Attributes are
 * reflected as properties: `src`, `format`, `theme` (`auto|light|dark|vscode`), `diff`
 * (`unified|split`), `allow-images`, `locale`, `highlight` (`off`), `math` (`off`),
 * `thinking` (`live|open|closed`), `hide` (any of `thinking tools output`).
 *
 * @customElement docstream-view
 * @fires {CustomEvent<DocstreamChoiceDetail>} docstream-choice - A clarification option was picked.
 * @fires {CustomEvent<DocstreamCopyDetail>} docstream-copy - Before a copy (cancelable: `preventDefault()` keeps the element off the clipboard).
 * @fires {CustomEvent<DocstreamErrorDetail>} docstream-error - Loading, reading, the clipboard, the diagrams hook or the formulas' module failed; `detail.code` says which.
 * @fires {CustomEvent<DocstreamDoneDetail>} docstream-done - A stream ended; `detail.conversation` is its snapshot.
 * @fires {CustomEvent<DocstreamProgressDetail>} docstream-progress - Bytes pushed so far.
 * @csspart conversation - The list of turns.
 * @csspart turn - A turn (also `user-turn` or `assistant-turn`).
 * @csspart user-turn - A turn of the user.
 * @csspart assistant-turn - A turn of the agent.
 * @csspart turn-header - A turn's header.
 * @csspart document - A document (also its type: `text`, `code-block`, `file-edit`, `terminal-command` …).
 * @csspart copy-button - Every copy control.
 * @csspart option - A clarification's option.
 * @csspart status - The polite live region.
 * @csspart jump-button - "Jump to latest", shown while the reader is scrolled up and more arrives.
 * @csspart diagram - What the `diagrams` hook returned, in place of the code.
 * @csspart math - A formula's MathML, shown in place of its TeX.
 */
export class DocstreamView extends ElementBase {
  static observedAttributes = ['src', 'format', 'locale', 'theme', 'diff', 'allow-images', 'highlight', 'math', 'thinking', 'hide'];

  /**
   * Initialises the WebAssembly module (once). `input` is what docstream's `init`
   * takes as `module_or_path` (URL, bytes, `WebAssembly.Module`, `Response`); without
   * it the `.wasm` file next to the package's `docstream.js` is fetched. It may also be
   * the namespace of another build of the binding, such as `docstream/inline`
   * (`import * as docstream from 'docstream/inline'; await DocstreamView.init(docstream)`):
   * streams created from then on use that module's `DocStream`.
   */
  static init(input) {
    return initModule(input);
  }

  /** The shadow root and what the parts below share (element-view.js). */
  #view;
  /** The stream and what is read into it (element-feed.js). */
  #feed;
  /** Patches applied and decorated (element-decorate.js). */
  #decorator;
  /** Diagrams and formulas (element-figures.js). */
  #figures;
  /** Following the bottom, and reveal() (element-scroll.js). */
  #scroll;
  /** `find()`'s matches. */
  #finder = null;
  /** connectedCallback has run (attribute callbacks of an upgrade come before it). */
  #connected = false;

  constructor() {
    super();
    const view = new View(this);
    this.#view = view;
    this.#figures = new Figures(view);
    this.#decorator = new Decorator(view, this.#figures);
    // A turn's "Copy as Markdown" copies the stream's Markdown of that turn.
    this.#decorator.copiesMarkdownWith((turn) => this.toMarkdown({ turn }));
    const windowing = this.#decorator.window;
    this.#scroll = new Scroll(view, (el) => windowing.restore(el));
    this.#decorator.restoredHooks.push((el, doc) => this.#finder?.restored(el, doc));
    this.#feed = new Feed(view, {
      render: (wire) => this.#render(wire),
      ended: () => this.#ended(),
      cleared: () => this.#cleared(),
    });
  }

  /** Patches pulled from the stream: applied and decorated, the bottom followed. */
  #render(wire) {
    this.#decorator.render(wire);
    this.#scroll.updated();
  }

  /** A stream ended and its last patches are shown. */
  #ended() {
    this.#decorator.ended();
    this.#figures.ended();
  }

  /** A new stream starts: nothing shown, no marks, the bottom followed. */
  #cleared() {
    const view = this.#view;
    view.live.textContent = '';
    view.conversation.replaceChildren();
    this.#decorator.reset();
    this.#figures.reset();
    this.#finder?.run('');
    this.#scroll.reset();
  }

  connectedCallback() {
    // Properties a page set before the element was defined are own data properties that
    // shadow the class's accessors: put them through the setters.
    for (const name of UPGRADED_PROPERTIES) {
      if (Object.prototype.hasOwnProperty.call(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this.#connected = true;
    const src = this.getAttribute('src');
    if (src && src !== this.#feed.src) this.#feed.loadSrc(src);
  }

  /** Removed from the page (and not put back in the same task): the `src` load stops and
   * the stream's wasm memory is freed; what is shown stays. Connected again, it loads
   * `src` afresh; a `push()` starts a new stream. */
  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#connected = false;
      this.#feed.disconnected();
    });
  }

  /** `src` loads; `format` or `locale` changed while a `src` is shown loads it again with
   * them; `theme`, `diff`, `allow-images`, `highlight`, `math` and `thinking` apply as
   * the stylesheet and the next patches read them. */
  attributeChangedCallback(name, old, value) {
    const feed = this.#feed;
    if (name === 'src') {
      if (this.isConnected && value && value !== feed.src) feed.loadSrc(value);
    } else if ((name === 'format' || name === 'locale') && old !== value && this.#connected && feed.src) {
      feed.loadSrc(feed.src);
    }
  }

  // ---- reflected properties ----
  get src() {
    const v = this.getAttribute('src');
    return v === null ? '' : new URL(v, document.baseURI).href;
  }
  set src(v) {
    this.setAttribute('src', v);
  }
  get format() {
    return this.getAttribute('format') ?? 'auto';
  }
  set format(v) {
    this.setAttribute('format', v);
  }
  get theme() {
    return this.getAttribute('theme') ?? 'auto';
  }
  set theme(v) {
    this.setAttribute('theme', v);
  }
  get diff() {
    return this.getAttribute('diff') ?? 'unified';
  }
  set diff(v) {
    this.setAttribute('diff', v);
  }
  get allowImages() {
    return this.getAttribute('allow-images') ?? '';
  }
  set allowImages(v) {
    this.setAttribute('allow-images', v);
  }
  get thinking() {
    return this.getAttribute('thinking') ?? 'live';
  }
  set thinking(v) {
    this.setAttribute('thinking', v);
  }
  get locale() {
    return this.getAttribute('locale') ?? 'en';
  }
  set locale(v) {
    this.setAttribute('locale', v);
  }
  /** Parts not shown, space-separated: `thinking`, `tools` (tool calls), `output`
   * (terminal output). */
  get hide() {
    return this.getAttribute('hide') ?? '';
  }
  set hide(v) {
    this.setAttribute('hide', v);
  }

  /**
   * Colours code (blocks, references, both sides of diffs): an object whose
   * `open(lang)` gives, or promises, a tokenizer for one block, `{ line(text),
   * peek(text) }`, each returning `[text, kind]` tokens (`kind` a class suffix:
   * `ds-hl-keyword`), or null for a language it does not know. By default docstream's
   * own (Shiki grammars, `docstream/highlight`), loaded when the first code block
   * appears; `null`, or the attribute `highlight="off"`, turns colouring off. Applies to
   * code added from then on.
   */
  get highlighter() {
    return this.#decorator.highlighter;
  }
  set highlighter(v) {
    this.#decorator.highlighter = v;
  }

  /**
   * Renders finished code blocks as something else (Mermaid fences as diagrams, say):
   * `(lang, source) => Node | null`, or a promise of one. Called once per code block
   * when it has ended, with the fence's language and the exact code; a node returned is
   * shown in place of the code (the copy button still copies the code), null leaves the
   * code. `null` (default): code blocks stay code.
   */
  get diagrams() {
    return this.#figures.diagrams;
  }
  set diagrams(v) {
    this.#figures.diagrams = v;
  }

  /**
   * Size and depth limits of the next stream, as `DocStream`'s option `limits`
   * (`{ maxEventBytes, maxDepth }`); `null` (default): the defaults (16 MiB a line or
   * event). Read when a stream starts: set it before `src`, `stream()` or `load()`.
   */
  get limits() {
    return this.#feed.limits;
  }
  set limits(v) {
    this.#feed.limits = v ?? null;
  }

  /**
   * A price table for the next stream, as `DocStream`'s option `prices` (per model id, US
   * dollars per million tokens: `{ 'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 }
   * }`): a response whose source states no cost shows one computed from it, marked "≈".
   * `null` (default): costs only as the source states them. Read when a stream starts;
   * a stream with prices is read by the full module (the default one has no price code).
   */
  get prices() {
    return this.#feed.prices;
  }
  set prices(v) {
    this.#feed.prices = v ?? null;
  }

  /** Resolves once the WebAssembly module is ready. */
  get ready() {
    return this.#feed.ready;
  }

  /** Whether a stream is in progress (pushed to, not finished). */
  get busy() {
    return this.#view.busy;
  }

  // ---- methods ----

  /**
   * Reads a chunk (`Uint8Array`, `ArrayBuffer` or string; split anywhere). Applied at
   * once when the module is ready, else queued until it is.
   */
  push(chunk) {
    this.#feed.push(chunk);
  }

  /**
   * Applies every patch read so far now. The element applies them once per animation
   * frame by itself (however many chunks arrived in between) and at `finish()`; call
   * this to see the DOM of what was pushed at once.
   */
  flush() {
    this.#feed.flush();
  }

  /** Ends the stream (a stream without its final event is marked cut off). */
  finish() {
    this.#feed.finish();
  }

  /** Shows a whole transcript (clears first). */
  async load(input) {
    return this.#feed.load(input);
  }

  /**
   * Reads a `ReadableStream<Uint8Array>` (a `fetch` body) or an async iterable of
   * chunks into the view (clears first): large chunks in 32 KB pieces, giving the page a
   * turn after every 50 ms of work, so a file of many megabytes loads while the page
   * answers input (`docstream-progress` says how far it got). Resolves when finished;
   * on abort the stream is finished (marked cut off) and the promise rejects with the
   * signal's reason.
   */
  stream(source, { signal } = {}) {
    return this.#feed.stream(source, signal);
  }

  /** Empties the view (stopping a `src` load) and starts a fresh stream with the
   * current attributes. */
  clear() {
    this.#feed.clear();
  }

  /** The conversation element's HTML as the renderer gives it (`DocStream.html()`). */
  html() {
    return this.#feed.html();
  }

  /**
   * The conversation as GitHub-flavoured Markdown (`DocStream.markdown()`, what `docstream
   * md` writes): turns with role and time, prose as written, code and diffs fenced, tool
   * calls, thinking and sub-agents folded in `<details>`, usage at the end. With
   * `{ turn }` (a turn index, `data-turn-index`), that turn alone: what a turn's "Copy as
   * Markdown" control copies. '' before anything was read. A promise: the default module
   * leaves the Markdown export out, and the first call on a stream it reads loads the
   * full module (docstream_bg.wasm); when that does not load, it rejects with an `Error`
   * with code `DS_WASM`.
   */
  async toMarkdown({ turn, redact = this.redact } = {}) {
    const at = Number.isInteger(turn) && turn >= 0 ? turn : undefined;
    if (redact) return (await this.export({ as: 'markdown', turn: at, redact })).text;
    return this.#feed.markdown(at);
  }

  /**
   * The conversation as `as`: `'markdown'` (as `toMarkdown()`), `'html'` (as `page()`,
   * titled `title`; masked, the page `docstream html --redact` writes: the view's theme,
   * hidden parts and code colours are not applied) or `'json'` (its objects); with
   * `redact` (default: the `redact` attribute)
   * every credential-shaped value masked as `[redacted: kind]`, as `docstream md` and
   * `docstream export` mask them. A promise of `{ text, masked }`, `masked` the count of
   * each kind of value masked. The masking module (redact_bg.wasm) and, for Markdown and
   * pages, the full module (docstream_bg.wasm) are loaded once; when one does not load,
   * the promise rejects with an `Error` with code `DS_WASM`.
   */
  async export({ as = 'markdown', turn, title, redact = this.redact } = {}) {
    if (as === 'html' && !redact) return { text: this.page({ title }), masked: {} };
    const request = { as: String(as), redact: Boolean(redact), title: String(title ?? 'docstream') };
    if (Number.isInteger(turn) && turn >= 0) request.turn = turn;
    return this.#feed.exportOf(request);
  }

  /** Exports (`export()`, `toMarkdown()` and each turn's "Copy as Markdown") mask
   * credential-shaped values: the boolean attribute `redact`. */
  get redact() {
    return this.hasAttribute('redact');
  }

  set redact(on) {
    this.toggleAttribute('redact', Boolean(on));
  }

  /** The conversation as plain objects (`DocStream.snapshot()`); before anything was
   * read, an empty one (no turns, zero stats). */
  snapshot() {
    return this.#feed.snapshot();
  }

  /**
   * What the view shows, for a page's table of contents or counts: `{ turns }`, each
   * turn `{ index, id, role, label, documents }` (`label`: a user turn's prompt on one
   * line), each document `{ id, type, label, status }` (`type` as in the snapshot: `file_edit`; `label`: its header's words, such
   * as a file edit's path or a command; `status`: `success`, `error`, `rejected`,
   * `no-result`… or ''), in page order, sub-agents' documents included. Read from what
   * is on screen, so call `flush()` first to include what was just pushed.
   */
  outline() {
    const windowing = this.#decorator.window;
    return outlineOf(this.#view.conversation, windowing.size ? (el) => windowing.outline(el) : null);
  }

  /**
   * Scrolls to a turn or document, opens the disclosures around it (and, with
   * `{ open: true }`, its own), moves focus there and flashes it. `target`: a document or
   * turn id (`data-doc-id`, `data-turn-id`), or `{ turn, document }` with a turn index
   * and optionally a document id in it. Returns whether it was found. Following the
   * bottom stops until the reader scrolls back down.
   */
  reveal(target, { open = false } = {}) {
    this.#decorator.window.reveal(target);
    return this.#scroll.reveal(target, open);
  }

  /**
   * Marks every match of `query` (case-insensitive; hidden parts, controls and folded
   * previews left out) with the `::highlight(ds-find)` style, and returns `{ query,
   * count, current, capped }` (`current`: -1 until `findNext()`; `capped`: more than
   * 10,000 matches, the rest not marked). The same query again, after the view changed,
   * keeps its place; an empty query clears the marks.
   */
  find(query) {
    const windowing = this.#decorator.window;
    this.#finder ??= new Finder(this.#view.conversation, () => hiddenSelector(this.hide), {
      stored: (el) => windowing.searchable(el),
      mask: () => hiddenMask(this.hide),
      restore: (el) => windowing.restore(el),
    });
    return this.#finder.run(String(query ?? ''));
  }

  /** Moves to the next match of `find()` (`step` 1) or the previous (-1), opens what
   * folds it, scrolls to it and marks it `::highlight(ds-find-current)`. */
  findNext(step = 1) {
    if (!this.#finder) return { query: '', count: 0, current: -1, capped: false };
    if (this.#finder.result.count) this.#scroll.unpin();
    return this.#finder.move(step < 0 ? -1 : 1);
  }

  /**
   * The view as a standalone HTML page (the frame the CLI's `docstream html` writes):
   * what is shown, with its colours, theme and diff layout, hidden parts and copy
   * controls left out, styles inlined, no script, and a Content-Security-Policy that
   * allows none. `title` names the page.
   */
  page({ title = 'docstream' } = {}) {
    this.flush();
    this.#decorator.colourAll();
    const windowing = this.#decorator.window;
    return pageOf(this, this.#view.conversation, hiddenSelector(this.hide), title, (from, to) => windowing.expandCopy(from, to));
  }
}
