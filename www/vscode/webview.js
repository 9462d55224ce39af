// The webview side: initialises docstream from the inlined wasm (a webview cannot fetch
// a .wasm file under its CSP), registers <docstream-view> and feeds it the NDJSON lines
// the extension posts.
import * as docstream from 'docstream/inline';
import { DocstreamView } from 'docstream/element';

await DocstreamView.init(docstream);
if (!customElements.get('docstream-view')) customElements.define('docstream-view', DocstreamView);

const vscode = acquireVsCodeApi();
const view = document.querySelector('docstream-view');

window.addEventListener('message', (event) => {
  const message = event.data;
  try {
    switch (message?.type) {
      case 'reset':
        view.clear();
        break;
      case 'line':
        view.push(`${message.line}\n`);
        break;
      case 'end':
        view.finish();
        break;
    }
  } catch {
    // Reported as docstream-error, which is posted below.
  }
});

view.addEventListener('docstream-choice', (e) => vscode.postMessage({ type: 'choice', ...e.detail }));
view.addEventListener('docstream-error', (e) => vscode.postMessage({ type: 'error', ...e.detail }));
view.addEventListener('docstream-done', () => vscode.postMessage({ type: 'done' }));
vscode.postMessage({ type: 'ready' });
