#!/usr/bin/env bash
# Emulate a Binder (repo2docker) build and launch locally, without Docker:
#   1. a copy of the repository as Binder would clone it (tracked + untracked-not-ignored files: no .venv,
#      no build output), and a fresh HOME;
#   2. a fresh virtual environment (Python from binder/runtime.txt) with binder/requirements.txt only;
#   3. binder/postBuild, run from the repository root as repo2docker does;
#   4. the server started as Binder starts it: `jupyter server` with the Voila server extension (through
#      binder/start when there is one), on 127.0.0.1 with a token;
#   5. probes: the default URL redirects to the app, the app URL of the README's Binder link answers 200 with
#      a kernel started, and no notebook source is in the page.
# Prints "BINDER-CHECK OK <app url>" at the end. With --hold it then keeps the server running until stdin
# closes or it is signalled (tests/test_binder.py drives the page in Chromium meanwhile).
# Env: BINDER_CHECK_PORT (default: a free port), PIP_CACHE_DIR (default: the caller's ~/.cache/pip if it
# exists, so a second run does not download again), BINDER_CHECK_KEEP=1 keeps the work directory,
# BINDER_CHECK_TEACHER_LESSONS=DIR adds DIR to the copy as the fork's teacher-lessons/ folder.
set -euo pipefail

HOLD=0
[[ "${1:-}" == "--hold" ]] && HOLD=1
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/uu-binder-check.XXXXXX")
SERVER=""
cleanup() {
    if [[ -n "$SERVER" ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    if [[ "${BINDER_CHECK_KEEP:-0}" == 1 ]]; then echo "binder-check: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT
say() { echo "binder-check: $*"; }
fail() { echo "BINDER-CHECK FAILED: $*" >&2; [[ -f "$WORK/server.log" ]] && tail -n 40 "$WORK/server.log" >&2; exit 1; }

# 1. the repository as Binder sees it
REPO="$WORK/repo"
mkdir -p "$REPO"
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tar keeps symlinks as symlinks (uu/lessons -> ../lessons), as a git clone does; files deleted in the
    # working tree but still in the index are skipped
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -e "$f" || -L "$f" ]] && printf '%s\0' "$f"; done |
        tar --null --no-recursion -T - -cf -) | tar -xf - -C "$REPO"
else
    (cd "$SRC" && tar --exclude=.venv --exclude=.git --exclude=build --exclude='*.egg-info' -cf - .) | tar -xf - -C "$REPO"
fi
[[ -x "$REPO/binder/postBuild" ]] || fail "binder/postBuild is missing or not executable"
# a fork's own lessons (docs/teachers.md): BINDER_CHECK_TEACHER_LESSONS=DIR is copied in as teacher-lessons/
if [[ -n "${BINDER_CHECK_TEACHER_LESSONS:-}" ]]; then
    cp -r "$BINDER_CHECK_TEACHER_LESSONS" "$REPO/teacher-lessons"
fi
REAL_HOME="$HOME"
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$REAL_HOME/.cache/pip}"
export HOME="$WORK/home"
mkdir -p "$HOME"
export PIP_DISABLE_PIP_VERSION_CHECK=1

# 2. a fresh environment from binder/ alone
version=$(sed -n 's/^python-\([0-9.]*\).*/\1/p' "$REPO/binder/runtime.txt")
[[ -n "$version" ]] || fail "binder/runtime.txt must read python-3.X (repo2docker rejects other spellings)"
PY=""
for candidate in "python$version" "$REAL_HOME/.pyenv/versions/$version"*/bin/python3 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       [[ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" == "$version" ]]; then
        PY=$(command -v "$candidate"); break
    fi
done
[[ -n "$PY" ]] || { PY=$(command -v python3); say "no Python $version here, using $("$PY" --version)"; }
say "venv with $("$PY" --version) in $WORK/venv"
"$PY" -m venv "$WORK/venv"
# shellcheck disable=SC1091
source "$WORK/venv/bin/activate"
t0=$SECONDS
say "pip install -r binder/requirements.txt (pip cache: $PIP_CACHE_DIR)"
pip install -q -r "$REPO/binder/requirements.txt" || fail "pip install -r binder/requirements.txt"
say "installed in $((SECONDS - t0)) s"

# 3. postBuild, from the repository root
cd "$REPO"
./binder/postBuild > "$WORK/postBuild.log" 2>&1 || { cat "$WORK/postBuild.log" >&2; fail "binder/postBuild"; }
python -c "import uu, uu.widgets; assert uu.__file__.endswith('uu/__init__.py'), uu.__file__" \
    || fail "import uu finds the standard library module, not the package (uu_first.pth missing?)"

# 4. the server, as Binder starts it
PORT=${BINDER_CHECK_PORT:-$(python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
TOKEN=binder-check
START=()
[[ -x binder/start ]] && START=(./binder/start)
t0=$SECONDS
"${START[@]}" jupyter server --no-browser --allow-root --ip=127.0.0.1 --port="$PORT" \
    --ServerApp.port_retries=0 --IdentityProvider.token="$TOKEN" > "$WORK/server.log" 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 300); do
    curl -fs -o /dev/null "$BASE/api/status?token=$TOKEN" && break
    kill -0 "$SERVER" 2>/dev/null || fail "the server exited"
    sleep 0.2
done
curl -fs -o /dev/null "$BASE/api/status?token=$TOKEN" || fail "the server did not answer within 60 s"
say "server up in $((SECONDS - t0)) s"

# 5. probes
APP_PATH="voila/render/uu/notebooks/app.ipynb"
loc=$(curl -s -o /dev/null -w '%{redirect_url}' "$BASE/?token=$TOKEN")
[[ "$loc" == *"/$APP_PATH"* ]] || fail "the default URL redirects to '$loc', not to /$APP_PATH (postBuild default_url)"
code=$(curl -s -o "$WORK/page.html" -w '%{http_code}' "$BASE/$APP_PATH?token=$TOKEN")
[[ "$code" == 200 ]] || fail "GET /$APP_PATH answered $code"
grep -q '"kernelId"' "$WORK/page.html" || fail "no kernel started for the app page"
! grep -q "from uu.widgets" "$WORK/page.html" || fail "the notebook source is in the page"
! grep -q "error when executing cell" "$WORK/page.html" || fail "a cell of the app notebook failed"
say "the app page renders"
echo "BINDER-CHECK OK $BASE/$APP_PATH?token=$TOKEN"
if [[ $HOLD == 1 ]]; then
    cat > /dev/null || true    # until the caller closes stdin
fi
