// The wire form of docstream's patches, what `DocStream.pull()` returns, read in
// JavaScript. One record per patch: a header line of fields separated by spaces (the op
// letter, the turn, then as the op has them the document's index, the part, a tag or an
// attribute name, and last the payload's length in UTF-16 code units), then the payload.
// src/render/patch.rs writes it; this is its one reader on this side (`push()`,
// `finish()` and `applyPatches` use it).

/** Calls `record(fields, payload)` for every record of `wire`, in order: `fields[0]` is
 * the op letter; `payload` is `''` for the ops without one. */
export function eachRecord(wire, record) {
  let pos = 0;
  const len = wire.length;
  while (pos < len) {
    const nl = wire.indexOf('\n', pos);
    if (nl < 0) break;
    const f = wire.slice(pos, nl).split(' ');
    pos = nl + 1;
    let payload = '';
    if (f[0] !== 'o' && f[0] !== 'c') {
      const size = Number(f[f.length - 1]);
      payload = wire.slice(pos, pos + size);
      pos += size;
    }
    record(f, payload);
  }
}

/** The patch objects of a wire string: what `push()` and `finish()` return. */
export function readPatches(wire) {
  const out = [];
  if (wire) eachRecord(wire, (f, payload) => out.push(patchObject(f, payload)));
  return out;
}

/** One record as the object `push()` hands out: `op` first, then the fields in the
 * order of the Rust `Patch` (each op one shape, so objects of an op share a hidden class). */
function patchObject(f, payload) {
  switch (f[0]) {
    case 't': return { op: 'insert_turn', turn: Number(f[1]), html: payload };
    case 'h': return { op: 'replace_turn_header', turn: Number(f[1]), html: payload };
    case 'i': return { op: 'insert_document', turn: Number(f[1]), index: Number(f[2]), html: payload };
    case 'd': return { op: 'replace_document', turn: Number(f[1]), index: Number(f[2]), html: payload };
    case 'a': return { op: 'append_part', turn: Number(f[1]), index: Number(f[2]), part: f[3], html: payload };
    case 'r': return { op: 'replace_part', turn: Number(f[1]), index: Number(f[2]), part: f[3], html: payload };
    case 'o': return { op: 'open_element', turn: Number(f[1]), index: Number(f[2]), part: f[3], tag: f[4] };
    case 's': return { op: 'set_attr', turn: Number(f[1]), index: Number(f[2]), part: f[3], attr: f[4], value: payload };
    case 'x': return { op: 'append_text', turn: Number(f[1]), index: Number(f[2]), part: f[3], text: payload };
    case 'c': return { op: 'close_element', turn: Number(f[1]), index: Number(f[2]), part: f[3] };
    default: throw new Error(`docstream: unknown patch record "${f[0]}"`);
  }
}
