/**
 * Child process of the benchmark: a bare node:http server that receives one multipart upload per
 * request and stores it in S3, the way BENCH_UPLOAD_MODE says:
 *
 * - `stream`: the gateway's own code, `receiveFiles` (services/gateway/dist/upload.js), which pipes
 *   the file part through busboy into S3ObjectStorage.upload (lib-storage multipart, bounded memory);
 * - `buffer`: the obvious alternative, what NestJS's FileInterceptor does by default (multer memory
 *   storage): collect the file part into one Buffer, then S3ObjectStorage.upload(key, buffer);
 * - `plain`: no upload at all, the baseline: any request makes the server put BENCH_UPLOAD_FILE from
 *   its disk, `S3ObjectStorage.upload(key, createReadStream(file))`, the same multipart upload to S3
 *   without the HTTP hop and busboy in front of it.
 *
 * One process per measured upload, so that its peak RSS (VmHWM, read by the parent) is this upload's.
 * IPC: sends {type:'ready', port}; the HTTP answer is {key, sizeBytes, serverMs}.
 */
import { S3ObjectStorage, type ObjectStorage } from '@wordcut/storage';
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// the compiled gateway code, exactly as the service runs it (both modes load it: same baseline)
import { receiveFiles } from '../../services/gateway/dist/upload.js';
import { BUCKET, S3_CREDENTIALS, exitWithParent, send } from './common';

type Mode = 'stream' | 'buffer' | 'plain';

/** multer memoryStorage, in short: the whole file part in memory, then one upload of the Buffer. */
function receiveBuffered(req: http.IncomingMessage, storage: ObjectStorage, key: string): Promise<{ sizeBytes: number }> {
  return new Promise((resolve, reject) => {
    const bb = busboy({ headers: req.headers, limits: { files: 1 } });
    let stored: Promise<{ sizeBytes: number }> | undefined;
    bb.on('file', (_name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stored = new Promise<void>((ended, failed) => {
        stream.once('end', ended);
        stream.once('error', failed);
      }).then(() => {
        const body = Buffer.concat(chunks);
        chunks.length = 0;
        return storage.upload(key, body, { contentType: 'application/octet-stream' });
      });
      stored.catch(() => undefined);
    });
    bb.on('error', reject);
    bb.on('close', () => {
      if (!stored) reject(new Error('no file in the request'));
      else stored.then(resolve, reject);
    });
    req.pipe(bb);
  });
}

/** The baseline: the request only says go; the file comes from this server's disk, straight into S3. */
function putFromDisk(req: http.IncomingMessage, storage: ObjectStorage, key: string, file: string): Promise<{ sizeBytes: number }> {
  req.resume();
  return storage.upload(key, createReadStream(file), { contentType: 'application/octet-stream' });
}

async function main(): Promise<void> {
  const mode = process.env['BENCH_UPLOAD_MODE'] as Mode;
  if (mode !== 'stream' && mode !== 'buffer' && mode !== 'plain') throw new Error(`BENCH_UPLOAD_MODE must be stream, buffer or plain, got ${mode}`);
  const endpoint = process.env['BENCH_S3_ENDPOINT'];
  if (!endpoint) throw new Error('BENCH_S3_ENDPOINT is required');
  const file = process.env['BENCH_UPLOAD_FILE'];
  if (mode === 'plain' && !file) throw new Error('BENCH_UPLOAD_FILE is required in plain mode');
  const storage = new S3ObjectStorage({ endpoint, region: 'us-east-1', ...S3_CREDENTIALS, bucket: BUCKET, forcePathStyle: true });

  const server = http.createServer((req, res) => {
    const key = `bench/upload-${mode}-${randomUUID()}`;
    const t0 = performance.now();
    const received =
      mode === 'stream'
        ? receiveFiles(req, storage, { file: { key, maxBytes: 64 * 1024 ** 3, label: 'video' } }).then((files) => files['file']!)
        : mode === 'buffer'
          ? receiveBuffered(req, storage, key)
          : putFromDisk(req, storage, key, file!);
    received.then(
      (file) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key, sizeBytes: file.sizeBytes, serverMs: performance.now() - t0 })),
      (err: unknown) => {
        const status = (err as { statusCode?: number }).statusCode ?? 500;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(String((err as Error).message ?? err));
      },
    );
  });
  exitWithParent(() => {
    server.closeAllConnections();
    server.close();
    storage.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

main().catch((err: unknown) => {
  process.stderr.write(`upload-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
