import { ErrorCode, StorageKeys, paragraphSchema, wordSchema } from '@wordcut/contracts';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import type { OriginRun } from '@wordcut/transcript';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import type { VersionRow, VersionStore } from './version-store';

/** A transcript as the ingest and every edit version store it. */
export const storedTranscriptSchema = z.object({
  languageCode: z.string(),
  words: z.array(wordSchema),
  paragraphs: z.array(paragraphSchema),
  fillerWords: z.array(z.number().int().nonnegative()),
});
export type StoredTranscript = z.infer<typeof storedTranscriptSchema>;

/**
 * A step between two edit versions (docs/EDIT-VERSIONS.md): the version shown before and the one
 * shown now; after a render, where each word now came from (null when the words were replaced).
 */
export interface VersionStep {
  before: number;
  after: number;
  origins?: OriginRun[] | null;
}

/** A transcript as a version stores it, and its hash (equal words give an equal hash). */
export function versionSnapshot(t: { languageCode: string; words: unknown; paragraphs: unknown; fillerWords: unknown }): { stored: StoredTranscript; json: string; hash: string } {
  const stored = storedTranscriptSchema.parse({ languageCode: t.languageCode, words: t.words, paragraphs: t.paragraphs, fillerWords: t.fillerWords });
  const json = JSON.stringify(stored);
  return { stored, json, hash: createHash('sha256').update(json).digest('hex') };
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Equal words: the same text at the same times (fillers and paragraphs are derived from them). */
function sameWords(a: readonly { text: string; start: number; end: number }[], b: readonly { text: string; start: number; end: number }[]): boolean {
  return a.length === b.length && a.every((w, i) => w.text === b[i]!.text && w.start === b[i]!.start && w.end === b[i]!.end);
}

/** What a version is made from: the video's state as it is now. */
export interface VersionedVideo {
  id: string;
  language_code: string;
  current_version?: number | null;
  edit_list: unknown;
  playback_key: string | null;
  media_version: string;
  processed_filename: string | null;
  duration: number | null;
  render_summary?: unknown;
}

/**
 * A video's edit versions: which one it shows, new ones (their transcript stored beside them),
 * and reading one back. Every write happens inside the caller's transaction, the video locked.
 */
export class EditVersions {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly versions: VersionStore,
    private readonly logger: Logger,
  ) {}

  get(videoId: string, seq: number): Promise<VersionRow | null> {
    return this.versions.get(videoId, seq);
  }

  /**
   * The version the video shows now: the current one when its words and edit list are still the
   * ones stored with it, else a new version of the state as it is (text edits made since), so a
   * step back can come here again.
   */
  async current(tx: EntityManager, video: VersionedVideo, transcript: { languageCode: string; words: unknown; paragraphs: unknown; fillerWords: unknown } | null, also: number | null = null): Promise<number> {
    const snapshot = versionSnapshot(transcript ?? { languageCode: video.language_code, words: [], paragraphs: [], fillerWords: [] });
    const seq = video.current_version ?? null;
    for (const candidate of [seq, also]) {
      if (candidate === null) continue;
      const row = await this.versions.get(video.id, candidate, tx);
      if (!row || !sameJson(row.edit_list, video.edit_list) || row.media_version !== video.media_version) continue;
      if (row.transcript_hash === snapshot.hash) return candidate;
      // another candidate than the one shown counts when its words (text and times) are the video's
      if (candidate === also && candidate !== seq && sameWords((await this.readTranscript(row)).words, snapshot.stored.words)) return candidate;
    }
    return this.insert(tx, video.id, {
      kind: seq === null && !video.edit_list ? 'original' : 'edit',
      job_id: null,
      edit_list: video.edit_list ?? null,
      playback_key: video.processed_filename ? video.playback_key : null,
      media_version: video.media_version,
      processed_filename: video.processed_filename,
      duration: video.duration,
      render_summary: video.render_summary ?? null,
    }, snapshot);
  }

  /** Stores a version's transcript and records the version; answers its number. */
  async insert(tx: EntityManager, videoId: string, v: Omit<VersionRow, 'video_id' | 'seq' | 'transcript_key' | 'transcript_hash' | 'created_at'>, snapshot: { json: string; hash: string }): Promise<number> {
    const seq = await this.versions.nextSeq(tx, videoId);
    const key = StorageKeys.versionTranscript(videoId, seq);
    await this.storage.upload(key, Buffer.from(snapshot.json), { contentType: 'application/json' });
    await this.versions.insert(tx, { ...v, video_id: videoId, seq, transcript_key: key, transcript_hash: snapshot.hash });
    return seq;
  }

  /** A version's stored transcript; 409 when it can no longer be read. */
  async readTranscript(v: VersionRow): Promise<StoredTranscript> {
    try {
      const bytes = await readObjectBytes(this.storage, v.transcript_key);
      if (bytes) return storedTranscriptSchema.parse(JSON.parse(Buffer.from(bytes).toString('utf8')));
    } catch (err) {
      this.logger.warn({ err, videoId: v.video_id, seq: v.seq }, 'a version transcript cannot be read');
    }
    throw new AppError(409, ErrorCode.Conflict, 'The words of this version can no longer be read, so it cannot be shown again.');
  }
}
