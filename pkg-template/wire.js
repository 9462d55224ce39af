// The wire form of docstream's patches, what `DocStream.pull()` returns, read in
// JavaScript. One record per patch: a header line of fields separated by spaces (the op
// letter, the turn, then as the op has them the document's index, the part, a tag or an
// attribute name, and last the payload's length in UTF-16 code units), then the payload.
// src/render/patch.rs writes it; this is its one reader on this side (`push()`,
// `finish()` and `applyPatches` use it).
//
// The header is read in place, character by character: no line or field strings, no
// arrays, so a pull of many small patches costs its patches and nothing more.

const SPACE = 32;
const NEWLINE = 10;

/** Calls `record(op, turn, index, part, name, payload)` for every record of `wire`, in
 * order. `op` is the record's letter; the fields an op does not have are `-1` (numbers)
 * or `''` (names and payload). `name` is an `o` record's tag or an `s` record's
 * attribute. A record of an unknown op is passed with its letter and payload only. */
export function eachRecord(wire, record) {
  const len = wire.length;
  let pos = 0;
  // A decimal field; `pos` moves past the space or newline after it.
  const number = () => {
    let n = 0;
    let c = wire.charCodeAt(pos++);
    while (c >= 48 && c <= 57) {
      n = n * 10 + c - 48;
      c = wire.charCodeAt(pos++);
    }
    return n;
  };
  // A name field; `pos` moves past the space or newline after it.
  const name = () => {
    const start = pos;
    let c = wire.charCodeAt(pos);
    while (c !== SPACE && c !== NEWLINE && pos < len) c = wire.charCodeAt(++pos);
    return wire.slice(start, pos++);
  };
  const payload = (size) => {
    const text = wire.slice(pos, pos + size);
    pos += size;
    return text;
  };
  while (pos < len) {
    const op = wire[pos];
    pos += 2;
    switch (op) {
      case 't':
      case 'h': {
        const turn = number();
        record(op, turn, -1, '', '', payload(number()));
        break;
      }
      case 'i':
      case 'd': {
        const turn = number();
        const index = number();
        record(op, turn, index, '', '', payload(number()));
        break;
      }
      case 'a':
      case 'r':
      case 'x': {
        const turn = number();
        const index = number();
        const part = name();
        record(op, turn, index, part, '', payload(number()));
        break;
      }
      case 's': {
        const turn = number();
        const index = number();
        const part = name();
        const attr = name();
        record(op, turn, index, part, attr, payload(number()));
        break;
      }
      case 'o': {
        const turn = number();
        const index = number();
        const part = name();
        record(op, turn, index, part, name(), '');
        break;
      }
      case 'c': {
        const turn = number();
        const index = number();
        record(op, turn, index, name(), '', '');
        break;
      }
      default: {
        // Every op but `o` and `c` ends its header with the payload's length.
        const nl = wire.indexOf('\n', pos - 1);
        if (nl < 0) return;
        const size = Number(wire.slice(wire.lastIndexOf(' ', nl) + 1, nl));
        pos = nl + 1;
        record(op, -1, -1, '', '', payload(size));
      }
    }
  }
}

/** The patch objects of a wire string: what `push()` and `finish()` return. */
export function readPatches(wire) {
  const out = [];
  if (wire) eachRecord(wire, (op, turn, index, part, name, payload) => out.push(patchObject(op, turn, index, part, name, payload)));
  return out;
}

/** One record as the object `push()` hands out: `op` first, then the fields in the
 * order of the Rust `Patch` (each op one shape, so objects of an op share a hidden class). */
function patchObject(op, turn, index, part, name, payload) {
  switch (op) {
    case 't': return { op: 'insert_turn', turn, html: payload };
    case 'h': return { op: 'replace_turn_header', turn, html: payload };
    case 'i': return { op: 'insert_document', turn, index, html: payload };
    case 'd': return { op: 'replace_document', turn, index, html: payload };
    case 'a': return { op: 'append_part', turn, index, part, html: payload };
    case 'r': return { op: 'replace_part', turn, index, part, html: payload };
    case 'o': return { op: 'open_element', turn, index, part, tag: name };
    case 's': return { op: 'set_attr', turn, index, part, attr: name, value: payload };
    case 'x': return { op: 'append_text', turn, index, part, text: payload };
    case 'c': return { op: 'close_element', turn, index, part };
    default: throw new Error(`docstream: unknown patch record "${op}"`);
  }
}
