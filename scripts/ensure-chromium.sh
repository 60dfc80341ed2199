#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a browser downloaded by Playwright). Install it when it
# is missing and we may (root with apt-get); otherwise the browser tests skip and say why.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests ..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "could not install chromium: the browser tests will skip"
else
  echo "no /usr/bin/chromium and no way to install it: the browser tests will skip"
fi
exit 0
