/**
 * Section 17: renders through the public API, POST to completed, as a user sees them, on a
 * 10-minute 1280x720 30 fps talk with a noisy picture (timecode frames under camera-like temporal
 * noise, about 5 Mbit/s, 2 s GOPs, AAC stereo), against the obvious alternative in the same run:
 *
 * - the whole stack (every service a real process, the bench's S3 server); the talk uploaded with
 *   a caption file and ingested;
 * - 20 cuts (section 6's plan) POSTed to /api/videos/{id}/apply-cuts: the first render of the video
 *   (its original not yet on the worker, no pieces made);
 * - one more cut, then 20 mutes at the three levels (/api/mute/jobs), each on the edited video,
 *   then a 60 s 9:16 clip at 1080x1920 (/api/clips); for each, the most memory the media worker
 *   and its ffmpeg processes held at once (the chart's sizing);
 * - alternative: the same 20 cuts as one plain ffmpeg full re-encode (trim/concat, libx264
 *   veryfast + AAC), and the floor: `ffmpeg -c copy` of the whole file.
 *
 * A 60-minute file (the same talk six times over) is measured at the renderer (`renderEdit` with
 * the worker's cache, no HTTP, no storage): its 20 cuts first cold, then again, beside the stream
 * copy of the whole file, to show the time follows the bytes copied, not the frames encoded.
 */
import { DiskCache, planReframe, readRenderMediaInfo, renderEdit, runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTimecodeMedia, timecodeAudioFilter } from '../media/timecode-media';
import { startStack, SERVICES, type ServiceName } from '../stack/stack';
import { bearer, startGatewaySession } from '../testing/identity';
import { BENCH_DIR, MB, checkInterrupted, freePort, onCleanup, procMemory, round } from './common';
import { keptSpans, plainCropFilter, planCuts, trimConcatGraph } from './render-plans';
import { benchEnv } from './stack';
import { plainTable as table } from './report';

const FPS = 30;
const GOP = 60;
const PIECE_SEC = 120;
/** Noise strength of the picture (timecode-media): about 5 Mbit/s at 720p. */
const NOISE = 9;
const TIMEOUT_MS = 30 * 60_000;

export interface ApiRender {
  name: string;
  /** POST to the job's `completed`, seconds */
  seconds: number;
  path: string;
  audio: string;
  encodedShare: number;
  pieces: { reused: number; made: number } | null;
  sourceCached: boolean | null;
  /** most memory the media worker and its ffmpeg processes held at once during the job, MiB */
  peakWorkerMiB: number;
}

export interface RenderApiResults {
  source: { file: string; sizeMiB: number; durationSec: number; generatedSec: number };
  setupSec: number;
  renders: ApiRender[];
  /** the plain full re-encode of the 20 cuts, and the stream copy of the whole file */
  fullReencodeSec: number;
  streamCopySec: number;
  /** full re-encode / our first 20-cut render */
  speedup: number;
  /** the 60 s 9:16 clip at the renderer: the plain `-ss -t -i -vf crop,scale` command and ours, seconds */
  clip: { plainSec: number; oursSec: number; ratio: number };
  /** what the worker reported for each render: original fetched, render, upload after it (ms) */
  timings: Array<{ name: string; fetchMs: number | null; renderMs: number | null; uploadWaitMs: number | null }>;
  long: { file: string; sizeMiB: number; durationSec: number; coldSec: number; warmSec: number; encodedFrames: number; streamCopySec: number } | null;
  sectionSec: number;
}

/**
 * The noisy talk of `minutes` minutes, made once under BENCH_DIR: a 2-minute noisy timecode piece
 * repeated (stream copy), with one continuous tone-burst track encoded over the whole length.
 */
export async function ensureNoisyTalk(minutes: number, log: (line: string) => void): Promise<{ path: string; generatedSec: number }> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `noisy-talk-720p-${minutes}min.mp4`);
  if (exists(path)) return { path, generatedSec: 0 };
  const t0 = performance.now();
  const piece = join(BENCH_DIR, 'noisy-talk-720p-2min-video.mp4');
  if (!exists(piece)) {
    log(`  17: generating a 2-minute noisy 720p piece (about 80 s on 2 cores) ...`);
    const partial = `${piece}.partial.mp4`;
    await generateTimecodeMedia(partial, { durationSec: PIECE_SEC, width: 1280, height: 720, fps: FPS, gopFrames: GOP, noise: NOISE, audio: false });
    renameSync(partial, piece);
  }
  log(`  17: joining it into ${minutes} minutes with one audio track ...`);
  const list = join(BENCH_DIR, `noisy-${minutes}.ffconcat`);
  writeFileSync(list, `ffconcat version 1.0\n${Array.from({ length: (minutes * 60) / PIECE_SEC }, () => `file '${piece}'`).join('\n')}\n`);
  const partial = `${path}.partial.mp4`;
  try {
    await runFfmpeg({
      args: [
        '-f', 'concat', '-safe', '0', '-i', toFfmpegInput(list),
        '-f', 'lavfi', '-i', timecodeAudioFilter(48000, FPS, minutes * 60),
        '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
        '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(partial),
      ],
      timeoutMs: TIMEOUT_MS,
    });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
    rmSync(list, { force: true });
  }
  return { path, generatedSec: round((performance.now() - t0) / 1000) };
}

