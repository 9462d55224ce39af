
// push() and finish(), appended to wasm-bindgen's glue (pkg/docstream.js, and so
// pkg/inline.js) by scripts/build-wasm.sh from src/wasm/push.js; their types are
// src/wasm/push.d.ts. The simple form of the API written on the fast one: a chunk
// crosses into WebAssembly once (`write`), and the patches come out as one string
// (`pull`), read into objects here, only when the chunk changed something (most chunks
// of a stream end no line and change nothing).
//
// write() and writeText() are redefined here too: a chunk of up to 64 KiB is copied
// into the stream's staging area in WebAssembly memory and read there
// (`__writeStaged`), where wasm-bindgen's own methods allocate a buffer for every chunk
// and return their result as an array. Larger chunks, other argument types and a freed
// stream go through wasm-bindgen's methods, which say what is wrong.
import { readPatches as docstreamReadPatches } from './wire.js';

const DOCSTREAM_STAGED_MAX = 64 * 1024;
const docstreamWriteCopied = DocStream.prototype.write;
const docstreamWriteTextCopied = DocStream.prototype.writeText;

/** The address of `stream`'s staging area, at least `len` bytes (at most the maximum). */
function docstreamStage(stream, len) {
  let cap = stream.__stagedCap ?? 0;
  if (len > cap) {
    cap = Math.min(Math.max(len, cap * 2, 1024), DOCSTREAM_STAGED_MAX);
    stream.__stagedAt = stream.__stage(cap);
    stream.__stagedCap = cap;
  }
  return stream.__stagedAt;
}

/** Writes `chunk` (bytes) through the staging area and returns what `__writeStaged`
 * returned, or -1 when the chunk is larger than the area may be or the stream was
 * freed (wasm-bindgen's method then takes it, and says what is wrong). */
function docstreamWriteBytes(stream, chunk) {
  const len = chunk.length;
  if (len > DOCSTREAM_STAGED_MAX || stream.__wbg_ptr === 0) return -1;
  // The area first: growing it may grow the memory, and so replace its view (the
  // common case, an area large enough, checked here without a call).
  const at = len <= stream.__stagedCap ? stream.__stagedAt : docstreamStage(stream, len);
  getUint8ArrayMemory0().set(chunk, at);
  return stream.__writeStaged(len);
}

/** `write()` of a chunk of bytes: staged when it fits, else wasm-bindgen's method. */
function docstreamWrite(stream, chunk) {
  const code = docstreamWriteBytes(stream, chunk);
  return code < 0 ? docstreamWriteCopied.call(stream, chunk) : docstreamWrote(stream, code);
}

/** What `__writeStaged` returned, as `write()` returns it. */
function docstreamWrote(stream, code) {
  if (code === 2) throw stream.__takeError();
  return code === 1;
}

Object.defineProperties(DocStream.prototype, {
  write: {
    configurable: true,
    writable: true,
    value: function write(chunk) {
      return chunk instanceof Uint8Array ? docstreamWrite(this, chunk) : docstreamWriteCopied.call(this, chunk);
    },
  },
  writeText: {
    configurable: true,
    writable: true,
    value: function writeText(chunk) {
      // UTF-8 takes at most three bytes per UTF-16 code unit.
      const max = typeof chunk === 'string' ? chunk.length * 3 : Infinity;
      if (max > DOCSTREAM_STAGED_MAX || this.__wbg_ptr === 0) return docstreamWriteTextCopied.call(this, chunk);
      const at = docstreamStage(this, max);
      const { written } = cachedTextEncoder.encodeInto(chunk, getUint8ArrayMemory0().subarray(at, at + max));
      return docstreamWrote(this, this.__writeStaged(written));
    },
  },
  push: {
    configurable: true,
    writable: true,
    value: function push(chunk) {
      let changed;
      // Bytes go to the staged write directly: push() is called per chunk, often of a
      // few bytes, and write() would check the chunk's type again.
      if (chunk instanceof Uint8Array) changed = docstreamWrite(this, chunk);
      else if (typeof chunk === 'string') changed = this.writeText(chunk);
      else if (chunk instanceof ArrayBuffer) changed = docstreamWrite(this, new Uint8Array(chunk));
      else {
        const error = new Error('push() takes a Uint8Array, an ArrayBuffer or a string');
        error.code = 'DS_BAD_CHUNK';
        throw error;
      }
      return changed ? docstreamReadPatches(this.pull()) : [];
    },
  },
  finish: {
    configurable: true,
    writable: true,
    value: function finish() {
      this.end();
      return docstreamReadPatches(this.pull());
    },
  },
});
