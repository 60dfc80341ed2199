#!/usr/bin/env bash
# The offline engine runs polytable's rules under Pyodide in the browser. Pyodide comes from the npm
# registry at set-up (never from a CDN at run time): install the pinned version into a scratch folder and
# copy its runtime files to where the server serves them. Without npm the offline engine is not offered
# and its tests skip (CI fails them instead: see tests/offline).
set -u
VERSION=314.0.8
top=$(cd "$(dirname "$0")/.." && pwd)
dest="$top/src/polytable/web/static/vendor/pyodide"
files="pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json"
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$VERSION" ]; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  echo "no npm: the offline engine (Pyodide) is not installed; its tests will skip"
  exit 0
fi
scratch="$top/build/pyodide-npm"
mkdir -p "$scratch" "$dest"
echo "installing Pyodide $VERSION from npm for the offline engine ..."
if ! (cd "$scratch" && [ -f package.json ] || echo '{"private": true}' > package.json) \
   || ! (cd "$scratch" && npm install --silent --no-audit --no-fund "pyodide@$VERSION" >/dev/null); then
  echo "could not install Pyodide from npm: the offline engine is not available"
  exit 0
fi
for f in $files; do cp "$scratch/node_modules/pyodide/$f" "$dest/$f"; done
cp "$scratch/node_modules/pyodide/LICENSE" "$dest/LICENSE" 2>/dev/null || true
echo "$VERSION" > "$dest/VERSION"
exit 0
