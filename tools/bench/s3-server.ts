/**
 * Child process of the benchmark: the S3 side, in its own process so that it does not share an
 * event loop with the clients being measured. Runs s3rver (startLocalS3, ephemeral port, throw-away
 * directory) and, in front of it, a counting HTTP proxy that tells how many bytes S3 sent to whoever
 * read through it (ffprobe over a presigned URL, or an SDK download).
 *
 * IPC: sends {type:'ready', endpoint, proxy}; answers 'stats' with {type:'stats', requests, bytesSent}
 * and 'reset' with {type:'reset'}.
 */
import { startLocalS3, type LocalS3 } from '@wordcut/storage';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUCKET, exitWithParent, send } from './common';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wordcut-bench-s3-'));
  const open: { s3?: LocalS3; proxy?: http.Server } = {};
  exitWithParent(async () => {
    open.proxy?.closeAllConnections();
    open.proxy?.close();
    await open.s3?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const s3 = await startLocalS3({ port: 0, directory: dir, buckets: [BUCKET] });
  open.s3 = s3;
  const target = new URL(s3.endpoint);
  const upstreamAgent = new http.Agent({ keepAlive: true });

  let stats = { requests: 0, bytesSent: 0 };
  const proxy = http.createServer((req, res) => {
    stats.requests++;
    // Host is passed on unchanged: the request was signed for the proxy's address.
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent: upstreamAgent },
      (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.on('data', (chunk: Buffer) => (stats.bytesSent += chunk.length));
        ur.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    // a client that stops reading early (ffprobe) closes its connection: stop reading from S3 too
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  open.proxy = proxy;
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const { port } = proxy.address() as AddressInfo;

  process.on('message', (m) => {
    if (m === 'stats') send({ type: 'stats', ...stats });
    if (m === 'reset') {
      stats = { requests: 0, bytesSent: 0 };
      send({ type: 'reset' });
    }
  });
  send({ type: 'ready', endpoint: s3.endpoint, proxy: `http://127.0.0.1:${port}` });
}

main().catch((err: unknown) => {
  process.stderr.write(`s3-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
