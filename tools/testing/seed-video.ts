import { randomUUID } from 'node:crypto';
import type { buildTranscriptFromVtt } from '@wordcut/transcript';
import type { DataSource } from 'typeorm';
import type { TranscriptStore } from '../../services/gateway/src/transcripts/transcript-store';
import type { VideoStore } from '../../services/gateway/src/videos/video-store';

/**
 * A video with a built transcript written straight into the gateway's database with its own stores
 * (what an upload leaves, without media): for tests and benchmarks that need many videos fast.
 */
export async function seedVideoWithTranscript(
  stores: { ds: DataSource; videos: Pick<VideoStore, 'create'>; transcripts: Pick<TranscriptStore, 'replaceForVideo'> },
  o: { ownerId: string; title: string; built: ReturnType<typeof buildTranscriptFromVtt> },
): Promise<{ videoId: string; transcriptId: string }> {
  const videoId = randomUUID();
  await stores.videos.create({
    id: videoId,
    title: o.title,
    originalName: 'seeded.mp4',
    filename: 'seeded.mp4',
    languageCode: o.built.languageCode,
    ingestJobId: `seeded-${videoId}`,
    ingestSource: { kind: 'upload', videoKey: 'seeded/none.mp4', vttKey: 'seeded/none.vtt' },
    ownerId: o.ownerId,
  });
  const transcriptId = await stores.ds.transaction((m) => stores.transcripts.replaceForVideo(m, videoId, o.built));
  return { videoId, transcriptId };
}
