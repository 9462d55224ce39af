
// The standalone page's own script (after element-copy.js, in one inline module): the
// copy controls, shown once it runs, put their text on the clipboard.
document.body.classList.add('ds-scripted');
document.addEventListener('click', (e) => {
  const button = e.target instanceof Element ? e.target.closest('.ds-copy') : null;
  const doc = button?.closest('.ds-doc');
  if (!doc || !navigator.clipboard?.writeText) return;
  navigator.clipboard.writeText(copiedText(doc, button.getAttribute('data-copy'))).then(() => {
    button.setAttribute('data-ds-copied', '');
    setTimeout(() => button.removeAttribute('data-ds-copied'), 1500);
  });
});
