// What a user would otherwise build in JavaScript to show an agent transcript as HTML:
// the peers docstream is measured against, each doing the same work on the same bytes.
//
// Streaming peers read fixed-size chunks: TextDecoder (stream mode) → line split →
// JSON.parse → dispatch to a sink (NDJSON), or eventsource-parser → JSON.parse →
// dispatch (seed 000 document SSE). A sink renders tool calls (read/write/shell as
// escaped <pre>, edits through jsdiff + diff2html) and the assistant's Markdown its own
// way; `flush()` after every chunk is where a page would take its update.

import { marked } from 'marked';
import * as smd from 'streaming-markdown';
import { createParser } from 'eventsource-parser';
import { escapeHtml, toolHtml } from './tools.mjs';
import { dispatchLine } from './ingest.mjs';

export { escapeHtml, toolHtml };

// ---------------------------------------------------------------- sinks

/** Common sink: the text of the open message, tool calls rendered, finished segments. */
class Sink {
  constructor() {
    this.open = false;
    this.text = '';
    this.changed = false;
    this.segments = [];
    this.pending = '';
  }
  user(text) {
    this.end();
    this.segments.push(`<div class="user">${escapeHtml(text)}</div>`);
  }
  delta(d) {
    if (!this.open) {
      this.open = true;
      this.text = '';
      this.begin();
    }
    this.text += d;
    this.changed = true;
    this.fed(d);
  }
  end() {
    if (!this.open) return;
    this.flush();
    this.open = false;
    this.segments.push(this.close());
  }
  toolStarted(key, args) {
    this.end();
    this.pending = `<div class="tool pending" data-tool="${key}">${escapeHtml(args.path ?? args.command ?? '')}</div>`;
  }
  toolCompleted(key, args, result) {
    this.end();
    this.pending = '';
    this.segments.push(toolHtml(key, args, result));
  }
  /** After every chunk: bring the open message's HTML up to date. */
  flush() {
    if (this.changed) {
      this.changed = false;
      this.update();
    }
  }
  begin() {}
  fed() {}
  update() {}
  close() {
    return '';
  }
  /** Ends the stream; returns the page's HTML length. */
  finish() {
    this.end();
    let n = 0;
    for (const s of this.segments) n += s.length;
    return n;
  }
}

/** Ingest and tool rendering only; the Markdown is kept as text (the floor under every sink). */
export class FloorSink extends Sink {
  close() {
    return escapeHtml(this.text);
  }
}

// streaming-markdown with a renderer that writes an HTML string: open tags are kept as
// their own parts so that a late attribute (a link's href, a fence's language) can still
// be added; the HTML is the parts joined, with the still-open elements closed.
const TAGS = {
  [smd.PARAGRAPH]: 'p', [smd.HEADING_1]: 'h1', [smd.HEADING_2]: 'h2', [smd.HEADING_3]: 'h3',
  [smd.HEADING_4]: 'h4', [smd.HEADING_5]: 'h5', [smd.HEADING_6]: 'h6', [smd.BLOCKQUOTE]: 'blockquote',
  [smd.CODE_INLINE]: 'code', [smd.ITALIC_AST]: 'em', [smd.ITALIC_UND]: 'em', [smd.STRONG_AST]: 'strong',
  [smd.STRONG_UND]: 'strong', [smd.STRIKE]: 's', [smd.LINK]: 'a', [smd.RAW_URL]: 'a', [smd.IMAGE]: 'img',
  [smd.LIST_UNORDERED]: 'ul', [smd.LIST_ORDERED]: 'ol', [smd.LIST_ITEM]: 'li', [smd.CHECKBOX]: 'input',
  [smd.TABLE]: 'table', [smd.TABLE_CELL]: 'td', [smd.LINE_BREAK]: 'br', [smd.RULE]: 'hr',
  [smd.EQUATION_BLOCK]: 'span', [smd.EQUATION_INLINE]: 'span',
};
const VOID = new Set([smd.IMAGE, smd.CHECKBOX, smd.LINE_BREAK, smd.RULE]);
const ATTR_NAMES = { [smd.HREF]: 'href', [smd.SRC]: 'src', [smd.CHECKED]: 'checked', [smd.START]: 'start', [smd.LANG]: 'class' };

