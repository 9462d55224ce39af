// Reading a ReadableStream chunk by chunk, written once for every reader of a stream:
// `<docstream-view>.stream()`, `docstream/stream`'s `patches()` and the viewer's loader.

/**
 * The chunks of `readable` as an async iterator (usable in `for await`). The stream's
 * lock is released when it ends or fails. `signal` aborting cancels the stream with the
 * signal's reason, also while a read waits (that read then ends the iteration).
 * `return(reason)`, which a `break` in `for await` calls, stops reading: the stream is
 * cancelled with `reason` (ending a read still under way), or with `cancel: false` only
 * its lock is released, the stream left to whoever reads it next.
 *
 * @param {ReadableStream} readable
 * @param {{ signal?: AbortSignal, cancel?: boolean }} [options]
 * @returns {AsyncIterableIterator<any>}
 */
export function readChunks(readable, { signal, cancel = true } = {}) {
  const reader = readable.getReader();
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let open = true;
  /** No more reads: the abort no longer cancels; `release` lets go of the lock. */
  const close = (release) => {
    open = false;
    signal?.removeEventListener('abort', onAbort);
    if (release) reader.releaseLock();
  };
  return {
    async next() {
      if (!open) return { done: true, value: undefined };
      let result;
      try {
        result = await reader.read();
      } catch (e) {
        close(true);
        throw e;
      }
      if (result.done) close(true);
      return result;
    },
    async return(reason) {
      if (open) {
        close(!cancel);
        if (cancel) await reader.cancel(reason);
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
