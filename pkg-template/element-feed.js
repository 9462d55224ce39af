// What feeds a <docstream-view>: its DocStream, chunks queued until the WebAssembly
// module is ready (element-wasm.js), the patches pulled once per animation frame, and
// the sources read into it (`stream()`, `load()`, the `src` attribute), a slice of work
// at a time.
import { readChunks } from './chunks.js';
import { exportStream, initModule, moduleReady, newDocStream } from './element-wasm.js';

/** Bytes pushed at a time by `stream()`, and the work (ms) done before it gives the page a
 * turn: RAIL's 50 ms slices, so a large file loads while the page answers input. */
const STREAM_PIECE = 32 << 10;
const STREAM_SLICE_MS = 50;

const reported = new WeakSet();

/**
 * One view's stream. `view` is the element's shadow root and its events (element-view.js);
 * `hooks.render(wire)` shows the patches pulled, `hooks.ended()` runs once a stream has
 * ended and its last patches are shown, `hooks.cleared()` empties what is shown.
 */
export class Feed {
  #view;
  #hooks;
  #stream = null;
  #ready = null;
  #queue = [];
  #finished = false;
  #bytes = 0;
  #loadController = null;
  #loadedSrc = null;
  /** Bumped on every reset: a read or a drain of an older one stops. */
  #generation = 0;
  #frame = 0;
  /** `DocStream`'s option `limits` for the next stream, or null for its defaults. */
  limits = null;
  /** `DocStream`'s option `prices` for the next stream, or null: costs only as stated. */
  prices = null;

  constructor(view, hooks) {
    this.#view = view;
    this.#hooks = hooks;
  }

  /** The `src` shown (or being loaded), or null. */
  get src() {
    return this.#loadedSrc;
  }

