// The WebAssembly module behind every <docstream-view> on a page: initialised once,
// from the `.wasm` beside docstream.js, from what `DocstreamView.init()` was given, or
// from another build of the binding (`docstream/inline`).
import defaultInit, { DocStream as DefaultDocStream } from './docstream.js';

/** The binding the element uses: docstream.js, or a module given to init(). */
let binding = { init: defaultInit, DocStream: DefaultDocStream };
let initPromise = null;
let ready = false;

/** `DocstreamView.init(input)`: initialises the WebAssembly module once, or switches to
 * another build of the binding (a namespace with `DocStream` and `default`). */
export function initModule(input) {
  if (input && typeof input.DocStream === 'function' && typeof input.default === 'function') {
    if (binding.DocStream !== input.DocStream) {
      binding = { init: input.default, DocStream: input.DocStream };
      initPromise = null;
      ready = false;
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

/** Whether the module is initialised (streams can be created). */
export function moduleReady() {
  return ready;
}

/** A DocStream of the binding in use. */
export function newDocStream(options) {
  return new binding.DocStream(options);
}
