// <docstream-view>: a coding agent's stream shown as live documents.
//
// This module defines the class and does not register it (import `docstream/define`
// for that). Patches from the wasm renderer are applied with the least DOM work: new
// turns and documents are inserted at their index, a growing text document gets its
// finished blocks appended and only its unfinished tail replaced, nothing else is
// touched. Styles live in the shadow root as a constructed stylesheet, so the element
// works under a strict Content-Security-Policy (no inline styles or scripts).
import defaultInit, { DocStream as DefaultDocStream } from './docstream.js';
import css from './docstream-css.js';
import pageFrame from './docstream-page.js';
import { PatchApplier, trusted } from './apply.js';
import { Finder } from './find.js';
import { outlineOf, documentType } from './outline.js';
import { Colorer } from './colorer.js';
import { tableAsMarkdown, tableAsTsv } from './table-copy.js';
import { readChunks } from './chunks.js';

/** The default `highlighter`: docstream's Shiki-based one, imported the first time a code
 * block appears (so a page without code never loads it). */
const defaultHighlighter = {
  open: (lang) => import('./highlight/index.js').then((m) => m.open(lang)),
};

/** TeX to MathML (`math_bg.wasm`), loaded the first time a formula appears. */
let mathModule = null;
function loadMath() {
  if (!mathModule) {
    mathModule = import('./math.js').then(async (m) => {
      await m.default();
      return m;
    });
    // A later formula tries again (the page may have gone back online).
    mathModule.catch(() => {
      mathModule = null;
    });
  }
  return mathModule;
}

const MATHML = 'http://www.w3.org/1998/Math/MathML';

/** The element's own labels in `locale`'s language (`de-DE` reads as `de`), English
 * where it has none. */
function labelsOf(locale) {
  return LABELS[locale.split(/[-_]/)[0].toLowerCase()] ?? LABELS.en;
}

const LABELS = {
  en: {
    streaming: 'Agent response streaming',
    copied: 'Copied',
    copyTsv: 'Copy table as TSV',
    copyMarkdown: 'Copy table as Markdown',
    done: 'Agent response complete',
    failed: 'Agent response ended with an error',
    jump: 'Jump to latest',
  },
  de: {
    streaming: 'Antwort des Agenten wird empfangen',
    copied: 'Kopiert',
    copyTsv: 'Tabelle als TSV kopieren',
    copyMarkdown: 'Tabelle als Markdown kopieren',
    done: 'Antwort des Agenten vollständig',
    failed: 'Antwort des Agenten mit Fehler beendet',
    jump: 'Zum Neuesten springen',
  },
};

/** Public properties re-applied on connection (the upgrade-property pattern). */
const UPGRADED_PROPERTIES = ['src', 'format', 'theme', 'diff', 'allowImages', 'locale', 'thinking', 'hide', 'highlighter', 'diagrams'];

/** What the `hide` attribute can name, and the parts each hides: the view, `find()` and
 * `page()` all leave them out. */
const HIDDEN_PARTS = {
  thinking: ['.ds-thinking'],
  tools: ['.ds-tool-call'],
  output: ['.ds-terminal-command .ds-output', '.ds-terminal-command .ds-output-more', '.ds-term-body > .ds-copy'],
};

/** The stylesheet's rules for `hide`. */
const HIDE_CSS = Object.entries(HIDDEN_PARTS)
  .map(([name, parts]) => `${parts.map((p) => `:host([hide~="${name}"]) ${p}`).join(', ')} { display: none !important; }`)
  .join('\n');

/** Bytes pushed at a time by `stream()`, and the work (ms) done before it gives the page a
 * turn: RAIL's 50 ms slices, so a large file loads while the page answers input. */
const STREAM_PIECE = 32 << 10;
const STREAM_SLICE_MS = 50;

/** Distance from the bottom (px) within which the view counts as pinned. */
const PIN_SLACK = 32;
/** How long (ms) after a wheel, key, touch or pointer input a scroll counts as the reader's. */
const USER_SCROLL_MS = 1000;

/** The binding the element uses: docstream.js, or a module given to init(). */
let binding = { init: defaultInit, DocStream: DefaultDocStream };
let initPromise = null;
let moduleReady = false;
let sheet = null;
const reported = new WeakSet();

function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(`${css}\n${HIDE_CSS}\n`);
  }
  return sheet;
}

function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function chunkLength(chunk) {
  if (typeof chunk === 'string') return utf8Length(chunk);
  return chunk?.byteLength ?? 0;
}

/**
 * Gives the event loop a turn (input, rendering) between chunks: a plain task, not
 * `scheduler.yield()`, whose continuation runs ahead of the page's other tasks and
 * starved input while a large file loaded.
 */
function yieldToEventLoop() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
}