  /** Resolves once the WebAssembly module is ready. */
  get ready() {
    this.#ready ??= initModule().catch((e) => {
      this.#ready = null;
      throw e;
    });
    return this.#ready;
  }

  /** Reads a chunk, at once or, before the module is ready, queued. */
  push(chunk) {
    if (!this.#canApplyNow()) {
      this.#queue.push({ chunk });
      this.#drainWhenReady();
      return;
    }
    this.#push(chunk);
  }

  /** Ends the stream, at once or after the chunks queued. */
  finish() {
    if (!this.#canApplyNow()) {
      this.#queue.push({ finish: true });
      this.#drainWhenReady();
      return;
    }
    this.#finish();
  }

  /** Applies every patch read so far. */
  flush() {
    if (this.#frame) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
    }
    const wire = this.#stream?.pull();
    if (wire) this.#hooks.render(wire);
  }

  /** Shows a whole transcript (clears first). */
  async load(input) {
    this.#abortLoad();
    await this.ready;
    this.#reset();
    this.#push(input);
    await this.#finish();
  }

  /** Reads a ReadableStream or async iterable of chunks into the view (clears first). */
  stream(source, signal) {
    this.#abortLoad();
    return this.#read(source, signal);
  }

  /** Empties the view, stopping a `src` load. */
  clear() {
    this.#abortLoad();
    this.#loadedSrc = null;
    this.#reset();
  }

  /** The conversation's HTML as the renderer gives it. */
  html() {
    return this.#stream ? this.#stream.html() : '';
  }

  /** The conversation as GitHub-flavoured Markdown, or turn `turn` of it ('' before
   * anything was read). */
  markdown(turn) {
    return this.#stream ? this.#stream.markdown(turn) : '';
  }

  /** An export of the conversation (`request` as `DocstreamView.export()` takes it): a
   * promise of `{ text, masked }`; empty before anything was read. */
  exportOf(request) {
    return this.#stream ? exportStream(this.#stream, this.#options(), request) : Promise.resolve({ text: '', masked: {} });
  }

  /** The conversation as plain objects (an empty one before anything was read). */
  snapshot() {
    if (this.#stream || this.#createStreamIfReady()) return this.#stream.snapshot();
    return { turns: [], stats: { events: 0, unknownEvents: 0, badEvents: 0 } };
  }

  /** Off the page: the `src` load stops and the stream's wasm memory is freed; what is
   * shown stays. */
  disconnected() {
    this.#generation++; // a read under way stops without finishing
    this.#abortLoad();
    this.#loadedSrc = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#queue = [];
    this.#stream?.free();
    this.#stream = null;
    this.#finished = false;
    this.#view.setBusy(false);
  }

  /** Loads `src` (a URL, resolved against the document), streamed as it arrives. */
  async loadSrc(src) {
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

  #options() {
    const host = this.#view.host;
    const options = { format: host.format, locale: host.locale };
    const allow = host.allowImages.split(/\s+/).filter(Boolean);
    if (allow.length) options.images = { allow };
    if (this.limits) options.limits = this.limits;
    if (this.prices) options.prices = this.prices;
    return options;
  }

  /** Nothing queued and the module ready: a call applies at once. */
  #canApplyNow() {
    return this.#queue.length === 0 && this.#createStreamIfReady();
  }

  #createStreamIfReady() {
    if (this.#stream) return true;
    if (!moduleReady()) return false;
    try {
      this.#stream = newDocStream(this.#options(), () => this.#scheduleFlush());
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
    const view = this.#view;
    if (!view.busy && !this.#finished) {
      view.setBusy(true);
      view.announce('streaming');
    }
    if (changed) this.#scheduleFlush();
    this.#bytes += chunkLength(chunk);
    view.emit('docstream-progress', { bytes: this.#bytes });
  }

  /** Ends the stream; a promise when its end waits for the full module (element-wasm.js). */
  #finish() {
    if (!this.#stream && !this.#createStreamIfReady()) return undefined;
    let later;
    try {
      later = this.#stream.end();
    } catch (e) {
      this.#error(e);
      throw e;
    }
    if (later) {
      // The stream's format is read by the full module, which is loading (element-wasm.js).
      // A promise: load(), stream() and src resolve once it has ended.
      const generation = this.#generation;
      this.#finished = true;
      return later.then(() => {
        if (generation === this.#generation) this.#ended();
      });
    }
    this.#ended();
    return undefined;
  }

  /** Shows the last patches of an ended stream and says it ended. */
  #ended() {
    this.flush();
    this.#hooks.ended();
    this.#finished = true;
    const view = this.#view;
    view.setBusy(false);
    const turns = view.conversation.querySelectorAll(':scope > .ds-turn');
    const last = turns[turns.length - 1];
    view.announce(last?.querySelector('.ds-response-error') ? 'failed' : 'done');
    // The snapshot is taken only when a listener reads it (seconds for a 50 MB file).
    const stream = this.#stream;
    let conversation;
    view.emit('docstream-done', {
      get conversation() {
        return (conversation ??= stream.snapshot());
      },
    });
  }

  #scheduleFlush() {
    if (!this.#frame) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.flush();
      });
    }
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
    await this.#finish();
  }

  /** A fresh stream with the current attributes, nothing shown. */
  #reset() {
    this.#generation++;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#queue = [];
    this.#stream?.free();
    this.#stream = null;
    this.#finished = false;
    this.#bytes = 0;
    this.#view.setBusy(false);
    this.#hooks.cleared();
    if (moduleReady()) this.#createStreamIfReady();
  }

  #abortLoad() {
    this.#loadController?.abort();
    this.#loadController = null;
  }

  /** Reports an error once as `docstream-error`. */
  #error(e, fallbackCode = 'DS_INTERNAL') {
    if (e && typeof e === 'object') {
      if (reported.has(e)) return;
      reported.add(e);
    }
    this.#view.emit('docstream-error', { code: e?.code ?? fallbackCode, message: String(e?.message ?? e) });
  }
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
