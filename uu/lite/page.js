// The static site's page script (uu/lite/build.py copies it to the site as uu-page.js; index.html loads it first in
// its head). From the first paint the page is the tutor's loading screen, in the learner's language, with real
// progress; meanwhile it starts Python in a web worker (uu/lite/worker.mjs) and ipywidgets' manager for pages
// without Jupyter, and then draws the tutor's widgets as Python sends them (their messages: uu/lite/bridge.py).
// There is no code prompt and no kernel: nothing a link or a learner types is ever run as code.
//
// Of the page's address only `lesson`, `position` and `lang` pass, once each and of a bounded length; the tutor
// checks their content and says in plain words what is wrong with a bad one (uu/scenario/link.py,
// uu/widgets/tutor_app.py `open_link`).
(function () {
  "use strict";
  const TUTOR_PARAMS = ["lesson", "position", "lang"];
  // the tutor's own checks then say "too long" (a position code is at most 6,000 characters)
  const MAX_VALUE = 8192;
  const SCRIPTS = ["static/widgets/require.js", "static/widgets/html-manager.js"];

  function tutorQuery(search) {
    const given = new URLSearchParams(search);
    const out = new URLSearchParams();
    for (const key of TUTOR_PARAMS) {
      const value = given.get(key);
      if (value !== null) out.set(key, value.slice(0, MAX_VALUE + 1));
    }
    return out;
  }
  const tutor = tutorQuery(location.search);
  // the address as the tutor reads it (uu/widgets/progress.js reports it): its own parameters only, no fragment
  const query = tutor.toString();
  history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));

  const words = JSON.parse(document.getElementById("uu-words").textContent);
  const files = JSON.parse(document.getElementById("uu-files").textContent);
  function savedLanguage() {
    try {
      const saved = JSON.parse(localStorage.getItem("uu-progress") || "{}");
      return typeof saved.lang === "string" ? saved.lang : null;
    } catch (e) {
      return null;
    }
  }
  function pickLanguage() {
    // the same order as the tutor's (uu/widgets/language.py): a link's, the learner's saved choice, the browser's
    // (`navigator.language`, as uu/widgets/progress.js reports it)
    for (const tag of [tutor.get("lang"), savedLanguage(), navigator.language]) {
      const base = String(tag || "").trim().replace("_", "-").split("-")[0].toLowerCase();
      if (Object.prototype.hasOwnProperty.call(words, base)) return base;
    }
    return "en";
  }
  const lang = pickLanguage(); // one of the keys of `words`: the tutor's languages, nothing from the link itself

  // ---- Python, started at once: the worker loads while the page does the rest ------------------------------
  const worker = new Worker("uu-worker.mjs", { type: "module" });
  // the tutor starts in that language: the same choice as its own once the browser has spoken, so its first
  // screen is not drawn in English and again in the learner's language
  worker.postMessage({ type: "start", lang });

  // ---- the loading screen -------------------------------------------------------------------------------
  const returning = (() => {
    try {
      return localStorage.getItem("uu-progress") !== null;
    } catch (e) {
      return false;
    }
  })();
  const say = words[lang];
  document.documentElement.lang = lang;
  document.title = say.title;

  const state = { stage: "download", got: 0, total: files.bytes, failed: false, downloaded: false };
  const STAGES = ["download", "page", "python", "import", "app", "draw"];
  // share of the bar each stage ends at: the download is most of a first visit
  const ENDS = { download: 0.6, page: 0.7, python: 0.8, import: 0.9, app: 0.96, draw: 1 };

  function mib(n) {
    return (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
  }
  function render() {
    const box = document.getElementById("uu-loading");
    if (!box) return;
    let text = say[state.stage];
    let fraction = ENDS[state.stage];
    if (state.stage === "download") {
      text = say.download.replace("{done}", mib(state.got)).replace("{total}", mib(state.total));
      fraction = ENDS.download * Math.min(1, state.got / Math.max(1, state.total));
    } else {
      const i = STAGES.indexOf(state.stage);
      fraction = ENDS[STAGES[i - 1]];
    }
    if (state.failed) text = say.failed;
    box.querySelector(".uu-loading-title").textContent = say.title;
    box.querySelector(".uu-loading-what").textContent = text;
    // the size of the download matters on a first visit only (a learner with progress saved has been here)
    box.querySelector(".uu-loading-note").textContent = returning ? "" : say.note.replace("{total}", mib(files.bytes));
    const bar = box.querySelector(".uu-loading-bar");
    bar.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
    bar.firstElementChild.style.width = (fraction * 100).toFixed(1) + "%";
    box.dataset.stage = state.failed ? "failed" : state.stage;
  }
  let movedAt = performance.now();
  // when each stage began (ms since the navigation): uu.lite.bench reports where a visit's wait goes
  const times = (window.uuLoadingTimes = { download: Math.round(movedAt) });
  function reach(stage) {
    const to = STAGES.indexOf(stage);
    const from = STAGES.indexOf(state.stage);
    if (to <= from) return;
    movedAt = performance.now();
    // a stage passed over (Python can be quicker than the page's scripts) began when the next one did
    for (let i = from + 1; i <= to; i++) times[STAGES[i]] = Math.round(movedAt);
    state.stage = stage;
    render();
  }
  function fail(why) {
    if (state.failed || !document.getElementById("uu-loading")) return;
    console.error("the tutor could not start:", why);
    state.failed = true;
    render();
  }

  // The files Python needs first, fetched from the first paint on and counted, while the worker starts: the
  // browser gives both the same download (one request, the other waits for its copy in the cache).
  async function fetchCounted(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok || !response.body) return;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      state.got += value.byteLength;
      if (state.stage === "download") render();
    }
  }
  async function download() {
    const base = new URL("./", location.href);
    const queue = files.first.slice();
    const lanes = Array.from({ length: 6 }, async () => {
      while (queue.length) await fetchCounted(new URL(queue.shift(), base)).catch(() => {});
    });
    await Promise.all(lanes);
    times.downloaded = Math.round(performance.now());
    state.downloaded = true;
    reach("page");
    if (manager) reach("python");
  }

  // ---- the widgets: ipywidgets' manager for pages without Jupyter, its comms carried by the worker ----------
  let manager = null;
  const pending = []; // the worker's messages that came before the manager
  const comms = new Map();
  const idle = new Map(); // a sent message's id: what to call when Python is done with it
  let sent = 0;

  function toWorker(message, buffers) {
    const copies = (buffers || []).map((b) => (ArrayBuffer.isView(b)
      ? new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) : new Uint8Array(b)));
    worker.postMessage({ text: JSON.stringify(message), buffers: copies }, copies.map((b) => b.buffer));
  }

  // what a widget's model expects of its comm (@jupyter-widgets/base `IClassicComm`)
  class WorkerComm {
    constructor(id, target) {
      this.comm_id = id;
      this.target_name = target;
      this.onMessage = null;
      this.onClose = null;
    }
    open() {
      throw new Error("the page opens no widget of its own");
    }
    send(data, callbacks, metadata, buffers) {
      const id = "page-" + ++sent;
      // the model sends its next change once Python is done with this one, as a kernel says "idle"
      const status = callbacks && callbacks.iopub && callbacks.iopub.status;
      if (status) idle.set(id, status);
      toWorker({ type: "comm_msg", comm_id: this.comm_id, msg_id: id, data }, buffers);
      return id;
    }
    close(data) {
      comms.delete(this.comm_id);
      toWorker({ type: "comm_close", comm_id: this.comm_id, msg_id: "page-" + ++sent, data: data || {} });
      return "";
    }
    on_msg(callback) {
      this.onMessage = callback;
    }
    on_close(callback) {
      this.onClose = callback;
    }
  }

  async function fromPython(message, buffers) {
    // as a kernel's message: its `parent_header` names the page's message it answers (ipywidgets matches the
    // echo of a change the page made by it)
    const msg = { content: { comm_id: message.comm_id, target_name: message.target_name, data: message.data || {} },
                  metadata: message.metadata || {}, buffers, parent_header: { msg_id: message.parent || "" } };
    if (message.type === "comm_open") {
      const comm = new WorkerComm(message.comm_id, message.target_name);
      comms.set(message.comm_id, comm);
      await manager.handle_comm_open(comm, msg);
    } else if (message.type === "comm_msg") {
      const comm = comms.get(message.comm_id);
      if (comm && comm.onMessage) await comm.onMessage(msg);
    } else if (message.type === "comm_close") {
      const comm = comms.get(message.comm_id);
      comms.delete(message.comm_id);
      if (comm && comm.onClose) comm.onClose(msg);
    } else if (message.type === "idle") {
      const status = idle.get(message.parent);
      idle.delete(message.parent);
      if (status) status({ content: { execution_state: "idle" }, parent_header: { msg_id: message.parent } });
    } else if (message.type === "display") {
      const root = document.getElementById("uu-app-root");
      const view = await manager.create_view(await manager.get_model(message.model_id));
      root.textContent = "";
      await manager.display_view(view, root);
    }
  }
  // one at a time, in the order Python sent them: a widget is opened before the widgets that hold it
  let chain = Promise.resolve();
  function handle(message, buffers) {
    chain = chain.then(() => fromPython(message, buffers)).catch((e) => console.error("uu: a widget message failed", e));
  }

  worker.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data.text);
    } catch (e) {
      return;
    }
    if (message.type === "stage") {
      reach(message.stage);
    } else if (message.type === "failed") {
      fail("Python");
    } else if (manager) {
      handle(message, event.data.buffers || []);
    } else {
      pending.push([message, event.data.buffers || []]);
    }
  };
  worker.onerror = (event) => fail(event.message || "the worker");

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(src));
      document.head.appendChild(script);
    });
  }
  async function startManager() {
    for (const src of SCRIPTS) await loadScript(src);
    window.requirejs.config({ paths: { anywidget: "static/widgets/anywidget" } });
    const { HTMLManager } = await new Promise((resolve, reject) => window.require(["@jupyter-widgets/html-manager"],
                                                                                     resolve, reject));
    // the widgets of other modules than ipywidgets' own: anywidget's front end, from the site
    const loader = (name) => new Promise((resolve, reject) => window.require([name], resolve, reject));
    manager = new HTMLManager({ loader });
    if (state.downloaded) reach("python");
    for (const [message, buffers] of pending.splice(0)) handle(message, buffers);
  }

  // drawn on the page (not `offsetParent`: null for the App in a game's layout, which is position: fixed)
  function drawn(element) {
    return !!element && element.getClientRects().length > 0;
  }
  function appShown() {
    const app = document.querySelector(".uu-app");
    if (!drawn(app) || !app.querySelector(".uu-home-screen, .uu-lesson, .uu-play-screen, .uu-sandbox-screen")) {
      return false;
    }
    // the browser's copy of the progress taken (uu/widgets/tutor_app.py `_browser_taken`): the home is not
    // redrawn under the learner's first click, and a reload's screen is open (a lesson, a game), not the home
    if (!app.classList.contains("uu-restored")) return false;
    // a link to a lesson or a position: its screen, or the tutor's word on why it cannot open
    if (tutor.get("lesson") || tutor.get("position")) {
      const home = app.querySelector(".uu-home-screen");
      const error = app.querySelector(".uu-error-box");
      if (drawn(home) && !(error && error.textContent.trim())) return false;
    }
    return true;
  }
  let drawnAt = 0;
  function watch() {
    const box = document.getElementById("uu-loading");
    if (!box) return;
    const app = document.querySelector(".uu-app");
    if (drawn(app)) drawnAt = drawnAt || performance.now();
    // the home is drawn first and the screen the progress or a link names just after: wait for it, a few
    // seconds at most
    const ready = appShown();
    if (ready || (drawnAt && performance.now() - drawnAt > 4000)) {
      times.shown = Math.round(performance.now());
      times.shownBy = ready ? "screen" : "timeout"; // the tests ask for "screen"
      box.remove();
      document.documentElement.classList.add("uu-ready");
      return;
    }
    // no step forward for three minutes (a first visit on a slow line downloads meanwhile)
    if (state.stage !== "download" && performance.now() - movedAt > 180000) fail("no progress for three minutes");
    setTimeout(watch, 30); // a few querySelector calls: cheap, and the learner sees the tutor sooner
  }
  function ready() {
    render();
    watch();
    startManager().catch((e) => fail(e));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  download().catch(() => reach("page"));
})();
