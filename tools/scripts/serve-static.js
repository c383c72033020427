#!/usr/bin/env node
/**
 * A small, dependency-free static server for the built web apps.
 *
 *   node tools/scripts/serve-static.js --dir apps/shell/dist --port 4200 [--host ::]
 *        [--spa] [--cors] [--proxy /api=http://127.0.0.1:3000]...
 *
 * --spa     unknown paths that look like pages answer index.html (client-side routes)
 * --cors    CORS headers on every answer (federated remotes are fetched cross-origin)
 * --proxy   stream requests under a prefix to an upstream (method, headers, body and status
 *           pass through); an unreachable upstream answers 502 with the gateway's error body
 *
 * Caching: index.html and remotes.json are never cached; other unhashed files
 * (remoteEntry.js, mf-manifest.json) are revalidated; content-hashed files are immutable.
 *
 * /remotes.json: when any REMOTE_<NAME>_URL variable is set (e.g. REMOTE_EDITOR_URL), the
 * answer is the file's content (if any) with those values overriding, so a deployment can
 * repoint the shell's remotes without a rebuild.
 */
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.vtt': 'text/vtt; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Request headers that belong to one connection and are not forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const NEVER_CACHED = new Set(['/index.html', '/remotes.json']);
const HASHED_FILE = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

function usage(message) {
  if (message) console.error(`serve-static: ${message}`);
  console.error(
    'usage: node tools/scripts/serve-static.js --dir <dir> --port <port> [--host <host>] [--spa] [--cors] [--proxy /prefix=http://host:port]...',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = { dir: '', port: 0, host: undefined, spa: false, cors: false, proxies: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) usage(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case '--dir':
        options.dir = value();
        break;
      case '--port':
        options.port = Number(value());
        break;
      case '--host':
        options.host = value();
        break;
      case '--spa':
        options.spa = true;
        break;
      case '--cors':
        options.cors = true;
        break;
      case '--proxy': {
        const spec = value();
        const eq = spec.indexOf('=');
        if (eq <= 0) usage(`--proxy expects /prefix=http://host:port, got "${spec}"`);
        const prefix = spec.slice(0, eq).replace(/\/+$/, '') || '/';
        let target;
        try {
          target = new URL(spec.slice(eq + 1));
        } catch {
          usage(`--proxy target is not a URL: "${spec.slice(eq + 1)}"`);
        }
        if (target.protocol !== 'http:') usage('--proxy supports http:// upstreams only');
        options.proxies.push({ prefix, target });
        break;
      }
      case '--help':
      case '-h':
        usage();
        break;
      default:
        usage(`unknown argument "${arg}"`);
    }
  }
  if (!options.dir) usage('--dir is required');
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) usage('--port must be 0..65535');
  return options;
}

/** Values of REMOTE_<NAME>_URL as { name: url } (lower-case names). */
function remoteOverridesFromEnv(env = process.env) {
  const overrides = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^REMOTE_([A-Z0-9_]+)_URL$/.exec(key);
    if (match && value) overrides[match[1].toLowerCase().replace(/_/g, '-')] = value;
  }
  return overrides;
}

