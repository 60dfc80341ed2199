#!/usr/bin/env bash
# The JS tooling of `make lint`, from the npm registry at pinned versions, kept in build/npm-lint (never
# served, never committed): ESLint (config: eslint.config.mjs) and Prettier (config: .prettierrc.json).
# Without npm it says so and exits 0 (the JS lint then skips), unless POLYTABLE_REQUIRE_NPM=1 (CI): then 1.
set -u
ESLINT=10.16.0
ESLINT_JS=10.0.1
GLOBALS=17.14.0
PRETTIER=3.10.1
top=$(cd "$(dirname "$0")/.." && pwd)
dest="$top/build/npm-lint"
want="eslint@$ESLINT @eslint/js@$ESLINT_JS globals@$GLOBALS prettier@$PRETTIER"
missing() {
  if [ "${POLYTABLE_REQUIRE_NPM:-}" = "1" ]; then
    echo "$1 (POLYTABLE_REQUIRE_NPM=1: this is an error)"
    exit 1
  fi
  echo "$1"
  exit 0
}
if [ -f "$dest/.installed" ] && [ "$(cat "$dest/.installed")" = "$want" ]; then exit 0; fi
command -v npm >/dev/null 2>&1 || missing "no npm: ESLint and Prettier are not installed; the JS lint is skipped"
mkdir -p "$dest"
[ -f "$dest/package.json" ] || echo '{"private": true}' > "$dest/package.json"
echo "installing $want from npm ..."
if ! (cd "$dest" && npm install --silent --no-audit --no-fund --save-exact $want >/dev/null); then
  missing "could not install $want from npm: the JS lint is skipped"
fi
echo "$want" > "$dest/.installed"
exit 0
