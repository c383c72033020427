import { ErrorCode, type Transcript, type TranscriptPatch } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { clampWords, wordsToVtt } from '@wordcut/transcript';
import type { VideosService } from '../videos/videos.service';
import type { TranscriptPatchSummary, TranscriptStore } from './transcript-store';

/**
 * The transcript of a video of its owner: read as JSON or as WebVTT captions, and edited
 * (full replacement or word deltas) conditional on its version.
 */
export class TranscriptsService {
  constructor(
    private readonly videos: VideosService,
    private readonly transcripts: TranscriptStore,
  ) {}

  /** The current transcript as WebVTT, on the current media's timeline. */
  async subtitles(videoId: string, userId: string): Promise<string> {
    const row = await this.videos.owned(videoId, userId);
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(404, ErrorCode.NotFound, 'This video has no subtitles yet.');
    const words = row.duration ? clampWords(transcript.words, row.duration) : transcript.words;
    return wordsToVtt(words, { languageCode: transcript.languageCode });
  }

  /** The transcript as the serialised answer the store keeps per version; 404 says why there is none. */
  async json(videoId: string, userId: string): Promise<string> {
    const row = await this.videos.owned(videoId, userId);
    const t = await this.transcripts.getJsonByVideo(row.id);
    if (t === null) {
      if (row.status === 'failed') throw new AppError(404, ErrorCode.NotFound, `This video has no transcript: ${row.vtt_error ?? 'its transcript could not be built.'}`);
      throw new AppError(404, ErrorCode.NotFound, row.status === 'completed' ? 'This video has no transcript.' : 'The transcript is still being built.');
    }
    return t;
  }

  /**
   * Applies `patch` to a transcript of `userId`'s when it is still at `expectedVersion` (if
   * given). Answers the whole transcript, or with `minimal` only its new version and filler words.
   */
  async patch(id: string, userId: string, patch: TranscriptPatch, expectedVersion: number | undefined, minimal: boolean): Promise<Transcript | TranscriptPatchSummary> {
    const summary = await this.transcripts.patch(id, patch, expectedVersion, userId);
    await this.videos.wordsChanged(summary.videoId);
    if (minimal) return summary;
    return (await this.transcripts.get(id))!;
  }
}
