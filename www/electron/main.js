// Electron example: replays a transcript file line by line into <docstream-view>
// through a preload bridge (context isolation on, node integration off, sandboxed).
//   npx electron www/electron/main.js [transcript.jsonl] [--delay ms]
// Untested here (Electron is not installed where docstream is built); the renderer page
// is tested in Chromium with a stub bridge by tests/browser/embed.test.mjs.
const { app, BrowserWindow, protocol, net } = require('electron');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..', '..'); // serves /pkg/, /www/, /examples/
const args = process.argv.slice(app.isPackaged ? 1 : 2).filter((a) => !a.startsWith('--'));
const transcript = path.resolve(args[0] ?? path.join(root, 'examples', 'cursor-session.jsonl'));
const delayAt = process.argv.indexOf('--delay');
const delay = delayAt > 0 ? Number(process.argv[delayAt + 1]) : 20;

// A standard, secure scheme: ES modules and the .wasm load like from a web server.
protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function replay(contents) {
  const lines = readline.createInterface({ input: fs.createReadStream(transcript), crlfDelay: Infinity });
  contents.send('docstream:reset');
  for await (const line of lines) {
    if (contents.isDestroyed()) return;
    contents.send('docstream:line', line);
    if (delay > 0) await sleep(delay);
  }
  if (!contents.isDestroyed()) contents.send('docstream:end');
}

app.whenReady().then(() => {
  protocol.handle('app', (request) => {
    const { pathname } = new URL(request.url);
    const file = path.normalize(path.join(root, decodeURIComponent(pathname)));
    if (!file.startsWith(root + path.sep)) return new Response('forbidden', { status: 403 });
    return net.fetch(pathToFileURL(file).toString());
  });
  const win = new BrowserWindow({
    width: 1000,
    height: 800,
    webPreferences: {
      preload: path.join(__dirname, 'preload.js'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  win.webContents.once('did-finish-load', () => replay(win.webContents));
  win.loadURL('app://docstream/www/electron/index.html');
});

app.on('window-all-closed', () => app.quit());
