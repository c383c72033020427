import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const { createServer } = require('./serve-static.js') as {
  createServer: (options: {
    dir: string;
    port: number;
    spa: boolean;
    cors: boolean;
    proxies: Array<{ prefix: string; target: URL }>;
  }) => http.Server;
};

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, urlPath: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

let dir: string;
let outside: string;

beforeAll(() => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-static-'));
  dir = path.join(base, 'dist');
  outside = path.join(base, 'secret.txt');
  fs.mkdirSync(dir);
  fs.writeFileSync(outside, 'secret');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>shell</title>');
  fs.writeFileSync(path.join(dir, 'main.0f3a0751.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), 'var x;');
  fs.writeFileSync(path.join(dir, 'remotes.json'), JSON.stringify({ editor: 'http://localhost:4201/mf-manifest.json', publish: 'http://localhost:4203/mf-manifest.json' }));
  fs.symlinkSync(outside, path.join(dir, 'link.txt'));
});

describe('serve-static', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = createServer({ dir, port: 0, spa: true, cors: true, proxies: [] });
    port = await listen(server);
  });
  afterAll(() => close(server));

  it('serves files with their content type and cache policy', async () => {
    const js = await request(port, '/main.0f3a0751.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    const entry = await request(port, '/remoteEntry.js');
    expect(entry.headers['cache-control']).toBe('no-cache');
    const index = await request(port, '/');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-store');
    const remotes = await request(port, '/remotes.json');
    expect(remotes.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(remotes.headers['cache-control']).toBe('no-store');
  });

  it('falls back to index.html for page routes only', async () => {
    const page = await request(port, '/editor/abc', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>shell</title>');
    expect(page.headers['cache-control']).toBe('no-store');
    const asset = await request(port, '/missing.1234abcd.js');
    expect(asset.status).toBe(404);
  });

  it('sends CORS headers and answers preflights', async () => {
    const res = await request(port, '/remoteEntry.js', { headers: { origin: 'http://localhost:4200' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:4200');
    const pre = await request(port, '/mf-manifest.json', { method: 'OPTIONS', headers: { origin: 'http://localhost:4200' } });
    expect(pre.status).toBe(204);
  });

  it('never leaves its directory', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/a/../../secret.txt', '/link.txt', '/%00']) {
      const res = await request(port, p);
      expect(res.body).not.toBe('secret');
      expect([403, 404, 200]).toContain(res.status);
      if (res.status === 200) expect(res.body).toContain('<title>shell</title>');
    }
  });

  it('rejects writes to static files', async () => {
    expect((await request(port, '/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('builds remotes.json from REMOTE_<NAME>_URL when set', async () => {
    process.env.REMOTE_EDITOR_URL = 'https://cdn.example.com/editor/mf-manifest.json';
    try {
      const res = await request(port, '/remotes.json');
      expect(JSON.parse(res.body)).toEqual({
        editor: 'https://cdn.example.com/editor/mf-manifest.json',
        publish: 'http://localhost:4203/mf-manifest.json',
      });
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      delete process.env.REMOTE_EDITOR_URL;
    }
  });
});

describe('serve-static proxy', () => {
  it('streams method, headers, body and status to and from the upstream', async () => {
    const upstream = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), cookie: req.headers.cookie, fwd: req.headers['x-forwarded-host'] }));
      });
    });
    const upPort = await listen(upstream);
    const server = createServer({ dir, port: 0, spa: true, cors: false, proxies: [{ prefix: '/api', target: new URL(`http://127.0.0.1:${upPort}`) }] });
    const port = await listen(server);
    try {
      const res = await request(port, '/api/videos/1?x=1', { method: 'PATCH', headers: { cookie: 'sid=1', 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(res.status).toBe(201);
      expect(res.headers['x-upstream']).toBe('yes');
      expect(JSON.parse(res.body)).toEqual({ method: 'PATCH', url: '/api/videos/1?x=1', body: '{"a":1}', cookie: 'sid=1', fwd: `127.0.0.1:${port}` });
      // Not under the prefix: static.
      expect((await request(port, '/apix')).body).toContain('<title>shell</title>');
    } finally {
      await close(server);
      await close(upstream);
    }
  });

  it('answers 502 with the gateway error body when the upstream is down', async () => {
    const probe = http.createServer();
    const deadPort = await listen(probe);
    await close(probe);
    const server = createServer({ dir, port: 0, spa: false, cors: false, proxies: [{ prefix: '/api', target: new URL(`http://127.0.0.1:${deadPort}`) }] });
    const port = await listen(server);
    try {
      const res = await request(port, '/api/probe-jobs', { method: 'POST', body: 'x' });
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 502, code: 'SERVICE_UNAVAILABLE', error: 'Bad Gateway' });
      expect(JSON.parse(res.body).message).toEqual(expect.any(String));
    } finally {
      await close(server);
    }
  });
});
