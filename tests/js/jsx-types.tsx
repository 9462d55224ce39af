// Type-checked (not run) by tests/js/jsx-types.mjs in a temp project that installed the
// packed tarball and @types/react: `<docstream-view>` in JSX takes its attributes and
// hooks, and rejects values it does not know.
import type {} from 'docstream/jsx';
import type { DocstreamView } from 'docstream/element';
import { useRef } from 'react';

export function Transcript({ url }: { url: string }) {
  const view = useRef<DocstreamView>(null);
  return (
    <div>
      <docstream-view
        ref={view}
        src={url}
        format="cursor-stream-json"
        theme="dark"
        diff="split"
        allow-images="https://example.com"
        locale="de"
        thinking="closed"
        highlight="off"
        className="transcript"
        style={{ height: '40rem' }}
        diagrams={(lang, source) => (lang === 'mermaid' ? document.createTextNode(source) : null)}
      />
      {/* @ts-expect-error: not a theme */}
      <docstream-view theme="sepia" />
      {/* @ts-expect-error: not a locale */}
      <docstream-view locale="fr" />
      {/* @ts-expect-error: not an attribute of the element */}
      <docstream-view srcc="x" />
    </div>
  );
}
