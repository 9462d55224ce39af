// The Custom Elements Manifest in the packed package (custom-elements.json, named by
// package.json's `customElements`) against the element as it runs: its tag, every
// observed attribute, every public property, every part the shadow DOM carries after
// rendering every document type, every custom property the stylesheet uses, and the
// events the declarations type; and the package README names every one of them.
import assert from 'node:assert/strict';
import { readRoot } from './harness.mjs';
import { assertClean, openTestPage } from './element.test.mjs';

/** In the page: the element's facts after loading `inputs` into one view each. */
async function facts(inputs) {
  const { T } = window;
  const manifest = await (await fetch('/pkg/custom-elements.json')).json();
  const pkg = await (await fetch('/pkg/package.json')).json();
  const declarations = manifest.modules.flatMap((m) => m.declarations ?? []);
  const decl = declarations.find((d) => d.tagName === 'docstream-view');
  const parts = new Set();
  const typeParts = new Set();
  const used = new Set();
  for (const input of inputs) {
    const view = T.make({});
    await view.load(input);
    for (const el of view.shadowRoot.querySelectorAll('[part]')) {
      const tokens = el.getAttribute('part').split(/\s+/);
      // `document <type>`: the second token names the document type.
      if (tokens[0] === 'document' && tokens[1]) typeParts.add(tokens[1]);
      for (const t of tokens.slice(0, tokens[0] === 'document' ? 1 : undefined)) parts.add(t);
    }
    for (const sheet of view.shadowRoot.adoptedStyleSheets) {
      for (const rule of sheet.cssRules) for (const m of rule.cssText.matchAll(/var\((--ds-[a-z0-9-]+)/g)) used.add(m[1]);
    }
  }
  const element = document.createElement('docstream-view');
  const declarations_ = await (await fetch('/pkg/element.d.ts')).text();
  return {
    customElements: pkg.customElements,
    tag: decl?.tagName,
    attributes: decl?.attributes.map((a) => a.name).sort(),
    observed: [...customElements.get('docstream-view').observedAttributes].sort(),
    properties: decl?.members.filter((m) => m.kind === 'field' && !m.static && m.privacy !== 'private').map((m) => m.name),
    missingProperties: decl?.members
      .filter((m) => !m.static && m.privacy !== 'private')
      .map((m) => m.name)
      .filter((n) => !(n in element)),
    events: decl?.events.map((e) => e.name).sort(),
    typedEvents: [...declarations_.matchAll(/'(docstream-[a-z-]+)': CustomEvent</g)].map((m) => m[1]).sort(),
    parts: decl?.cssParts.map((p) => p.name),
    shownParts: [...parts],
    typeParts: [...typeParts],
    cssProperties: decl?.cssProperties.map((p) => p.name),
    usedProperties: [...used],
    members: decl?.members.filter((m) => !m.static && m.privacy !== 'private' && !m.name.startsWith('#')).map((m) => m.name),
    readme: await (await fetch('/pkg/README.md')).text(),
  };
}

export const tests = [
  {
    name: 'manifest: custom-elements.json describes <docstream-view> as it runs (attributes, properties, events, parts, custom properties)',
    async run({ context, url }) {
      const page = await openTestPage(context, url);
      const inputs = [
        readRoot('examples/cursor-session.jsonl', 'utf8'),
        readRoot('tests/fixtures/response-json/every-type.json', 'utf8'),
      ];
      const f = await page.evaluate(facts, inputs);
      assert.equal(f.customElements, './custom-elements.json', 'package.json names the manifest');
      assert.equal(f.tag, 'docstream-view');
      assert.deepEqual(f.attributes, f.observed, 'every observed attribute, and only those');
      for (const p of ['src', 'format', 'theme', 'diff', 'allowImages', 'locale', 'thinking', 'highlighter', 'diagrams', 'ready', 'busy']) {
        assert.ok(f.properties.includes(p), `property ${p} in the manifest: ${f.properties}`);
      }
      assert.deepEqual(f.missingProperties, [], 'every member the manifest names exists on the element');
      assert.deepEqual(f.events, f.typedEvents, 'the events the declarations type, and only those');
      for (const p of f.shownParts) assert.ok(f.parts.includes(p), `part "${p}" shown but not in the manifest: ${f.parts}`);
      assert.ok(f.typeParts.length >= 8, `document type parts seen: ${f.typeParts}`);
      for (const p of f.usedProperties) assert.ok(f.cssProperties.includes(p), `${p} used by the stylesheet but not in the manifest`);
      // The package README documents every one of them.
      const undocumented = [...f.attributes, ...f.members, ...f.events, ...f.parts, ...f.cssProperties].filter(
        (name) => !new RegExp(`(^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w-]|$)`).test(f.readme),
      );
      assert.deepEqual(undocumented, [], 'attributes, properties, methods, events, parts and custom properties the package README does not name');
      await assertClean(page);
    },
  },
];
