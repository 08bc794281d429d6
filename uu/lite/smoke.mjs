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
# a start restored from the snapshot has the kernel's imports done already (nothing here imported IPython yet)
restored = "IPython" in sys.modules
import random
first_random = random.random()
# what the kernel runs at its start (jupyterlite-pyodide-kernel 0.8.6): the stand-in piplite imports nothing
import piplite.piplite
piplite.piplite._PIPLITE_DISABLE_PYPI = True
piplite.piplite._PIPLITE_URLS = []
piplite_pulled = sorted({"micropip", "unittest.mock"} & set(sys.modules))
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
        "app_s": round(built, 2), "restored": restored, "random": first_random, "piplite_pulled": piplite_pulled}
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
const options = { indexURL: pyodideDir, packages: ["piplite", "ipython", "uu-tutor"], uuSnapshot: !args.includes("--no-snapshot"),
                  stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") };
try {
  const pyodide = await loadPyodide(options);
  const loaded = (performance.now() - t0) / 1000;
  // what the kernel does with the tutor's line before running it: nothing left to install
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
