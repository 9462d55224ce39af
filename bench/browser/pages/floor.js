// The feeding alone, nothing rendered: what the harness itself costs the main thread
// (a task per chunk), the floor under every pipeline's figures.
import { expose } from './harness.js';

let n = 0;
expose({
  name: 'feeding only',
  ready: Promise.resolve(),
  reset() {
    n = 0;
  },
  push(chunk) {
    n += chunk.length;
  },
  end() {},
  load(bytes) {
    n += bytes.length;
  },
  count: () => 0,
});
