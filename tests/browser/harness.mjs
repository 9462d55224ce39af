// Shared pieces of the browser tests: the static server, Chromium, pages that fail on
// console errors and CSP violations, seeded random chunking.
import { chromium } from 'playwright-core';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve, ROOT } from '../../scripts/serve.mjs';

export { ROOT };
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
}

export { serve };

export function readRoot(path, encoding) {
  return readFileSync(new URL(path, `file://${ROOT}/`), encoding);
}

export function sharedAvailable(path) {
  return existsSync(SHARED + path);
}

/** mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SEED = process.env.DOCSTREAM_SEED ? Number(process.env.DOCSTREAM_SEED) : (Date.now() % 1e9);

/** Random chunk lengths covering `length` (1..max bytes each). */
export function randomCuts(length, random, max = 64) {
  const cuts = [];
  for (let at = 0; at < length; ) {
    const n = 1 + Math.floor(random() * max);
    cuts.push(Math.min(n, length - at));
    at += n;
  }
  return cuts;
}

/**
 * A page that records console errors, page errors, CSP violations, dialogs and every
 * request. `problems()` lists what went wrong.
 */
export async function newPage(context, { allowConsoleErrors = false } = {}) {
  const page = await context.newPage();
  const log = { console: [], errors: [], dialogs: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.console.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(String(e?.stack ?? e)));
  page.on('dialog', (d) => {
    log.dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('request', (r) => log.requests.push(r.url()));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.log = log;
  page.problems = async () => {
    const violations = await page.evaluate(() => window.__violations ?? []).catch(() => []);
    return [
      ...(allowConsoleErrors ? [] : log.console.map((m) => `console error: ${m}`)),
      ...log.errors.map((m) => `page error: ${m}`),
      ...log.dialogs.map((m) => `dialog: ${m}`),
      ...violations.map((m) => `CSP violation: ${m}`),
    ];
  };
  return page;
}
