// The static site's own script (uu/lite/build.py copies it to the site as uu-page.js), loaded by its two pages:
//
// - the entry page (index.html, data-page="entry"): on to repl/index.html with only the tutor's own parameters;
// - the REPL page (repl/index.html, data-page="repl", in <head> before JupyterLite's scripts): the page's
//   address is replaced before JupyterLite reads it, so the REPL only ever runs the one line fixed below,
//   whatever a link says (JupyterLite's REPL runs every `code` of its query, or of its #fragment, at start);
//   then the tutor's loading screen, over everything, until the tutor is drawn.
//
// Only `lesson`, `position` and `lang` pass, once each and of a bounded length; the tutor checks their content
// and says in plain words what is wrong with a bad one (uu/scenario/link.py, uu/widgets/tutor_app.py `open_link`).
(function () {
  "use strict";
  const TUTOR_PARAMS = ["lesson", "position", "lang"];
  // the tutor's own checks then say "too long" (a position code is at most 6,000 characters)
  const MAX_VALUE = 8192;
  const CODE = "import uu.lite; uu.lite.app(page=%s, lang=%l);"; // the ";" keeps IPython from showing the App twice

  function tutorQuery(search) {
    const given = new URLSearchParams(search);
    const out = new URLSearchParams();
    for (const key of TUTOR_PARAMS) {
      const value = given.get(key);
      if (value !== null) out.set(key, value.slice(0, MAX_VALUE + 1));
    }
    return out;
  }
  const me = document.currentScript;
  const page = me && me.dataset.page;

  if (page === "entry") {
    const query = tutorQuery(location.search).toString();
    location.replace("repl/index.html" + (query ? "?" + query : ""));
    return;
  }
  if (page !== "repl") return;

  // a name for this page's loading messages (uu.lite.app sends them on a BroadcastChannel of that name)
  const token = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  const tutor = tutorQuery(location.search);
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

  // the tutor starts in that language: the same choice as its own once the browser has spoken, so its first
  // screen is not drawn in English and again in the learner's language
  const fixed = new URLSearchParams({
    kernel: "python", toolbar: "0", showBanner: "0", hideCodeInput: "1", promptCellPosition: "top",
    code: CODE.replace("%s", JSON.stringify(token)).replace("%l", JSON.stringify(lang)),
  });
  for (const [key, value] of tutor) fixed.set(key, value);
  // no fragment: JupyterLite reads the REPL's parameters from the fragment first when it has any
  history.replaceState(null, "", location.pathname + "?" + fixed.toString());

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

  const state = { stage: "download", got: 0, total: files.bytes, failed: false };
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
    if (STAGES.indexOf(stage) > STAGES.indexOf(state.stage)) {
      state.stage = stage;
      movedAt = performance.now();
      times[stage] = Math.round(movedAt);
      render();
    }
  }

  // The files Python needs first, fetched from the first paint on (in parallel with JupyterLite's own scripts)
  // and counted: the kernel, started later, finds them in the browser's cache.
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
    const base = new URL("../", location.href);
    const queue = files.first.slice();
    const lanes = Array.from({ length: 6 }, async () => {
      while (queue.length) await fetchCounted(new URL(queue.shift(), base)).catch(() => {});
    });
    await Promise.all(lanes);
    times.downloaded = Math.round(performance.now());
    reach("page");
  }

  // what Python says while it starts the tutor (uu/lite/__init__.py `app`)
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel("uu-loading-" + token);
    channel.onmessage = (event) => {
      const stage = event.data && event.data.stage;
      if (STAGES.includes(stage)) reach(stage);
    };
  }

  function appShown() {
    const app = document.querySelector(".uu-app");
    if (!app || !app.offsetParent || !app.querySelector(".uu-home-screen, .uu-lesson, .uu-play-screen, .uu-sandbox-screen")) {
      return false;
    }
    // a link to a lesson or a position: its screen, or the tutor's word on why it cannot open
    if (fixed.get("lesson") || fixed.get("position")) {
      const home = app.querySelector(".uu-home-screen");
      const error = app.querySelector(".uu-error-box");
      if (home && home.offsetParent && !(error && error.textContent.trim())) return false;
    }
    return true;
  }
  function failed() {
    // Python's error output, never shown: the loading screen says the tutor could not start instead
    return document.querySelector(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']," +
                                  ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']");
  }
  let drawnAt = 0;
  function watch() {
    const box = document.getElementById("uu-loading");
    if (!box) return;
    if (state.stage === "page" && document.querySelector(".jp-CodeConsole")) reach("python");
    const app = document.querySelector(".uu-app");
    if (app && app.offsetParent) drawnAt = drawnAt || performance.now();
    // the home is drawn first and a link's screen just after: wait for it, a few seconds at most
    if (appShown() || (drawnAt && performance.now() - drawnAt > 4000)) {
      times.shown = Math.round(performance.now());
      box.remove();
      document.documentElement.classList.add("uu-ready");
      return;
    }
    // Python's error, or no step forward for three minutes (a first visit on a slow line downloads meanwhile)
    const stuck = state.stage !== "download" && performance.now() - movedAt > 180000;
    if (!state.failed && (stuck || failed()) && !document.querySelector(".uu-app")) {
      state.failed = true;
      render();
    }
    setTimeout(watch, 100);
  }
  document.addEventListener("DOMContentLoaded", () => {
    render();
    watch();
  });
  if (document.readyState !== "loading") {
    render();
    watch();
  }
  download().catch(() => reach("page"));
})();
