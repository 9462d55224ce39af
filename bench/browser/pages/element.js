// <docstream-view> from the built package, as a page uses it: push() per chunk as it
// arrives (the element applies the patches once per animation frame), finish(); or
// load() of the whole input.
import '/pkg/define.js';
// The element's own glue module (same URL, same instance): its init() hands back the
// initialised wasm exports, whose memory the driver measures.
import init from '/pkg/docstream.js';
import { expose } from './harness.js';

const view = document.getElementById('view');

expose({
  name: 'docstream-view',
  ready: view.ready,
  async reset() {
    await view.ready;
    view.clear();
  },
  push: (chunk) => view.push(chunk),
  end: () => view.finish(),
  load: (bytes) => view.load(bytes),
  // The documents the view holds, near the viewport or shelved (the windowing keeps far
  // ones out of the DOM, so counting `.ds-doc` elements would count the viewport).
  count: () => view.outline().turns.reduce((n, t) => n + t.documents.length, 0),
  async wasmBytes() {
    return (await init()).memory.buffer.byteLength;
  },
  /** Appends without finishing (the append run): push, apply now, lay out. */
  append(bytes) {
    const t0 = performance.now();
    view.push(bytes);
    view.flush();
    void view.scrollHeight; // style and layout now, inside the timed part
    return performance.now() - t0;
  },
  htmlLength: () => view.html().length,
});
