/**
 * What the publish dialog offers: the exportable items of a video, their descriptions and
 * durations, the initial selection, select-all, and the states of the header and dialog buttons.
 * Pure: no React, DOM, Node APIs or IO.
 */
import {
  ALREADY_A_CLONE_TEXT,
  CANNOT_CLONE_TITLE,
  CLIPS_PROCESSING_TOOLTIP,
  CLONE_FAILED_TITLE,
  CLONING_LABEL,
  PUBLISHING_LABEL,
  SELECT_AT_LEAST_ONE,
  SUBTITLES_GROUP,
  VIDEO_ID_NOT_AVAILABLE,
  type ToastText,
} from './messages';

/** The fields of a video record (contracts' `Video`) publishing reads. */
export interface PublishVideo {
  id: string;
  title: string | null;
  originalName: string | null;
  videoChanged: boolean;
  vttChanged: boolean;
  wordBywordChanged: boolean;
  providerMainVideoUploadStatus: string | null;
  providerVttUploadStatus: string | null;
  providerSessionId: string | null;
  providerIsClone: boolean;
  /** seconds; null until probed */
  duration: number | null;
  /** the provider's id of the video, when known */
  providerVideoId?: string | null;
  /** the provider's library holds other media than the current (published, then edited or reverted) */
  providerMediaStale?: boolean;
  /** the provider holds captions of another transcript than the current one */
  providerCaptionsStale?: boolean;
  /** the media version shown ('original' when no edit is applied) */
  mediaVersion?: string;
}

/** The fields of a clip record publishing reads. */
export interface PublishClip {
  id: string;
  name: string;
  startTime: number;
  endTime: number;
  aspectRatio: string | null;
  /** pending, processing, completed or failed */
  status: string;
  providerUploadStatus?: string | null;
  providerVideoId?: string | null;
}

export type ExportableItemType = 'main_video' | 'vtt' | 'clip';

/** One row of the publish dialog. */
export interface ExportableItem {
  type: ExportableItemType;
  /** the video id for main_video and vtt, the clip id for clips */
  id: string;
  name: string;
  description: string;
  /** seconds */
  duration: number | null;
  aspectRatio: string | null;
  providerUploadStatus: string | null;
  providerVideoId: string | null;
}

/** The aspect ratio a clip without one is exported in. */
export const DEFAULT_EXPORT_ASPECT_RATIO = '16:9';

/** The upload status meaning the provider already has the current file. */
export const UPLOADED = 'uploaded';

/** Clip statuses that have no finished file to upload. */
const UNFINISHED_CLIP_STATUSES = new Set(['pending', 'processing', 'failed']);

/**
 * A duration for people: under 60 s in seconds ('45s'), otherwise minutes and
 * seconds ('2m 5s'). Rounded to the nearest second; negative or non-finite values read '0s'.
 */
export function formatDuration(sec: number): string {
  const total = Number.isFinite(sec) && sec > 0 ? Math.round(sec) : 0;
  if (total < 60) return `${total}s`;
  return `${Math.floor(total / 60)}m ${total % 60}s`;
}

/** '1 mute segment applied' / '3 mute segments applied'. */
export function muteSegmentsText(count: number): string {
  return `${count} mute ${count === 1 ? 'segment' : 'segments'} applied`;
}

/** The subtitles row describes what changed: the captions, the word timing, or both. */
function subtitlesDescription(video: PublishVideo): string {
  if ((video.vttChanged && video.wordBywordChanged) || !(video.vttChanged || video.wordBywordChanged)) return 'Captions (VTT) and word-by-word timing';
  if (video.vttChanged) return 'Captions (VTT)';
  return 'Word-by-word timing';
}

const clipDuration = (c: PublishClip): number => Math.max(0, c.endTime - c.startTime);

/**
 * The items the publish dialog offers, main video first, then subtitles, then clips
 * in list order:
 * - the main video when it changed (videoChanged, or the provider holds other media: published,
 *   then edited or reverted) and is not yet uploaded; described by its mute segments
 *   ('2 mute segments applied') or 'Video edits pending export';
 * - the subtitles when the captions or the word timing changed (or the provider holds other
 *   captions) and are not yet uploaded;
 * - each clip that is finished (not pending, processing or failed: a failed clip has no file to
 *   upload) and not yet uploaded; described as '{aspect ratio} • {duration}'.
 */
export function exportableItems(video: PublishVideo, clips: readonly PublishClip[], muteSegmentCount: number): ExportableItem[] {
  const items: ExportableItem[] = [];
  const providerVideoId = video.providerVideoId ?? null;
  if ((video.videoChanged || video.providerMediaStale === true) && video.providerMainVideoUploadStatus !== UPLOADED) {
    items.push({
      type: 'main_video',
      id: video.id,
      name: video.title?.trim() || video.originalName?.trim() || 'Main Video',
      description: muteSegmentCount > 0 ? muteSegmentsText(muteSegmentCount) : 'Video edits pending export',
      duration: video.duration,
      aspectRatio: null,
      providerUploadStatus: video.providerMainVideoUploadStatus,
      providerVideoId,
    });
  }
  if ((video.vttChanged || video.wordBywordChanged || video.providerCaptionsStale === true) && video.providerVttUploadStatus !== UPLOADED) {
    items.push({
      type: 'vtt',
      id: video.id,
      name: SUBTITLES_GROUP,
      description: subtitlesDescription(video),
      duration: video.duration,
      aspectRatio: null,
      providerUploadStatus: video.providerVttUploadStatus,
      providerVideoId,
    });
  }
  for (const clip of clips) {
    if (UNFINISHED_CLIP_STATUSES.has(clip.status) || clip.providerUploadStatus === UPLOADED) continue;
    const aspectRatio = clip.aspectRatio || DEFAULT_EXPORT_ASPECT_RATIO;
    const duration = clipDuration(clip);
    items.push({
      type: 'clip',
      id: clip.id,
      name: clip.name,
      description: `${aspectRatio} • ${formatDuration(duration)}`,
      duration,
      aspectRatio,
      providerUploadStatus: clip.providerUploadStatus ?? null,
      providerVideoId: clip.providerVideoId ?? null,
    });
  }
  return items;
}