function exists(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** A process and every process under it (ffmpeg children of a worker), from /proc. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const dir = `/proc/${out[i]}/task`;
    if (!existsSync(dir)) continue;
    for (const task of readdirSync(dir)) {
      try {
        for (const c of readFileSync(`${dir}/${task}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // the task ended
      }
    }
  }
  return out;
}

/** Samples the summed resident memory of a process tree every 100 ms; stop() gives the peak. */
function sampleTreeMemory(pid: number): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => {
    let sum = 0;
    for (const p of processTree(pid)) {
      try {
        sum += procMemory(p).rssBytes;
      } catch {
        // gone between the listing and the read
      }
    }
    peak = Math.max(peak, sum);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Captions for the whole talk: one short cue every 2 s (the ingest needs a transcript). */
function captionsFor(durationSec: number): string {
  const t = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${(s % 60).toFixed(3).padStart(6, '0')}`;
  const cues: string[] = [];
  for (let s = 0; s + 2 <= durationSec; s += 2) cues.push(`${t(s)} --> ${t(s + 1.8)}\nword number ${s / 2}`);
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

export async function benchRenderApi(o: { s3Endpoint: string; log: (line: string) => void; long: boolean }): Promise<RenderApiResults> {
  const t0 = performance.now();
  const source = await ensureNoisyTalk(10, o.log);
  const info = await readRenderMediaInfo(source.path);
  const frameCount = info.video!.framePts.length;
  const durationSec = frameCount / FPS;
  const removed = planCuts(frameCount, 20, GOP);

  const { env } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'bench_rapi_' });
  const ports = {} as Record<ServiceName, number>;
  for (const s of SERVICES) ports[s] = await freePort();
  const cacheDir = await mkdtemp(join(tmpdir(), 'wordcut-bench-cache-'));
  onCleanup('the render cache', () => rm(cacheDir, { recursive: true, force: true }));
  const stack = await startStack({ env: { ...env, LEGACY_UPLOAD_ENABLED: 'true', LOG_LEVEL: 'warn', MEDIA_CACHE_DIR: cacheDir, UPLOAD_MAX_BYTES: String(4 * 1024 ** 3) }, ports });
  onCleanup('the stack (5 services)', () => stack.stop());
  const gateway = stack.services.gateway.url;
  const session = await startGatewaySession(gateway);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway}${path}`, { ...init, headers: { ...bearer(session.token), 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

  o.log(`  17: uploading ${round(statSync(source.path).size / MB)} MiB and ingesting it ...`);
  const form = new FormData();
  form.append('video', new Blob([new Uint8Array(readFileSync(source.path))], { type: 'video/mp4' }), 'noisy-talk.mp4');
  form.append('vtt', new Blob([captionsFor(durationSec)], { type: 'text/vtt' }), 'talk.vtt');
  const up = await fetch(`${gateway}/api/videos/upload`, { method: 'POST', headers: bearer(session.token), body: form });
  if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
  const { id } = (await up.json()) as { id: string };
  for (let k = 0; ; k++) {
    checkInterrupted();
    const v = (await (await api(`/api/videos/${id}`)).json()) as { status: string };
    if (v.status === 'completed') break;
    if (v.status === 'failed' || k > 3000) throw new Error(`the talk did not become ready (${v.status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const setupSec = round((performance.now() - t0) / 1000, 1);

  const timings: RenderApiResults['timings'] = [];
  const timed = async (name: string, path: string, body: unknown, statusPath: (jobId: string) => string): Promise<ApiRender> => {
    checkInterrupted();
    const memory = sampleTreeMemory(stack.services.media.child!.pid!);
    const started = performance.now();
    const res = await api(path, { method: 'POST', body: JSON.stringify(body) });
    if (res.status !== 202) throw new Error(`${name}: POST ${path} answered ${res.status}: ${await res.text()}`);
    const { jobId } = (await res.json()) as { jobId: string };
    for (;;) {
      const job = (await (await api(statusPath(jobId))).json()) as { status: string; error?: string; result?: Record<string, unknown> };
      if (job.status === 'completed') {
        const seconds = (performance.now() - started) / 1000;
        const r = job.result ?? {};
        const run: ApiRender = {
          name,
          seconds: round(seconds, 2),
          path: String(r['path']),
          audio: String(r['audio']),
          encodedShare: round(Number(r['encodedShare'] ?? 0), 4),
          pieces: (r['pieces'] as ApiRender['pieces']) ?? null,
          sourceCached: typeof r['sourceCached'] === 'boolean' ? r['sourceCached'] : null,
          peakWorkerMiB: round(memory.stop() / MB),
        };
        const ms = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : null);
        timings.push({ name, fetchMs: ms('fetchMs'), renderMs: ms('renderMs'), uploadWaitMs: ms('uploadWaitMs') });
        o.log(`  17: ${name}: ${run.seconds} s (${run.path}, audio ${run.audio}, pieces ${JSON.stringify(run.pieces)}, original on the worker: ${run.sourceCached}; worker: fetch ${r['fetchMs']} ms, render ${r['renderMs']} ms, then upload ${r['uploadWaitMs']} ms)`);
        return run;
      }
      if (['error', 'failed', 'cancelled'].includes(job.status)) memory.stop();
      if (['error', 'failed', 'cancelled'].includes(job.status)) throw new Error(`${name}: job ${jobId} ended ${job.status}: ${job.error ?? ''}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const renders: ApiRender[] = [];
  const cuts = removed.map((r) => ({ start: r.start / FPS, end: r.end / FPS }));
  renders.push(await timed('20 cuts (first render)', `/api/videos/${id}/apply-cuts`, { cuts }, (j) => `/api/video-processing/jobs/${j}`));
  // output time now: a cut a third of the way in, between two of the first cuts
  renders.push(await timed('one more cut', `/api/videos/${id}/apply-cuts`, { cuts: [{ start: 200.37, end: 201.9 }] }, (j) => `/api/video-processing/jobs/${j}`));
  const levels = ['silence', 'whisper', 'background'] as const;
  const pendingMutes = Array.from({ length: 20 }, (_, i) => ({ startTime: 10 + i * 27.3, endTime: 11 + i * 27.3, level: levels[i % 3] }));
  renders.push(await timed('20 mutes', '/api/mute/jobs', { videoId: id, pendingMutes }, (j) => `/api/jobs/${j}/status`));
  renders.push(await timed('60 s 9:16 clip (1080x1920)', '/api/clips', { videoId: id, name: 'Bench clip', startTime: 241.3, endTime: 301.3, aspectRatio: '9:16' }, (j) => `/api/jobs/${j}/status`));

  // the alternative and the floor, on the same machine now the stack is idle
  const scratch = await mkdtemp(join(tmpdir(), 'wordcut-bench-rapi-'));
  onCleanup('section 17 scratch', () => rm(scratch, { recursive: true, force: true }));
  o.log('  17: the plain full re-encode of the 20 cuts (about 2 minutes) ...');
  const graph = join(scratch, 'graph.txt');
  writeFileSync(graph, trimConcatGraph(keptSpans(removed, frameCount), FPS));
  let t = performance.now();
  await runFfmpeg({
    args: ['-i', toFfmpegInput(source.path), '-filter_complex_script', toFfmpegInput(graph), '-map', '[vout]', '-map', '[aout]', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(join(scratch, 'full.mp4'))],
    timeoutMs: TIMEOUT_MS,
  });
  const fullReencodeSec = round((performance.now() - t) / 1000, 1);
  t = performance.now();
  await runFfmpeg({ args: ['-i', toFfmpegInput(source.path), '-c', 'copy', '-f', 'mp4', toFfmpegInput(join(scratch, 'copy.mp4'))], timeoutMs: TIMEOUT_MS });
  const streamCopySec = round((performance.now() - t) / 1000, 2);
  // the clip at the renderer against the plain command, on this noisy source
  o.log('  17: the 60 s 9:16 clip, plain command and ours at the renderer ...');
  const w = info.video!.width;
  const h = info.video!.height;
  const centred = { offsetX: 0, offsetY: 0, scale: 1 };
  t = performance.now();
  await runFfmpeg({
    args: ['-ss', '241.3', '-t', '60', '-i', toFfmpegInput(source.path), '-vf', plainCropFilter(w, h, centred), '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(join(scratch, 'clip-plain.mp4'))],
    timeoutMs: TIMEOUT_MS,
  });
  const plainClipSec = round((performance.now() - t) / 1000, 2);
  const clipWork = await mkdtemp(join(scratch, 'clip-'));
  t = performance.now();
  await renderEdit({ input: source.path, output: join(clipWork, 'clip.mp4'), workDir: clipWork, info, segments: [{ start: 241.3, end: 301.3 }], videoFilter: planReframe(w, h, '9:16', centred).filter });
  const oursClipSec = round((performance.now() - t) / 1000, 2);
  await rm(scratch, { recursive: true, force: true });

  let long: RenderApiResults['long'] = null;
  if (o.long) {
    const src = await ensureNoisyTalk(60, o.log);
    const longInfo = await readRenderMediaInfo(src.path);
    const n = longInfo.video!.framePts.length;
    const segments = keptSpans(planCuts(n, 20, GOP), n).map((k) => ({ start: k.start / FPS, end: k.end / FPS }));
    const cache = new DiskCache({ dir: join(cacheDir, 'long'), maxBytes: 40 * 1024 ** 3, maxAgeMs: 3600_000 });
    const once = async () => {
      const work = await mkdtemp(join(tmpdir(), 'wordcut-bench-long-'));
      try {
        const s = performance.now();
        const r = await renderEdit({ input: src.path, output: join(work, 'out.mp4'), workDir: work, info: longInfo, segments, cache: { store: cache, sourceId: 'bench-long' } });
        return { sec: round((performance.now() - s) / 1000, 2), encodedFrames: r.encodedFrames };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    };
    o.log('  17: 60-minute file, 20 cuts at the renderer, cold then again ...');
    const cold = await once();
    const warm = await once();
    const copyDir = await mkdtemp(join(tmpdir(), 'wordcut-bench-long-copy-'));
    t = performance.now();
    await runFfmpeg({ args: ['-i', toFfmpegInput(src.path), '-c', 'copy', '-f', 'mp4', toFfmpegInput(join(copyDir, 'copy.mp4'))], timeoutMs: TIMEOUT_MS });
    const longCopy = round((performance.now() - t) / 1000, 2);
    await rm(copyDir, { recursive: true, force: true });
    long = { file: src.path, sizeMiB: round(statSync(src.path).size / MB), durationSec: n / FPS, coldSec: cold.sec, warmSec: warm.sec, encodedFrames: cold.encodedFrames, streamCopySec: longCopy };
  }

  return {
    source: { file: source.path, sizeMiB: round(statSync(source.path).size / MB), durationSec, generatedSec: source.generatedSec },
    setupSec,
    renders,
    fullReencodeSec,
    streamCopySec,
    speedup: round(fullReencodeSec / renders[0]!.seconds, 1),
    clip: { plainSec: plainClipSec, oursSec: oursClipSec, ratio: round(oursClipSec / plainClipSec, 2) },
    timings,
    long,
    sectionSec: round((performance.now() - t0) / 1000),
  };
}

export function renderRenderApi(x: RenderApiResults): string[] {
  const out = [
    `17. Renders through the API, POST to completed: ${round(x.source.durationSec / 60, 1)}-minute 720p noisy talk (${x.source.sizeMiB} MiB)`,
    table(
      ['render', 'POST to completed s', 'path', 'audio', 'encoded share', 'pieces reused / made', 'original on the worker', 'worker + ffmpeg peak MiB'],
      x.renders.map((r) => [r.name, r.seconds, r.path, r.audio, `${round(r.encodedShare * 100, 1)} %`, r.pieces ? `${r.pieces.reused} / ${r.pieces.made}` : '-', String(r.sourceCached), r.peakWorkerMiB]),
    ),
    `   alternative: one plain full re-encode of the 20 cuts ${x.fullReencodeSec} s (ours ${x.speedup}x faster); floor: stream copy of the whole file ${x.streamCopySec} s`,
    `   where the worker's time went: ${x.timings.map((t) => `${t.name}: fetch ${t.fetchMs} ms, render ${t.renderMs} ms, upload after it ${t.uploadWaitMs} ms`).join('; ')}`,
    `   60 s 9:16 clip at the renderer: ours ${x.clip.oursSec} s, the plain crop,scale command ${x.clip.plainSec} s (${x.clip.ratio}x its time)`,
  ];
  if (x.long) {
    out.push(
      `   60-minute file (${x.long.sizeMiB} MiB), 20 cuts at the renderer: cold ${x.long.coldSec} s (${x.long.encodedFrames} frames encoded), again ${x.long.warmSec} s; stream copy of the whole file ${x.long.streamCopySec} s`,
    );
  }
  out.push(`   section time ${x.sectionSec} s (set-up ${x.setupSec} s${x.source.generatedSec ? `, of which ${x.source.generatedSec} s generating the talk` : ''})`);
  return out;
}
