// Opens what the viewer shows: a file, pasted text or a URL, as chunks for
// <docstream-view>'s `stream()`, which loads them in slices that give the page back
// between them, so a 50 MB file loads while the page stays scrollable.

import { readChunks } from '../../pkg/chunks.js';

/** Bytes read from a Blob at a time (the element pushes them in smaller pieces). */
const READ = 1 << 20;

/**
 * Resolves on a later task, after the browser had a chance to handle input and paint.
 * A plain task (a MessageChannel message), not `scheduler.yield()`: a yielded
 * continuation runs before the page's other tasks, so those would starve while a large
 * file loads; nor `setTimeout(0)`, which is clamped to 4 ms when chained.
 */
export function yieldToPage() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}

/** Chunks of a Blob (a File, or text the viewer holds as a Blob). */
async function* blobChunks(blob) {
  for (let at = 0; at < blob.size; at += READ) {
    yield new Uint8Array(await blob.slice(at, at + READ).arrayBuffer());
  }
}

/** Chunks of a fetch Response body; `keep` collects them for replay. */
async function* bodyChunks(response, keep) {
  for await (const value of readChunks(response.body, { cancel: false })) {
    keep.push(value);
    yield value;
  }
}

/**
 * Opens a source: a Blob/File, `{ text }`, `{ url }` or `{ follow }` (a
 * FileSystemFileHandle of a file still being written: its chunks go on as it grows,
 * until `signal` aborts; `replaced(why)` is called when it shrinks or its start
 * changes). Returns `{ name, total, chunks, blob(), following }`: `total` is the byte
 * count when known, `blob()` gives the whole input afterwards (for replay and for
 * telling formats apart).
 */
export async function openSource(source, { signal, replaced } = {}) {
  if (source.follow) {
    const kept = [];
    const { name } = await source.follow.getFile();
    return {
      name,
      following: true,
      chunks: followChunks(source.follow, kept, { signal, replaced }),
      blob: () => new Blob(kept),
    };
  }
  if (typeof source.text === 'string') {
    const blob = new Blob([source.text]);
    return { name: source.name ?? 'pasted text', total: blob.size, chunks: blobChunks(blob), blob: () => blob };
  }
  if (source instanceof Blob) {
    return { name: source.name || 'file', total: source.size, chunks: blobChunks(source), blob: () => source };
  }
  const url = new URL(source.url, location.href);
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get('content-length'));
  const encoded = response.headers.get('content-encoding');
  const kept = [];
  return {
    name: decodeURIComponent(url.pathname.split('/').pop() || url.host),
    // A compressed body's length is not the length of the bytes read.
    total: length > 0 && !encoded ? length : undefined,
    chunks: bodyChunks(response, kept),
    blob: () => new Blob(kept),
  };
}

/** How often a followed file is looked at, in ms. */
const FOLLOW_POLL = 250;
/** Bytes of a followed file's start compared at each look: other bytes there mean the
 * file was replaced (rotated), even by a longer one. */
const HEAD = 256;

/** Resolves after `ms`, or rejects when `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const done = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const sameBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Chunks of a file still being written (a FileSystemFileHandle): what it holds, then
 * what is appended, looked at every FOLLOW_POLL ms until `signal` aborts. A file that
 * shrank or whose start changed calls `replaced(why)` and ends.
 */
async function* followChunks(handle, keep, { signal, replaced }) {
  let at = 0;
  let head = null;
  for (;;) {
    const file = await handle.getFile();
    if (file.size < at) return replaced('was truncated');
    if (head && file.size > at) {
      const now = new Uint8Array(await file.slice(0, head.length).arrayBuffer());
      if (!sameBytes(now, head)) return replaced('was replaced');
    }
    if (file.size > at) {
      for await (const chunk of blobChunks(file.slice(at))) {
        keep.push(chunk);
        yield chunk;
      }
      if (!head) head = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
      at = file.size;
      continue;
    }
    await pause(FOLLOW_POLL, signal);
  }
}

/** "12.3 MB" */
export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
