// Injected into every page the browser benchmark opens, before the page's own scripts
// (Playwright's addInitScript): long tasks from the start, a probe for the first
// document on screen, a frame recorder and a DOM count. A classic script, so that it
// also runs in pages the benchmark does not own (the viewer, whose CSP allows only its
// own scripts: injected scripts are not subject to it). Everything is on
// `window.__bench`; times are performance.now() milliseconds.
(() => {
  if (window.__bench) return;
  const bench = {
    /** [startTime, duration] of every long task (≥ 50 ms) since the page started. */
    longTasks: [],
    /** When the first document was seen in a frame (null until then). */
    firstDocAt: null,
    /** Frame recorder state. */
    frames: null,
  };
  window.__bench = bench;

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.longTasks = null; // not supported: reported as unknown
  }

  /** A rendered document: the peers mark theirs `.bench-doc`; docstream's are `.ds-doc`
   * in the shadow root of a <docstream-view>. */
  function hasDoc() {
    if (document.querySelector('.bench-doc')) return true;
    for (const v of document.querySelectorAll('docstream-view')) {
      if (v.shadowRoot?.querySelector('.ds-doc')) return true;
    }
    return false;
  }

  /** Watches every frame until a document is there; `firstDocAt` is that frame's time
   * (the frame that paints it). Called at document start (for cold starts) and again by
   * each run. */
  bench.watchFirstDoc = () => {
    bench.firstDocAt = null;
    const generation = (bench.docWatch = (bench.docWatch ?? 0) + 1);
    const look = () => {
      if (generation !== bench.docWatch) return;
      if (document.documentElement && hasDoc()) {
        bench.firstDocAt = performance.now();
        return;
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  };
  bench.watchFirstDoc();

  /** Records the interval between consecutive frames until `stopFrames()`. */
  bench.startFrames = () => {
    const rec = { intervals: [], last: 0, on: true };
    bench.frames = rec;
    const tick = (t) => {
      if (!rec.on) return;
      if (rec.last) rec.intervals.push(t - rec.last);
      rec.last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  /** Stops the recorder: { frames, max, p99, over50 } (ms). */
  bench.stopFrames = () => {
    const rec = bench.frames;
    if (!rec) return null;
    rec.on = false;
    const s = Float64Array.from(rec.intervals).sort();
    return {
      frames: s.length,
      max: s.length ? s[s.length - 1] : null,
      p99: s.length ? s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] : null,
      over50: s.filter((x) => x > 50).length,
    };
  };

  /** Long tasks that started in [t0, t1]: { count, max, total } (null when unsupported). */
  bench.longTasksIn = (t0, t1 = Infinity) => {
    if (!bench.longTasks) return null;
    const mine = bench.longTasks.filter(([s]) => s >= t0 - 1 && s <= t1);
    return {
      count: mine.length,
      over100: mine.filter(([, d]) => d > 100).length,
      max: mine.reduce((m, [, d]) => Math.max(m, d), 0),
      total: mine.reduce((m, [, d]) => m + d, 0),
    };
  };

  /** Elements in the document and in every open shadow root (querySelectorAll('*')). */
  bench.countElements = (root = document) => {
    const all = root.querySelectorAll('*');
    let n = all.length;
    for (const el of all) if (el.shadowRoot) n += bench.countElements(el.shadowRoot);
    return n;
  };

  /** Resolves after `n` frames. */
  bench.afterFrames = (n = 2) =>
    new Promise((resolve) => {
      const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
})();
