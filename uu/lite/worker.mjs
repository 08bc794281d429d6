// The static site's Python: a module web worker (uu/lite/build.py copies this file to the site as uu-worker.mjs,
// and uu/lite/page.js starts it with the page). It starts Pyodide through uu-pyodide.mjs (uu/lite/boot.mjs: the
// packages come installed, Python from its memory snapshot), gives Python the module `uu_page` to send the
// page its messages, waits for the page's "start" (the learner's language) and runs `uu.lite.app`. The widgets'
// messages then go both ways as JSON text with their binary buffers (uu/lite/bridge.py says what they are).
//
// A worker, not the page itself: Python keeps the page's thread busy for as long as it computes (a Hard bot
// thinks for seconds), and the page must go on drawing and playing the others' moves back meanwhile.
import { loadPyodide } from "./static/pyodide/uu-pyodide.mjs";

const PACKAGES = ["uu-tutor"]; // uu/lite/pins.py PRELOAD: the lock brings what it needs

let deliver = null; // Python's uu.lite.bridge.receive, once the tutor runs
const early = []; // the page's messages before that (none are expected: the page has no widget yet)
let begin;
const started = new Promise((resolve) => { begin = resolve; });

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    begin(message);
  } else if (deliver) {
    deliver(message.text, message.buffers || []);
  } else {
    early.push(message);
  }
};

function toPage(text, buffers) {
  const copies = (buffers && buffers.toJs ? buffers.toJs() : buffers || []).map((b) => new Uint8Array(b));
  self.postMessage({ text, buffers: copies }, copies.map((b) => b.buffer));
}

function failed(error) {
  console.error("the tutor could not start:", error);
  self.postMessage({ text: JSON.stringify({ type: "failed" }), buffers: [] });
}

try {
  const pyodide = await loadPyodide({
    indexURL: new URL("./static/pyodide/", import.meta.url).href,
    packages: PACKAGES,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  pyodide.registerJsModule("uu_page", { send: toPage });
  const { lang } = await started;
  const lite = pyodide.pyimport("uu.lite");
  lite.app.callKwargs({ lang: typeof lang === "string" ? lang : null });
  deliver = pyodide.pyimport("uu.lite.bridge").receive;
  for (const message of early.splice(0)) deliver(message.text, message.buffers || []);
} catch (error) {
  failed(error);
}