/**
 * The element's shadow root: the polite live region and the conversation. (Built outside
 * the constructor: the manifest's analyzer takes any assignment there for a field.)
 */
function shadowOf(host) {
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [styleSheet()];
  const live = document.createElement('div');
  live.className = 'ds-live';
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('part', 'status');
  const conversation = document.createElement('div');
  conversation.className = 'ds-conversation';
  conversation.setAttribute('part', 'conversation');
  conversation.setAttribute('aria-busy', 'false');
  // Shown while the reader is scrolled up and more arrives; sticks to the view's bottom.
  const jump = document.createElement('button');
  jump.type = 'button';
  jump.className = 'ds-jump';
  jump.setAttribute('part', 'jump-button');
  jump.hidden = true;
  root.append(live, conversation, jump);
  return { root, live, conversation, jump };
}

/** The WebAssembly module did not load: an `Error` with code `DS_WASM` that names the
 * fixes (a bundler that does not copy files named by `new URL(…, import.meta.url)`,
 * esbuild for one, leaves the `.wasm` behind). */
function wasmError(cause) {
  const e = new Error(
    `docstream: the WebAssembly module did not load (${String(cause?.message ?? cause)}). ` +
      'If a bundler built this page, it may have left docstream_bg.wasm behind: serve that file ' +
      'and call DocstreamView.init(its URL) before use, pass its bytes to DocstreamView.init(bytes), ' +
      "or use the inline build: DocstreamView.init(await import('docstream/inline')).",
    { cause },
  );
  e.code = 'DS_WASM';
  return e;
}

