// The built site's Python without a browser: `node uu/lite/smoke.mjs build/lite [--no-pyc] [--preread]`.
// Loads Pyodide and the site's wheels from the folder's own files (its lock file lists only them; nothing is
// fetched), then builds the App on each screen (home, a lesson, a game, the sandbox), plays a lesson step and
// a game move, and prints one JSON line with what it saw and how long each part took. Exit 1 on any failure.
// tests/test_lite_site.py runs it; this is also where the engine is checked as plain Python 3.14 (Pyodide's).
import path from "node:path";
import { pathToFileURL } from "node:url";

// --no-pyc: ignore the wheels' .pyc files (compile every module, as a build without them would);
// --preread: read the lessons and the catalog from the build's table, as the page does (uu.lite.app);
// --no-snapshot: start Python from scratch, not from the site's memory snapshot (uu/lite/boot.mjs).
const args = process.argv.slice(2);
const site = path.resolve(args.find((a) => !a.startsWith("--")) || "build/lite");
const pyodideDir = path.join(site, "static", "pyodide") + path.sep;
// Pyodide as the page loads it: through uu/lite/boot.mjs, the preloaded packages installed from the site's image
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "uu-pyodide.mjs")).href);

const CHECK = `
import json, sys, time
# a start restored from the snapshot has the widgets' imports done already (nothing here imported IPython yet)
restored = "IPython" in sys.modules and "ipywidgets" in sys.modules
import random
first_random = random.random()
if ${args.includes("--no-pyc") ? "True" : "False"}:
    sys.pycache_prefix = "/tmp/no-pyc"  # .pyc looked for there only: none
t = time.perf_counter()
import uu.widgets
from uu.widgets import App
import uu.lite
imported = time.perf_counter() - t
t = time.perf_counter()
if ${args.includes("--preread") ? "True" : "False"}:
    uu.lite._preread()
app = App()
built = time.perf_counter() - t
assert app.error is None, app.error
seen = {"python": sys.version.split()[0], "lessons": len(app.lessons), "import_s": round(imported, 2),
        "app_s": round(built, 2), "restored": restored, "random": first_random}

# the tutor's start as the page's worker runs it (uu/lite/worker.mjs), its messages to the page taken by the
# stand-in uu_page module below: the loading stages, every widget opened, the App shown
import uu_page
from uu.lite import bridge
from ipywidgets.widgets.widget import _instances
shown = uu.lite.app(lang="fr")
messages = [json.loads(text) for text in uu_page.sent]
seen["stages"] = [m["stage"] for m in messages if m["type"] == "stage"]
opened = {m["comm_id"] for m in messages if m["type"] == "comm_open"}
seen["shown_opened"] = [m["model_id"] for m in messages if m["type"] == "display"] == [shown.model_id] and \
    shown.model_id in opened
# JSON from Python: a trait whose value is None arrives as null (Pyodide's conversion would drop the key)
seen["nulls_kept"] = any(value is None for m in messages if m["type"] == "comm_open"
                         for value in m["data"].get("state", {}).values())
# a click on "Play a game" from the page: the game opens, and what Python sent meanwhile answers that message
# (the last one made: the App shown's, not the one built above)
play_button = [w for w in list(_instances.values()) if "uu-play" in getattr(w, "_dom_classes", ())][-1]
del uu_page.sent[:]
bridge.receive(json.dumps({"type": "comm_msg", "comm_id": play_button.comm.comm_id, "msg_id": "page-1",
                           "data": {"method": "custom", "content": {"event": "click"}}}))
answers = [json.loads(text) for text in uu_page.sent]
seen["click_opened_play"] = shown.screen is shown.play_screen and shown.play_screen is not None
seen["click_answered"] = bool(answers) and all(m.get("parent") == "page-1" for m in answers[:-1]) and \
    answers[-1] == {"type": "idle", "parent": "page-1"}
bridge.receive("not json")  # logged, not raised
bridge.receive(json.dumps({"type": "comm_msg", "comm_id": "gone", "msg_id": "page-2", "data": {}}))
lesson = app.open_lesson("goal")
runner = lesson.runner
start = runner.progress[0]
while runner.step is not None and runner.step.kind == "page":
    lesson.next_button.click()
step = runner.step
if step.kind == "question":
    lesson.choice_for(step.question.answer).click()
else:
    want = runner.answer()
    ids = [a["id"] for a in lesson.table.actions if runner.game.legal_actions[a["id"]] == want]
    lesson.table._on_message(lesson.table, {"type": "choose", "id": ids[0], "version": lesson.table.version}, [])
assert lesson.error is None and runner.progress[0] > start, (lesson.error, runner.progress)
seen["lesson_step"] = runner.progress[0]
play = app.open_play()
before = len(play.game.log)
play.table._on_message(play.table, {"type": "choose", "id": 0, "version": play.table.version}, [])
assert play.error is None and len(play.game.log) > before, play.error
seen["game_log"] = len(play.game.log)
seen["engine_module"] = sys.modules[type(play.game).__module__].__file__  # a .py file: the engine as plain Python
# the standard library is imported from its zip's bytecode, not compiled at each start (uu/lite/pyc.mjs)
import zipimport
seen["stdlib_modules"] = sorted({m.__file__.rsplit(".", 1)[-1] for m in list(sys.modules.values())
                                 if isinstance(getattr(m, "__loader__", None), zipimport.zipimporter)})
sandbox = app.open_sandbox()
assert sandbox.error is None, sandbox.error
app.show_home()
assert app.error is None and app.screen is app.home
blocked = sorted({m.split(".")[0] for m in sys.modules} & {"jinja2", "voila", "jupyter_server",
                                                          "ipykernel", "jupyter_client", "nbconvert"})
assert blocked == [], blocked
seen["ok"] = True
json.dumps(seen)
`;

const t0 = performance.now();
const options = { indexURL: pyodideDir, packages: ["uu-tutor"], uuSnapshot: !args.includes("--no-snapshot"),
                  stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") };
try {
  const pyodide = await loadPyodide(options);
  const loaded = (performance.now() - t0) / 1000;
  // the page's side of uu/lite/bridge.py, as uu/lite/worker.mjs gives it: here it only keeps what Python sends
  const sent = [];
  pyodide.registerJsModule("uu_page", { send: (text) => { sent.push(text); }, sent });
  // the tutor's first import: nothing left to install
  const fetched = [];
  await pyodide.loadPackagesFromImports("import uu.lite", { messageCallback: (m) => fetched.push(m) });
  const out = JSON.parse(await pyodide.runPythonAsync(CHECK));
  out.load_s = Math.round(loaded * 100) / 100;
  out.installed_on_import = fetched.filter((m) => m.startsWith("Loading "));
  // a second start: its random numbers are its own, not the snapshot's
  const again = await loadPyodide({ ...options, packages: [] });
  out.random_again = again.runPython("import random; random.random()");
  console.log(JSON.stringify(out));
  process.exit(out.ok ? 0 : 1);
} catch (e) {
  console.error(`LITE-SMOKE FAILED: ${e && e.message ? e.message : e}`.slice(-3000));
  process.exit(1);
}