function createServer(options) {
  const root = fs.realpathSync(path.resolve(options.dir));
  const proxies = [...options.proxies].sort((a, b) => b.prefix.length - a.prefix.length);

  function corsHeaders(req) {
    if (!options.cors) return {};
    return {
      'access-control-allow-origin': req.headers.origin || '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] || '*',
      'access-control-max-age': '600',
      'cross-origin-resource-policy': 'cross-origin',
      vary: 'Origin',
    };
  }

  function send(req, res, status, headers, body) {
    res.writeHead(status, { ...corsHeaders(req), 'x-content-type-options': 'nosniff', ...headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function sendJson(req, res, status, value, extra = {}) {
    const body = JSON.stringify(value);
    send(req, res, status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...extra }, body);
  }

  function cacheControl(urlPath) {
    if (NEVER_CACHED.has(urlPath)) return 'no-store';
    if (HASHED_FILE.test(urlPath)) return 'public, max-age=31536000, immutable';
    return 'no-cache';
  }

  /** Maps a URL path into `root`; null when it would leave it. */
  function resolveInRoot(urlPath) {
    if (urlPath.includes('\0')) return null;
    const target = path.resolve(root, `.${path.posix.normalize(urlPath)}`);
    if (target !== root && !target.startsWith(root + path.sep)) return null;
    return target;
  }

  function statFile(file) {
    try {
      let real = fs.realpathSync(file);
      if (real !== root && !real.startsWith(root + path.sep)) return null; // symlink out of root
      let stat = fs.statSync(real);
      if (stat.isDirectory()) {
        real = path.join(real, 'index.html');
        stat = fs.statSync(real);
      }
      return stat.isFile() ? { file: real, stat } : null;
    } catch {
      return null;
    }
  }

  function serveFile(req, res, found, urlPath) {
    const { file, stat } = found;
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
    const lastModified = stat.mtime.toUTCString();
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const cache = cacheControl(urlPath);
    const headers = { 'content-type': type, 'cache-control': cache };
    if (cache !== 'no-store') {
      headers.etag = etag;
      headers['last-modified'] = lastModified;
      if (req.headers['if-none-match'] === etag) return send(req, res, 304, headers);
    }
    res.writeHead(200, { ...corsHeaders(req), 'x-content-type-options': 'nosniff', ...headers, 'content-length': stat.size });
    if (req.method === 'HEAD') return res.end();
    const stream = fs.createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  function serveRemotesJson(req, res, overrides) {
    let base = {};
    const found = statFile(path.join(root, 'remotes.json'));
    if (found) {
      try {
        base = JSON.parse(fs.readFileSync(found.file, 'utf8'));
      } catch {
        base = {};
      }
    }
    sendJson(req, res, 200, { ...base, ...overrides }, { 'cache-control': 'no-store' });
  }

  function proxy(req, res, target) {
    const upstreamHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) upstreamHeaders[name] = value;
    }
    const remote = req.socket.remoteAddress || '';
    upstreamHeaders['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${remote}` : remote;
    upstreamHeaders['x-forwarded-host'] = req.headers['x-forwarded-host'] || req.headers.host || '';
    upstreamHeaders['x-forwarded-proto'] = req.headers['x-forwarded-proto'] || 'http';
    upstreamHeaders.host = target.host;

    const upstream = http.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname.replace(/\/+$/, '')}${req.url}`,
      headers: upstreamHeaders,
    });

    upstream.on('response', (up) => {
      const headers = {};
      for (const [name, value] of Object.entries(up.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      res.writeHead(up.statusCode || 502, up.statusMessage, headers);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });

    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(req, res, 502, {
        statusCode: 502,
        code: 'SERVICE_UNAVAILABLE',
        error: 'Bad Gateway',
        message: `The API at ${target.origin} is unavailable (${err.code || err.message})`,
      });
    });

    // The client went away: stop the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  const server = http.createServer((req, res) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url || '/', 'http://localhost').pathname);
    } catch {
      return sendJson(req, res, 400, { statusCode: 400, code: 'VALIDATION_FAILED', error: 'Bad Request', message: 'Malformed URL' });
    }

    const route = proxies.find((p) => urlPath === p.prefix || urlPath.startsWith(`${p.prefix}/`) || p.prefix === '/');
    if (route) return proxy(req, res, route.target);

    if (req.method === 'OPTIONS') return send(req, res, 204, { allow: 'GET, HEAD, OPTIONS' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(req, res, 405, { allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain; charset=utf-8' }, 'Method Not Allowed');
    }

    if (urlPath === '/remotes.json') {
      const overrides = remoteOverridesFromEnv();
      if (Object.keys(overrides).length > 0) return serveRemotesJson(req, res, overrides);
    }

    const target = resolveInRoot(urlPath);
    if (!target) return send(req, res, 403, { 'content-type': 'text/plain; charset=utf-8' }, 'Forbidden');

    const found = statFile(target);
    if (found) return serveFile(req, res, found, found.file === path.join(root, 'index.html') ? '/index.html' : urlPath);

    // SPA fallback: a page route (no file extension, or a client asking for HTML).
    const looksLikePage = path.posix.extname(urlPath) === '' || (req.headers.accept || '').includes('text/html');
    if (options.spa && looksLikePage) {
      const index = statFile(path.join(root, 'index.html'));
      if (index) return serveFile(req, res, index, '/index.html');
    }
    return send(req, res, 404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, 'Not Found');
  });

  // Uploads through the proxy may take long; only idle header reads time out.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(options.dir) || !fs.statSync(options.dir).isDirectory()) {
    console.error(`serve-static: ${options.dir} is not a directory (build the app first, e.g. npm run build:web)`);
    process.exit(1);
  }
  const server = createServer(options);
  server.on('error', (err) => {
    console.error(`serve-static: ${err.message}`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const extras = [
      options.spa ? 'spa' : '',
      options.cors ? 'cors' : '',
      ...options.proxies.map((p) => `${p.prefix} -> ${p.target.origin}`),
    ].filter(Boolean);
    console.log(`serve-static: ${options.dir} on http://localhost:${port}${extras.length ? ` (${extras.join(', ')})` : ''}`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) main();

module.exports = { createServer, parseArgs, remoteOverridesFromEnv };