function toError(e, fallback) {
  return { code: e?.code ?? fallback, message: String(e?.message ?? e) };
}

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
    if (input && typeof input.DocStream === 'function' && typeof input.default === 'function') {
      if (binding.DocStream !== input.DocStream) {
        binding = { init: input.default, DocStream: input.DocStream };
        initPromise = null;
        moduleReady = false;
      }
      input = undefined;
    }
    if (!initPromise) {
      const init = binding.init;
      const arg =
        input === undefined || (input && typeof input === 'object' && 'module_or_path' in input)
          ? input
          : { module_or_path: input };
      initPromise = init(arg).then(
        (wasm) => {
          moduleReady = true;
          return wasm;
        },
        (e) => {
          throw wasmError(e);
        },
      );
      initPromise.catch(() => {
        initPromise = null;
      });
    }
    return initPromise.then(() => undefined);
  }

  #internals = null;
  #root;
  #conversation;
  #live;
  /** The "Jump to latest" button. */
  #jump;
  /** An update is being pinned to the bottom (from its flush to the frame after). */
  #pinning = false;
  #stream = null;
  #ready = null;
  #queue = [];
  #busy = false;
  #finished = false;
  #bytes = 0;
  #pinned = true;
  #lastTop = 0;
  #userInputAt = -Infinity;
  #pointerDown = false;
  #scrollFrame = 0;
  #loadController = null;
  #loadedSrc = null;
  #choices = new Map();
  #generation = 0;
  #applier;
  #frame = 0;
  #highlighter = defaultHighlighter;
  #colorer = null;
  /** The thinking opened while it streams (`thinking="live"`), folded when the answer
   * starts unless the reader toggled it. */
  #liveThinking = null;
  #toggledByReader = new WeakSet();
  #diagrams = null;
  /** The element made itself a tab stop because it scrolls. */
  #scrollFocus = false;
  /** connectedCallback has run (attribute callbacks of an upgrade come before it). */
  #connected = false;
  /** The formulas' module did not load for this view: formulas stay code. */
  #mathFailed = false;
  /** Code documents waiting to end before the `diagrams` hook sees them. */
  #pendingDiagrams = [];
  /** `find()`'s matches. */
  #finder = null;

  constructor() {
    super();
    try {
      this.#internals = this.attachInternals();
    } catch {
      this.#internals = null;
    }
    const { root, live, conversation, jump } = shadowOf(this);
    this.#root = root;
    this.#live = live;
    this.#conversation = conversation;
    this.#jump = jump;
    jump.addEventListener('click', () => this.#jumpToLatest());
    this.#applier = new PatchApplier(this.#conversation, {
      turn: decorateTurn,
      header: (el) => el.setAttribute('part', 'turn-header'),
      document: (el) => this.#decorateDocument(el),
      appended: (el, first) => this.#decorateParts(el, first),
    });
    this.#colorer = this.#newColorer();
    this.#root.addEventListener('click', (e) => this.#onClick(e));
    if (typeof ResizeObserver === 'function') {
      const sizes = new ResizeObserver(() => {
        this.#focusableWhenScrolling();
        this.#pinAfterLayout();
      });
      sizes.observe(this);
      sizes.observe(this.#conversation);
    }
    this.addEventListener('scroll', () => this.#onScroll(), { passive: true });
    const input = () => {
      this.#userInputAt = performance.now();
    };
    this.addEventListener('wheel', input, { passive: true });
    this.addEventListener('touchstart', input, { passive: true });
    this.addEventListener('keydown', input);
    this.addEventListener('pointerdown', () => {
      this.#pointerDown = true;
      input();
    });
    this.addEventListener('pointerup', () => {
      this.#pointerDown = false;
      input();
    });
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
    if (src && src !== this.#loadedSrc) this.#loadSrc(src);
  }

  /** Removed from the page (and not put back in the same task): the `src` load stops and
   * the stream's wasm memory is freed; what is shown stays. Connected again, it loads
   * `src` afresh; a `push()` starts a new stream. */
  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#connected = false;
      this.#generation++; // a read under way stops without finishing
      this.#abortLoad();
      this.#loadedSrc = null;
      if (this.#frame) cancelAnimationFrame(this.#frame);
      this.#frame = 0;
      this.#queue = [];
      this.#stream?.free();
      this.#stream = null;
      this.#finished = false;
      this.#setBusy(false);
    });
  }

  /** `src` loads; `format` or `locale` changed while a `src` is shown loads it again with
   * them; `theme`, `diff`, `allow-images`, `highlight`, `math` and `thinking` apply as
   * the stylesheet and the next patches read them. */
  attributeChangedCallback(name, old, value) {
    if (name === 'src') {
      if (this.isConnected && value && value !== this.#loadedSrc) this.#loadSrc(value);
    } else if ((name === 'format' || name === 'locale') && old !== value && this.#connected && this.#loadedSrc) {
      this.#loadSrc(this.#loadedSrc);
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
    return this.#highlighter;
  }
  set highlighter(v) {
    this.#highlighter = v && typeof v.open === 'function' ? v : null;
    this.#colorer = this.#newColorer();
  }

  /**
   * Renders finished code blocks as something else (Mermaid fences as diagrams, say):
   * `(lang, source) => Node | null`, or a promise of one. Called once per code block
   * when it has ended, with the fence's language and the exact code; a node returned is
   * shown in place of the code (the copy button still copies the code), null leaves the
   * code. `null` (default): code blocks stay code.
   */
  get diagrams() {
    return this.#diagrams;
  }
  set diagrams(v) {
    this.#diagrams = typeof v === 'function' ? v : null;
  }

  /** Offers the code blocks that have ended to the `diagrams` hook. */
  #renderDiagrams(keep = null) {
    const pending = this.#pendingDiagrams;
    this.#pendingDiagrams = keep ? [keep] : [];
    const hook = this.#diagrams;
    if (!hook) return;
    for (const doc of pending) {
      if (doc === keep || !doc.isConnected) continue;
      const code = doc.querySelector('pre.ds-code > code');
      const figure = doc.querySelector('.ds-code-figure');
      if (!code || !figure) continue;
      const lang = [...code.classList].find((c) => c.startsWith('language-'))?.slice(9) ?? '';
      let result;
      try {
        result = hook(lang, code.textContent);
      } catch (e) {
        this.#emit('docstream-error', { code: 'DS_DIAGRAM', message: String(e?.message ?? e) });
        continue;
      }
      Promise.resolve(result).then(
        (node) => {
          if (!(node instanceof Node) || !doc.isConnected) return;
          const box = document.createElement('div');
          box.className = 'ds-diagram';
          box.setAttribute('data-ds-ui', '');
          box.setAttribute('part', 'diagram');
          box.append(node);
          figure.append(box);
          figure.setAttribute('data-ds-diagram', '');
        },
        (e) => this.#emit('docstream-error', { code: 'DS_DIAGRAM', message: String(e?.message ?? e) }),
      );
    }
  }

  /** Formulas (`<code class="ds-math">`, their TeX) also as MathML, unless
   * `math="off"`: the MathML goes right after the code, which then hides. */
  #formulas(added) {
    if (this.getAttribute('math') === 'off' || this.#mathFailed) return;
    const codes = [...within(added, 'code.ds-math')];
    if (codes.length === 0) return;
    loadMath().then(
      (m) => {
        for (const code of codes) {
          if (!code.isConnected || code.hasAttribute('data-ds-math')) continue;
          const mathml = m.texToMathml(code.textContent, code.classList.contains('ds-math-display'));
          if (!mathml) continue;
          // Checked MathML (src/render/math.rs): MathML Core elements and layout
          // attributes only, text escaped.
          const t = code.ownerDocument.createElement('template');
          t.innerHTML = trusted(mathml);
          const math = t.content.firstElementChild;
          if (!math || math.namespaceURI !== MATHML || t.content.childNodes.length !== 1) continue;
          math.setAttribute('data-ds-ui', '');
          math.setAttribute('part', 'math');
          code.after(math);
          code.setAttribute('data-ds-math', '');
        }
      },
      (e) => {
        // Said once: the formulas stay code.
        if (this.#mathFailed) return;
        this.#mathFailed = true;
        this.#emit('docstream-error', { code: 'DS_MATH', message: String(e?.message ?? e) });
      },
    );
  }

  #newColorer() {
    if (!this.#highlighter) return null;
    const colorer = new Colorer(this.#highlighter, () => colorer.run());
    return colorer;
  }

  /** Resolves once the WebAssembly module is ready. */
  get ready() {
    this.#ready ??= DocstreamView.init().catch((e) => {
      this.#ready = null;
      throw e;
    });
    return this.#ready;
  }

  /** Whether a stream is in progress (pushed to, not finished). */
  get busy() {
    return this.#busy;
  }

  // ---- methods ----

  /**
   * Reads a chunk (`Uint8Array`, `ArrayBuffer` or string; split anywhere). Applied at
   * once when the module is ready, else queued until it is.
   */
  push(chunk) {
    if (!this.#canApplyNow()) {
      this.#queue.push({ chunk });
      this.#drainWhenReady();
      return;
    }
    this.#push(chunk);
  }

  /**
   * Applies every patch read so far now. The element applies them once per animation
   * frame by itself (however many chunks arrived in between) and at `finish()`; call
   * this to see the DOM of what was pushed at once.
   */
  flush() {
    if (this.#frame) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
    }
    const wire = this.#stream?.pull();
    if (wire) {
      this.#applier.applyWire(wire);
      this.#colorer?.run();
      const live = this.#liveThinking;
      // The latest lines of the thinking in view while it streams.
      if (live?.open && !this.#toggledByReader.has(live)) live.scrollTop = live.scrollHeight;
      this.#schedulePin();
      // More arrived below where the reader is reading.
      if (!this.#pinned) this.#showJump(true);
    }
  }

  /** A host that scrolls its conversation is a tab stop, so that the keyboard can
   * scroll it (WCAG 2.1.1), unless the page set a `tabindex` of its own. Checked when the
   * host or the conversation changes size, until it scrolls. */
  #focusableWhenScrolling() {
    if (this.#scrollFocus || this.hasAttribute('tabindex')) return;
    if (this.scrollHeight > this.clientHeight) {
      this.#scrollFocus = true;
      this.tabIndex = 0;
    }
  }

  #scheduleFlush() {
    if (!this.#frame) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.flush();
      });
    }
  }

  /** Ends the stream (a stream without its final event is marked cut off). */
  finish() {
    if (!this.#canApplyNow()) {
      this.#queue.push({ finish: true });
      this.#drainWhenReady();
      return;
    }
    this.#finish();
  }

  /** Shows a whole transcript (clears first). */
  async load(input) {
    this.#abortLoad();
    await this.ready;
    this.#reset();
    this.#push(input);
    this.#finish();
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
    this.#abortLoad();
    return this.#read(source, signal);
  }

  async #read(source, signal) {
    await this.ready;
    this.#reset();
    const generation = this.#generation;
    signal?.throwIfAborted();
    const iterator = source?.getReader
      ? readChunks(source, { signal, cancel: false })
      : source[Symbol.asyncIterator]();
    let sliceStart = performance.now();
    try {
      for (;;) {
        const { value, done } = await iterator.next();
        if (generation !== this.#generation) return;
        signal?.throwIfAborted();
        if (done) break;
        // Large chunks (a file read a megabyte at a time) go in pieces, and the page
        // gets a turn whenever a slice of work is done.
        for (const piece of pieces(value)) {
          this.#push(piece);
          if (performance.now() - sliceStart >= STREAM_SLICE_MS) {
            await yieldToEventLoop();
            sliceStart = performance.now();
            if (generation !== this.#generation) return;
            signal?.throwIfAborted();
          }
        }
      }
    } catch (e) {
      if (generation === this.#generation && !this.#finished) {
        try {
          this.#finish();
        } catch {
          // reported by #finish
        }
      }
      // Errors of the source itself (a network failure, say) are DS_SOURCE.
      if (!(signal?.aborted && e === signal.reason)) this.#error(e, 'DS_SOURCE');
      throw e;
    } finally {
      iterator.return?.();
    }
    this.#finish();
  }

  /** Empties the view (stopping a `src` load) and starts a fresh stream with the
   * current attributes. */
  clear() {
    this.#abortLoad();
    this.#loadedSrc = null;
    this.#reset();
  }

  #reset() {
    this.#generation++;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#queue = [];
    this.#stream?.free();
    this.#stream = null;
    this.#choices.clear();
    this.#finished = false;
    this.#bytes = 0;
    this.#setBusy(false);
    this.#live.textContent = '';
    this.#conversation.replaceChildren();
    this.#liveThinking = null;
    this.#pendingDiagrams = [];
    this.#colorer = this.#newColorer();
    this.#finder?.run('');
    this.#pinned = true;
    this.#showJump(false);
    if (this.#scrollFocus) {
      // Nothing to scroll any more: not a tab stop of the element's making.
      this.#scrollFocus = false;
      this.removeAttribute('tabindex');
    }
    if (moduleReady) this.#createStreamIfReady();
  }

  /** The conversation element's HTML as the renderer gives it (`DocStream.html()`). */
  html() {
    return this.#stream ? this.#stream.html() : '';
  }

  /** The conversation as plain objects (`DocStream.snapshot()`); before anything was
   * read, an empty one (no turns, zero stats). */
  snapshot() {
    if (this.#stream || this.#createStreamIfReady()) return this.#stream.snapshot();
    return { turns: [], stats: { events: 0, unknownEvents: 0, badEvents: 0 } };
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
    return outlineOf(this.#conversation);
  }

  /**
   * Scrolls to a turn or document, opens the disclosures around it (and, with
   * `{ open: true }`, its own), moves focus there and flashes it. `target`: a document or
   * turn id (`data-doc-id`, `data-turn-id`), or `{ turn, document }` with a turn index
   * and optionally a document id in it. Returns whether it was found. Following the
   * bottom stops until the reader scrolls back down.
   */
  reveal(target, { open = false } = {}) {
    const el = this.#targetOf(target);
    if (!el) return false;
    for (let d = el.parentElement?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    if (open) for (const d of el.querySelectorAll('details')) d.open = true;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    this.#pinned = false;
    el.scrollIntoView({ block: 'start' });
    // Turns and documents far from view were laid out at an estimated size
    // (`content-visibility: auto`); once those now near it are laid out for real the
    // target may have moved: scroll to it again then.
    const top = el.getBoundingClientRect().top;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (el.isConnected && Math.abs(el.getBoundingClientRect().top - top) > 1) el.scrollIntoView({ block: 'start' });
      }),
    );
    el.focus({ preventScroll: true });
    el.classList.remove('ds-revealed');
    void el.offsetWidth; // restarts the flash
    el.classList.add('ds-revealed');
    return true;
  }

  /** The turn or document element `reveal()` names, or null. */
  #targetOf(target) {
    const c = this.#conversation;
    if (typeof target === 'string') {
      const id = CSS.escape(target);
      const hit = c.querySelector(`.ds-doc[data-doc-id="${id}"], [data-turn-id="${id}"]`);
      return hit?.closest('.ds-doc, .ds-turn') ?? null;
    }
    if (!target || target.turn == null) return null;
    const turn = c.querySelector(`:scope > .ds-turn[data-turn-index="${CSS.escape(String(target.turn))}"]`);
    if (!turn || target.document == null) return turn;
    return turn.querySelector(`.ds-doc[data-doc-id="${CSS.escape(target.document)}"]`);
  }

  /**
   * Marks every match of `query` (case-insensitive; hidden parts, controls and folded
   * previews left out) with the `::highlight(ds-find)` style, and returns `{ query,
   * count, current, capped }` (`current`: -1 until `findNext()`; `capped`: more than
   * 10,000 matches, the rest not marked). The same query again, after the view changed,
   * keeps its place; an empty query clears the marks.
   */
  find(query) {
    this.#finder ??= new Finder(this.#conversation, () => this.#hiddenSelector());
    return this.#finder.run(String(query ?? ''));
  }

  /** Moves to the next match of `find()` (`step` 1) or the previous (-1), opens what
   * folds it, scrolls to it and marks it `::highlight(ds-find-current)`. */
  findNext(step = 1) {
    if (!this.#finder) return { query: '', count: 0, current: -1, capped: false };
    if (this.#finder.result.count) this.#pinned = false;
    return this.#finder.move(step < 0 ? -1 : 1);
  }

  /** The selector of what `hide` hides ('' for nothing). */
  #hiddenSelector() {
    const names = this.hide.split(/\s+/);
    return names.flatMap((n) => (Object.hasOwn(HIDDEN_PARTS, n) ? HIDDEN_PARTS[n] : [])).join(', ');
  }

  /**
   * The view as a standalone HTML page (the frame the CLI's `docstream html` writes):
   * what is shown, with its colours, theme and diff layout, hidden parts and copy
   * controls left out, styles inlined, no script, and a Content-Security-Policy that
   * allows none. `title` names the page.
   */
  page({ title = 'docstream' } = {}) {
    this.flush();
    const copy = this.#conversation.cloneNode(true);
    const hidden = this.#hiddenSelector();
    if (hidden) for (const el of copy.querySelectorAll(hidden)) el.remove();
    for (const el of copy.querySelectorAll('.ds-copy, .ds-table-tools')) el.remove();
    for (const el of copy.querySelectorAll('.ds-revealed')) el.classList.remove('ds-revealed');
    for (const el of copy.querySelectorAll('[tabindex="-1"]')) el.removeAttribute('tabindex');
    const attributes = ['theme', 'diff']
      .filter((a) => this.hasAttribute(a))
      .map((a) => ` ${a}="${escapeHtml(this.getAttribute(a))}"`)
      .join('');
    // In a page of its own, the host's rules apply to the root element, which carries
    // the host's attributes.
    const style = css
      .replace(/:host\(([^()]*(?:\([^()]*\))?[^()]*)\)/g, ':root$1')
      .replace(/:host\b/g, ':root');
    const slots = {
      lang: escapeHtml(this.locale),
      attributes,
      title: escapeHtml(String(title)),
      style,
      body: `${copy.outerHTML}\n`,
    };
    return pageFrame.replace(/\{([a-z]+)\}/g, (slot, name) => (Object.hasOwn(slots, name) ? slots[name] : slot));
  }

  // ---- internals ----

  #options() {
    const options = { format: this.format, locale: this.locale };
    const allow = this.allowImages.split(/\s+/).filter(Boolean);
    if (allow.length) options.images = { allow };
    return options;
  }

  /** Nothing queued and the module ready: a call applies at once. */
  #canApplyNow() {
    return this.#queue.length === 0 && this.#createStreamIfReady();
  }

  #createStreamIfReady() {
    if (this.#stream) return true;
    if (!moduleReady) return false;
    try {
      this.#stream = new binding.DocStream(this.#options());
      return true;
    } catch (e) {
      this.#error(e); // bad options
      return false;
    }
  }

  #drainWhenReady() {
    const generation = this.#generation;
    this.ready.then(
      () => {
        if (generation !== this.#generation) return;
        if (!this.#createStreamIfReady()) return;
        const queue = this.#queue;
        this.#queue = [];
        try {
          for (const item of queue) {
            if (item.finish) this.#finish();
            else this.#push(item.chunk);
          }
        } catch {
          // reported as docstream-error
        }
      },
      (e) => this.#error(e),
    );
  }

  #push(chunk) {
    if (!this.#stream && !this.#createStreamIfReady()) {
      throw Object.assign(new Error('docstream: the WebAssembly module is not initialised'), {
        code: 'DS_NOT_READY',
      });
    }
    let changed;
    try {
      changed = writeChunk(this.#stream, chunk);
    } catch (e) {
      this.#error(e);
      throw e;
    }
    if (!this.#busy && !this.#finished) {
      this.#setBusy(true);
      this.#announce('streaming');
    }
    if (changed) this.#scheduleFlush();
    this.#bytes += chunkLength(chunk);
    this.#emit('docstream-progress', { bytes: this.#bytes });
  }

  #finish() {
    if (!this.#stream && !this.#createStreamIfReady()) return;
    try {
      this.#stream.end();
    } catch (e) {
      this.#error(e);
      throw e;
    }
    this.flush();
    this.#foldLiveThinking();
    this.#renderDiagrams();
    this.#finished = true;
    this.#setBusy(false);
    const turns = this.#conversation.querySelectorAll(':scope > .ds-turn');
    const last = turns[turns.length - 1];
    this.#announce(last?.querySelector('.ds-response-error') ? 'failed' : 'done');
    // The snapshot is taken only when a listener reads it (seconds for a 50 MB file).
    const stream = this.#stream;
    let conversation;
    this.#emit('docstream-done', {
      get conversation() {
        return (conversation ??= stream.snapshot());
      },
    });
  }

  /** Tells the colorer what a patch changed (unless colouring is off). */
  #touch(el) {
    if (this.#colorer && this.getAttribute('highlight') !== 'off') this.#colorer.touched(el);
  }

  /** `thinking="live"` (default): a thinking document is open while it streams and
   * folds when the next document starts; `open`: thinking stays open; `closed`: folded. */
  #thinking(el) {
    const details = el.classList.contains('ds-thinking') ? el.querySelector('details.ds-thinking-body') : null;
    if (!details) {
      this.#foldLiveThinking();
      return;
    }
    const mode = this.getAttribute('thinking') ?? 'live';
    if (mode === 'open') details.open = true;
    else if (mode === 'live' && this.#busy) {
      const prev = this.#liveThinking;
      const id = el.getAttribute('data-doc-id');
      if (prev && prev.closest('.ds-doc')?.getAttribute('data-doc-id') === id) {
        // The same document rendered again: it keeps its state.
        details.open = prev.open;
        if (this.#toggledByReader.has(prev)) this.#toggledByReader.add(details);
      } else {
        this.#foldLiveThinking();
        details.open = true;
      }
      this.#liveThinking = details;
    }
  }

  #foldLiveThinking() {
    const details = this.#liveThinking;
    this.#liveThinking = null;
    if (details && !this.#toggledByReader.has(details)) details.open = false;
  }

  #decorateDocument(el) {
    this.#thinking(el);
    // A new document means the ones before it have ended.
    if (this.#diagrams) this.#renderDiagrams(el.classList.contains('ds-code-block') ? el : null);
    this.#touch(el);
    const type = documentType(el);
    el.setAttribute('part', type ? `document ${type}` : 'document');
    this.#decorateParts(el);
  }

  /** Part attributes, table tools and pressed states on what a patch added: `el`, or
   * with `first`, the children of `el` from `first` on. */
  #decorateParts(el, first = null) {
    this.#touch(el);
    const added = first ? siblingsFrom(first) : [el];
    this.#tableTools(added);
    this.#formulas(added);
    for (const b of within(added, '.ds-copy')) b.setAttribute('part', 'copy-button');
    for (const o of within(added, '.ds-option')) {
      o.setAttribute('part', 'option');
      const chosen = this.#choices.get(o.getAttribute('data-question-id'));
      if (chosen !== undefined) o.setAttribute('aria-pressed', String(chosen === o.getAttribute('data-option-id')));
    }
  }

  #onClick(e) {
    const target = e.target instanceof Element ? e.target : null;
    const summary = target?.closest('summary');
    if (summary?.parentElement) this.#toggledByReader.add(summary.parentElement);
    const copy = target?.closest('.ds-copy');
    if (copy && this.#root.contains(copy)) {
      this.#copy(copy);
      return;
    }
    const option = target?.closest('.ds-option');
    if (option && this.#root.contains(option)) {
      const questionId = option.getAttribute('data-question-id') ?? '';
      const optionId = option.getAttribute('data-option-id') ?? '';
      const doc = option.closest('.ds-doc');
      this.#choices.set(questionId, optionId);
      const question = option.closest('.ds-question') ?? doc;
      for (const o of question?.querySelectorAll('.ds-option') ?? []) {
        if (o.getAttribute('data-question-id') === questionId)
          o.setAttribute('aria-pressed', String(o === option));
      }
      this.#emit('docstream-choice', {
        questionId,
        optionId,
        documentId: doc?.getAttribute('data-doc-id') ?? '',
      });
    }
  }

  /** Copy controls before each finished Markdown table (TSV and Markdown) among `added`
   * elements. */
  #tableTools(added) {
    const labels = labelsOf(this.locale);
    for (const table of within(added, '[data-part="blocks"] table')) {
      if (table.previousElementSibling?.classList.contains('ds-table-tools')) continue;
      const tools = document.createElement('div');
      tools.className = 'ds-table-tools';
      tools.setAttribute('data-ds-ui', '');
      for (const [kind, text] of [
        ['tsv', labels.copyTsv],
        ['markdown', labels.copyMarkdown],
      ]) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'ds-copy ds-copy-table';
        b.setAttribute('data-copy', kind);
        b.setAttribute('part', 'copy-button');
        b.textContent = text;
        tools.append(b);
      }
      table.before(tools);
    }
  }

  #copy(button) {
    const doc = button.closest('.ds-doc');
    if (!doc) return;
    const kind = button.getAttribute('data-copy');
    const table = kind === 'tsv' || kind === 'markdown' ? button.parentElement?.nextElementSibling : null;
    // Line numbers are drawn by the stylesheet, so the text is exactly the code.
    const text = table
      ? (kind === 'tsv' ? tableAsTsv(table) : tableAsMarkdown(table))
      : kind === 'output'
        ? [...doc.querySelectorAll('.ds-output')].map((p) => p.textContent).join('')
        : kind === 'command'
          ? (doc.querySelector('.ds-command')?.textContent ?? '').replace(/^\$ /, '')
          : (doc.querySelector('.ds-code code')?.textContent ?? '');
    const proceed = this.#emit(
      'docstream-copy',
      { text, documentId: doc.getAttribute('data-doc-id') ?? '' },
      true,
    );
    if (!proceed) return;
    const done = () => {
      this.#announce('copied');
      button.setAttribute('data-ds-copied', '');
      setTimeout(() => button.removeAttribute('data-ds-copied'), 1500);
    };
    const clipboard = globalThis.navigator?.clipboard;
    if (!clipboard?.writeText) return;
    clipboard.writeText(text).then(done, (e) =>
      this.#emit('docstream-error', { code: 'DS_CLIPBOARD', message: String(e?.message ?? e) }),
    );
  }

  /** Pinned again at the bottom; unpinned only when the reader moved up (content that
   * grows never lowers scrollTop, and scroll events arrive a frame late). */
  #onScroll() {
    const top = this.scrollTop;
    const distance = this.scrollHeight - top - this.clientHeight;
    const user = this.#pointerDown || performance.now() - this.#userInputAt < USER_SCROLL_MS;
    if (distance <= PIN_SLACK) {
      this.#pinned = true;
      this.#showJump(false);
    } else if (user && top < this.#lastTop - 1) this.#pinned = false;
    this.#lastTop = top;
  }

  #showJump(show) {
    if (this.#jump.hidden !== show) return;
    // Labelled when it shows (the locale may have changed since).
    if (show) this.#jump.textContent = labelsOf(this.locale).jump;
    this.#jump.hidden = !show;
  }

  /** Scrolls to the bottom, remembered as where the reader is. */
  #toBottom() {
    this.scrollTop = this.scrollHeight;
    this.#lastTop = this.scrollTop;
  }

  /** Scrolls to the bottom and follows it again. */
  #jumpToLatest() {
    this.#pinned = true;
    this.#showJump(false);
    this.#toBottom();
    this.focus({ preventScroll: true });
  }

  #schedulePin() {
    if (!this.#pinned || this.#scrollFrame) return;
    this.#pinning = true;
    this.#scrollFrame = requestAnimationFrame(() => {
      this.#scrollFrame = 0;
      if (this.#pinned) this.#toBottom();
      // Until the next frame, a size change is still this update being laid out.
      requestAnimationFrame(() => {
        if (!this.#scrollFrame) this.#pinning = false;
      });
    });
  }

  /** New content laid out after the pin (documents far from view are laid out only
   * once they come into view, `content-visibility: auto`): the bottom moved, follow it. */
  #pinAfterLayout() {
    if (this.#pinning && this.#pinned && !this.#scrollFrame) this.#toBottom();
  }

  #setBusy(busy) {
    this.#busy = busy;
    this.#conversation.setAttribute('aria-busy', String(busy));
    if (this.#internals) this.#internals.ariaBusy = String(busy);
  }

  #announce(key) {
    this.#live.textContent = labelsOf(this.locale)[key];
  }

  /** Reports an error once as `docstream-error`. */
  #error(e, fallbackCode = 'DS_INTERNAL') {
    if (e && typeof e === 'object') {
      if (reported.has(e)) return;
      reported.add(e);
    }
    this.#emit('docstream-error', toError(e, fallbackCode));
  }

  #emit(type, detail, cancelable = false) {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  #abortLoad() {
    this.#loadController?.abort();
    this.#loadController = null;
  }

  async #loadSrc(src) {
    this.#abortLoad();
    this.#loadedSrc = src;
    const controller = new AbortController();
    this.#loadController = controller;
    try {
      const response = await fetch(new URL(src, document.baseURI), { signal: controller.signal });
      if (!response.ok || !response.body) {
        throw Object.assign(new Error(`docstream: ${src}: HTTP ${response.status}`), { code: 'DS_FETCH' });
      }
      await this.#read(response.body, controller.signal);
    } catch (e) {
      if (controller.signal.aborted) return;
      this.#error(e, 'DS_FETCH');
    } finally {
      if (this.#loadController === controller) this.#loadController = null;
    }
  }
}

