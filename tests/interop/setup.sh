#!/bin/sh
# Installs what the interop tests need, only what is missing:
#   - Debian packages, with apt-get, for each command that is not there:
#     babeltrace2 (babeltrace2), chromium (chromium), xmllint (libxml2-utils),
#     node and npm (nodejs, npm), and an emoji font for speedscope's toolbar
#     in the screenshots (fonts-noto-color-emoji); `apt-get update` only when
#     an install fails
#   - the npm packages pinned in package.json and package-lock.json, with
#     `npm ci` into tests/interop/node_modules (git-ignored), again only when
#     package-lock.json changed since the last install
# Installer output goes to LOG; the exit status is 0 when everything is there.
#
#   sh tests/interop/setup.sh LOG
set -u
here=$(cd "$(dirname "$0")" && pwd)
log=${1:-/dev/null}
: >"$log"

pkgs=""
need() { command -v "$1" >/dev/null 2>&1 || pkgs="$pkgs $2"; }
need babeltrace2 babeltrace2
need chromium chromium
need xmllint libxml2-utils
need node nodejs
need npm npm
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || pkgs="$pkgs fonts-noto-color-emoji"
if [ -n "$pkgs" ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
    echo "interop: installing$pkgs (apt-get)"
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $pkgs >>"$log" 2>&1; then
        # shellcheck disable=SC2086
        { DEBIAN_FRONTEND=noninteractive $sudo apt-get update &&
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $pkgs; } >>"$log" 2>&1 || {
            echo "interop: apt-get could not install$pkgs:" >&2
            tail -n 5 "$log" >&2
            exit 1
        }
    fi
fi

stamp="$here/node_modules/.interop-package-lock.json"
if ! cmp -s "$here/package-lock.json" "$stamp"; then
    echo "interop: installing the npm packages of tests/interop/package-lock.json (npm ci)"
    if ! (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund) >>"$log" 2>&1; then
        echo "interop: npm ci failed:" >&2
        tail -n 5 "$log" >&2
        exit 1
    fi
    cp "$here/package-lock.json" "$stamp"
fi
exit 0
