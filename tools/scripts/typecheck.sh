#!/usr/bin/env bash
# Type-checks everything: libs and services (project references), tests and tools, each web app, e2e.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx tsc -b tsconfig.build.json
npx tsc -p tsconfig.spec.json
for app in shell editor keyclips publish analytics; do npx tsc -p "apps/$app/tsconfig.json"; done
npx tsc -p e2e/tsconfig.json
echo "typecheck: ok"