function htmlRenderer() {
  return {
    data: { parts: [], opens: [], closes: [], rows: [] },
    add_token(d, type) {
      if (type === smd.DOCUMENT) {
        d.opens.push(-1);
        d.closes.push('');
        return;
      }
      let open;
      let close;
      if (type === smd.CODE_BLOCK || type === smd.CODE_FENCE) {
        open = '<pre><code>';
        close = '</code></pre>';
      } else if (type === smd.TABLE) {
        d.rows.push(0);
        open = '<table>';
        close = '</table>';
      } else if (type === smd.TABLE_ROW) {
        const row = d.rows[d.rows.length - 1]++;
        open = row === 0 ? '<thead><tr>' : row === 1 ? '<tbody><tr>' : '<tr>';
        close = row === 0 ? '</tr></thead>' : '</tr>';
      } else if (type === smd.TABLE_CELL && d.rows[d.rows.length - 1] === 1) {
        open = '<th>';
        close = '</th>';
      } else {
        const tag = TAGS[type] ?? 'span';
        open = type === smd.CHECKBOX ? '<input type="checkbox" disabled>' : `<${tag}>`;
        close = VOID.has(type) ? '' : `</${tag}>`;
      }
      d.opens.push(d.parts.length);
      d.parts.push(open);
      d.closes.push(close);
    },
    end_token(d) {
      d.opens.pop();
      const close = d.closes.pop();
      if (close === '</table>' && d.rows.pop() > 1) d.parts.push('</tbody>');
      d.parts.push(close);
    },
    add_text(d, text) {
      d.parts.push(escapeHtml(text));
    },
    set_attr(d, type, value) {
      const i = d.opens[d.opens.length - 1];
      if (i === undefined || i < 0) return;
      const tag = d.parts[i];
      const cut = tag.indexOf('>');
      const attr = type === smd.LANG ? ` class="language-${escapeHtml(value)}"` : ` ${ATTR_NAMES[type]}="${escapeHtml(value)}"`;
      d.parts[i] = tag.slice(0, cut) + attr + tag.slice(cut);
    },
  };
}
function rendererHtml(r) {
  let html = r.data.parts.join('');
  for (let i = r.data.closes.length - 1; i >= 0; i--) html += r.data.closes[i];
  return html;
}

/** streaming-markdown fed every text delta, writing an HTML string. */
export class SmdSink extends Sink {
  begin() {
    this.renderer = htmlRenderer();
    this.parser = smd.parser(this.renderer);
  }
  fed(d) {
    smd.parser_write(this.parser, d);
  }
  close() {
    smd.parser_end(this.parser);
    return rendererHtml(this.renderer);
  }
}

/** Streamdown's memo: lex the whole message, render only blocks whose source changed. */
export class BlockMemoSink extends Sink {
  begin() {
    this.raws = [];
    this.htmls = [];
  }
  update() {
    const tokens = marked.lexer(this.text);
    for (let i = 0; i < tokens.length; i++) {
      const raw = tokens[i].raw;
      if (this.raws[i] !== raw) {
        this.raws[i] = raw;
        this.htmls[i] = marked.parse(raw);
      }
    }
    this.raws.length = tokens.length;
    this.htmls.length = tokens.length;
  }
  close() {
    return this.htmls.join('');
  }
}

export const SINKS = { floor: FloorSink, smd: SmdSink, blockmemo: BlockMemoSink };

// ---------------------------------------------------------------- ingest

/** Streams NDJSON in `chunk`-byte pieces into `sink`; `times`, when given, gets each chunk's ms. */
export function streamNdjson(buf, sink, chunk, times = null) {
  const decoder = new TextDecoder();
  let rest = '';
  for (let off = 0, k = 0; off < buf.length; off += chunk, k++) {
    const t0 = times ? performance.now() : 0;
    const s = decoder.decode(buf.subarray(off, off + chunk), { stream: true });
    let nl = s.indexOf('\n');
    if (nl < 0) {
      rest += s;
    } else {
      const first = rest + s.slice(0, nl);
      if (first) dispatchLine(JSON.parse(first), sink);
      let start = nl + 1;
      while ((nl = s.indexOf('\n', start)) >= 0) {
        if (nl > start) dispatchLine(JSON.parse(s.slice(start, nl)), sink);
        start = nl + 1;
      }
      rest = s.slice(start);
    }
    sink.flush();
    if (times) times[k] = performance.now() - t0;
  }
  rest += decoder.decode();
  if (rest) dispatchLine(JSON.parse(rest), sink);
  return sink.finish();
}

