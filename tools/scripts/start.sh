#!/usr/bin/env bash
# Starts the whole product locally: installs what is missing, makes the demo media, builds,
# starts the S3 server, migrates, starts every service and the web apps, prints the URL.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NX_DAEMON=false NX_NO_CLOUD=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
bash tools/scripts/setup.sh
bash tools/media/generate-test-media.sh "${WORDCUT_DATA_DIR:-.data}/media"
echo "start: building services and web apps"
npx tsc -b tsconfig.build.json
npx nx run-many -t build -p @wordcut/ui @wordcut/web-shell @wordcut/web-editor @wordcut/web-keyclips @wordcut/web-publish @wordcut/web-analytics --output-style=static
exec npx tsx tools/stack/start-local.ts
