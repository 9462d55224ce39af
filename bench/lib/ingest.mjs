// The JavaScript peers' ingest of Cursor stream-json (NDJSON): one parsed line to the
// sink's calls (`user`, `delta`, `toolStarted`, `toolCompleted`, `end`), and a framer
// that cuts chunks cut anywhere into lines. Shared by the Node peers (lib/peers.mjs)
// and the browser pages (browser/pages/).

/** Hands one parsed stream-json line to `sink`. */
export function dispatchLine(o, sink) {
  switch (o.type) {
    case 'assistant':
      for (const c of o.message.content) if (c.type === 'text') sink.delta(c.text);
      return;
    case 'tool_call':
      for (const key in o.tool_call) {
        const call = o.tool_call[key];
        if (o.subtype === 'started') sink.toolStarted(key, call.args);
        else sink.toolCompleted(key, call.args, call.result);
        return;
      }
      return;
    case 'user': {
      let text = '';
      for (const c of o.message.content) if (c.type === 'text') text += c.text;
      sink.user(text);
      return;
    }
    case 'result':
      sink.end();
      return;
    default:
  }
}

/**
 * Chunks (Uint8Array, cut anywhere, UTF-8 sequences too) to whole lines, each parsed
 * and dispatched to the sink: TextDecoder in stream mode, split at '\n', JSON.parse.
 */
export class NdjsonFramer {
  constructor(sink) {
    this.sink = sink;
    this.decoder = new TextDecoder();
    this.rest = '';
  }

  /** Reads one chunk; returns whether a line was dispatched. */
  push(bytes) {
    const s = this.decoder.decode(bytes, { stream: true });
    let nl = s.indexOf('\n');
    if (nl < 0) {
      this.rest += s;
      return false;
    }
    const first = this.rest + s.slice(0, nl);
    if (first) dispatchLine(JSON.parse(first), this.sink);
    let start = nl + 1;
    while ((nl = s.indexOf('\n', start)) >= 0) {
      if (nl > start) dispatchLine(JSON.parse(s.slice(start, nl)), this.sink);
      start = nl + 1;
    }
    this.rest = s.slice(start);
    return true;
  }

  /** The end of the input: a last line without its newline. */
  finish() {
    const rest = this.rest + this.decoder.decode();
    this.rest = '';
    if (rest) dispatchLine(JSON.parse(rest), this.sink);
    this.sink.end();
  }
}
