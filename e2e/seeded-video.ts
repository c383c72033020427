import { S3ObjectStorage, type S3StorageConfig } from '@wordcut/storage';
import { gatewayDataSource } from '../services/gateway/src/data-source';
import { TranscriptStore } from '../services/gateway/src/transcripts/transcript-store';
import { VideoStore } from '../services/gateway/src/videos/video-store';
import { copyCompletedVideo, type CompletedVideoStores } from '../tools/testing/seed-completed-video';

/**
 * Completed copies of the demo video the global setup ingested once (E2E_DEMO_TEMPLATE_ID), made
 * with the gateway's stores on the stack's database and bucket (E2E_DATABASE_URL, E2E_S3_CONFIG).
 */

let stores: Promise<CompletedVideoStores> | undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the e2e global setup sets it`);
  return value;
}

async function connect(): Promise<CompletedVideoStores> {
  const ds = gatewayDataSource(required('E2E_DATABASE_URL'), 2);
  await ds.initialize();
  const storage = new S3ObjectStorage(JSON.parse(required('E2E_S3_CONFIG')) as S3StorageConfig);
  return { ds, videos: new VideoStore(ds), transcripts: new TranscriptStore(ds), storage };
}

/** A new completed demo video held by provider session `sessionId`; resolves with its id. */
export async function seedDemoVideo(sessionId: string, languageCode?: string): Promise<string> {
  stores ??= connect();
  const { videoId } = await copyCompletedVideo(await stores, required('E2E_DEMO_TEMPLATE_ID'), { providerSessionId: sessionId, languageCode });
  return videoId;
}
