import type { DocStream, Patch } from "./docstream.js";

/** A chunk as `DocStream.push` takes it. */
export type Chunk = Uint8Array | ArrayBuffer | string;

/**
 * Pushes every chunk of `source` into `stream` and yields the patches each push
 * returns, then the patches of `stream.finish()`.
 *
 * Stopping early (a `break` in `for await`, an error thrown by `push`, or `signal`
 * aborting) cancels the source and does not call `finish()`. An abort rejects with
 * `signal.reason`, also while waiting for the source's next chunk.
 */
export function patches(
  stream: DocStream,
  source: ReadableStream<Chunk> | AsyncIterable<Chunk> | Iterable<Chunk>,
  opts?: { signal?: AbortSignal },
): AsyncGenerator<Patch[], void, undefined>;
