// The demo: streams a bundled transcript into <docstream-view> at a chosen chunk size
// and speed. Served by `node scripts/serve.mjs` from the repository root.
import '../../pkg/define.js';

const view = document.getElementById('view');
const form = document.getElementById('controls');
const stop = document.getElementById('stop');
const status = document.getElementById('status');
let controller = null;

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

/** A ReadableStream giving `bytes` in chunks of `size`, one every `delay` ms. */
function chunked(bytes, size, delay, signal) {
  let at = 0;
  return new ReadableStream({
    async pull(c) {
      if (at >= bytes.length) {
        c.close();
        return;
      }
      if (delay > 0) await sleep(delay, signal);
      c.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

function apply() {
  const data = new FormData(form);
  view.theme = data.get('theme');
  view.diff = data.get('diff');
  view.locale = data.get('locale');
  document.documentElement.dataset.theme = data.get('theme');
}
form.addEventListener('change', apply);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  controller?.abort();
  apply();
  const data = new FormData(form);
  const size = Math.max(1, Number(data.get('chunk')) || 1);
  const delay = Math.max(0, Number(data.get('delay')) || 0);
  const response = await fetch(data.get('file'));
  const bytes = new Uint8Array(await response.arrayBuffer());
  controller = new AbortController();
  const { signal } = controller;
  stop.disabled = false;
  status.value = `streaming ${bytes.length} bytes in chunks of ${size}…`;
  const started = performance.now();
  try {
    await view.stream(chunked(bytes, size, delay, signal), { signal });
    status.value = `done: ${bytes.length} bytes in ${Math.round(performance.now() - started)} ms`;
  } catch (err) {
    status.value = signal.aborted ? 'stopped' : `error: ${err.message}`;
  } finally {
    stop.disabled = true;
  }
});

stop.addEventListener('click', () => controller?.abort());
view.addEventListener('docstream-progress', (e) => {
  status.value = `streaming: ${e.detail.bytes} bytes read`;
});
view.addEventListener('docstream-choice', (e) => {
  status.value = `choice: question ${e.detail.questionId}, option ${e.detail.optionId}`;
});

// ?autoplay streams at once (used by the screenshot test).
if (new URLSearchParams(location.search).has('autoplay')) form.requestSubmit();
