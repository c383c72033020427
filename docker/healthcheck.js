#!/usr/bin/env node
/**
 * Container HEALTHCHECK of the WordCut service images: GET /healthz of the service in this
 * container (exit 0 on 200, 1 otherwise). The slim Node image has no curl/wget, so Node's own
 * fetch does it. The port is PORT when set, else the service's default (services/<name>/src/config.ts).
 */
'use strict';

const DEFAULT_PORTS = { gateway: 3000, media: 3101, jobs: 3102, export: 3103, analytics: 3104 };

const service = process.env.WORDCUT_SERVICE || '';
const port = process.env.PORT || DEFAULT_PORTS[service];
if (!port) {
  process.stderr.write(`healthcheck: no PORT and no default port for service "${service}"\n`);
  process.exit(1);
}

fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) })
  .then(async (res) => {
    if (res.ok) process.exit(0);
    process.stderr.write(`healthcheck: /healthz answered ${res.status}: ${(await res.text()).slice(0, 500)}\n`);
    process.exit(1);
  })
  .catch((err) => {
    process.stderr.write(`healthcheck: ${err.message}\n`);
    process.exit(1);
  });
