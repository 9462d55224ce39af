// The preload bridge: the page gets three callbacks, never ipcRenderer itself.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('docstreamBridge', {
  onReset: (callback) => ipcRenderer.on('docstream:reset', () => callback()),
  onLine: (callback) => ipcRenderer.on('docstream:line', (_event, line) => callback(String(line))),
  onEnd: (callback) => ipcRenderer.on('docstream:end', () => callback()),
});
