import { randomUUID } from 'node:crypto';
import { StorageKeys, type VideoIngestCompletedEvent } from '@wordcut/contracts';
import type { ObjectStorage } from '@wordcut/storage';
import type { DataSource } from 'typeorm';
import { INGEST_JOB_PREFIX } from '../../services/gateway/src/videos/ingest';
import type { TranscriptContent, TranscriptStore } from '../../services/gateway/src/transcripts/transcript-store';
import type { VideoStore } from '../../services/gateway/src/videos/video-store';

/**
 * Videos that start where a finished ingest leaves them, for tests that are not about ingest:
 * one video is ingested for real (the template), then each test gets a copy of it.
 */

export interface CompletedVideoStores {
  ds: DataSource;
  videos: Pick<VideoStore, 'get' | 'create' | 'ingestCompleted'>;
  transcripts: Pick<TranscriptStore, 'replaceForVideo'>;
  storage: Pick<ObjectStorage, 'list' | 'getStream' | 'upload'>;
}

export interface CompletedVideoCopy {
  /** the new video's provider session: opening it finds the video instead of importing */
  providerSessionId: string;
  /** the language the copy says it is in (as an ingest with this hint would); default the template's */
  languageCode?: string;
}

/**
 * Copies a completed video into a NEW one for the same owner under another provider session:
 * every object under the template's prefix (original, proxy, peaks, energy, the built transcript)
 * with the new ids in its key, then the rows as the ingest's completion writes them (the video
 * created, then completed, and its transcript) in one transaction. Nothing is imported or probed.
 */
export async function copyCompletedVideo(stores: CompletedVideoStores, templateId: string, copy: CompletedVideoCopy): Promise<{ videoId: string }> {
  const template = await stores.videos.get(templateId);
  if (!template || template.status !== 'completed' || !template.ingest_job_id || !template.ingest_source || !template.original_key || !template.playback_key || !template.probe) {
    throw new Error(`video ${templateId} is no completed video to copy (status ${template?.status ?? 'missing'})`);
  }
  const videoId = randomUUID();
  const jobId = `${INGEST_JOB_PREFIX}${randomUUID()}`;
  const from = StorageKeys.videoPrefix(templateId);
  // keys are made of the video and ingest job ids: the copy's keys name its own
  const rekey = (key: string): string => {
    if (!key.startsWith(from)) throw new Error(`${key} is not an object of video ${templateId}`);
    return StorageKeys.videoPrefix(videoId) + key.slice(from.length).split(template.ingest_job_id!).join(jobId);
  };

  const transcriptKey = StorageKeys.ingestTranscript(templateId, template.ingest_job_id);
  const built = JSON.parse(await readText(stores.storage, transcriptKey)) as TranscriptContent;
  const transcript: TranscriptContent = { ...built, languageCode: copy.languageCode ?? built.languageCode };
  for (const object of await stores.storage.list(from)) {
    if (object.key === transcriptKey) continue;
    const { body, contentType } = await stores.storage.getStream(object.key);
    await stores.storage.upload(rekey(object.key), body, contentType ? { contentType } : {});
  }
  await stores.storage.upload(rekey(transcriptKey), Buffer.from(JSON.stringify(transcript)), { contentType: 'application/json' });

  const completed: VideoIngestCompletedEvent = {
    jobId,
    videoId,
    originalKey: rekey(template.original_key),
    playbackKey: rekey(template.playback_key),
    transcriptKey: rekey(transcriptKey),
    waveformKey: template.waveform_key ? rekey(template.waveform_key) : null,
    probe: template.probe,
    durationSec: template.duration ?? 0,
    width: template.width,
    height: template.height,
    hasAudio: template.has_audio ?? false,
    sizeBytes: Number(template.file_size ?? 0),
    languageCode: transcript.languageCode,
    worker: 'seed-completed-video',
    at: new Date().toISOString(),
  };
  await stores.ds.transaction(async (tx) => {
    await stores.videos.create(
      {
        id: videoId,
        title: template.title,
        originalName: template.original_name,
        filename: template.filename,
        languageCode: transcript.languageCode,
        ingestJobId: jobId,
        ingestSource: template.ingest_source!,
        ownerId: template.owner_id ?? undefined,
        providerSessionId: copy.providerSessionId,
        providerVideoId: template.provider_video_id ?? undefined,
        providerIsClone: template.provider_is_clone,
      },
      tx,
    );
    if (!(await stores.videos.ingestCompleted(tx, completed))) throw new Error(`the copy ${videoId} of ${templateId} could not be completed`);
    await stores.transcripts.replaceForVideo(tx, videoId, transcript);
  });
  return { videoId };
}

/**
 * Brings a provider video in through the real entry, as a person's browser would: the sandbox's
 * `/open` link signs the session token, the gateway opens the session and the media workers
 * ingest it. Resolves with the video id once it is completed.
 */
export async function ingestThroughSandbox(o: { sandboxUrl: string; gatewayUrl: string; video: string; sessionId: string; timeoutMs?: number }): Promise<{ videoId: string }> {
  const open = await fetch(`${o.sandboxUrl.replace(/\/+$/, '')}/open?${new URLSearchParams({ video: o.video, session: o.sessionId })}`, { redirect: 'manual' });
  const token = new URL(open.headers.get('location') ?? '', 'http://editor').searchParams.get('token');
  if (!token) throw new Error(`the sandbox's /open answered ${open.status} without a token in its redirect`);
  const headers = { authorization: `Bearer ${token}` };
  const opened = await fetch(`${o.gatewayUrl}/api/provider/sessions`, { method: 'POST', headers });
  if (!opened.ok) throw new Error(`POST /api/provider/sessions answered ${opened.status}: ${await opened.text()}`);
  const { video } = (await opened.json()) as { video: { id: string } };
  const until = Date.now() + (o.timeoutMs ?? 90_000);
  for (;;) {
    const res = await fetch(`${o.gatewayUrl}/api/videos/${video.id}`, { headers });
    const body = (await res.json()) as { status?: string; vttError?: string | null };
    if (body.status === 'completed') return { videoId: video.id };
    if (body.status === 'failed') throw new Error(`the ingest of ${o.video} failed: ${body.vttError ?? 'no reason given'}`);
    if (Date.now() > until) throw new Error(`the ingest of ${o.video} did not complete in time (status ${body.status ?? res.status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function readText(storage: Pick<ObjectStorage, 'getStream'>, key: string): Promise<string> {
  const { body } = await storage.getStream(key);
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
