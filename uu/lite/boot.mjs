// The site's `loadPyodide`, with the tutor's packages already installed (uu/lite/build.py copies this file to the
// site as static/pyodide/uu-pyodide.mjs; the worker, uu/lite/worker.mjs, loads Pyodide through it). Pyodide's
// own way installs each wheel once Python runs, unzipping some 2,500 files in Python (6-7 s of every start on
// this machine). The build installs them once instead, into one file (`uu-site.bin`,
// uu/lite/build.py `site_image` describes it), and here, before Python starts (Pyodide's `fsInit`), the browser
// unpacks it and writes the files of the packages asked for, and of what they depend on, into site-packages.
// What the image does not hold (pydantic-core, which has compiled modules) goes through Pyodide's loader as
// before: it prepares their WebAssembly before Python imports them.
//
// Python itself starts from a memory snapshot when the site has one (`uu-snapshot.bin`, made at build time by
// uu/lite/snapshot.mjs): Python's memory right after importing IPython, the widget packages and the standard
// modules the widgets and the tutor need, restored instead of rebuilt (on this machine, some 5-8 s of a start
// under load). Pyodide's options for it (`_loadSnapshot`, `_makeSnapshot`) are private in Pyodide 314.0.7,
// the pinned version; without the file, or if the restore fails, Python starts as before.
import { loadPyodide as loadPyodideItself } from "./pyodide.mjs";

export { version } from "./pyodide.mjs";

const IMAGE = "uu-site.bin";
const SNAPSHOT = "uu-snapshot.bin";
// The big files' versions (their SHA-256 and unpacked size, written by uu/lite/build.py `boot_versions`): the name
// of their unpacked copies, kept in the site's private folder of the browser (the origin private file system)
const VERSIONS = "uu-boot.json";
const KEPT = "uu-lite-unpacked";

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

async function readVersions(base) {
  if (base.protocol === "file:" || !keptFolder()) return {};
  try {
    const response = await fetch(new URL(VERSIONS, base), { credentials: "same-origin" });
    return response.ok ? await response.json() : {};
  } catch (e) {
    return {};
  }
}

// The folder of unpacked copies: a worker's origin private file system, read and written whole with its
// synchronous access (only a worker has it); null elsewhere (Node, a page, a browser without it)
function keptFolder() {
  const storage = typeof navigator !== "undefined" && navigator.storage;
  if (!storage || typeof storage.getDirectory !== "function") return null;
  if (typeof FileSystemFileHandle === "undefined" || !FileSystemFileHandle.prototype.createSyncAccessHandle) {
    return null;
  }
  return storage.getDirectory().then((root) => root.getDirectoryHandle(KEPT, { create: true }));
}

// `name`, unpacked: this build's copy from the kept folder when it is there, whole, else downloaded (or from the
// HTTP cache) and unpacked, and that copy kept for the next visit. Unpacking the two big files took about 0.7 s
// of every visit on this machine (quiet); reading the kept copies takes a fraction of that. For a file the build
// gave no version, or without the folder, it is unpacked every time.
async function readUnpacked(url, name, versions) {
  const version = (await versions)[name];
  const folder = version ? keptFolder() : null;
  if (!folder) return readFileOrUrl(url, name);
  const file = `${name}.${version.sha256}`;
  let dir = null;
  try {
    dir = await folder;
    const access = await (await dir.getFileHandle(file)).createSyncAccessHandle();
    try {
      const bytes = new Uint8Array(access.getSize());
      // a copy cut short (the page closed while it was written) is not this build's: unpacked again
      if (bytes.length === version.unpacked && access.read(bytes, { at: 0 }) === bytes.length) return bytes;
    } finally {
      access.close();
    }
  } catch (e) {
    // not kept yet (NotFoundError), or the folder refused: unpacked below
  }
  const bytes = await readFileOrUrl(url, name);
  if (dir) setTimeout(() => keep(dir, name, file, bytes), 0); // once Python lets the worker go
  return bytes;
}

