// What a <docstream-view> shows in place of a document's source: a code block, once it
// has ended, as what the `diagrams` hook makes of it (a Mermaid fence as a diagram, say),
// and a formula's TeX as MathML (math_bg.wasm, loaded with the first formula).
import { trusted } from './apply.js';
import { within } from './element-view.js';

/** TeX to MathML (`math_bg.wasm`), loaded the first time a formula appears. */
let mathModule = null;
function loadMath() {
  if (!mathModule) {
    mathModule = import('./math.js').then(async (m) => {
      await m.default();
      return m;
    });
    // A later formula tries again (the page may have gone back online).
    mathModule.catch(() => {
      mathModule = null;
    });
  }
  return mathModule;
}

const MATHML = 'http://www.w3.org/1998/Math/MathML';

/** Diagrams and formulas of one view (element-view.js). */
export class Figures {
  #view;
  #diagrams = null;
  /** Code documents waiting to end before the `diagrams` hook sees them. */
  #pendingDiagrams = [];
  /** The formulas' module did not load for this view: formulas stay code. */
  #mathFailed = false;

  constructor(view) {
    this.#view = view;
  }

  /** The `diagrams` hook, or null. */
  get diagrams() {
    return this.#diagrams;
  }
  set diagrams(v) {
    this.#diagrams = typeof v === 'function' ? v : null;
  }

  /** A document was inserted: the ones before it have ended. */
  started(el) {
    if (this.#diagrams) this.#renderDiagrams(el.classList.contains('ds-code-block') ? el : null);
  }

  /** Elements a patch added (formulas among them get their MathML). */
  added(elements) {
    this.#formulas(elements);
  }

  /** The stream ended: its last code blocks go to the hook. */
  ended() {
    this.#renderDiagrams();
  }

  /** The view was emptied. */
  reset() {
    this.#pendingDiagrams = [];
  }

  /** Offers the code blocks that have ended to the `diagrams` hook. */
  #renderDiagrams(keep = null) {
    const pending = this.#pendingDiagrams;
    this.#pendingDiagrams = keep ? [keep] : [];
    const hook = this.#diagrams;
    if (!hook) return;
    for (const doc of pending) {
      if (doc === keep || !doc.isConnected) continue;
      const code = doc.querySelector('pre.ds-code > code');
      const figure = doc.querySelector('.ds-code-figure');
      if (!code || !figure) continue;
      const lang = [...code.classList].find((c) => c.startsWith('language-'))?.slice(9) ?? '';
      let result;
      try {
        result = hook(lang, code.textContent);
      } catch (e) {
        this.#view.emit('docstream-error', { code: 'DS_DIAGRAM', message: String(e?.message ?? e) });
        continue;
      }
      Promise.resolve(result).then(
        (node) => {
          if (!(node instanceof Node) || !doc.isConnected) return;
          const box = document.createElement('div');
          box.className = 'ds-diagram';
          box.setAttribute('data-ds-ui', '');
          box.setAttribute('part', 'diagram');
          box.append(node);
          figure.append(box);
          figure.setAttribute('data-ds-diagram', '');
        },
        (e) => this.#view.emit('docstream-error', { code: 'DS_DIAGRAM', message: String(e?.message ?? e) }),
      );
    }
  }

  /** Formulas (`<code class="ds-math">`, their TeX) also as MathML, unless
   * `math="off"`: the MathML goes right after the code, which then hides. */
  #formulas(added) {
    if (this.#view.host.getAttribute('math') === 'off' || this.#mathFailed) return;
    const codes = [...within(added, 'code.ds-math')];
    if (codes.length === 0) return;
    loadMath().then(
      (m) => {
        for (const code of codes) {
          if (!code.isConnected || code.hasAttribute('data-ds-math')) continue;
          const mathml = m.texToMathml(code.textContent, code.classList.contains('ds-math-display'));
          if (!mathml) continue;
          // Checked MathML (src/render/math.rs): MathML Core elements and layout
          // attributes only, text escaped.
          const t = code.ownerDocument.createElement('template');
          t.innerHTML = trusted(mathml);
          const math = t.content.firstElementChild;
          if (!math || math.namespaceURI !== MATHML || t.content.childNodes.length !== 1) continue;
          math.setAttribute('data-ds-ui', '');
          math.setAttribute('part', 'math');
          code.after(math);
          code.setAttribute('data-ds-math', '');
        }
      },
      (e) => {
        // Said once: the formulas stay code.
        if (this.#mathFailed) return;
        this.#mathFailed = true;
        this.#view.emit('docstream-error', { code: 'DS_MATH', message: String(e?.message ?? e) });
      },
    );
  }
}
