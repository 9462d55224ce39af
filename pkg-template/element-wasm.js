// The WebAssembly modules behind every <docstream-view> on a page. By default two: the
// default module (docstream-lite.js, docstream-lite_bg.wasm), which reads the default
// formats and detects every other, loaded at start; and the full module (docstream.js,
// docstream_bg.wasm, every format), loaded only when a stream turns out to be in a
// format the default one leaves out. Such a stream is replayed into the full module from
// its first byte, chunk by chunk as it was pushed, so it gives exactly the state and
// patches the full module gives alone. `DocstreamView.init(input)` given a module, its
// URL or bytes, or another build of the binding (`docstream/inline`) uses that one
// module for every format.
import liteInit, { DocStream as LiteDocStream } from './docstream-lite.js';

/** How the element's streams are made: `split` (the default module, and the full one
 * when a stream needs it), or one binding (`init`, `DocStream`) for every format. */
let binding = { split: true, init: liteInit };
let initPromise = null;
let ready = false;
/** What the full module is initialised from (`undefined`: beside docstream.js). */
let fullInput;
/** The full module's `DocStream` class, once asked for (a promise). */
let fullPromise = null;

/** `DocstreamView.init(input)`: initialises the WebAssembly module once, or switches to
 * another build of the binding (a namespace with `DocStream` and `default`). `input` is
 * for the full module (docstream_bg.wasm: its URL, bytes, a `Response` or a compiled
 * module), which then reads every stream; `{ lite, full }` gives both modules of the
 * default pair (each as init() takes it). */
