#!/usr/bin/env bash
# Type-checks everything: libs and services (built, project references), each web app, and the
# specs, tools and e2e (the @wordcut/checks project, against the libraries' declarations built
# first). All are Nx targets, taken from the Nx cache when their inputs are unchanged.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NX_DAEMON=false
LIBS_AND_SERVICES=$(node -e "console.log(require('./tsconfig.build.json').references.map((r) => require('./' + r.path + '/package.json').name).join(','))")
npx nx run-many -t build -p "$LIBS_AND_SERVICES" --parallel=2 --output-style=static
npx nx run-many -t typecheck --parallel=2 --output-style=static
echo "typecheck: ok"
