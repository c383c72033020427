#!/usr/bin/env bash
# ESLint over the whole repository (the @wordcut/checks project's lint target, cached by Nx on
# every source file it reads). Nx computes the project graph that the module-boundary rule needs.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NX_DAEMON=false
npx nx run @wordcut/checks:lint --output-style=static
echo "lint: ok"
