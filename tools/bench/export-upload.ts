/**
 * Section 9: publishing uploads. The benchmark's large media goes into S3 once; then each path publishes
 * that object to the provider sandbox (started here, on loopback, in this process) from a fresh child
 * process (export-upload-client.ts), so that the child's peak RSS belongs to that upload alone:
 *
 * - ours: `s3UploadSource` + `HttpProviderClient.upload` with the export service's default
 *   PROVIDER_CHUNK_BYTES, and again with other chunk sizes (the chunk-size comparison);
 * - the alternative: the whole object read into a Buffer, then one PUT of it to the resumable session.
 *
 * Every upload is checked: the sha256 the sandbox's library keeps for the stored file must be the
 * source file's, or the section fails.
 */
import { HttpProviderClient } from '@wordcut/provider';
import type { ObjectStorage } from '@wordcut/storage';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
// the export service's configuration, to take the chunk size it uploads with by default
import { exportConfigSchema } from '../../services/export/dist/config.js';
import { startProviderSandbox, type ProviderSandbox } from '../provider-sandbox/sandbox';
import { BENCH_DIR, MB, checkInterrupted, forkTs, median, onCleanup, procCpuSeconds, procMemory, round } from './common';
import type { ExportUploadMode, ExportUploadTiming } from './export-upload-client';

/** PROVIDER_CHUNK_BYTES when it is not set: what the export worker uploads with. */
const DEFAULT_CHUNK_BYTES: number = exportConfigSchema.shape.PROVIDER_CHUNK_BYTES.parse(undefined);

interface ExportUploadPath {
  id: string;
  label: string;
  mode: ExportUploadMode;
  /** bytes per PUT (stream mode) */
  chunkBytes: number | null;
}

export interface ExportUploadRun {
  id: string;
  /** 'go' -> the provider's final answer, in the child */
  seconds: number;
  /** size / seconds */
  mibPerSec: number;
  prepareSec: number;
  uploadSec: number;
  /** size / uploadSec: the provider-facing part alone */
  uploadMiBPerSec: number;
  /** VmRSS of the idle child before the upload (MiB) */
  idleRssMiB: number;
  /** VmHWM of the child at the end (MiB): its peak resident memory */
  peakRssMiB: number;
  /** peak - idle: the memory this upload added (MiB) */
  addedRssMiB: number;
  /** the peak when the source had been read, before the upload, - idle (MiB) */
  sourceAddedRssMiB: number;
  /** CPU the child spent (user + system seconds) */
  cpuSec: number;
}

export interface ExportUploadSummary {
  id: string;
  label: string;
  chunkMiB: number | null;
  /** HTTP requests to the provider: the POST that starts the session and the PUTs */
  requests: number;
  runs: ExportUploadRun[];
  medianMiBPerSec: number;
  medianSeconds: number;
  medianPrepareSec: number;
  medianUploadSec: number;
  medianUploadMiBPerSec: number;
  idleRssMiB: number;
  /** the largest of its runs */
  peakRssMiB: number;
  /** the largest of its runs */
  addedRssMiB: number;
  /** the largest of its runs */
  sourceAddedRssMiB: number;
  medianCpuSec: number;
}

export interface ExportUploadResults {
  sizeBytes: number;
  sizeMiB: number;
  runsPerPath: number;
  defaultChunkMiB: number;
  /** ours (default chunk size), ours with the other chunk sizes, the buffered single PUT */
  paths: ExportUploadSummary[];
  /** ours once more on the file `repeat` times over in one object */
  scaled?: ExportUploadRun & { label: string; sizeMiB: number; repeat: number; requests: number };
  /** uploads whose stored bytes hash to the source's sha256 (all of them, or the section failed) */
  verifiedUploads: number;
  /** ours / buffered single PUT, MiB/s end to end */
  throughputRatio: number;
  /** the same for the provider-facing part alone */
  uploadThroughputRatio: number;
  /** buffered / ours, memory added by the upload */
  addedRssRatio: number;
  sectionSec: number;
}

const KEY = 'bench/export-source.mp4';
const SCALED_KEY = 'bench/export-source-scaled.mp4';

function exportUploadPaths(compareChunkMiB: readonly number[]): ExportUploadPath[] {
  const mib = (bytes: number) => round(bytes / MB, 2);
  const others = [...new Set(compareChunkMiB.map((c) => c * MB))].filter((b) => b !== DEFAULT_CHUNK_BYTES);
  return [
    { id: 'ours', label: `ours: s3UploadSource -> HttpProviderClient.upload, ${mib(DEFAULT_CHUNK_BYTES)} MiB chunks (default)`, mode: 'stream', chunkBytes: DEFAULT_CHUNK_BYTES },
    ...others.map((b): ExportUploadPath => ({ id: `ours-${mib(b)}mib`, label: `ours with ${mib(b)} MiB chunks`, mode: 'stream', chunkBytes: b })),
    { id: 'buffer', label: 'alternative: the whole object in one buffer -> one PUT to the session', mode: 'buffer', chunkBytes: null },
  ];
}