// Seed 000's tool names back to the Cursor keys and argument names the sinks render.
function seedTool(doc) {
  const a = doc.args ?? {};
  const data = doc.result?.data;
  switch (doc.name) {
    case 'read_file': return ['readToolCall', { path: a.target_file }, { success: { content: typeof data === 'string' ? data : '' } }];
    case 'write': return ['writeToolCall', { path: a.file_path, fileText: a.contents }, { success: {} }];
    case 'edit_file': return ['editToolCall', { path: a.target_file, oldString: a.old_string, newString: a.new_string }, { success: {} }];
    case 'run_terminal_cmd': return ['shellToolCall', { command: a.command }, { success: data ?? {} }];
    default: return [doc.name ?? 'tool', a, { success: {} }];
  }
}

/** Streams seed 000 document SSE in `chunk`-byte pieces into `sink`. */
export function streamSse(buf, sink, chunk) {
  const docs = new Map();
  const parser = createParser({
    onEvent(ev) {
      const d = JSON.parse(ev.data);
      switch (ev.event) {
        case 'document_start':
          docs.set(d.id, { type: d.type });
          return;
        case 'content_delta':
          if (docs.get(d.documentId)?.type === 'text') sink.delta(d.delta);
          return;
        case 'tool_call_start': {
          const doc = docs.get(d.documentId);
          doc.name = d.toolName;
          sink.toolStarted(d.toolName, {});
          return;
        }
        case 'tool_call_arguments':
          docs.get(d.documentId).args = d.arguments;
          return;
        case 'tool_result':
          docs.get(d.documentId).result = d.result;
          return;
        case 'document_end': {
          const doc = docs.get(d.documentId);
          docs.delete(d.documentId);
          if (doc?.type === 'text') sink.end();
          else if (doc) sink.toolCompleted(...seedTool(doc));
          return;
        }
        case 'done':
          sink.end();
          return;
        default:
      }
    },
  });
  const decoder = new TextDecoder();
  for (let off = 0; off < buf.length; off += chunk) {
    parser.feed(decoder.decode(buf.subarray(off, off + chunk), { stream: true }));
    sink.flush();
  }
  parser.feed(decoder.decode());
  return sink.finish();
}

// ---------------------------------------------------------------- one-shot

/** Every message's text and every completed tool call of a whole NDJSON transcript. */
export function readWhole(buf) {
  const text = buf.toString('utf8');
  const messages = [];
  const tools = [];
  let open = null;
  for (let i = 0; i < text.length;) {
    let nl = text.indexOf('\n', i);
    if (nl < 0) nl = text.length;
    if (nl > i) {
      const o = JSON.parse(text.slice(i, nl));
      if (o.type === 'assistant') {
        for (const c of o.message.content) if (c.type === 'text') (open ??= []).push(c.text);
      } else {
        if (open) messages.push(open.join(''));
        open = null;
        if (o.type === 'tool_call' && o.subtype === 'completed') {
          for (const key in o.tool_call) {
            tools.push([key, o.tool_call[key].args, o.tool_call[key].result]);
            break;
          }
        }
      }
    }
    i = nl + 1;
  }
  if (open) messages.push(open.join(''));
  return { messages, tools };
}

/** marked for the Markdown, jsdiff + diff2html for the edits, escaping for the rest; HTML length. */
export function markedOneShot(buf) {
  const { messages, tools } = readWhole(buf);
  let n = marked.parse(messages.join('\n\n')).length;
  for (const [key, args, result] of tools) n += toolHtml(key, args, result).length;
  return n;
}

/** The JavaScript floor: decode, split lines, JSON.parse each. */
export function decodeSplitParse(buf) {
  let n = 0;
  for (const line of buf.toString('utf8').split('\n')) if (line) n += JSON.parse(line).type.length;
  return n;
}

/** The peers' package versions, read from bench/node_modules. */
export const PEER_PACKAGES = ['marked', 'streaming-markdown', 'diff', 'diff2html', 'eventsource-parser'];
