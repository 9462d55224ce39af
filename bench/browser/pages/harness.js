// The in-page half of a measured run, shared by every pipeline's page: the input fed
// the way a network stream feeds a page (every 64-byte chunk in a task of its own, as
// fast as the page takes them, or paced at a byte rate), the end, two frames for the
// last render, and what the page saw meanwhile (window.__bench, from ../probe.js).
//
// A page sets `window.__pipeline = { ready, reset(), push(bytes), end(), load(bytes),
// count(), wasmBytes?() }` and calls `expose(pipeline)`.

/** A mark in the trace every this many bytes fed (`bench-fed-<bytes>`): the driver reads
 * the main thread's CPU time at each, to compare pipelines on the same bytes when one
 * stopped at the cap. */
const MARK_EVERY = 64 << 10;
const markFed = (before, after) => {
  if (Math.floor(after / MARK_EVERY) > Math.floor(before / MARK_EVERY)) performance.mark(`bench-fed-${after}`);
};

/** Every chunk in a task of its own (a MessageChannel message), the next one posted
 * when the page is done with the last; stops at `deadline`. */
export function feedFast(bytes, chunk, push, deadline) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    let off = 0;
    channel.port1.onmessage = () => {
      try {
        if (off >= bytes.length || performance.now() > deadline) {
          channel.port1.close();
          resolve({ fed: Math.min(off, bytes.length), overCap: off < bytes.length });
          return;
        }
        push(bytes.subarray(off, off + chunk));
        markFed(off, (off = Math.min(off + chunk, bytes.length)));
        channel.port2.postMessage(0);
      } catch (e) {
        channel.port1.close();
        reject(e);
      }
    };
    channel.port2.postMessage(0);
  });
}

/** `rate` bytes a second: every 4 ms (a timer), the chunks due by then, each pushed on
 * its own; stops at `deadline`. Resolves with how late the last chunk went in. */
export function feedPaced(bytes, chunk, rate, push, deadline) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let off = 0;
    const tick = () => {
      try {
        const now = performance.now();
        if (now > deadline) {
          resolve({ fed: off, overCap: true });
          return;
        }
        const due = Math.min(bytes.length, Math.ceil(((now - t0) / 1000) * rate / chunk) * chunk);
        const from = off;
        for (; off < due; off += chunk) push(bytes.subarray(off, off + chunk));
        off = Math.min(off, bytes.length);
        markFed(from, off);
        if (off >= bytes.length) {
          resolve({ fed: bytes.length, overCap: false, lateMs: performance.now() - t0 - (bytes.length / rate) * 1000 });
          return;
        }
        setTimeout(tick, 4);
      } catch (e) {
        reject(e);
      }
    };
    setTimeout(tick, 4);
  });
}

/** Keeps a scroll box at its bottom as content arrives, once a frame (what a chat page
 * does; <docstream-view> does it by itself). */
export function stickToBottom(box) {
  let last = -1;
  const frame = () => {
    if (box.scrollHeight !== last) {
      last = box.scrollHeight;
      box.scrollTop = last;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * Waits until the page is done with what it was fed: two frames, then until the DOM
 * (shadow roots included) stops changing over three idle periods in a row (colouring
 * code, say, comes after the last chunk). At most `maxMs`.
 */
export async function settle(maxMs = 10_000) {
  const b = window.__bench;
  const until = performance.now() + maxMs;
  await b.afterFrames(2);
  let last = b.countElements();
  for (let still = 0; still < 3 && performance.now() < until;) {
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 250 }));
    await b.afterFrames(1);
    const n = b.countElements();
    if (n === last) still++;
    else {
      still = 0;
      last = n;
    }
  }
}

/** The input, fetched once (not timed). */
async function input(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * One measured run: `mode` is 'fast' (64 B chunks as fast as the page takes them),
 * 'paced' (at `rate` bytes/s) or 'load' (the pipeline's one-shot load of the bytes).
 */
async function run(pipeline, { url, mode, chunk = 64, rate = 50_000, capMs = 180_000 }) {
  const b = window.__bench;
  const bytes = await input(url);
  await pipeline.reset();
  await b.afterFrames(3);
  const deadline = performance.now() + capMs;
  b.watchFirstDoc();
  b.startFrames();
  performance.mark('bench-start');
  const t0 = performance.now();
  let fed;
  if (mode === 'load') {
    await pipeline.load(bytes);
    fed = { fed: bytes.length, overCap: false };
  } else if (mode === 'paced') {
    fed = await feedPaced(bytes, chunk, rate, pipeline.push, deadline);
  } else {
    fed = await feedFast(bytes, chunk, pipeline.push, deadline);
  }
  if (!fed.overCap && mode !== 'load') await pipeline.end();
  const tFed = performance.now();
  if (!fed.overCap) await settle(capMs);
  const t1 = performance.now();
  performance.mark('bench-end');
  return {
    bytes: bytes.length,
    ...fed,
    wallMs: t1 - t0,
    feedMs: tFed - t0,
    firstDocMs: b.firstDocAt == null ? null : b.firstDocAt - t0,
    longTasks: b.longTasksIn(t0, t1),
    frames: b.stopFrames(),
    docs: pipeline.count(),
  };
}

/** Puts the pipeline and `run` on window for the driver (bench/browser.mjs). */
export function expose(pipeline) {
  window.__pipeline = pipeline;
  window.__run = (opts) => run(pipeline, opts);
}
