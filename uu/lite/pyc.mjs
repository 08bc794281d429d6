// Adds Python 3.14 bytecode (.pyc) to the site's wheels, compiled by the site's own Pyodide:
// `node uu/lite/pyc.mjs <pyodide dir> <wheels dir>` (uu/lite/build.py runs it). Without it every module is
// compiled in the learner's browser at each visit, seconds of the first screen's wait. The .pyc files are
// "unchecked hash" ones: valid whatever time stamps the files get when the wheel is unpacked.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep });
pyodide.FS.mkdir("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: wheelsDir }, "/wheels");

const SCRIPT = `
import base64, csv, hashlib, importlib.util, io, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

TAG = sys.implementation.cache_tag
SITE = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
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
        try:
            code = compile(data, f"{SITE}/{info.filename}", "exec", dont_inherit=True)
        except SyntaxError:
            continue  # a file never imported (templates, tests for other versions)
        folder, base = os.path.split(info.filename)
        pyc = f"{folder}/__pycache__/{base[:-3]}.{TAG}.pyc" if folder else f"__pycache__/{base[:-3]}.{TAG}.pyc"
        added.append((pyc, bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))))
    rows = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in entries:
            if info.filename == record:
                rows = list(csv.reader(io.StringIO(data.decode())))
                continue
            z.writestr(info, data)
        for pyc, data in added:
            info = zipfile.ZipInfo(pyc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.insert(-1, [pyc, f"sha256={digest}", str(len(data))])
        text = io.StringIO()
        csv.writer(text, lineterminator="\\n").writerows(rows)
        z.writestr(record, text.getvalue())
    with open(path, "wb") as f:
        f.write(out.getvalue())
    done += 1
done
`;
const n = pyodide.runPython(SCRIPT);
console.log(`pyc: compiled the modules of ${n} wheels`);
