import type { AnalyticsVideoPage, AnalyticsVideoQuery } from '@wordcut/contracts';
import type { ClipStore } from '../clips/clip-store';
import type { KeyMomentStore } from '../key-moments/key-moment-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoStore } from '../videos/video-store';

/** Owners offered in the user filter at most. */
const LISTED_OWNERS = 100;

/** Every video for the operator: one page with its counts, the pagination and the owners to filter by. */
export class OperatorVideos {
  constructor(
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly clips: ClipStore,
    private readonly keyMoments: KeyMomentStore,
  ) {}

  async list(query: AnalyticsVideoQuery): Promise<AnalyticsVideoPage> {
    const [{ rows, total }, users] = await Promise.all([this.videos.listForOperator(query), this.videos.ownersForOperator(LISTED_OWNERS)]);
    const ids = rows.map((r) => r.id);
    const [transcripts, clips, moments] = ids.length
      ? await Promise.all([this.transcripts.countByVideo(ids), this.clips.countByVideo(ids), this.keyMoments.countByVideo(ids)])
      : [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
    return {
      videos: rows.map((r) => ({
        id: r.id,
        originalName: r.original_name,
        title: r.title,
        userId: r.owner_id || null,
        createdAt: new Date(r.created_at).toISOString(),
        duration: r.duration,
        fileSize: r.file_size === null ? null : Number(r.file_size),
        status: r.status,
        transcriptCount: transcripts.get(r.id) ?? 0,
        clipCount: clips.get(r.id) ?? 0,
        keyMomentCount: moments.get(r.id) ?? 0,
      })),
      pagination: { page: query.page, limit: query.limit, total, totalPages: Math.max(1, Math.ceil(total / query.limit)) },
      users,
    };
  }
}
