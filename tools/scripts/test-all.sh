#!/usr/bin/env bash
# Every test: lint, typecheck, unit, integration (real Postgres, NATS JetStream, S3 server, ffmpeg),
# and end-to-end in Debian's Chromium. Stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NX_DAEMON=false NX_NO_CLOUD=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
# Nx keeps its cache and the database that vouches for it under ~/.nx/<workspace id> (the id comes
# from the git remote), so every clean clone of the same repository shares them

started=$(date +%s)
stage() { echo; echo "=== $1 ($(( $(date +%s) - started ))s)"; }

stage "setup";        bash tools/scripts/setup.sh --tests
mkdir -p test-results
# lint beside the type-checks and builds (each an Nx target, from the cache when its inputs are unchanged)
stage "lint, typecheck + build libs and services"
bash tools/scripts/lint.sh > test-results/lint.log 2>&1 &
lint=$!
bash tools/scripts/typecheck.sh
lint_rc=0
wait "$lint" || lint_rc=$?
cat test-results/lint.log
[ "$lint_rc" -eq 0 ]
stage "unit tests";   npx jest -c jest.unit.config.js --ci
stage "build web apps"; npx nx run-many -t build -p @wordcut/ui @wordcut/web-shell @wordcut/web-editor @wordcut/web-keyclips @wordcut/web-publish @wordcut/web-analytics --output-style=stream
stage "integration tests"; npx jest -c jest.int.config.js --ci
stage "end-to-end tests";  CI=true npx playwright test -c e2e/playwright.config.ts
stage "all tests passed"
