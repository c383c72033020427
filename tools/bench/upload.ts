/**
 * Section 1: a large multipart upload into S3, the gateway's streaming path vs buffering the file in
 * memory first, and vs the baseline of a plain S3 put of the same file from disk (no HTTP upload in
 * front). Each upload is done by a fresh child process (upload-server.ts) so that its peak RSS belongs
 * to that upload alone; the parent sends the file as a streaming multipart POST (for the plain put,
 * an empty request that starts it).
 */
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { MB, checkInterrupted, forkTs, median, procCpuSeconds, procMemory, round } from './common';

export type UploadMode = 'stream' | 'buffer' | 'plain';
export const UPLOAD_MODES: readonly UploadMode[] = ['stream', 'buffer', 'plain'];

export interface UploadRun {
  mode: UploadMode;
  seconds: number;
  mibPerSec: number;
  /** VmRSS of the idle server before the upload (MiB). */
  idleRssMiB: number;
  /** VmHWM of the server at the end (MiB): its peak resident memory. */
  peakRssMiB: number;
  /** peak - idle: the memory this upload added (MiB). */
  addedRssMiB: number;
  /** CPU the server spent on this upload (user + system seconds). */
  serverCpuSec: number;
}

export interface UploadSummary {
  mode: UploadMode;
  label: string;
  runs: UploadRun[];
  medianMiBPerSec: number;
  medianSeconds: number;
  idleRssMiB: number;
  /** The largest peak of its runs. */
  peakRssMiB: number;
  /** The largest peak - idle of its runs. */
  addedRssMiB: number;
  medianServerCpuSec: number;
}

export const UPLOAD_LABELS: Record<UploadMode, string> = {
  stream: 'ours: receiveFiles -> lib-storage multipart (streaming)',
  buffer: 'alternative: whole file in a Buffer -> storage.upload(Buffer)',
  plain: 'baseline: plain S3 put, storage.upload(createReadStream(file))',
};