async function keep(dir, name, file, bytes) {
  try {
    for await (const old of dir.keys()) {
      if (old.startsWith(name + ".") && old !== file) await dir.removeEntry(old);
    }
    const access = await (await dir.getFileHandle(file, { create: true })).createSyncAccessHandle();
    try {
      access.truncate(0);
      access.write(bytes, { at: 0 });
      access.flush();
    } finally {
      access.close();
    }
  } catch (e) {
    // a full or refused storage: the next visit unpacks again
  }
}

// a damaged copy kept by an earlier visit must not fail the next one too
async function forgetKept() {
  try {
    await (await navigator.storage.getDirectory()).removeEntry(KEPT, { recursive: true });
  } catch (e) {
    // nothing kept
  }
}

async function readImage(url, versions) {
  const bytes = await readUnpacked(url, IMAGE, versions);
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

// Pyodide's module, made with room for the snapshot: Pyodide 314.0.7 asks for it (`INITIAL_MEMORY`, set from the
// snapshot's size before the module is made) but its module does not read that setting, so the memory is grown
// before the restore copies the snapshot in.
function withRoomForSnapshot(asm) {
  return async (settings) => {
    const { default: createModule } = await asm;
    settings.preRun = [(module) => module._emscripten_resize_heap(settings.INITIAL_MEMORY),
                       ...(settings.preRun || [])];
    return createModule(settings);
  };
}

// Python's state just after the restore is the build's: its random numbers would be the same at every visit
const AFTER_RESTORE = "import random as _r; _r.seed(); del _r";

export async function loadPyodide(options = {}) {
  const here = new URL(".", import.meta.url);
  const versions = readVersions(here);
  const image = readImage(new URL(IMAGE, here), versions);
  const chosen = image.then(({ packages }) => choose(packages, options.packages || []));
  // no snapshot when making one (uu/lite/snapshot.mjs), or when told so (`uuSnapshot: false`); a site
  // without the file starts Python as before
  const useSnapshot = !options._makeSnapshot && options.uuSnapshot !== false;
  const snapshot = useSnapshot ? readUnpacked(new URL(SNAPSHOT, here), SNAPSHOT, versions).catch(() => null) : null;
  const { uuSnapshot, ...rest } = options;
  // Pyodide's own start (its lock file, its WebAssembly, its module) goes on while the two big files are read
  // and unpacked: the packages' files are written when Python's file system is made (`fsInit`), and what the
  // image does not hold goes through Pyodide's loader once Python runs
  const settings = {
    ...rest,
    packages: [],
    fsInit: async (FS, info) => {
      writeFiles(FS, info.sitePackages, await image, (await chosen).install);
      if (options.fsInit) await options.fsInit(FS, info);
    },
  };
  let pyodide = null;
  if (snapshot) {
    try {
      const memory = snapshot.then((bytes) => {
        if (!bytes) throw new Error(`no ${SNAPSHOT}`);
        return bytes;
      });
      const asm = import("./pyodide.asm.mjs"); // fetched meanwhile too
      asm.catch(() => {}); // a failure is the restore's (below), not an unhandled one
      pyodide = await loadPyodideItself({ ...settings, _loadSnapshot: memory, createPyodideModule: withRoomForSnapshot(asm) });
      pyodide.runPython(AFTER_RESTORE);
    } catch (e) {
      console.warn(`${SNAPSHOT} could not be restored; Python starts without it:`, e);
      pyodide = null;
      if (keptFolder()) await forgetKept();
    }
  }
  if (pyodide === null) pyodide = await loadPyodideItself(settings);
  const { install, loader } = await chosen;
  // A restored Python does not list the packages installed from the image as loaded (a fresh start finds them
  // in site-packages); unlisted, the first `import uu` would make Pyodide fetch and install their
  // wheels again (some 20 packages, seconds)
  for (const name of install) {
    if (!(name in pyodide.loadedPackages)) pyodide.loadedPackages[name] = IMAGE;
  }
  if (loader.length) {
    await pyodide.loadPackage(loader, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  }
  return pyodide;
}
