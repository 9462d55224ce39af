// streaming-markdown (npm `streaming-markdown`) rendering the assistant's text into the
// DOM as it arrives, its own default renderer appending to the open node; a JavaScript
// ingest (../../lib/ingest.mjs) reads the stream-json lines and renders the tool calls
// the way the Node peers do (../../lib/tools.mjs: escaped <pre>, jsdiff + diff2html).
import * as smd from 'streaming-markdown';
import { toolHtml, escapeHtml } from '../../lib/tools.mjs';
import { NdjsonFramer } from '../../lib/ingest.mjs';
import { expose, stickToBottom } from './harness.js';

const box = document.getElementById('chat');

/** Stream-json events to DOM: one element per document, marked `.bench-doc`. */
class DomSink {
  constructor(container) {
    this.box = container;
    this.parser = null;
    this.pending = null;
  }
  add(className) {
    const el = document.createElement('div');
    el.className = `bench-doc ${className}`;
    this.box.appendChild(el);
    return el;
  }
  user(text) {
    this.end();
    this.add('user').textContent = text;
  }
  delta(text) {
    if (!this.parser) this.parser = smd.parser(smd.default_renderer(this.add('msg')));
    smd.parser_write(this.parser, text);
  }
  end() {
    if (this.parser) {
      smd.parser_end(this.parser);
      this.parser = null;
    }
  }
  toolStarted(key, args) {
    this.end();
    this.pending = this.add('tool pending');
    this.pending.innerHTML = `<div class="h">${escapeHtml(key)} ${escapeHtml(args?.path ?? args?.command ?? '')}</div>`;
  }
  toolCompleted(key, args, result) {
    this.end();
    const el = this.pending ?? this.add('tool');
    this.pending = null;
    el.className = 'bench-doc tool';
    el.innerHTML = toolHtml(key, args, result);
  }
}

let framer = null;
stickToBottom(box);
expose({
  name: 'streaming-markdown',
  ready: Promise.resolve(),
  reset() {
    box.replaceChildren();
    framer = new NdjsonFramer(new DomSink(box));
  },
  push: (chunk) => framer.push(chunk),
  end: () => framer.finish(),
  load(bytes) {
    framer.push(bytes);
    framer.finish();
  },
  count: () => box.querySelectorAll('.bench-doc').length,
});
