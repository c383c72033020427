/**
 * Section 7's (and section 8's) servers: the gateway alone on a throw-away database holding one
 * completed video with a long transcript (as section 4 sets it up), optionally with real media
 * and its stored waveform in S3 (section 8), and the built web apps served by
 * tools/scripts/serve-static.js the way a deployment serves them. The video belongs to a gateway
 * session (the upload form's identity), which the pages are given before they load.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { StorageKeys, type ProbeResult } from '@wordcut/contracts';
import { S3ObjectStorage } from '@wordcut/storage';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { BUCKET, ROOT, S3_CREDENTIALS, checkInterrupted, freePort, onCleanup } from './common';
import { benchEnv, startBenchGateway } from './stack';
import { syntheticVtt } from './transcript-data';
import { bearer, startGatewaySession, type GatewaySessionForTest } from '../testing/identity';
// where the browser keeps the upload form's session (libs/ui): the page's fetcher sends it as the bearer
import { GATEWAY_SESSION_KEY } from '../../libs/ui/src/gatewaySession';
// the gateway's compiled stores and data source, as the service runs them
import { gatewayDataSource } from '../../services/gateway/dist/data-source.js';
import { TranscriptStore } from '../../services/gateway/dist/library/transcript-store.js';
import { VideoStore } from '../../services/gateway/dist/library/video-store.js';

/** The apps the editor page loads: the shell, its editor remote and the publish remote in its header. */
const APPS = ['shell', 'editor', 'publish'] as const;
type App = (typeof APPS)[number];

/** Sources whose changes a build of the editor remote picks up (for the staleness warning). */
const EDITOR_SOURCES = ['apps/editor/src', 'libs/editor-core/src', 'libs/ui/src'];

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The built apps' directories; throws when one is missing. Returns a warning when the editor's
 * sources changed after its build, since the run would then measure older code.
 */
export function builtApps(): { dirs: Record<App, string>; staleWarning: string | null } {
  const dirs = {} as Record<App, string>;
  for (const app of APPS) {
    const dir = join(ROOT, 'apps', app, 'dist');
    const marker = join(dir, app === 'shell' ? 'index.html' : 'mf-manifest.json');
    if (!existsSync(marker)) throw new Error(`${relative(ROOT, marker)} is missing: build the web apps first (npm run build:web)`);
    dirs[app] = dir;
  }
  const builtAt = statSync(join(dirs.editor, 'mf-manifest.json')).mtimeMs;
  const changed = EDITOR_SOURCES.filter((d) => existsSync(join(ROOT, d)) && newestMtimeMs(join(ROOT, d)) > builtAt);
  return { dirs, staleWarning: changed.length > 0 ? `${changed.join(', ')} changed after apps/editor/dist was built: run npm run build:web to measure the current code` : null };
}

/**
 * tools/scripts/serve-static.js on a free port of 127.0.0.1 (never the e2e tests' 4200-4204),
 * stopped at clean-up; resolves once `readyPath` answers 200.
 */
