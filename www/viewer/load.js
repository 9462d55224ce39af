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
 * Opens a source: a Blob/File, `{ text }` or `{ url }`. Returns
 * `{ name, total, chunks, blob() }`: `total` is the byte count when known, `blob()`
 * gives the whole input afterwards (for replay and for telling formats apart).
 */
export async function openSource(source, { signal } = {}) {
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

/** "12.3 MB" */
export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
