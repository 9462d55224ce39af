// JSX types for `<docstream-view>`: `import type {} from 'docstream/jsx'` once in a
// React (18 or 19) project makes the element's attributes and properties known to JSX.
// Needs @types/react; the element itself is registered by `docstream/define`.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { DocstreamView } from './element.js';

/** The element's attributes as JSX props (strings, as in HTML). */
export interface DocstreamViewAttributes {
  /** URL of a transcript or stream to load. */
  src?: string;
  /** `auto` or a format name (`cursor-stream-json`, `document-sse`, …). */
  format?: string;
  theme?: 'auto' | 'light' | 'dark' | 'vscode';
  diff?: 'unified' | 'split';
  /** Space-separated origins whose images may load. */
  'allow-images'?: string;
  locale?: 'en' | 'de';
  /** `off` turns syntax colours off. */
  highlight?: 'on' | 'off';
  thinking?: 'live' | 'open' | 'closed';
  /** Parts not shown, space-separated: `thinking`, `tools`, `output`. */
  hide?: string;
  /** Present: exports (`export()`, `toMarkdown()`, "Copy as Markdown") mask secrets. */
  redact?: boolean | '';
}

/** Properties React 19 sets on the element (not attributes): the hooks. */
export interface DocstreamViewProperties {
  highlighter?: DocstreamView['highlighter'];
  diagrams?: DocstreamView['diagrams'];
}

/** Every prop `<docstream-view>` takes in JSX. */
export type DocstreamViewProps = DetailedHTMLProps<HTMLAttributes<DocstreamView>, DocstreamView> &
  DocstreamViewAttributes &
  DocstreamViewProperties;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'docstream-view': DocstreamViewProps;
    }
  }
}
