// Registers <docstream-view> (the package's only module with a side effect).
import { DocstreamView } from './element.js';

if (!customElements.get('docstream-view')) customElements.define('docstream-view', DocstreamView);

export { DocstreamView };
