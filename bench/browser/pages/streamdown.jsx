// Streamdown (npm `streamdown`) in React 19, fed the way its README shows: a list of
// chat messages (what AI SDK's useChat keeps: messages with parts, and a status), each
// text part a <Streamdown animated isAnimating={status === 'streaming'}>, with its
// default plugins (no `plugins` prop: remark-gfm, rehype-raw, sanitize, harden). The
// tool parts render the tool calls as the other peers do (../../lib/tools.mjs). The
// state changes once per chunk that completed a line; React renders it as it schedules.
//
// With `?src=URL` the page streams that URL itself (the cold-start run).
import { createRoot } from 'react-dom/client';
import { memo, useLayoutEffect, useMemo, useState } from 'react';
import { Streamdown } from 'streamdown';
import { toolHtml, escapeHtml } from '../../lib/tools.mjs';
import { NdjsonFramer } from '../../lib/ingest.mjs';
import { expose, stickToBottom } from './harness.js';

/** The chat's messages, updated immutably as the lines arrive (a sink of NdjsonFramer). */
class ChatStore {
  constructor() {
    this.messages = [];
    this.status = 'ready';
    this.version = 0;
    this.changed = false;
    this.textOpen = false;
    this.listener = null;
    this.ids = 0;
    this.waiting = [];
  }
  /** Resolves once React committed the state as it is now. */
  rendered() {
    const version = this.version;
    return new Promise((resolve) => this.waiting.push([version, resolve]));
  }
  /** Called by the chat after each commit. */
  committed(version) {
    this.waiting = this.waiting.filter(([v, resolve]) => (v <= version ? (resolve(), false) : true));
  }
  replaceLast(message) {
    this.messages = [...this.messages.slice(0, -1), message];
    this.changed = true;
  }
  assistant() {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'assistant') return last;
    const m = { id: `m${++this.ids}`, role: 'assistant', parts: [] };
    this.messages = [...this.messages, m];
    return m;
  }
  user(text) {
    this.end();
    this.messages = [...this.messages, { id: `m${++this.ids}`, role: 'user', parts: [{ type: 'text', text }] }];
    this.changed = true;
  }
  delta(text) {
    const m = this.assistant();
    const parts = m.parts.slice();
    if (this.textOpen) parts[parts.length - 1] = { type: 'text', text: parts[parts.length - 1].text + text };
    else parts.push({ type: 'text', text });
    this.textOpen = true;
    this.replaceLast({ ...m, parts });
  }
  end() {
    this.textOpen = false;
  }
  toolStarted(key, args) {
    this.end();
    const m = this.assistant();
    this.replaceLast({ ...m, parts: [...m.parts, { type: 'tool', key, args, state: 'input-available' }] });
  }
  toolCompleted(key, args, result) {
    this.end();
    const m = this.assistant();
    const parts = m.parts.slice();
    const last = parts[parts.length - 1];
    const done = { type: 'tool', key, args, result, state: 'output-available' };
    if (last?.type === 'tool' && last.state === 'input-available') parts[parts.length - 1] = done;
    else parts.push(done);
    this.replaceLast({ ...m, parts });
  }
  /** Tells React, once per chunk, if anything changed. */
  publish() {
    if (!this.changed) return;
    this.changed = false;
    this.version++;
    this.listener?.(this.version);
  }
  setStatus(status) {
    this.status = status;
    this.version++;
    this.listener?.(this.version);
  }
}

const ToolPart = memo(function ToolPart({ part }) {
  const html = useMemo(
    () =>
      part.state === 'output-available'
        ? toolHtml(part.key, part.args, part.result)
        : `<div class="h">${escapeHtml(part.key)} ${escapeHtml(part.args?.path ?? part.args?.command ?? '')}</div>`,
    [part],
  );
  return <div className={`bench-doc tool${part.state === 'output-available' ? '' : ' pending'}`} dangerouslySetInnerHTML={{ __html: html }} />;
});

const Message = memo(function Message({ message, streaming }) {
  return (
    <div className={`message ${message.role}`}>
      {message.parts.map((part, index) =>
        part.type === 'text' ? (
          message.role === 'user' ? (
            <div key={index} className="bench-doc user">{part.text}</div>
          ) : (
            <div key={index} className="bench-doc msg">
              <Streamdown animated isAnimating={streaming}>{part.text}</Streamdown>
            </div>
          )
        ) : (
          <ToolPart key={index} part={part} />
        ),
      )}
    </div>
  );
});

function Chat({ store }) {
  const [version, setVersion] = useState(store.version);
  useLayoutEffect(() => {
    store.listener = setVersion;
    // A change between the render and now.
    if (store.version !== version) setVersion(store.version);
    return () => {
      store.listener = null;
    };
  }, [store]);
  useLayoutEffect(() => store.committed(version), [store, version]);
  const streaming = store.status === 'streaming';
  return (
    <>
      {store.messages.map((message) => (
        <Message key={message.id} message={message} streaming={streaming} />
      ))}
    </>
  );
}

// The chat box (the scroll box, kept across runs; each run mounts a fresh chat in it).
const box = document.getElementById('chat');
const root = createRoot(box);
let store = null;
let framer = null;
let stores = 0;

/** A fresh chat, mounted; resolves once React committed it. */
function fresh() {
  store = new ChatStore();
  framer = new NdjsonFramer(store);
  const mounted = store.rendered();
  root.render(<Chat key={++stores} store={store} />);
  return mounted;
}

const ready = fresh();
stickToBottom(box);

expose({
  name: 'Streamdown',
  ready,
  async reset() {
    await fresh();
    store.setStatus('streaming');
    await store.rendered();
  },
  push(chunk) {
    if (framer.push(chunk)) store.publish();
  },
  end() {
    framer.finish();
    store.publish();
    store.setStatus('ready');
    return store.rendered();
  },
  load(bytes) {
    framer.push(bytes);
    framer.finish();
    store.setStatus('ready');
    return store.rendered();
  },
  count: () => box.querySelectorAll('.bench-doc').length,
});

// The cold-start run: stream ?src= as it arrives, one state change per network chunk.
const src = new URLSearchParams(location.search).get('src');
if (src) {
  ready.then(async () => {
    store.setStatus('streaming');
    const response = await fetch(src);
    const reader = response.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (framer.push(value)) store.publish();
    }
    framer.finish();
    store.publish();
    store.setStatus('ready');
  });
}
