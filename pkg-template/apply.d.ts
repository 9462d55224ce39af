import type { Patch } from './docstream.js';

/** Hooks called for each element a patch inserts or replaces. */
export interface PatchHooks {
  /** A turn element was inserted. */
  turn?(el: Element): void;
  /** A turn's header element was replaced. */
  header?(el: Element): void;
  /** A document element was inserted or replaced. */
  document?(el: Element): void;
  /** HTML was appended to or replaced in a part `el`: `first` and its next siblings are
   * what is new. */
  appended?(el: Element, first: ChildNode): void;
}

/** Keeps a conversation element up to date from patches; part builders carry over
 * between calls. */
export declare class PatchApplier {
  constructor(root: Element, hooks?: PatchHooks);
  /** Applies patches in the wire form (a string from `DocStream.pull()`); returns how many. */
  applyWire(wire: string): number;
  /** Applies patch objects (from `DocStream.push()` or `finish()`). */
  applyObjects(patches: readonly Patch[]): void;
}

/** Applies the wire form or patch objects to a conversation element. */
export declare function applyPatches(root: Element, patches: string | readonly Patch[]): void;
