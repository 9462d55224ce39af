// The shadow root of a <docstream-view> and what every part of the element shares: the
// stylesheet (with the rules of `hide`), the polite live region and its labels in the
// view's language, the busy state, and the events the element fires.
import css from './docstream-css.js';

/** What the `hide` attribute can name, and the parts each hides: the view, `find()` and
 * `page()` all leave them out. */
const HIDDEN_PARTS = {
  thinking: ['.ds-thinking'],
  tools: ['.ds-tool-call'],
  output: ['.ds-terminal-command .ds-output', '.ds-terminal-command .ds-output-more', '.ds-term-body > .ds-copy'],
};

/** The stylesheet's rules for `hide`. */
const HIDE_CSS = Object.entries(HIDDEN_PARTS)
  .map(([name, parts]) => `${parts.map((p) => `:host([hide~="${name}"]) ${p}`).join(', ')} { display: none !important; }`)
  .join('\n');

/** The selector of what `hide` (its value) hides ('' for nothing). */
export function hiddenSelector(hide) {
  const names = hide.split(/\s+/);
  return names.flatMap((n) => (Object.hasOwn(HIDDEN_PARTS, n) ? HIDDEN_PARTS[n] : [])).join(', ');
}

const LABELS = {
  en: {
    streaming: 'Agent response streaming',
    copied: 'Copied',
    copyTsv: 'Copy table as TSV',
    copyMarkdown: 'Copy table as Markdown',
    copyTurn: 'Copy as Markdown',
    done: 'Agent response complete',
    failed: 'Agent response ended with an error',
    jump: 'Jump to latest',
  },
  de: {
    streaming: 'Antwort des Agenten wird empfangen',
    copied: 'Kopiert',
    copyTsv: 'Tabelle als TSV kopieren',
    copyMarkdown: 'Tabelle als Markdown kopieren',
    copyTurn: 'Als Markdown kopieren',
    done: 'Antwort des Agenten vollständig',
    failed: 'Antwort des Agenten mit Fehler beendet',
    jump: 'Zum Neuesten springen',
  },
};

let sheet = null;

function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(`${css}\n${HIDE_CSS}\n`);
  }
  return sheet;
}

/**
 * The element's shadow root: the polite live region, the conversation and the "Jump to
 * latest" button; with the host, its internals (for `ariaBusy`) and the busy state.
 */
export class View {
  /** Whether a stream is in progress (pushed to, not finished). */
  busy = false;

  constructor(host) {
    this.host = host;
    try {
      this.internals = host.attachInternals();
    } catch {
      this.internals = null;
    }
    const root = (this.root = host.attachShadow({ mode: 'open' }));
    root.adoptedStyleSheets = [styleSheet()];
    const live = (this.live = document.createElement('div'));
    live.className = 'ds-live';
    live.setAttribute('role', 'status');
    live.setAttribute('aria-live', 'polite');
    live.setAttribute('part', 'status');
    const conversation = (this.conversation = document.createElement('div'));
    conversation.className = 'ds-conversation';
    conversation.setAttribute('part', 'conversation');
    conversation.setAttribute('aria-busy', 'false');
    // Shown while the reader is scrolled up and more arrives; sticks to the view's bottom.
    const jump = (this.jump = document.createElement('button'));
    jump.type = 'button';
    jump.className = 'ds-jump';
    jump.setAttribute('part', 'jump-button');
    jump.hidden = true;
    root.append(live, conversation, jump);
  }

  /** The element's own labels in its `locale`'s language (`de-DE` reads as `de`),
   * English where it has none. */
  labels() {
    return LABELS[this.host.locale.split(/[-_]/)[0].toLowerCase()] ?? LABELS.en;
  }

  /** Says `key`'s label in the polite live region. */
  announce(key) {
    this.live.textContent = this.labels()[key];
  }

  setBusy(busy) {
    this.busy = busy;
    this.conversation.setAttribute('aria-busy', String(busy));
    if (this.internals) this.internals.ariaBusy = String(busy);
  }

  /** Fires `type` at the host (bubbling, composed); false when a listener cancelled it. */
  emit(type, detail, cancelable = false) {
    return this.host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }
}

/** The elements among `roots` and their descendants that match `selector` (in context:
 * `[data-part="blocks"] table` matches a table appended into the blocks part). */
export function* within(roots, selector) {
  for (const root of roots) {
    if (root.matches(selector)) yield root;
    yield* root.querySelectorAll(selector);
  }
}
