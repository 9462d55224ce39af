// Where the browser suites write their screenshots: target/screenshots/, so a test run
// leaves the working tree clean. The README's images in docs/screenshots/ are refreshed
// on purpose, with DS_SCREENSHOTS=docs/screenshots (see README.md § Tests).

import { mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** The directory screenshots go to (created), under the repository root `root`. */
export function screenshotDir(root) {
  const wanted = process.env.DS_SCREENSHOTS;
  const dir = wanted ? (isAbsolute(wanted) ? wanted : join(root, wanted)) : join(root, 'target', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
