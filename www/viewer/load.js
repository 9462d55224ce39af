// Feeds a transcript into <docstream-view> in slices that give the page back between
// them, so a 50 MB file loads while the page stays scrollable and answers input.

/** Bytes read from a Blob at a time. */
const READ = 1 << 20;
/** Bytes pushed to the element at a time. */
const PUSH = 32 << 10;
/**
 * Work done before giving the page a turn, in milliseconds: RAIL's 50 ms slices. Each
 * turn lets the browser lay out and paint what arrived, which costs more as the
 * transcript grows; 16 ms slices made a 15 MB load take 16 s instead of 11 s.
 */
const BUDGET = 50;

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
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      keep.push(value);
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Pushes `chunks` into `view` (cleared first) and finishes it.
 * `onProgress(read)` is called as bytes go in; an aborted `signal` stops between
 * slices and rejects with its reason (what was read stays shown).
 */
export async function feed(view, chunks, { signal, onProgress }) {
  await view.ready; // the WebAssembly module; pushed chunks would queue until then
  view.clear();
  let read = 0;
  let sliceStart = performance.now();
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.byteLength; at += PUSH) {
      signal?.throwIfAborted();
      const piece = chunk.subarray(at, at + PUSH);
      view.push(piece);
      read += piece.byteLength;
      onProgress?.(read);
      if (performance.now() - sliceStart > BUDGET) {
        await yieldToPage();
        sliceStart = performance.now();
      }
    }
  }
  signal?.throwIfAborted();
  view.finish();
  return read;
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