/** `first` and its next siblings that are elements. */
function siblingsFrom(first) {
  const out = [];
  for (let n = first; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n);
  return out;
}

/** The elements among `roots` and their descendants that match `selector` (in context:
 * `[data-part="blocks"] table` matches a table appended into the blocks part). */
function* within(roots, selector) {
  for (const root of roots) {
    if (root.matches(selector)) yield root;
    yield* root.querySelectorAll(selector);
  }
}

/** A chunk in pieces of at most `STREAM_PIECE` bytes (text is pushed whole: cutting it
 * could split a surrogate pair). */
function* pieces(chunk) {
  const bytes =
    chunk instanceof ArrayBuffer
      ? new Uint8Array(chunk)
      : ArrayBuffer.isView(chunk) && !(chunk instanceof Uint8Array)
        ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : chunk;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength <= STREAM_PIECE) {
    yield chunk;
    return;
  }
  for (let at = 0; at < bytes.byteLength; at += STREAM_PIECE) yield bytes.subarray(at, at + STREAM_PIECE);
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Feeds a chunk to the stream without rendering; true when there is something to pull. */
function writeChunk(stream, chunk) {
  if (typeof chunk === 'string') return stream.writeText(chunk);
  if (chunk instanceof Uint8Array) return stream.write(chunk);
  if (chunk instanceof ArrayBuffer) return stream.write(new Uint8Array(chunk));
  if (ArrayBuffer.isView(chunk)) return stream.write(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  throw Object.assign(new Error('docstream: push() takes a Uint8Array, an ArrayBuffer or a string'), {
    code: 'DS_BAD_CHUNK',
  });
}

function decorateTurn(el) {
  el.setAttribute('part', el.classList.contains('ds-user') ? 'turn user-turn' : 'turn assistant-turn');
  el.firstElementChild?.setAttribute('part', 'turn-header');
}
