// docstream/stream: feed a DocStream from a ReadableStream or an (async) iterable and
// get the patches of each chunk, then those of finish().
//
//   import { patches } from 'docstream/stream';
//   for await (const batch of patches(stream, response.body, { signal })) apply(batch);
//
// This module does not import the wasm module: it works with `docstream` and with
// `docstream/inline` alike, on whatever DocStream it is given.

import { readChunks } from './chunks.js';

/**
 * Pushes every chunk of `source` into `stream` and yields the patches each push
 * returns, then the patches of `stream.finish()`.
 *
 * Stopping early (a `break` in `for await`, an error thrown by `push`, or `signal`
 * aborting) cancels the source and does not call `finish()`. An abort rejects with
 * `signal.reason`, also while waiting for the source's next chunk.
 *
 * @param {import('./docstream.js').DocStream} stream
 * @param {ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | ArrayBuffer | string> | Iterable<Uint8Array | ArrayBuffer | string>} source
 * @param {{ signal?: AbortSignal }} [opts]
 * @returns {AsyncGenerator<import('./docstream.js').Patch[], void, undefined>}
 */
export async function* patches(stream, source, opts = {}) {
  const { signal } = opts ?? {};
  signal?.throwIfAborted();
  const chunks = iterator(source);
  let aborted;
  let onAbort;
  if (signal) {
    aborted = new Promise((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // Observed by Promise.race below; never left unhandled.
    aborted.catch(() => {});
  }
  let exhausted = false;
  try {
    for (;;) {
      const next = chunks.next();
      const result = aborted ? await Promise.race([next, aborted]) : await next;
      if (result.done) {
        exhausted = true;
        break;
      }
      signal?.throwIfAborted();
      yield stream.push(result.value);
      signal?.throwIfAborted();
    }
    yield stream.finish();
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!exhausted && typeof chunks.return === 'function') {
      // Not awaited: a source stuck in a pending read must not hold up the caller.
      Promise.resolve()
        .then(() => chunks.return(signal?.reason))
        .catch(() => {});
    }
  }
}

/** An iterator over the chunks of `source`, whose return() cancels a ReadableStream. */
function iterator(source) {
  if (source && typeof source.getReader === 'function') return readChunks(source);
  if (source && typeof source[Symbol.asyncIterator] === 'function') {
    return source[Symbol.asyncIterator]();
  }
  if (source && typeof source !== 'string' && typeof source[Symbol.iterator] === 'function') {
    return source[Symbol.iterator]();
  }
  throw new TypeError('patches(): the source must be a ReadableStream or an (async) iterable of chunks');
}