/** The selection key of an item: main video and subtitles share the video id, so the type is part of it. */
export function itemKey(item: Pick<ExportableItem, 'type' | 'id'>): string {
  return `${item.type}:${item.id}`;
}

/**
 * The dialog's selection when it opens: every item, except clips already uploaded
 * that have a provider video id (publishing them again would duplicate them at the provider).
 */
export function initialSelection(items: readonly ExportableItem[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) {
    if (item.type === 'clip' && item.providerUploadStatus === UPLOADED && item.providerVideoId) continue;
    out.add(itemKey(item));
  }
  return out;
}

/** True when every item is selected (and there is at least one): the select-all box is checked. */
export function allSelected(items: readonly ExportableItem[], selected: ReadonlySet<string>): boolean {
  return items.length > 0 && items.every((i) => selected.has(itemKey(i)));
}

/** The select-all toggle: clears everything when all are selected, else selects all. */
export function toggleAll(items: readonly ExportableItem[], selected: ReadonlySet<string>): Set<string> {
  return allSelected(items, selected) ? new Set() : new Set(items.map(itemKey));
}

/** Toggles one item, returning a new set. */
export function toggleItem(selected: ReadonlySet<string>, item: Pick<ExportableItem, 'type' | 'id'>): Set<string> {
  const out = new Set(selected);
  const key = itemKey(item);
  if (out.has(key)) out.delete(key);
  else out.add(key);
  return out;
}

/** The selected items, in the dialog's order; keys of items no longer offered are ignored. */
export function selectedItems(items: readonly ExportableItem[], selected: ReadonlySet<string>): ExportableItem[] {
  return items.filter((i) => selected.has(itemKey(i)));
}

/** Exports need a provider session and a video. */
export function exportsAvailable(video: Pick<PublishVideo, 'id' | 'providerSessionId'> | null | undefined): boolean {
  return Boolean(video?.id && video.providerSessionId);
}

export interface ButtonState {
  disabled: boolean;
  tooltip?: string;
}

/**
 * The header's 'Publish changes' button: disabled while an export is being created,
 * with nothing to export, or while a clip is processing (then with the tooltip
 * 'Waiting for clips to finish processing...').
 */
export function publishButtonState(s: { creating: boolean; pendingCount: number; clipsProcessing: boolean }): ButtonState {
  const disabled = s.creating || !(s.pendingCount > 0) || s.clipsProcessing;
  return s.clipsProcessing ? { disabled, tooltip: CLIPS_PROCESSING_TOOLTIP } : { disabled };
}

/**
 * 'Revert to Original' shows only for a video linked to a session with something to revert:
 * pending exports, history entries, or a current version that differs from the original (also
 * once it is published). Counts or flags are accepted.
 */
export function revertVisible(s: { linkedToSession: boolean; pendingExports: number | boolean; historyEntries: number | boolean; differsFromOriginal?: boolean }): boolean {
  return s.linkedToSession && (Number(s.pendingExports) > 0 || Number(s.historyEntries) > 0 || s.differsFromOriginal === true);
}

/** The current version is not the original: an edit is applied, or its captions were changed. */
export function differsFromOriginal(video: Pick<PublishVideo, 'videoChanged' | 'vttChanged' | 'wordBywordChanged' | 'mediaVersion'>): boolean {
  return video.videoChanged || video.vttChanged || video.wordBywordChanged || (video.mediaVersion !== undefined && video.mediaVersion !== 'original');
}

/** The dialog's confirm label; 'Item(s)' is written literally, whatever the count. */
export function confirmLabel(s: { count: number; cloning: boolean; exporting: boolean }): string {
  if (s.cloning) return CLONING_LABEL;
  if (s.exporting) return PUBLISHING_LABEL;
  return `Publish ${s.count} Item(s)`;
}

/** The alert when nothing is selected, else null. */
export function selectionError(count: number): string | null {
  return count > 0 ? null : SELECT_AT_LEAST_ONE;
}

/**
 * The confirm button is disabled with nothing selected, over quota, while exporting and while
 * cloning.
 */
export function confirmDisabled(s: { count: number; quotaExceeded: boolean; exporting: boolean; cloning: boolean }): boolean {
  return !(s.count > 0) || s.quotaExceeded || s.exporting || s.cloning;
}

/** The clone toggle is hidden for a video that already is a clone. */
export function cloneToggleVisible(video: Pick<PublishVideo, 'providerIsClone'>): boolean {
  return !video.providerIsClone;
}

/**
 * Why a clone cannot start, as the toast to show, or null when it can:
 * 'Cannot clone / This video is already a clone', 'Clone failed / Video ID not available'.
 */
export function cloneRefusal(video: { id?: string | null; providerIsClone: boolean } | null | undefined): ToastText | null {
  if (video?.providerIsClone) return { title: CANNOT_CLONE_TITLE, description: ALREADY_A_CLONE_TEXT };
  if (!video?.id) return { title: CLONE_FAILED_TITLE, description: VIDEO_ID_NOT_AVAILABLE };
  return null;
}
