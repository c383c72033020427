/**
 * Child process of the benchmark (section 9): publishes one S3 object to the provider sandbox the way
 * BENCH_EXPORT_MODE says, then exits with its parent.
 *
 * - `stream`: the export worker's own code: `s3UploadSource` (services/export/dist/s3-upload-source.js:
 *   HEAD, one streaming sha256 pass, then ranged GETs) into `HttpProviderClient.upload` from
 *   @wordcut/provider, in chunks of BENCH_EXPORT_CHUNK_BYTES (the resumable protocol, one PUT a chunk);
 * - `buffer`: the obvious alternative: the whole object read from S3 into one Buffer (allocated at the
 *   object's size, the leanest way to hold it), its sha256 from that Buffer, a resumable session started
 *   with the same headers the client sends, and the whole Buffer in one PUT to the session URI.
 *
 * Both modes load the same modules, so that their idle memory is the same. One process per measured
 * upload, so that its peak RSS (VmHWM, read by the parent) is this upload's.
 * IPC: sends {type:'ready'}; on {type:'go', url, token} uploads and sends {type:'done', ...ExportUploadTiming}
 * or {type:'failed', message}.
 */
import { HttpProviderClient } from '@wordcut/provider';
import { S3ObjectStorage, type ObjectStorage } from '@wordcut/storage';
import { createHash } from 'node:crypto';
// the compiled export service code, exactly as the worker runs it
import { s3UploadSource } from '../../services/export/dist/s3-upload-source.js';
import { BUCKET, S3_CREDENTIALS, exitWithParent, procMemory, send } from './common';

export type ExportUploadMode = 'stream' | 'buffer';

const CONTENT_TYPE = 'video/mp4';

/** What the child measured and what the provider answered. */
export interface ExportUploadTiming {
  /** reading the source before the first byte goes out (ours: HEAD + sha256 pass; buffer: the whole GET + sha256) */
  prepareSec: number;
  /** this process's peak resident memory (VmHWM) when the source was read, before the upload (bytes) */
  prepareHwmBytes: number;
  /** starting the session, the PUTs and the provider's answer */
  uploadSec: number;
  bytes: number;
  /** the sha256 the uploader computed of what it read from S3 */
  sourceSha256: string;
  /** the sha256 the provider answered for what it stored */
  providerSha256: string | null;
  uploadId: string;
}

interface Go {
  type: 'go';
  url: string;
  token: string;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

async function uploadStreaming(storage: ObjectStorage, key: string, chunkSize: number, go: Go): Promise<ExportUploadTiming> {
  const client = new HttpProviderClient({ apiUrl: new URL(go.url).origin, chunkSize });
  const t0 = performance.now();
  const source = await s3UploadSource(storage, key, CONTENT_TYPE);
  const prepareSec = seconds(t0);
  const prepareHwmBytes = procMemory(process.pid).hwmBytes;
  const t1 = performance.now();
  const r = await client.upload({ token: go.token, url: go.url, source });
  return { prepareSec, prepareHwmBytes, uploadSec: seconds(t1), bytes: r.bytes, sourceSha256: source.sha256, providerSha256: r.sha256, uploadId: r.uploadId };
}

/** The whole object in one buffer of its size (HEAD first, as the alternative needs the size anyway). */
async function readWhole(storage: ObjectStorage, key: string): Promise<Uint8Array<ArrayBuffer>> {
  const head = await storage.head(key);
  if (!head) throw new Error(`${key} is not in storage`);
  const whole = new Uint8Array(head.sizeBytes);
  let at = 0;
  for await (const piece of (await storage.getStream(key)).body) {
    whole.set(piece as Buffer, at);
    at += (piece as Buffer).length;
  }
  if (at !== head.sizeBytes) throw new Error(`read ${at} bytes of ${key}, HEAD said ${head.sizeBytes}`);
  return whole;
}

async function uploadBuffered(storage: ObjectStorage, key: string, go: Go): Promise<ExportUploadTiming> {
  const t0 = performance.now();
  const whole = await readWhole(storage, key);
  const sha256 = createHash('sha256').update(whole).digest('hex');
  const prepareSec = seconds(t0);
  const prepareHwmBytes = procMemory(process.pid).hwmBytes;
  const t1 = performance.now();
  const start = new URL(go.url);
  start.searchParams.set('uploadType', 'resumable');
  const session = await fetch(start, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${go.token}`,
      'x-upload-content-length': String(whole.length),
      'x-upload-content-type': CONTENT_TYPE,
      'x-upload-content-sha256': sha256,
    },
  });
  const location = session.headers.get('location');
  if (session.status !== 200 || !location) throw new Error(`starting the session answered ${session.status}: ${(await session.text()).slice(0, 300)}`);
  await session.arrayBuffer();
  const put = await fetch(new URL(location, start), {
    method: 'PUT',
    headers: { 'content-range': `bytes 0-${whole.length - 1}/${whole.length}` },
    body: whole,
  });
  const text = await put.text();
  if (put.status !== 200) throw new Error(`the single PUT answered ${put.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as { uploadId: string; bytes: number; sha256: string };
  return { prepareSec, prepareHwmBytes, uploadSec: seconds(t1), bytes: answer.bytes, sourceSha256: sha256, providerSha256: answer.sha256, uploadId: answer.uploadId };
}

function main(): void {
  const mode = process.env['BENCH_EXPORT_MODE'] as ExportUploadMode;
  if (mode !== 'stream' && mode !== 'buffer') throw new Error(`BENCH_EXPORT_MODE must be stream or buffer, got ${mode}`);
  const endpoint = process.env['BENCH_S3_ENDPOINT'];
  const key = process.env['BENCH_EXPORT_KEY'];
  if (!endpoint || !key) throw new Error('BENCH_S3_ENDPOINT and BENCH_EXPORT_KEY are required');
  const chunkSize = Number(process.env['BENCH_EXPORT_CHUNK_BYTES']);
  if (mode === 'stream' && !(chunkSize > 0)) throw new Error('BENCH_EXPORT_CHUNK_BYTES is required in stream mode');
  const storage = new S3ObjectStorage({ endpoint, region: 'us-east-1', ...S3_CREDENTIALS, bucket: BUCKET, forcePathStyle: true });
  exitWithParent(() => storage.destroy());

  process.on('message', (m: Go) => {
    if (m.type !== 'go') return;
    const run = mode === 'stream' ? uploadStreaming(storage, key, chunkSize, m) : uploadBuffered(storage, key, m);
    run.then(
      (timing) => send({ type: 'done', ...timing }),
      (err: unknown) => send({ type: 'failed', message: (err as Error).message ?? String(err) }),
    );
  });
  send({ type: 'ready' });
}

try {
  main();
} catch (err) {
  process.stderr.write(`export-upload-client: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
}
