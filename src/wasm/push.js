
// push() and finish(), appended to wasm-bindgen's glue (pkg/docstream.js, and so
// pkg/inline.js) by scripts/build-wasm.sh from src/wasm/push.js; their types are
// src/wasm/push.d.ts. The simple form of the API written on the fast one: a chunk
// crosses into WebAssembly once (`write`), and the patches come out as one string
// (`pull`), read into objects here, only when the chunk changed something (most chunks
// of a stream end no line and change nothing).
import { readPatches as docstreamReadPatches } from './wire.js';

Object.defineProperties(DocStream.prototype, {
  push: {
    configurable: true,
    writable: true,
    value: function push(chunk) {
      let changed;
      if (chunk instanceof Uint8Array) changed = this.write(chunk);
      else if (typeof chunk === 'string') changed = this.writeText(chunk);
      else if (chunk instanceof ArrayBuffer) changed = this.write(new Uint8Array(chunk));
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
