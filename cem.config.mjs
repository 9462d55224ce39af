// Custom Elements Manifest of the package (pkg/custom-elements.json), written by
// scripts/build-wasm.sh with @custom-elements-manifest/analyzer. The element's
// attributes, properties and methods come from pkg-template/element.js, its tag from
// define.js, events and parts from the class's JSDoc, and its CSS custom properties from
// the stylesheet itself (assets/docstream.css), so each list is written once.
import { readFileSync } from 'node:fs';

/** Every `--ds-*` the stylesheet declares, with the default of its first declaration. */
function cssProperties() {
  const css = readFileSync(new URL('./assets/docstream.css', import.meta.url), 'utf8');
  const seen = new Map();
  for (const m of css.matchAll(/(--ds-[a-z0-9-]+)\s*:\s*([^;]+);/g)) {
    if (!seen.has(m[1])) seen.set(m[1], m[2].trim());
  }
  return [...seen].map(([name, value]) => ({ name, default: value }));
}

export default {
  globs: ['pkg-template/element.js', 'pkg-template/define.js'],
  outdir: 'pkg',
  plugins: [
    {
      name: 'docstream-css-properties',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const d of mod.declarations ?? []) {
            if (!d.customElement) continue;
            d.cssProperties = cssProperties();
            // The analyzer also takes `#emit(type, …)`'s parameter for an event: the
            // events are the ones the JSDoc documents.
            d.events = (d.events ?? []).filter((e) => e.description);
          }
          // Paths as the package has them (pkg-template/ is copied to the package root).
          mod.path = mod.path.replace(/^pkg-template\//, '');
          for (const d of mod.declarations ?? []) {
            if (d.superclass?.module) d.superclass.module = d.superclass.module.replace(/^pkg-template\//, '');
          }
          for (const e of mod.exports ?? []) {
            if (e.declaration?.module) e.declaration.module = e.declaration.module.replace(/^pkg-template\//, '');
          }
        }
      },
    },
  ],
};