/** The file `repeat` times over, as one stream. */
function repeated(file: string, repeat: number): Readable {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < repeat; i++) yield* createReadStream(file, { highWaterMark: 1 * MB });
    })(),
  );
}

async function sha256Of(body: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of body) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** The stored file of `sessionId`'s video in the sandbox's library must have the source's size and sha256. */
function verifyStored(sandbox: ProviderSandbox, sessionId: string, sizeBytes: number, sha256: string, what: string): void {
  const stored = sandbox.library().find((v) => v.sessionId === sessionId)?.files.video;
  if (!stored) throw new Error(`${what}: the sandbox's library has no video file for session ${sessionId}`);
  if (stored.bytes !== sizeBytes) throw new Error(`${what}: the sandbox stored ${stored.bytes} bytes, the source has ${sizeBytes}`);
  if (stored.sha256 !== sha256) throw new Error(`${what}: the sandbox stored bytes with sha256 ${stored.sha256}, the source's is ${sha256}`);
}

async function uploadOnce(
  path: ExportUploadPath,
  o: { sandbox: ProviderSandbox; client: HttpProviderClient; s3Endpoint: string; key: string; sizeBytes: number; sha256: string },
): Promise<ExportUploadRun> {
  const child = forkTs('export-upload-client.ts', {
    BENCH_EXPORT_MODE: path.mode,
    BENCH_EXPORT_CHUNK_BYTES: String(path.chunkBytes ?? ''),
    BENCH_S3_ENDPOINT: o.s3Endpoint,
    BENCH_EXPORT_KEY: o.key,
  });
  try {
    const sessionId = randomUUID();
    const token = await o.sandbox.signToken({ sub: 'bench-export', sessionId, videoId: `bench-${sessionId}` });
    // where the worker uploads a main video when the token names no upload URL
    const url = o.client.uploadUrl(sessionId, 'video');
    await child.message((m) => ((m as { type?: string }).type === 'ready' ? true : undefined));
    const idle = procMemory(child.pid);
    const cpu0 = procCpuSeconds(child.pid);
    child.send({ type: 'go', url, token });
    const answer = await child.message((m) => {
      const type = (m as { type?: string }).type;
      return type === 'done' || type === 'failed' ? (m as ({ type: 'done' } & ExportUploadTiming) | { type: 'failed'; message: string }) : undefined;
    }, 600_000);
    const end = procMemory(child.pid);
    const cpu1 = procCpuSeconds(child.pid);
    if (answer.type === 'failed') throw new Error(`${path.id} upload failed: ${answer.message}`);
    if (answer.sourceSha256 !== o.sha256) throw new Error(`${path.id}: the uploader read bytes with sha256 ${answer.sourceSha256} from S3, the source's is ${o.sha256}`);
    verifyStored(o.sandbox, sessionId, o.sizeBytes, o.sha256, path.id);
    // the stored file is not needed once checked: keep the sandbox's disk use to one upload
    await o.sandbox.reset();
    const seconds = answer.prepareSec + answer.uploadSec;
    return {
      id: path.id,
      seconds: round(seconds, 2),
      mibPerSec: round(o.sizeBytes / MB / seconds),
      prepareSec: round(answer.prepareSec, 2),
      uploadSec: round(answer.uploadSec, 2),
      uploadMiBPerSec: round(o.sizeBytes / MB / answer.uploadSec),
      idleRssMiB: round(idle.rssBytes / MB),
      peakRssMiB: round(end.hwmBytes / MB),
      addedRssMiB: round((end.hwmBytes - idle.rssBytes) / MB),
      sourceAddedRssMiB: round((answer.prepareHwmBytes - idle.rssBytes) / MB),
      cpuSec: round(cpu1 - cpu0, 2),
    };
  } finally {
    await child.stop();
  }
}

/** The POST that starts the session, then one PUT per chunk (one for the whole body without chunks). */
const requestCount = (sizeBytes: number, chunkBytes: number | null): number => 1 + (chunkBytes === null ? 1 : Math.ceil(sizeBytes / chunkBytes));

const describe = (r: ExportUploadRun) =>
  `${r.seconds.toFixed(2)} s (source ${r.prepareSec} s + upload ${r.uploadSec} s), ${r.mibPerSec} MiB/s, peak RSS ${r.peakRssMiB} MiB (+${r.sourceAddedRssMiB} by the source read, +${r.addedRssMiB} in all), CPU ${r.cpuSec} s`;

