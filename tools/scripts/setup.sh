#!/usr/bin/env bash
# Installs what WordCut needs on a fresh Debian machine of our kind and checks the local services.
#   setup.sh            system packages for running (ffmpeg, espeak-ng, DejaVu fonts) + npm packages
#   setup.sh --tests    also Chromium for the end-to-end tests, Go with sprig for the chart check, and melt
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || need+=(ffmpeg)
command -v espeak-ng >/dev/null || need+=(espeak-ng)
# burned-in captions (libass) use DejaVu Sans
[[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ]] || need+=(fonts-dejavu-core)
if [[ "${1:-}" == "--tests" ]]; then
  [[ -x /usr/bin/chromium ]] || need+=(chromium)
  # the Helm chart is rendered offline with Go's text/template and sprig (tools/helm-render)
  command -v go >/dev/null || need+=(golang-go)
  [[ -d /usr/share/gocode/src/github.com/Masterminds/sprig ]] || need+=(golang-github-masterminds-sprig-dev)
  [[ -d /usr/share/gocode/src/gopkg.in/yaml.v2 ]] || need+=(golang-gopkg-yaml.v2-dev)
  # the MLT export is played back by MLT's own command-line player (tools/system-tests/mlt-melt)
  command -v melt >/dev/null || need+=(melt)
fi
if (( ${#need[@]} )); then
  echo "setup: installing Debian packages: ${need[*]}"
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# npm packages, from the lock file, when node_modules is missing or older than the lock file.
# `npm install` rather than `npm ci`: this machine kind's npm config (omit-lockfile-registry-resolved)
# writes version-less entries for other platforms' optional binaries, which `npm ci` rejects.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
fi

# the local services the stack and the tests talk to
check() { # name host port
  if ! (exec 3<>"/dev/tcp/$2/$3") 2>/dev/null; then
    echo "setup: $1 is not reachable on $2:$3. Start it first (see README.md, 'Local services')." >&2
    exit 1
  fi
}
check PostgreSQL 127.0.0.1 5432
check "NATS (with JetStream)" 127.0.0.1 4222
echo "setup: ok"
