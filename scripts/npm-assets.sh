#!/usr/bin/env bash
# What polytable takes from the npm registry (never from a CDN at run time), installed at set-up:
# - Pyodide, the offline engine's runtime: its runtime files are copied to where the server serves them
#   (src/polytable/web/static/vendor/pyodide), so the PWA can cache them;
# - axe-core, for the accessibility checks of the browser tests (kept in build/npm, never served).
# Without npm the offline engine is not offered and those tests skip (CI fails them instead).
set -u
PYODIDE=314.0.8
AXE=4.14.1
top=$(cd "$(dirname "$0")/.." && pwd)
scratch="$top/build/npm"
dest="$top/src/polytable/web/static/vendor/pyodide"
files="pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json"
want="pyodide@$PYODIDE axe-core@$AXE"
if [ -f "$scratch/.installed" ] && [ "$(cat "$scratch/.installed")" = "$want" ] \
   && [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$PYODIDE" ]; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  echo "no npm: the offline engine (Pyodide) and axe-core are not installed; their tests will skip"
  exit 0
fi
mkdir -p "$scratch" "$dest"
[ -f "$scratch/package.json" ] || echo '{"private": true}' > "$scratch/package.json"
echo "installing $want from npm ..."
if ! (cd "$scratch" && npm install --silent --no-audit --no-fund $want >/dev/null); then
  echo "could not install $want from npm: the offline engine is not available"
  exit 0
fi
for f in $files; do cp "$scratch/node_modules/pyodide/$f" "$dest/$f"; done
echo "$PYODIDE" > "$dest/VERSION"
echo "$want" > "$scratch/.installed"
exit 0
