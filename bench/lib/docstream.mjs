// docstream's WebAssembly package (`--target web` glue + .wasm) driven the ways a page
// drives it: streamed in fixed-size chunks with the patches taken after every chunk, in
// both API forms, and one-shot.

import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

let instances = 0;

/**
 * Loads the package in `dir` as a fresh instance: its own glue module (imported under a
 * query of its own, so the glue's module state is not shared) and its own wasm memory.
 * Returns `{ DocStream, memory }`.
 */
export async function loadPackage(dir) {
  const glue = join(dir, 'docstream.js');
  const wasm = join(dir, 'docstream_bg.wasm');
  if (!existsSync(glue) || !existsSync(wasm)) throw new Error(`${dir} has no docstream.js and docstream_bg.wasm (build it with bash scripts/build-wasm.sh)`);
  const mod = await import(`${pathToFileURL(glue).href}?instance=${++instances}`);
  const exports = await mod.default({ module_or_path: readFileSync(wasm) });
  return { DocStream: mod.DocStream, memory: exports.memory };
}

/** The text a patch object hands to the page. */
function payloadLength(p) {
  return (p.html ?? p.text ?? p.value ?? '').length;
}

/**
 * `push(chunk)` per chunk, every returned patch object read; `finish()`.
 * Returns `{ patchChars, patches, html? }`; `times[k]` gets chunk k's ms when given.
 */
export function streamPush(ds, buf, chunk, { times = null, keepHtml = false, keep = false } = {}) {
  const s = new ds.DocStream();
  let chars = 0;
  let patches = 0;
  for (let off = 0, k = 0; off < buf.length; off += chunk, k++) {
    const t0 = times ? performance.now() : 0;
    const ps = s.push(buf.subarray(off, off + chunk));
    for (let i = 0; i < ps.length; i++) chars += payloadLength(ps[i]);
    patches += ps.length;
    if (times) times[k] = performance.now() - t0;
  }
  const ps = s.finish();
  for (let i = 0; i < ps.length; i++) chars += payloadLength(ps[i]);
  patches += ps.length;
  const out = { patchChars: chars, patches };
  if (keepHtml) out.html = s.html();
  if (keep) out.stream = s;
  else s.free();
  return out;
}

/**
 * `write(chunk)` per chunk and `pull()` only when it returned true (the wire string);
 * `end()` and a last `pull()`. Returns `{ patchChars, pulls, html? }`.
 */
export function streamWire(ds, buf, chunk, { times = null, keepHtml = false, keep = false } = {}) {
  const s = new ds.DocStream();
  let chars = 0;
  let pulls = 0;
  for (let off = 0, k = 0; off < buf.length; off += chunk, k++) {
    const t0 = times ? performance.now() : 0;
    if (s.write(buf.subarray(off, off + chunk))) {
      chars += s.pull().length;
      pulls++;
    }
    if (times) times[k] = performance.now() - t0;
  }
  s.end();
  chars += s.pull().length;
  const out = { patchChars: chars, pulls: pulls + 1 };
  if (keepHtml) out.html = s.html();
  if (keep) out.stream = s;
  else s.free();
  return out;
}

/** Every chunk of `chunks` pushed with `write`, pulled after each; `end()`, `pull()`. */
export function streamWireChunks(ds, chunks, deadline = Infinity) {
  const s = new ds.DocStream();
  let chars = 0;
  for (let k = 0; k < chunks.length; k++) {
    if (s.write(chunks[k])) chars += s.pull().length;
    if ((k & 255) === 0 && performance.now() > deadline) {
      s.free();
      return { stopped: true, fed: k + 1 };
    }
  }
  s.end();
  chars += s.pull().length;
  const html = s.html();
  s.free();
  return { stopped: false, patchChars: chars, html };
}

/** Every chunk of `chunks` pushed with `push`, the patch objects read; `finish()`. */
export function streamPushChunks(ds, chunks) {
  const s = new ds.DocStream();
  let chars = 0;
  for (const c of chunks) for (const p of s.push(c)) chars += payloadLength(p);
  for (const p of s.finish()) chars += payloadLength(p);
  const html = s.html();
  s.free();
  return { patchChars: chars, html };
}

/** One-shot: `push(whole)`, `finish()`, `html()`. Returns the page's HTML length (or the HTML). */
export function oneShot(ds, buf, keepHtml = false) {
  const s = new ds.DocStream();
  let n = 0;
  for (const p of s.push(buf)) n += payloadLength(p);
  for (const p of s.finish()) n += payloadLength(p);
  const html = s.html();
  s.free();
  return keepHtml ? html : n + html.length;
}

/**
 * One-shot without patches, as a page showing a saved transcript does it: `write(whole)`,
 * `end()`, `html()`. Returns the page's HTML length (or the HTML).
 */
export function render(ds, buf, keepHtml = false) {
  const s = new ds.DocStream();
  s.write(buf);
  s.end();
  const html = s.html();
  s.free();
  return keepHtml ? html : html.length;
}
