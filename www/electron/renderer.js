// The Electron renderer: lines from the main process (through the preload bridge) go
// into <docstream-view>.
import '../../pkg/define.js';

const view = document.querySelector('docstream-view');
const bridge = window.docstreamBridge;

bridge.onReset(() => view.clear());
bridge.onLine((line) => view.push(`${line}\n`));
bridge.onEnd(() => view.finish());
