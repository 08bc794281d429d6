// Makes the site's Python memory snapshot at build time: `node uu/lite/snapshot.mjs <site>/static/pyodide <out>`
// (uu/lite/build.py runs it once the site's Pyodide, standard library and uu-site.bin are in place, and gzips
// the result into uu-snapshot.bin). Pyodide starts through the site's own uu-pyodide.mjs (uu/lite/boot.mjs),
// with the same standard library zip and the same packages installed at the same paths as in the browser,
// imports what the widgets import at every start, and writes Python's whole memory. The page
// then restores that memory instead of starting Python and importing those modules again (boot.mjs).
//
// What may be in it: only modules of pure Python. A compiled module (pydantic-core) is linked into memory by
// Pyodide's loader in a way a snapshot cannot hold, and a module that keeps a JavaScript object at import
// (the worker's `uu_page`, uu/lite/bridge.py) would need that object found again; both are imported after the
// restore. Pyodide 314.0.7 (uu/lite/pins.py) marks the snapshot options private: tests/test_lite_site.py
// checks at every build that a restored start really skips those imports, and that the start falls back to
// Python's own when the snapshot is missing.
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

// what the tutor's screens import at every start (ipywidgets, which imports IPython's display functions, anywidget
// and comm: uu/lite/bridge.py), and the standard modules the tutor uses
export const SNAPSHOT_IMPORTS = [
  "IPython", "IPython.display", "comm", "comm.base_comm", "traitlets", "ipywidgets", "anywidget",
  "json", "re", "dataclasses", "enum", "typing", "gettext", "hashlib", "random", "importlib.resources",
  "urllib.parse", "html", "textwrap", "copy", "functools", "itertools", "collections", "datetime", "math",
];
// the lock names to install for them (their dependencies follow)
const PACKAGES = ["comm", "ipython", "ipywidgets", "anywidget"];

const [dir, out] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "uu-pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + path.sep, packages: PACKAGES, _makeSnapshot: true,
                                    stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") });
pyodide.runPython(`import ${SNAPSHOT_IMPORTS.join(", ")}`);
// Pyodide checks that its list of loaded packages is the empty one of a fresh start (it compares the JavaScript
// objects Python refers to with those of a start); the page's own start fills it again (boot.mjs)
for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
const snapshot = pyodide.makeMemorySnapshot();
await writeFile(out, snapshot);
console.log(JSON.stringify({ bytes: snapshot.length, modules: SNAPSHOT_IMPORTS.length }));
