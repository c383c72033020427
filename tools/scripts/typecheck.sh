#!/usr/bin/env bash
# Type-checks everything: libs and services (built, project references), each web app, tests and
# tools, e2e. The builds and the apps' checks are Nx targets, taken from the Nx cache when their
# inputs are unchanged; the rest runs beside them.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NX_DAEMON=false
LIBS_AND_SERVICES=$(node -e "console.log(require('./tsconfig.build.json').references.map((r) => require('./' + r.path + '/package.json').name).join(','))")
npx nx run-many -t build -p "$LIBS_AND_SERVICES" --parallel=2 --output-style=static
# the specs and tools read the libraries' declarations, built above
npx tsc -p tsconfig.spec.json &
specs=$!
npx tsc -p e2e/tsconfig.json &
e2e=$!
npx nx run-many -t typecheck --parallel=2 --output-style=static
wait "$specs"
wait "$e2e"
echo "typecheck: ok"