export async function serveStatic(dir: string, flags: string[], env: NodeJS.ProcessEnv, readyPath: string): Promise<string> {
  checkInterrupted();
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'tools', 'scripts', 'serve-static.js'), '--dir', dir, '--port', String(port), '--host', '127.0.0.1', ...flags], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  onCleanup(`serve-static ${relative(ROOT, dir)} (pid ${child.pid})`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve-static for ${relative(ROOT, dir)} exited (${child.exitCode}): ${stderr.trim()}`);
    const ok = await fetch(`${url}${readyPath}`).then((r) => r.ok, () => false);
    if (ok) return url;
    if (Date.now() > until) throw new Error(`serve-static for ${relative(ROOT, dir)} did not answer ${readyPath} within 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Real media for the stack's video (section 8): its MP4 and its stored waveform. */
export interface StackMedia {
  /** a local MP4 the browser plays as it is (H.264 + AAC, faststart) */
  path: string;
  probe: ProbeResult;
  /** the stored waveform object, as the media worker writes it (encodeWaveform of computePeaks' peaks) */
  waveform: Uint8Array;
}

export interface EditorStack {
  gatewayUrl: string;
  /** the owner of the video: every gateway call about it carries this identity */
  session: GatewaySessionForTest;
  /** `Authorization: Bearer` of `session`, for the benchmark's own calls */
  auth: Record<string, string>;
  videoId: string;
  transcriptId: string;
  transcript: ReturnType<typeof buildTranscriptFromVtt>;
  durationSec: number;
}

/**
 * The gateway on a new database and NATS namespace, with one video in status 'completed' whose
 * transcript is `words` words of synthetic talk (seed 1, as section 4's big transcript), written
 * with the gateway's own stores the way ingest completes a video. Without `media` the video has no
 * media in S3 and no audio, so the page shows its player's error and no waveform: the transcript
 * is what is measured (section 7). With `media` its MP4 is the video's original and playback object
 * and its waveform is stored where the media worker puts it (StorageKeys.waveform of the 'original'
 * media version), so the page plays it and draws its real peaks; the video's duration is the
 * media's (which must outlast the transcript).
 */
export async function startEditorStack(o: { s3Endpoint: string; words: number; media?: StackMedia }): Promise<EditorStack> {
  const { db, env } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'benchui', migrate: 'gateway' });
  const gateway = await startBenchGateway(env, 'warn');
  // the identity the browser works as: a gateway session, as the upload form starts one
  const session = await startGatewaySession(gateway.url);

  const ds = gatewayDataSource(db.url, 2);
  await ds.initialize();
  onCleanup('gateway data source', () => ds.destroy());
  const videos = new VideoStore(ds);
  const transcripts = new TranscriptStore(ds);
  const transcript = buildTranscriptFromVtt(syntheticVtt(o.words, 1));
  if (transcript.words.length !== o.words) throw new Error(`the synthetic transcript has ${transcript.words.length} words, not ${o.words}`);
  const transcriptEnd = Math.ceil(transcript.words[transcript.words.length - 1]!.end + 1);
  const videoId = randomUUID();
  const jobId = `bench-${videoId}`;
  const media = o.media ? await uploadMedia(o.s3Endpoint, videoId, o.media) : null;
  const durationSec = media?.durationSec ?? transcriptEnd;
  if (durationSec < transcriptEnd - 1) throw new Error(`the media (${durationSec} s) is shorter than the transcript (${transcriptEnd} s)`);
  const mediaKey = media?.key ?? `bench/${videoId}/none.mp4`;
  await videos.create({
    id: videoId,
    title: `bench ${o.words} words`,
    originalName: 'bench.mp4',
    filename: 'bench.mp4',
    languageCode: transcript.languageCode,
    ingestJobId: jobId,
    ingestSource: { kind: 'upload', videoKey: mediaKey, vttKey: `bench/${videoId}/none.vtt` },
    ownerId: session.userId,
  });
  const probe: ProbeResult = media?.probe ?? { formatName: 'mov,mp4,m4a,3gp,3g2,mj2', durationSec, sizeBytes: null, bitRate: null, streams: [] };
  const transcriptId = await ds.transaction(async (m) => {
    const completed = await videos.ingestCompleted(m, {
      jobId,
      videoId,
      originalKey: mediaKey,
      playbackKey: mediaKey,
      transcriptKey: `bench/${videoId}/transcript.json`,
      waveformKey: media?.waveformKey ?? null,
      probe,
      durationSec,
      width: media?.width ?? 1280,
      height: media?.height ?? 720,
      hasAudio: media !== null,
      sizeBytes: media?.sizeBytes ?? 0,
      languageCode: transcript.languageCode,
      worker: 'bench',
      at: new Date().toISOString(),
    });
    if (!completed) throw new Error('the bench video did not move to completed');
    return transcripts.replaceForVideo(m, videoId, transcript);
  });
  return { gatewayUrl: gateway.url, session, auth: bearer(session.token), videoId, transcriptId, transcript, durationSec };
}

/**
 * A script for `addInitScript`: stores `session` where the web apps keep the upload form's session
 * (localStorage, libs/ui gatewaySession), so the page's fetcher sends it as its bearer token from
 * its first call. Other origins (the static alternative pages) just get an unused entry.
 */
export function pageIdentityScript(session: GatewaySessionForTest): string {
  return `try { localStorage.setItem(${JSON.stringify(GATEWAY_SESSION_KEY)}, ${JSON.stringify(JSON.stringify(session))}); } catch (e) {}`;
}

/**
 * Puts the media where ingest leaves a video's objects: the MP4 as its original (played as it is,
 * so also its playback object) and the waveform at StorageKeys.waveform(videoId, 'original');
 * both removed at clean-up.
 */
async function uploadMedia(s3Endpoint: string, videoId: string, m: StackMedia) {
  const video = m.probe.streams.find((s) => s.codecType === 'video');
  const durationSec = m.probe.durationSec;
  if (!video?.width || !video.height || !durationSec) throw new Error(`${m.path} has no video stream with a known size, or no known duration`);
  checkInterrupted();
  const storage = new S3ObjectStorage({ region: 'us-east-1', ...S3_CREDENTIALS, bucket: BUCKET, forcePathStyle: true, endpoint: s3Endpoint });
  const key = StorageKeys.originalVideo(videoId, 'bench');
  const waveformKey = StorageKeys.waveform(videoId, 'original');
  onCleanup(`S3 objects of video ${videoId}`, async () => {
    try {
      await storage.delete(key);
      await storage.delete(waveformKey);
    } finally {
      storage.destroy();
    }
  });
  const sizeBytes = statSync(m.path).size;
  await storage.upload(key, createReadStream(m.path), { contentType: 'video/mp4' });
  await storage.upload(waveformKey, Buffer.from(m.waveform), { contentType: 'application/octet-stream' });
  return { key, waveformKey, durationSec, width: video.width, height: video.height, sizeBytes, probe: m.probe };
}
