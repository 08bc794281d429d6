// The kernel's `loadPyodide`, with the preloaded packages already installed (uu/lite/build.py copies this file
// to the site as static/pyodide/uu-pyodide.mjs, and JupyterLite's kernel is told to load Pyodide from it:
// `pyodideUrl`). Pyodide's own way installs each wheel once Python runs, unzipping some 2,500 files in Python
// (6-7 s of every start on this machine). The build installs them once instead, into one file (`uu-site.bin`,
// uu/lite/build.py `site_image` describes it), and here, before Python starts (Pyodide's `fsInit`), the browser
// unpacks it and writes the files of the packages asked for, and of what they depend on, into site-packages.
// What the image does not hold (pydantic-core, which has compiled modules) goes through Pyodide's loader as
// before: it prepares their WebAssembly before Python imports them.
import { loadPyodide as loadPyodideItself } from "./pyodide.mjs";

export { version } from "./pyodide.mjs";

const IMAGE = "uu-site.bin";

async function readImage(url) {
  let bytes;
  if (url.protocol === "file:") {
    // Node (uu/lite/smoke.mjs): the same file from the folder
    const { readFile } = await import("node:fs/promises");
    bytes = new Uint8Array(await readFile(url));
  } else {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`${IMAGE}: ${response.status} ${response.statusText}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  // a host may have undone the gzip already (Content-Encoding); otherwise the browser undoes it here
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
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

export async function loadPyodide(options = {}) {
  const image = readImage(new URL(IMAGE, import.meta.url));
  const { packages } = await image;
  const { install, loader } = choose(packages, options.packages || []);
  return loadPyodideItself({
    ...options,
    packages: loader,
    fsInit: async (FS, info) => {
      writeFiles(FS, info.sitePackages, await image, install);
      if (options.fsInit) await options.fsInit(FS, info);
    },
  });
}
