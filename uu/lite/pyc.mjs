// Adds Python 3.14 bytecode (.pyc) to the site's wheels and to its standard library, compiled by the site's
// own Pyodide: `node uu/lite/pyc.mjs <pyodide dir> <wheels dir> [<python_stdlib.zip to compile in place>]`
// (uu/lite/build.py runs it). Without it every module is compiled in the learner's browser at each visit: the
// standard library alone (the npm package's python_stdlib.zip holds only .py files) was 5-7 s of Pyodide's own
// start on this machine. The .pyc files are "unchecked hash" ones: valid whatever time stamps the files get.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, stdlibZip] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep });
pyodide.FS.mkdir("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: wheelsDir }, "/wheels");
if (stdlibZip) {
  pyodide.FS.mkdir("/stdlib");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.dirname(stdlibZip) }, "/stdlib");
}

const SCRIPT = `
import base64, csv, hashlib, importlib.util, io, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

TAG = sys.implementation.cache_tag
LIB = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}"
SITE = f"{LIB}/site-packages"


def pyc(data, filename):
    try:
        code = compile(data, filename, "exec", dont_inherit=True)
    except SyntaxError:
        return None  # a file never imported (templates, tests for other versions)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))


def zip_entry(name, date_time=(2020, 1, 1, 0, 0, 0)):
    info = zipfile.ZipInfo(name, date_time=date_time)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


done = 0
for name in sorted(os.listdir("/wheels")):
    if not name.endswith(".whl"):
        continue
    path = f"/wheels/{name}"
    with zipfile.ZipFile(path) as src:
        entries = [(i, src.read(i.filename)) for i in src.infolist()]
    if any(i.filename.endswith(".pyc") for i, _ in entries):
        continue
    record = next(i.filename for i, _ in entries if i.filename.endswith(".dist-info/RECORD"))
    added = []
    for info, data in entries:
        if not info.filename.endswith(".py"):
            continue
        code = pyc(data, f"{SITE}/{info.filename}")
        if code is None:
            continue
        folder, base = os.path.split(info.filename)
        target = f"{folder}/__pycache__/{base[:-3]}.{TAG}.pyc" if folder else f"__pycache__/{base[:-3]}.{TAG}.pyc"
        added.append((target, code))
    rows = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in entries:
            if info.filename == record:
                rows = list(csv.reader(io.StringIO(data.decode())))
                continue
            z.writestr(info, data)
        for target, data in added:
            z.writestr(zip_entry(target), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.insert(-1, [target, f"sha256={digest}", str(len(data))])
        text = io.StringIO()
        csv.writer(text, lineterminator="\\n").writerows(rows)
        z.writestr(record, text.getvalue())
    with open(path, "wb") as f:
        f.write(out.getvalue())
    done += 1

# The standard library is imported from its zip (zipimport), which takes name.pyc placed beside name.py before
# compiling name.py. The sources stay: tracebacks and inspect still find them.
stdlib = ${stdlibZip ? JSON.stringify("/stdlib/" + path.basename(stdlibZip)) : "None"}
compiled = 0
if stdlib:
    with zipfile.ZipFile(stdlib) as src:
        entries = [(i, src.read(i.filename)) for i in src.infolist()]
    if not any(i.filename.endswith(".pyc") for i, _ in entries):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for info, data in entries:
                z.writestr(info, data)
                if info.filename.endswith(".py"):
                    code = pyc(data, f"{LIB}/{info.filename}")
                    if code is not None:
                        z.writestr(zip_entry(info.filename + "c", info.date_time), code)
                        compiled += 1
        with open(stdlib, "wb") as f:
            f.write(out.getvalue())
f"{done} {compiled}"
`;
const [wheels, modules] = pyodide.runPython(SCRIPT).split(" ");
console.log(`pyc: compiled the modules of ${wheels} wheels and ${modules} modules of the standard library`);
