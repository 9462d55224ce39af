import { DocstreamView } from './element.js';

export { DocstreamView };
