import { ErrorCode, MAX_VTT_BYTES, StorageKeys, UPLOAD_VTT_FIELD, type ReplaceTranscriptAnswer } from '@wordcut/contracts';
import { identityEditList, parseEditList, retimeWords } from '@wordcut/edit-list';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { buildTranscriptFromCaptions, CAPTION_FORMAT_NAMES, detectCaptionFormat, TranscriptBuildError, transcriptForVersion, type BuiltTranscript } from '@wordcut/transcript';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DataSource } from 'typeorm';
import type { TranscriptStore } from '../transcripts/transcript-store';
import { receiveFiles } from '../upload';
import type { VideoStore } from '../videos/video-store';
import { versionSnapshot, type StoredTranscript } from './edit-versions';
import { BUSY_MESSAGE, type EditService } from './edits.service';
import type { RenderStore } from './render-store';

/**
 * 'Replace transcript' (docs/CAPTIONS.md): a caption file brought later, in any format the upload
 * takes, is timed against the original recording. Its words are carried through the current edit
 * (words in cut parts are left out, the rest moved to where they now play), become the transcript
 * of a new edit version (so Undo brings the words before back), and are what Revert to Original
 * gives from then on. The file itself and the transcript it replaces are kept.
 */
export class TranscriptReplacement {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: ObjectStorage,
    private readonly edits: EditService,
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly renders: RenderStore,
    private readonly logger: Logger,
  ) {}

  async replace(videoId: string, ownerId: string, body: IncomingMessage): Promise<ReplaceTranscriptAnswer> {
    const row = await this.edits.editableVideo(videoId, ownerId);
    if (await this.renders.hasActive(videoId)) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
    const key = StorageKeys.replacementCaptions(videoId, randomUUID());
    await receiveFiles(body, this.storage, { [UPLOAD_VTT_FIELD]: { key, maxBytes: MAX_VTT_BYTES, label: 'subtitle file' } });
    let built: BuiltTranscript;
    try {
      built = parseCaptions(Buffer.from((await readObjectBytes(this.storage, key)) ?? new Uint8Array()).toString('utf8'), row.language_code);
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
    const el = row.edit_list ? parseEditList(row.edit_list) : null;
    const onCurrent = el ? carryThroughEdit(built, el) : { languageCode: built.languageCode, words: built.words, paragraphs: built.paragraphs, fillerWords: built.fillerWords };
    if (el && onCurrent.words.length === 0) {
      await this.storage.delete(key).catch(() => undefined);
      throw new AppError(422, 'NO_WORDS_LEFT', 'Every word of this file falls in parts of the recording you cut, so nothing would be left. Its times must be those of the original recording.');
    }
    if (row.ingest_job_id) await this.keepAsOriginal(videoId, row.ingest_job_id, built);
    const version = await this.ds.transaction(async (tx) => {
      await this.videos.lock(tx, videoId);
      const video = (await this.edits.getVideo(videoId, tx))!;
      if (await this.renders.hasActive(videoId)) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
      const transcript = await this.transcripts.getByVideo(videoId);
      const before = await this.edits.editVersions.current(tx, video, transcript);
      await this.transcripts.replaceForVideo(tx, videoId, { ...onCurrent, warnings: built.warnings });
      const after = await this.edits.editVersions.insert(tx, videoId, {
        kind: 'edit', job_id: null, edit_list: video.edit_list ?? null, playback_key: video.processed_filename ? video.playback_key : null,
        media_version: video.media_version, processed_filename: video.processed_filename, duration: video.duration, render_summary: video.render_summary ?? null,
      }, versionSnapshot(onCurrent));
      await this.videos.transcriptReplaced(tx, videoId, after);
      return { before, after, origins: null };
    });
    this.logger.info({ videoId, words: onCurrent.words.length, skipped: built.warnings.length, version: version.after }, 'transcript replaced');
    return { version, wordCount: onCurrent.words.length, warnings: built.warnings };
  }

  /** The replacement (on the recording's times) is what Revert to Original gives now; the one before is kept beside it. */
  private async keepAsOriginal(videoId: string, ingestJobId: string, built: BuiltTranscript): Promise<void> {
    const key = StorageKeys.ingestTranscript(videoId, ingestJobId);
    const previous = await readObjectBytes(this.storage, key);
    if (previous) await this.storage.upload(StorageKeys.replacedTranscript(videoId, ingestJobId, new Date().toISOString().replace(/[:.]/g, '-')), Buffer.from(previous), { contentType: 'application/json' });
    const stored: StoredTranscript = { languageCode: built.languageCode, words: built.words, paragraphs: built.paragraphs, fillerWords: built.fillerWords };
    await this.storage.upload(key, Buffer.from(JSON.stringify(stored)), { contentType: 'application/json' });
  }
}

/** A caption file as a transcript on the recording's times; 422 with the reason when it cannot be one. */
export function parseCaptions(text: string, languageHint: string): BuiltTranscript {
  if (!detectCaptionFormat(text)) {
    throw new AppError(422, 'VTT_INVALID', `The subtitle file is not one we can read: it must be ${CAPTION_FORMAT_NAMES}.`);
  }
  try {
    return buildTranscriptFromCaptions(text, { languageHint });
  } catch (err) {
    if (err instanceof TranscriptBuildError) throw new AppError(422, err.code, err.message, { line: err.line });
    throw err;
  }
}

/** Words on the recording's times, carried through `el`: those in cut parts go, the rest play where the edit puts them. */
export function carryThroughEdit(built: BuiltTranscript, el: ReturnType<typeof parseEditList>): StoredTranscript {
  const inside = built.words.filter((w) => w.end <= el.sourceDuration + 1e-6).map((w) => ({ ...w, end: Math.min(w.end, el.sourceDuration) }));
  const kept = retimeWords(identityEditList(el.sourceDuration), el, inside);
  const { words, paragraphs, fillerWords } = transcriptForVersion(inside, kept);
  return { languageCode: built.languageCode, words, paragraphs, fillerWords };
}
