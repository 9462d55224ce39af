// The page `docstream html --follow FILE` serves: the server reads what the agent
// appends to FILE and sends the patches that bring this page up to date, as
// Server-Sent Events; the package's own applier (apply.js) applies them. `reset` starts
// the page again (on connecting, and when the file was truncated or replaced: the
// event says so); `status` is a new status line. A page scrolled to its end stays there
// as the run grows.

import { PatchApplier } from './apply.js';
import './copy.js';

const root = document.querySelector('.ds-conversation');
const status = document.querySelector('.ds-follow-status');
let applier = new PatchApplier(root);

function say(text) {
  status.textContent = text;
}

function atEnd() {
  const page = document.scrollingElement;
  return page.scrollHeight - page.scrollTop - page.clientHeight < 48;
}

const events = new EventSource('/events');
events.addEventListener('reset', (e) => {
  root.replaceChildren();
  applier = new PatchApplier(root);
  say(e.data);
});
events.addEventListener('status', (e) => say(e.data));
events.addEventListener('patches', (e) => {
  const follow = atEnd();
  applier.applyObjects(JSON.parse(e.data));
  if (follow) document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight;
});
events.addEventListener('error', () => {
  if (events.readyState !== EventSource.CLOSED) say('Disconnected: trying again…');
});
