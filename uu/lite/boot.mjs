// The kernel's `loadPyodide`, with the preloaded packages already installed (uu/lite/build.py copies this file
// to the site as static/pyodide/uu-pyodide.mjs, and JupyterLite's kernel is told to load Pyodide from it:
// `pyodideUrl`). Pyodide's own way installs each wheel once Python runs, unzipping some 2,500 files in Python
// (6-7 s of every start on this machine). The build installs them once instead, into one file (`uu-site.bin`,
// uu/lite/build.py `site_image` describes it), and here, before Python starts (Pyodide's `fsInit`), the browser
// unpacks it and writes the files of the packages asked for, and of what they depend on, into site-packages.
// What the image does not hold (pydantic-core, which has compiled modules) goes through Pyodide's loader as
// before: it prepares their WebAssembly before Python imports them.
//
// Python itself starts from a memory snapshot when the site has one (`uu-snapshot.bin`, made at build time by
// uu/lite/snapshot.mjs): Python's memory right after importing IPython, the widget packages and the standard
// modules the kernel and the tutor need, restored instead of rebuilt (on this machine, some 5-8 s of a start
// under load). Pyodide's options for it (`_loadSnapshot`, `_makeSnapshot`) are private in Pyodide 314.0.7,
// the pinned version; without the file, or if the restore fails, Python starts as before.
import { loadPyodide as loadPyodideItself } from "./pyodide.mjs";

export { version } from "./pyodide.mjs";

const IMAGE = "uu-site.bin";
const SNAPSHOT = "uu-snapshot.bin";

async function readFileOrUrl(url, name) {
  let bytes;
  if (url.protocol === "file:") {
    // Node (uu/lite/smoke.mjs): the same file from the folder
    const { readFile } = await import("node:fs/promises");
    bytes = new Uint8Array(await readFile(url));
  } else {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`${name}: ${response.status} ${response.statusText}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  // a host may have undone the gzip already (Content-Encoding); otherwise the browser undoes it here
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return bytes;
}

async function readImage(url) {
  const bytes = await readFileOrUrl(url, IMAGE);
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  const packages = new Map();
  let at = 4 + length;
  for (const pkg of header.packages) {
    packages.set(pkg.name, { ...pkg, at });
    for (const [, size] of pkg.files) at += size;
  }
  if (at !== bytes.length) throw new Error(`${IMAGE}: ${bytes.length - at} bytes unaccounted for`);
  return { bytes, packages };
}

// The packages `wanted` names in the image with what they depend on (`install`), and the names left to
// Pyodide's loader (`loader`).
function choose(packages, wanted) {
  const install = [];
  const loader = [];
  const todo = [...wanted];
  while (todo.length) {
    const name = todo.shift();
    if (install.includes(name) || loader.includes(name)) continue;
    const pkg = packages.get(name);
    if (pkg) {
      install.push(name);
      todo.push(...pkg.depends);
    } else {
      loader.push(name);
    }
  }
  return { install, loader };
}

function writeFiles(FS, root, { bytes, packages }, names) {
  const made = new Set();
  for (const name of names) {
    const pkg = packages.get(name);
    let at = pkg.at;
    for (const [path, size] of pkg.files) {
      const slash = path.lastIndexOf("/");
      if (slash > 0 && !made.has(path.slice(0, slash))) {
        FS.mkdirTree(`${root}/${path.slice(0, slash)}`);
        made.add(path.slice(0, slash));
      }
      FS.writeFile(`${root}/${path}`, bytes.subarray(at, at + size));
      at += size;
    }
  }
}

// Pyodide's module, made with room for the snapshot: Pyodide 314.0.7 asks for it (`INITIAL_MEMORY`) but its
// module does not read that setting, so the memory is grown before the restore copies the snapshot in.
function withRoomFor(bytes) {
  return async (settings) => {
    const { default: createModule } = await import("./pyodide.asm.mjs");
    settings.preRun = [(module) => module._emscripten_resize_heap(bytes), ...(settings.preRun || [])];
    return createModule(settings);
  };
}

// Python's state just after the restore is the build's: its random numbers would be the same at every visit
const AFTER_RESTORE = "import random as _r; _r.seed(); del _r";

export async function loadPyodide(options = {}) {
  const image = readImage(new URL(IMAGE, import.meta.url));
  // no snapshot when making one (uu/lite/snapshot.mjs), or when told so (`uuSnapshot: false`); a site
  // without the file starts Python as before
  const snapshot = options._makeSnapshot || options.uuSnapshot === false ? Promise.resolve(null)
    : readFileOrUrl(new URL(SNAPSHOT, import.meta.url), SNAPSHOT).catch(() => null);
  const { packages } = await image;
  const { install, loader } = choose(packages, options.packages || []);
  const { uuSnapshot, ...rest } = options;
  const settings = {
    ...rest,
    packages: loader,
    fsInit: async (FS, info) => {
      writeFiles(FS, info.sitePackages, await image, install);
      if (options.fsInit) await options.fsInit(FS, info);
    },
  };
  const memory = await snapshot;
  let pyodide = null;
  if (memory) {
    try {
      pyodide = await loadPyodideItself({ ...settings, _loadSnapshot: memory,
                                          createPyodideModule: withRoomFor(memory.byteLength) });
      pyodide.runPython(AFTER_RESTORE);
    } catch (e) {
      console.warn(`${SNAPSHOT} could not be restored; Python starts without it:`, e);
      pyodide = null;
    }
  }
  if (pyodide === null) pyodide = await loadPyodideItself(settings);
  // A restored Python does not list the packages installed from the image as loaded (a fresh start finds them
  // in site-packages); unlisted, the kernel's first `import uu` would make Pyodide fetch and install their
  // wheels again (some 20 packages, seconds)
  for (const name of install) {
    if (!(name in pyodide.loadedPackages)) pyodide.loadedPackages[name] = IMAGE;
  }
  return pyodide;
}