export function initModule(input) {
  if (input && typeof input.DocStream === 'function' && typeof input.default === 'function') {
    if (binding.DocStream !== input.DocStream) {
      binding = { split: false, init: input.default, DocStream: input.DocStream, module: input };
      initPromise = null;
      ready = false;
    }
    input = undefined;
  } else if (!initPromise && input && typeof input === 'object' && ('lite' in input || 'full' in input)) {
    binding = { split: true, init: liteInit };
    fullInput = input.full;
    input = input.lite;
  } else if (!initPromise && input !== undefined) {
    binding = { split: false, init: loadFull, DocStream: null };
  }
  if (!initPromise) {
    const current = binding;
    const arg =
      input === undefined || (input && typeof input === 'object' && 'module_or_path' in input)
        ? input
        : { module_or_path: input };
    initPromise = current.init(arg).then(
      (wasm) => {
        current.DocStream ??= fullClass;
        ready = true;
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

/** The full module's `DocStream`, once loaded. */
let fullClass = null;
/** The full module (its exports), once loaded. */
let fullModule = null;

/** Loads and initialises the full module once (`arg` as its init() takes it). */
function loadFull(arg = fullInput === undefined ? undefined : { module_or_path: fullInput }) {
  fullPromise ??= import('./docstream.js').then(async (m) => {
    await m.default(arg);
    fullClass = m.DocStream;
    fullModule = m;
    return m.DocStream;
  });
  fullPromise.catch(() => {
    fullPromise = null; // the next stream tries again
  });
  return fullPromise;
}

/** The masking module (redact_bg.wasm: the regex crate and the rules), once loaded. */
let redactPromise = null;

/** Loads the masking module once, or throws an `Error` with code `DS_WASM`. */
function loadRedact() {
  redactPromise ??= import('./redact.js').then(async (m) => {
    await m.default();
    return m;
  });
  redactPromise.catch(() => {
    redactPromise = null; // the next export tries again
  });
  return redactPromise.catch((e) => {
    const error = new Error(
      `docstream: masking secrets needs redact_bg.wasm, which did not load (${String(e?.message ?? e)}). ${WASM_FIX}`,
      { cause: e },
    );
    error.code = 'DS_WASM';
    throw error;
  });
}

/** Loads the full module for `what` (the Markdown, an export), or throws an `Error` with
 * code `DS_WASM` that says what needs it. */
async function loadFullFor(what) {
  try {
    await loadFull();
  } catch (e) {
    const error = new Error(
      `docstream: ${what} comes from the full module, docstream_bg.wasm, which did not load ` +
        `(${String(e?.message ?? e)}). ${WASM_FIX}`,
      { cause: e },
    );
    error.code = 'DS_WASM';
    throw error;
  }
}

/** The WebAssembly module did not load: an `Error` with code `DS_WASM` that names the
 * fixes (a bundler that does not copy files named by `new URL(…, import.meta.url)`,
 * esbuild for one, leaves the `.wasm` files behind). */
function wasmError(cause) {
  const e = new Error(
    `docstream: the WebAssembly module did not load (${String(cause?.message ?? cause)}). ` + WASM_FIX,
    { cause },
  );
  e.code = 'DS_WASM';
  return e;
}

const WASM_FIX =
  'If a bundler built this page, it may have left docstream-lite_bg.wasm and docstream_bg.wasm behind: serve ' +
  'docstream_bg.wasm and call DocstreamView.init(its URL) before use, pass its bytes to DocstreamView.init(bytes), ' +
  "or use the inline build: DocstreamView.init(await import('docstream/inline')).";

/** Whether the module is initialised (streams can be created). */
export function moduleReady() {
  return ready;
}

/** A DocStream of the binding in use. `changed()` is called when a stream has something
 * new to pull without a write (after the full module took it over). */
export function newDocStream(options, changed) {
  return binding.split ? new SplitStream(options, changed) : new binding.DocStream(options);
}

/**
 * The conversation `stream` holds as Markdown, a page or JSON (`request`: `{ as, turn,
 * title, redact }`; `options` the stream's), its secrets masked when asked by the masking
 * module (redact_bg.wasm, loaded once): a promise of `{ text, masked }`, `masked` each
 * kind's count. Markdown and pages come from the full module (the binding in use when it
 * is a full one, else docstream_bg.wasm, loaded once), given the stream's snapshot.
 */
export async function exportStream(stream, options, { as, turn, title, redact }) {
  await stream.settled?.(); // a hand-over to the full module under way
  // Taken now: what the stream holds when asked, not after the loads.
  let snapshot = stream.__snapshotJson();
  let counts = [];
  if (redact) {
    const r = await loadRedact();
    ({ snapshot, title, masked: counts } = r.maskSnapshot(snapshot, title));
  }
  const masked = Object.fromEntries(counts);
  if (as === 'json') return { text: snapshot, masked };
  if (as !== 'markdown' && as !== 'html') {
    throw new TypeError(`docstream: export as ${JSON.stringify(as)}: use markdown, html or json`);
  }
  let full = binding.module;
  if (typeof full?.__markdownOf !== 'function') {
    await loadFullFor(as === 'html' ? 'the page' : 'the Markdown');
    full = fullModule;
  }
  if (as === 'html') return { text: full.__pageOf(snapshot, options, title, redact ? counts : undefined), masked };
  return { text: full.__markdownOf(snapshot, options, turn), masked };
}

/** At most this many bytes (twice the limit of one event) are held while the format is
 * not yet known; past it the stream goes to the full module, which reads every format. */
const DEFAULT_MAX_EVENT_BYTES = 16 << 20;

/** `DocStream.__detection`: the format is still being detected; the default module reads
 * the stream (or no format will); the stream is in a format it leaves out. */
const DETECTING = 0;
const MISSING = 2;

/**
 * A stream on the default module that hands itself to the full module when its format
 * is one the default module leaves out: every chunk is held (as pushed) until the format
 * is known, and nothing is pulled from the default module before then, so a stream
 * replayed into the full module gives exactly what the full module gives alone. The
 * methods the element uses, with `end()` returning a promise while the full module loads
 * and `markdown()` always one (the default module has no Markdown export, nor `text()`,
 * `diffView()` or `planView()`, which the element does not use).
 */
class SplitStream {
  #options;
  #changed;
  #stream;
  /** The stream is the full module's. */
  #full = false;
  /** Chunks since the start, `[chunk, isText]`, while the format is not yet known. */
  #held = [];
  #heldBytes = 0;
  #maxHeld;
  /** Something was read while held. */
  #unpulled = false;
  #ended = false;
  /** The full module's load, while it is under way. */
  #pending = null;
  /** The full module did not load: the stream ended with an error document. */
  #failed = false;

  constructor(options, changed) {
    this.#options = options;
    this.#changed = changed;
    this.#stream = new LiteDocStream(options); // throws for bad options
    const max = Number(options?.limits?.maxEventBytes);
    this.#maxHeld = 2 * Math.max(DEFAULT_MAX_EVENT_BYTES, Number.isFinite(max) ? max : 0);
    // A format named that the default module leaves out, or prices (it has no price
    // code): the full module reads the stream from its first byte.
    if (this.#stream.__detection === MISSING || options?.prices) this.#handOver();
  }

  write(chunk) {
    return this.#write(chunk, false);
  }

  writeText(chunk) {
    return this.#write(chunk, true);
  }

  #write(chunk, text) {
    if (this.#full) return text ? this.#stream.writeText(chunk) : this.#stream.write(chunk);
    if (this.#ended) throw finished();
    if (this.#failed) return false;
    if (this.#pending) {
      this.#hold(chunk, text);
      return false;
    }
    const changed = text ? this.#stream.writeText(chunk) : this.#stream.write(chunk);
    if (!this.#held) return changed;
    this.#hold(chunk, text);
    this.#unpulled ||= changed;
    const detection = this.#stream.__detection;
    if (detection === DETECTING) {
      if (this.#heldBytes > this.#maxHeld) this.#handOver();
      return false;
    }
    if (detection === MISSING) {
      this.#handOver();
      return false;
    }
    this.#held = null; // the default module reads it: its patches from now on
    return this.#unpulled;
  }

  #hold(chunk, text) {
    // A chunk's bytes may be reused by its source once written: kept as a copy.
    this.#held.push([text ? chunk : chunk.slice(), text]);
    this.#heldBytes += text ? chunk.length : chunk.byteLength;
  }

  /** Ends the stream; a promise when the full module is (or, at the end, turns out to
   * be) needed and loading. */
  end() {
    if (this.#full) return this.#stream.end();
    if (this.#ended) throw finished();
    this.#ended = true;
    if (this.#failed) return undefined;
    if (this.#pending) return this.#pending;
    this.#stream.end();
    if (this.#held && this.#stream.__detection === MISSING) return this.#handOver();
    this.#held = null;
    return undefined;
  }

  /** Loads the full module and replays the held chunks into a stream of it; if it does
   * not load, the stream ends with an error document naming the format and the fix. */
  #handOver() {
    const format = this.#stream.__missingFormat;
    this.#pending = loadFull().then(
      (FullDocStream) => {
        if (!this.#held) return; // freed
        const full = new FullDocStream(this.#options);
        replay(full, this.#held);
        if (this.#ended) full.end();
        this.#stream.free();
        this.#stream = full;
        this.#full = true;
      },
      (e) => {
        if (!this.#held) return;
        // The same bytes read again by the default module, ended with the reason.
        const lite = new LiteDocStream(this.#options);
        replay(lite, this.#held);
        if (format) {
          lite.__endMissing(
            `docstream reads it with its full module, docstream_bg.wasm, which did not load ` +
              `(${String(e?.message ?? e)}). ${WASM_FIX}`,
          );
          this.#failed = true;
        } else if (this.#ended) {
          lite.end();
        }
        this.#stream.free();
        this.#stream = lite;
      },
    );
    return (this.#pending = this.#pending.then(() => {
      if (!this.#held) return;
      this.#held = null;
      this.#pending = null;
      this.#changed?.();
    }));
  }

  pull() {
    return this.#pending || this.#held ? '' : this.#stream.pull();
  }

  html() {
    return this.#stream.html();
  }

  snapshot() {
    return this.#stream.snapshot();
  }

  /** The Markdown of the conversation, or of turn `turn`: a promise. The default module
   * leaves the Markdown export out (issue 36), so a stream it reads asks the full
   * module, loaded once (as for a stream in another format), for the Markdown of its
   * snapshot; it rejects with an `Error` with code `DS_WASM` when that does not load. */
  /** Resolves once no hand-over to the full module is under way. */
  async settled() {
    while (this.#pending) await this.#pending;
  }

  /** The stream's snapshot as JSON (for the full module and the masking one). */
  __snapshotJson() {
    return this.#stream.__snapshotJson();
  }

  async markdown(turn) {
    while (this.#pending) await this.#pending; // a hand-over under way
    if (this.#full) return this.#stream.markdown(turn);
    // Taken now: what the stream holds when asked, not after the load.
    const snapshot = this.#stream.__snapshotJson();
    await loadFullFor('the Markdown');
    return fullModule.__markdownOf(snapshot, this.#options, turn);
  }

  get format() {
    return this.#stream.format;
  }

  free() {
    this.#held = null;
    this.#stream.free();
  }
}

/** Writes held chunks into `stream` as they were first written. */
function replay(stream, held) {
  for (const [chunk, text] of held) {
    if (text) stream.writeText(chunk);
    else stream.write(chunk);
  }
}

function finished() {
  return Object.assign(new Error('the stream is finished; create a new one'), { code: 'DS_FINISHED' });
}
