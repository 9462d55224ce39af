// Registers <docstream-view> (the package's only module with a side effect).
import { DocstreamView } from './element.js';

// Nothing to register where there is no DOM (server-side rendering): importing is safe.
if (globalThis.customElements && !customElements.get('docstream-view')) {
  customElements.define('docstream-view', DocstreamView);
}

export { DocstreamView };
