// A minimal VS Code extension: runs a coding agent (or reads a saved NDJSON transcript)
// and shows its stream in a webview with <docstream-view>. Untested here (VS Code is
// not installed where docstream is built); the webview page itself is tested in
// Chromium by tests/browser/embed.test.mjs with the same CSP.
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const crypto = require('node:crypto');

function docstreamRoot(context) {
  // The docstream package, installed as a dependency of this extension.
  return vscode.Uri.file(path.dirname(require.resolve('docstream/package.json', { paths: [context.extensionPath] })));
}

function openPanel(context, title) {
  const pkg = docstreamRoot(context);
  const media = vscode.Uri.joinPath(context.extensionUri);
  const panel = vscode.window.createWebviewPanel('docstream', title, vscode.ViewColumn.Beside, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [pkg, media],
  });
  const webview = panel.webview;
  const nonce = crypto.randomBytes(16).toString('base64');
  const template = fs.readFileSync(path.join(context.extensionPath, 'webview.html'), 'utf8');
  webview.html = template
    .replaceAll('{{nonce}}', nonce)
    .replaceAll('{{cspSource}}', webview.cspSource)
    .replaceAll('{{docstream}}', webview.asWebviewUri(pkg).toString())
    .replaceAll('{{script}}', webview.asWebviewUri(vscode.Uri.joinPath(media, 'webview.js')).toString());
  const ready = new Promise((resolve) => {
    webview.onDidReceiveMessage((m) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'choice') vscode.window.showInformationMessage(`Chosen: ${m.questionId} → ${m.optionId}`);
      else if (m.type === 'error') vscode.window.showWarningMessage(`docstream: ${m.code}: ${m.message}`);
    });
  });
  return { panel, ready };
}

/** Posts each line of `input` (a readable stream of NDJSON) to the webview. */
async function pump(panel, ready, input) {
  await ready;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) panel.webview.postMessage({ type: 'line', line });
  panel.webview.postMessage({ type: 'end' });
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('docstream.runAgent', async () => {
      const prompt = await vscode.window.showInputBox({ prompt: 'Prompt for the agent' });
      if (!prompt) return;
      const config = vscode.workspace.getConfiguration('docstream');
      const command = config.get('agentCommand', 'cursor-agent');
      const args = [...config.get('agentArgs', ['-p', '--output-format', 'stream-json', '--stream-partial-output']), prompt];
      const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const { panel, ready } = openPanel(context, 'Agent run');
      const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      child.on('error', (e) => vscode.window.showErrorMessage(`docstream: ${command}: ${e.message}`));
      panel.onDidDispose(() => child.kill());
      await pump(panel, ready, child.stdout);
    }),
    vscode.commands.registerCommand('docstream.openTranscript', async () => {
      const [file] = (await vscode.window.showOpenDialog({ filters: { Transcripts: ['jsonl', 'ndjson', 'json', 'sse'] } })) ?? [];
      if (!file) return;
      const { panel, ready } = openPanel(context, path.basename(file.fsPath));
      await pump(panel, ready, fs.createReadStream(file.fsPath));
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
