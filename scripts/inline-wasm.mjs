// Writes pkg/inline.js and pkg/inline.d.ts: the wasm-bindgen glue of pkg/docstream.js
// with the wasm module inlined as base64, used by init() when it is given no argument
// (for webviews and file:// pages that cannot fetch a .wasm file).
import { readFileSync, writeFileSync } from 'node:fs';

const pkg = new URL('../pkg/', import.meta.url);
const glue = readFileSync(new URL('docstream.js', pkg), 'utf8');
const wasm = readFileSync(new URL('docstream_bg.wasm', pkg));

const defaultUrl = "module_or_path = new URL('docstream_bg.wasm', import.meta.url);";
const at = glue.indexOf(defaultUrl);
if (at < 0 || glue.indexOf(defaultUrl, at + 1) >= 0) {
  throw new Error(`inline-wasm: expected exactly one "${defaultUrl}" in pkg/docstream.js (wasm-bindgen output changed?)`);
}
if (glue.includes('import.meta.url', at + defaultUrl.length) || glue.lastIndexOf('import.meta.url', at - 1) >= 0) {
  throw new Error('inline-wasm: pkg/docstream.js uses import.meta.url elsewhere; the inline module must not');
}

const inline = `${glue.replace(defaultUrl, 'module_or_path = __docstream_inline_wasm();')}
// The wasm module, inlined by scripts/inline-wasm.mjs.
const __docstream_wasm_base64 = '${wasm.toString('base64')}';

function __docstream_inline_wasm() {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(__docstream_wasm_base64);
  const text = atob(__docstream_wasm_base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
`;
writeFileSync(new URL('inline.js', pkg), inline);

const types = readFileSync(new URL('docstream.d.ts', pkg), 'utf8');
writeFileSync(
  new URL('inline.d.ts', pkg),
  `// docstream/inline: the exports of docstream; init() without an argument uses the\n// wasm module inlined in inline.js.\n${types}`,
);