/** POSTs `file` (`repeat` times over) as multipart/form-data (field `file`), streamed from disk with a Content-Length. */
function postMultipart(port: number, file: string, sizeBytes: number, repeat: number): Promise<{ status: number; body: string; seconds: number }> {
  const boundary = `----wordcut-bench-${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + sizeBytes * repeat + tail.length },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, seconds: (performance.now() - t0) / 1000 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const next = () => {
      if (sent++ === repeat) {
        req.end(tail);
        return;
      }
      const source = createReadStream(file, { highWaterMark: 1 * MB });
      source.on('error', reject);
      source.on('end', next);
      source.pipe(req, { end: false });
    };
    next();
  });
}

/** Starts the plain put: an empty POST, answered when the server has stored its file. */
function postEmpty(port: number): Promise<{ status: number; body: string; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/put', headers: { 'content-length': 0 } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, seconds: (performance.now() - t0) / 1000 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function uploadOnce(mode: UploadMode, s3Endpoint: string, file: string, fileBytes: number, storage: ObjectStorage, repeat = 1): Promise<UploadRun> {
  const sizeBytes = fileBytes * repeat;
  if (mode === 'plain' && repeat !== 1) throw new Error('the plain put sends the file once');
  const child = forkTs('upload-server.ts', { BENCH_UPLOAD_MODE: mode, BENCH_S3_ENDPOINT: s3Endpoint, BENCH_UPLOAD_FILE: file });
  try {
    const port = await child.message((m) => ((m as { type?: string }).type === 'ready' ? (m as { port: number }).port : undefined));
    const idle = procMemory(child.pid);
    const cpu0 = procCpuSeconds(child.pid);
    const res = mode === 'plain' ? await postEmpty(port) : await postMultipart(port, file, fileBytes, repeat);
    const end = procMemory(child.pid);
    const cpu1 = procCpuSeconds(child.pid);
    if (res.status !== 200) throw new Error(`${mode} upload answered ${res.status}: ${res.body.slice(0, 300)}`);
    const stored = JSON.parse(res.body) as { key: string; sizeBytes: number };
    await storage.delete(stored.key);
    if (stored.sizeBytes !== sizeBytes) throw new Error(`${mode} upload stored ${stored.sizeBytes} bytes, sent ${sizeBytes}`);
    return {
      mode,
      seconds: round(res.seconds, 2),
      mibPerSec: round(sizeBytes / MB / res.seconds),
      idleRssMiB: round(idle.rssBytes / MB),
      peakRssMiB: round(end.hwmBytes / MB),
      addedRssMiB: round((end.hwmBytes - idle.rssBytes) / MB),
      serverCpuSec: round(cpu1 - cpu0, 2),
    };
  } finally {
    await child.stop();
  }
}

export interface ScaledUploadRun extends UploadRun {
  label: string;
  sizeMiB: number;
}

export async function benchUpload(o: {
  s3Endpoint: string;
  file: string;
  sizeBytes: number;
  storage: ObjectStorage;
  runs: number;
  /** >1: one more streaming upload of the file sent this many times over in one part (0/1: none). */
  scaleRepeat: number;
  log: (line: string) => void;
}): Promise<{ paths: UploadSummary[]; scaled?: ScaledUploadRun }> {
  // the file comes from the page cache in every run, the first one included
  for await (const _ of createReadStream(o.file, { highWaterMark: 4 * MB })) void _;
  const runs: UploadRun[] = [];
  for (let i = 0; i < o.runs; i++) {
    // rotate which mode goes first, so that none always runs on a warmer machine
    const order = UPLOAD_MODES.map((_, k) => UPLOAD_MODES[(i + k) % UPLOAD_MODES.length]!);
    for (const mode of order) {
      checkInterrupted();
      const r = await uploadOnce(mode, o.s3Endpoint, o.file, o.sizeBytes, o.storage);
      o.log(`  upload ${mode.padEnd(6)} run ${i + 1}/${o.runs}: ${r.seconds.toFixed(2)} s, ${r.mibPerSec} MiB/s, peak RSS ${r.peakRssMiB} MiB (+${r.addedRssMiB}), CPU ${r.serverCpuSec} s`);
      runs.push(r);
    }
  }
  let scaled: ScaledUploadRun | undefined;
  if (o.scaleRepeat > 1) {
    // does the streaming path's memory grow with the file? (the buffering one grows ~2x the size)
    const r = await uploadOnce('stream', o.s3Endpoint, o.file, o.sizeBytes, o.storage, o.scaleRepeat);
    const sizeMiB = round((o.sizeBytes * o.scaleRepeat) / MB);
    o.log(`  upload stream x${o.scaleRepeat} (${sizeMiB} MiB): ${r.seconds.toFixed(2)} s, ${r.mibPerSec} MiB/s, peak RSS ${r.peakRssMiB} MiB (+${r.addedRssMiB}), CPU ${r.serverCpuSec} s`);
    scaled = { ...r, sizeMiB, label: `ours again, ${sizeMiB} MiB (the file ${o.scaleRepeat}x in one part), 1 run` };
  }
  const paths = UPLOAD_MODES.map((mode): UploadSummary => {
    const mine = runs.filter((r) => r.mode === mode);
    return {
      mode,
      label: UPLOAD_LABELS[mode],
      runs: mine,
      medianMiBPerSec: round(median(mine.map((r) => r.mibPerSec))),
      medianSeconds: round(median(mine.map((r) => r.seconds)), 2),
      idleRssMiB: round(median(mine.map((r) => r.idleRssMiB))),
      peakRssMiB: Math.max(...mine.map((r) => r.peakRssMiB)),
      addedRssMiB: Math.max(...mine.map((r) => r.addedRssMiB)),
      medianServerCpuSec: round(median(mine.map((r) => r.serverCpuSec)), 2),
    };
  });
  return scaled ? { paths, scaled } : { paths };
}
