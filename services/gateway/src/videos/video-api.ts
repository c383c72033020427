import { DEFAULT_CAPTION_STYLE, type Video } from '@wordcut/contracts';
import { outputMutes, parseEditList } from '@wordcut/edit-list';
import type { VideoRow } from './video-store';

/** The current version's burned captions: their style, and whether the words changed since (null: none). */
function burnedCaptionsOf(r: VideoRow & { edit_list?: unknown }): Video['burnedCaptions'] {
  if (!r.edit_list) return null;
  try {
    const el = parseEditList(r.edit_list);
    return el.burnCaptions ? { style: el.captionStyle ?? DEFAULT_CAPTION_STYLE, stale: r.captions_stale === true } : null;
  } catch {
    return null;
  }
}

/** Processed mutes of the current version (output timeline), from its edit list. */
function mutedSegmentsOf(r: VideoRow & { edit_list?: unknown }): Video['mutedSegments'] {
  if (!r.edit_list) return [];
  try {
    return outputMutes(parseEditList(r.edit_list)).map((m) => ({ start: m.start, end: m.end, volume: m.volume }));
  } catch {
    return [];
  }
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A video row as the API answers it. */
export function toApiVideo(r: VideoRow): Video {
  return {
    id: r.id,
    title: r.title,
    originalName: r.original_name,
    duration: r.duration,
    filename: r.filename,
    processedFilename: r.processed_filename,
    lastProcessedAt: iso(r.last_processed_at),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    status: r.status,
    vttProgress: Math.round(r.vtt_progress),
    vttMethod: r.vtt_method,
    vttError: r.vtt_error,
    videoChanged: r.video_changed,
    vttChanged: r.vtt_changed,
    wordBywordChanged: r.word_byword_changed,
    languageCode: r.language_code,
    width: r.width,
    height: r.height,
    hasAudio: r.has_audio,
    fileSize: r.file_size === null ? null : Number(r.file_size),
    mediaVersion: r.media_version,
    providerSessionId: r.provider_session_id,
    providerVideoId: r.provider_video_id,
    providerIsClone: r.provider_is_clone,
    providerMainVideoUploadStatus: r.provider_main_video_upload_status,
    providerVttUploadStatus: r.provider_vtt_upload_status,
    mutedSegments: mutedSegmentsOf(r),
    transcriptId: r.transcript_id ?? null,
    currentVersion: r.current_version ?? null,
    burnedCaptions: burnedCaptionsOf(r),
    // the provider's library holds other media than the current (published, then edited or reverted)
    providerMediaStale: r.media_version !== (r.provider_media_version ?? 'original'),
    providerCaptionsStale: r.provider_captions_version != null && r.transcript_version != null && r.provider_captions_version !== r.transcript_version,
  };
}