function summarize(path: ExportUploadPath, runs: ExportUploadRun[], sizeBytes: number): ExportUploadSummary {
  const mine = runs.filter((r) => r.id === path.id);
  return {
    id: path.id,
    label: path.label,
    chunkMiB: path.chunkBytes === null ? null : round(path.chunkBytes / MB, 2),
    requests: requestCount(sizeBytes, path.chunkBytes),
    runs: mine,
    medianMiBPerSec: round(median(mine.map((r) => r.mibPerSec))),
    medianSeconds: round(median(mine.map((r) => r.seconds)), 2),
    medianPrepareSec: round(median(mine.map((r) => r.prepareSec)), 2),
    medianUploadSec: round(median(mine.map((r) => r.uploadSec)), 2),
    medianUploadMiBPerSec: round(median(mine.map((r) => r.uploadMiBPerSec))),
    idleRssMiB: round(median(mine.map((r) => r.idleRssMiB))),
    peakRssMiB: Math.max(...mine.map((r) => r.peakRssMiB)),
    addedRssMiB: Math.max(...mine.map((r) => r.addedRssMiB)),
    sourceAddedRssMiB: Math.max(...mine.map((r) => r.sourceAddedRssMiB)),
    medianCpuSec: round(median(mine.map((r) => r.cpuSec)), 2),
  };
}

export async function benchExportUpload(o: {
  s3Endpoint: string;
  storage: ObjectStorage;
  file: string;
  sizeBytes: number;
  runs: number;
  /** chunk sizes (MiB) to compare with the default */
  compareChunkMiB: readonly number[];
  /** >1: ours once more on an object of the file this many times over (0/1: none) */
  scaleRepeat: number;
  log: (line: string) => void;
}): Promise<ExportUploadResults> {
  const t0 = performance.now();
  checkInterrupted();
  const sandbox = await startProviderSandbox({ port: 0, host: '127.0.0.1', mediaDir: BENCH_DIR, editorUrl: 'http://127.0.0.1:9' });
  const forgetSandbox = onCleanup('the provider sandbox', () => sandbox.close());
  const client = new HttpProviderClient({ apiUrl: sandbox.url });
  const deleteObjects = () => Promise.all([o.storage.delete(KEY), o.storage.delete(SCALED_KEY)]);
  const forgetObjects = onCleanup('section 9 objects in S3', deleteObjects);

  const sha256 = await sha256Of(createReadStream(o.file, { highWaterMark: 1 * MB }));
  await o.storage.upload(KEY, createReadStream(o.file), { contentType: 'video/mp4' });
  const paths = exportUploadPaths(o.compareChunkMiB);
  const runs: ExportUploadRun[] = [];
  let verifiedUploads = 0;
  for (let i = 0; i < o.runs; i++) {
    // rotate which path goes first, so that none always runs on a warmer machine
    const order = paths.map((_, k) => paths[(i + k) % paths.length]!);
    for (const path of order) {
      checkInterrupted();
      const r = await uploadOnce(path, { sandbox, client, s3Endpoint: o.s3Endpoint, key: KEY, sizeBytes: o.sizeBytes, sha256 });
      verifiedUploads++;
      o.log(`  export ${path.id.padEnd(12)} run ${i + 1}/${o.runs}: ${describe(r)}`);
      runs.push(r);
    }
  }

  let scaled: ExportUploadResults['scaled'];
  if (o.scaleRepeat > 1) {
    // does our memory grow with the object? (the buffered one holds all of it)
    checkInterrupted();
    const sizeBytes = o.sizeBytes * o.scaleRepeat;
    const scaledSha = await sha256Of(repeated(o.file, o.scaleRepeat));
    await o.storage.upload(SCALED_KEY, repeated(o.file, o.scaleRepeat), { contentType: 'video/mp4' });
    const r = await uploadOnce(paths[0]!, { sandbox, client, s3Endpoint: o.s3Endpoint, key: SCALED_KEY, sizeBytes, sha256: scaledSha });
    verifiedUploads++;
    const sizeMiB = round(sizeBytes / MB);
    o.log(`  export ours x${o.scaleRepeat} (${sizeMiB} MiB): ${describe(r)}`);
    scaled = { ...r, sizeMiB, repeat: o.scaleRepeat, requests: requestCount(sizeBytes, DEFAULT_CHUNK_BYTES), label: `ours again, ${sizeMiB} MiB (the file ${o.scaleRepeat}x in one object), 1 run` };
  }
  await deleteObjects();
  forgetObjects();
  await sandbox.close();
  forgetSandbox();

  const summaries = paths.map((p) => summarize(p, runs, o.sizeBytes));
  const ours = summaries[0]!;
  const buffered = summaries.find((s) => s.id === 'buffer')!;
  return {
    sizeBytes: o.sizeBytes,
    sizeMiB: round(o.sizeBytes / MB),
    runsPerPath: o.runs,
    defaultChunkMiB: round(DEFAULT_CHUNK_BYTES / MB, 2),
    paths: summaries,
    ...(scaled ? { scaled } : {}),
    verifiedUploads,
    throughputRatio: round(ours.medianMiBPerSec / buffered.medianMiBPerSec, 2),
    uploadThroughputRatio: round(ours.medianUploadMiBPerSec / buffered.medianUploadMiBPerSec, 2),
    addedRssRatio: round(buffered.addedRssMiB / ours.addedRssMiB),
    sectionSec: round((performance.now() - t0) / 1000),
  };
}
