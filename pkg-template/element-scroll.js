// Where a <docstream-view> is scrolled: following the bottom while a stream grows it
// (pinned there until the reader scrolls up, a "Jump to latest" button while more
// arrives below), going to a turn or document (`reveal()`), and the host a tab stop once
// it scrolls, so that the keyboard can scroll it.

/** Distance from the bottom (px) within which the view counts as pinned. */
const PIN_SLACK = 32;
/** How long (ms) after a wheel, key, touch or pointer input a scroll counts as the reader's. */
const USER_SCROLL_MS = 1000;

/** Scrolls one view (element-view.js): to its bottom while it is pinned there, and to
 * what `reveal()` names. */
export class Scroll {
  #view;
  #pinned = true;
  /** An update is being pinned to the bottom (from its flush to the frame after). */
  #pinning = false;
  #lastTop = 0;
  #userInputAt = -Infinity;
  #pointerDown = false;
  #scrollFrame = 0;
  /** The element made itself a tab stop because it scrolls. */
  #scrollFocus = false;

  /** Puts back the document a placeholder stands for (element-window.js). */
  #restore;

  /** `restore(el)`: the document in place of placeholder `el` (or `el` itself). */
  constructor(view, restore = (el) => el) {
    this.#view = view;
    this.#restore = restore;
    const host = view.host;
    view.jump.addEventListener('click', () => this.#jumpToLatest());
    if (typeof ResizeObserver === 'function') {
      const sizes = new ResizeObserver(() => {
        this.#focusableWhenScrolling();
        this.#pinAfterLayout();
      });
      sizes.observe(host);
      sizes.observe(view.conversation);
    }
    host.addEventListener('scroll', () => this.#onScroll(), { passive: true });
    const input = () => {
      this.#userInputAt = performance.now();
    };
    host.addEventListener('wheel', input, { passive: true });
    host.addEventListener('touchstart', input, { passive: true });
    host.addEventListener('keydown', input);
    host.addEventListener('pointerdown', () => {
      this.#pointerDown = true;
      input();
    });
    host.addEventListener('pointerup', () => {
      this.#pointerDown = false;
      input();
    });
  }

  /** Patches were applied: stay at the bottom, or offer to jump there. */
  updated() {
    this.#schedulePin();
    // More arrived below where the reader is reading.
    if (!this.#pinned) this.#showJump(true);
  }

  /** Stops following the bottom until the reader scrolls back down to it. */
  unpin() {
    this.#pinned = false;
  }

  /** Scrolls to a turn or document, opens the disclosures around it (and, with `open`,
   * its own), moves focus there and flashes it; false when `target` names none. Following
   * the bottom stops until the reader scrolls back down. */
  reveal(target, open) {
    const found = targetOf(this.#view.conversation, target);
    const el = found && this.#restore(found);
    if (!el) return false;
    for (let d = el.parentElement?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    if (open) for (const d of el.querySelectorAll('details')) d.open = true;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    this.#pinned = false;
    el.scrollIntoView({ block: 'start' });
    settle(el, el.getBoundingClientRect().top);
    el.focus({ preventScroll: true });
    el.classList.remove('ds-revealed');
    void el.offsetWidth; // restarts the flash
    el.classList.add('ds-revealed');
    return true;
  }

  /** The view was emptied: pinned again, and no longer a tab stop of its own making. */
  reset() {
    this.#pinned = true;
    this.#showJump(false);
    if (this.#scrollFocus) {
      // Nothing to scroll any more: not a tab stop of the element's making.
      this.#scrollFocus = false;
      this.#view.host.removeAttribute('tabindex');
    }
  }

  /** Pinned again at the bottom; unpinned only when the reader moved up (content that
   * grows never lowers scrollTop, and scroll events arrive a frame late). */
  #onScroll() {
    const host = this.#view.host;
    const top = host.scrollTop;
    const distance = host.scrollHeight - top - host.clientHeight;
    const user = this.#pointerDown || performance.now() - this.#userInputAt < USER_SCROLL_MS;
    if (distance <= PIN_SLACK) {
      this.#pinned = true;
      this.#showJump(false);
    } else if (user && top < this.#lastTop - 1) this.#pinned = false;
    this.#lastTop = top;
  }

  #showJump(show) {
    const jump = this.#view.jump;
    if (jump.hidden !== show) return;
    // Labelled when it shows (the locale may have changed since).
    if (show) jump.textContent = this.#view.labels().jump;
    jump.hidden = !show;
  }

  /** Scrolls to the bottom, remembered as where the reader is. */
  #toBottom() {
    const host = this.#view.host;
    host.scrollTop = host.scrollHeight;
    this.#lastTop = host.scrollTop;
  }

  /** Scrolls to the bottom and follows it again. */
  #jumpToLatest() {
    this.#pinned = true;
    this.#showJump(false);
    this.#toBottom();
    this.#view.host.focus({ preventScroll: true });
  }

  #schedulePin() {
    if (!this.#pinned || this.#scrollFrame) return;
    this.#pinning = true;
    this.#scrollFrame = requestAnimationFrame(() => {
      this.#scrollFrame = 0;
      if (this.#pinned) this.#toBottom();
      // Until the next frame, a size change is still this update being laid out.
      requestAnimationFrame(() => {
        if (!this.#scrollFrame) this.#pinning = false;
      });
    });
  }

  /** New content laid out after the pin (documents far from view are laid out only
   * once they come into view, `content-visibility: auto`): the bottom moved, follow it. */
  #pinAfterLayout() {
    if (this.#pinning && this.#pinned && !this.#scrollFrame) this.#toBottom();
  }

  /** A host that scrolls its conversation is a tab stop, so that the keyboard can
   * scroll it (WCAG 2.1.1), unless the page set a `tabindex` of its own. Checked when the
   * host or the conversation changes size, until it scrolls. */
  #focusableWhenScrolling() {
    const host = this.#view.host;
    if (this.#scrollFocus || host.hasAttribute('tabindex')) return;
    if (host.scrollHeight > host.clientHeight) {
      this.#scrollFocus = true;
      host.tabIndex = 0;
    }
  }
}

/** Frames `settle()` keeps aiming at a revealed element, at most. */
const SETTLE_FRAMES = 120;
/** Frames in a row the element must stay put for `settle()` to stop early. */
const SETTLED_FRAMES = 10;

/** The settling in progress: a newer reveal() ends the one before. */
let settling = 0;

/** Keeps `el` at `top` (where the first scroll put it) while the turns and documents
 * around it, laid out at an estimated size far from view (`content-visibility: auto`)
 * or put back from placeholders a few frames after the scroll, are laid out for real
 * and move it: each frame, until it has stayed put ten frames in a row, two seconds have
 * passed, the reader scrolls, or another reveal() starts. */
function settle(el, top) {
  const mine = ++settling;
  let frames = 0;
  let still = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  for (const e of events) addEventListener(e, stop, { once: true, passive: true, capture: true });
  const frame = () => {
    if (stopped || mine !== settling || !el.isConnected) return done();
    if (Math.abs(el.getBoundingClientRect().top - top) > 1) {
      el.scrollIntoView({ block: 'start' });
      still = 0;
    } else still++;
    if (still >= SETTLED_FRAMES || ++frames >= SETTLE_FRAMES) return done();
    requestAnimationFrame(frame);
  };
  const done = () => {
    for (const e of events) removeEventListener(e, stop, { capture: true });
  };
  requestAnimationFrame(frame);
}

/** The turn or document element `reveal()` names in `conversation`, or null: a document
 * or turn id (`data-doc-id`, `data-turn-id`), or `{ turn, document }` with a turn index
 * and optionally a document id in it. */
function targetOf(conversation, target) {
  if (typeof target === 'string') {
    const id = CSS.escape(target);
    const hit = conversation.querySelector(
      `.ds-doc[data-doc-id="${id}"], .ds-placeholder[data-doc-id="${id}"], [data-turn-id="${id}"]`,
    );
    return hit?.closest('.ds-doc, .ds-placeholder, .ds-turn') ?? null;
  }
  if (!target || target.turn == null) return null;
  const turn = conversation.querySelector(`:scope > .ds-turn[data-turn-index="${CSS.escape(String(target.turn))}"]`);
  if (!turn || target.document == null) return turn;
  const doc = CSS.escape(target.document);
  return turn.querySelector(`.ds-doc[data-doc-id="${doc}"], .ds-placeholder[data-doc-id="${doc}"]`);
}
