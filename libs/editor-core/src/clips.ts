/**
 * Clips: the aspect-ratio cards, Quick Export presets and names, the selection's time
 * range, clip-name validation, clip-list polling and progress, download names and the clip
 * creation error toasts. Pure: no React, DOM, Node APIs or IO.
 */
import { ErrorCode } from '@wordcut/contracts';
import { ASPECT_RATIOS as EXPORT_SIZES, type AspectRatioId } from '@wordcut/edit-list';

/** A clip's status. */
export type ClipStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** The export aspect ratios. */
export type AspectRatio = AspectRatioId;

/** One aspect-ratio card of the Create Clip dialog. */
export interface AspectRatioOption {
  ratio: AspectRatio;
  name: string;
  /** export size in pixels; null for Original (native size) */
  width: number | null;
  height: number | null;
  /** the card's second line: the export size ('1920x1080') or 'Native size' */
  description: string;
}

/** The card order of the Create Clip dialog. */
const CARD_ORDER: readonly AspectRatio[] = ['Original', '16:9', '9:16', '1:1', '4:5', '21:9'];

/** The aspect-ratio cards in display order, with the render's export sizes (@wordcut/edit-list). */
export const ASPECT_RATIOS: readonly AspectRatioOption[] = Object.freeze(
  CARD_ORDER.map((ratio) => {
    const { name, width, height } = EXPORT_SIZES[ratio];
    return Object.freeze(
      width > 0 ? { ratio, name, width, height, description: `${width}x${height}` } : { ratio, name, width: null, height: null, description: 'Native size' },
    );
  }),
);

/** The Create Clip dialog starts on 'Original'. */
export const DEFAULT_ASPECT_RATIO: AspectRatio = 'Original';

/** Quick Export presets. */
export type QuickExportKind = 'Square' | 'Story' | 'Landscape';

export interface QuickExportPreset {
  label: string;
  kind: QuickExportKind;
  ratio: AspectRatio;
}

/** The Quick Export card's buttons, in display order. */
export const QUICK_EXPORTS: readonly QuickExportPreset[] = Object.freeze([
  Object.freeze({ label: 'Square 1:1', kind: 'Square', ratio: '1:1' }),
  Object.freeze({ label: 'Story 9:16', kind: 'Story', ratio: '9:16' }),
  Object.freeze({ label: 'Landscape 16:9', kind: 'Landscape', ratio: '16:9' }),
] satisfies QuickExportPreset[]);

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Quick Export's automatic clip name: '{kind} Clip {timestamp}', the timestamp in
 * local time as `YYYY-MM-DD HH.mm.ss`. Dots rather than colons keep the name a valid file name
 * (it becomes the download name), e.g. 'Story Clip 2024-03-05 14.07.09'.
 */
export function quickExportName(kind: QuickExportKind, at: Date): string {
  const date = `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}`;
  const time = `${pad2(at.getHours())}.${pad2(at.getMinutes())}.${pad2(at.getSeconds())}`;
  return `${kind} Clip ${date} ${time}`;
}

/**
 * The time range a clip of the selected words covers (Create Clip and Quick Export): the
 * earliest start to the latest end of the selected words. Indices that are not integers or fall
 * outside `words`, and words with non-finite times, are ignored; null when nothing usable is
 * selected or the range is empty (end <= start).
 */
export function selectionTimeRange(
  words: readonly { start: number; end: number }[],
  indices: readonly number[],
): { start: number; end: number } | null {
  let start = Infinity;
  let end = -Infinity;
  for (const i of indices) {
    if (!Number.isInteger(i)) continue;
    const w = words[i];
    if (!w || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    if (w.start < start) start = w.start;
    if (w.end > end) end = w.end;
  }
  return Number.isFinite(start) && Number.isFinite(end) && end > start ? { start, end } : null;
}

/** Longest clip name, after trimming (matches the video title limit). */
export const MAX_CLIP_NAME_LENGTH = 200;

/**
 * Create Clip dialog validation: a non-empty trimmed name of at most 200
 * characters. The message to show, or null when the name is fine.
 */
export function validateClipName(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'Please enter a clip name';
  if (trimmed.length > MAX_CLIP_NAME_LENGTH) return `Clip names can be at most ${MAX_CLIP_NAME_LENGTH} characters`;
  return null;
}

/** Clip list polling interval. */
export const CLIP_POLL_INTERVAL_MS = 2000;

/**
 * The clip list's refetch interval: every 2000 ms while any clip is
 * pending or processing, otherwise no polling (false, as query libraries expect).
 */
export function clipsPollInterval(clips: readonly { status: string }[] | undefined): number | false {
  return clips?.some((c) => c.status === 'pending' || c.status === 'processing') ? CLIP_POLL_INTERVAL_MS : false;
}

/** The fixed progress a processing clip shows. */
export const PROCESSING_CLIP_PROGRESS = 65;

/** A clip's progress bar value: 65 while processing, no bar (null) otherwise. */
export function clipProgress(status: string): number | null {
  return status === 'processing' ? PROCESSING_CLIP_PROGRESS : null;
}

// Characters not allowed in file names on common systems, plus control characters.
// eslint-disable-next-line no-control-regex
const INVALID_FILE_NAME_CHARS = /[/\\:*?"<>|\u0000-\u001f\u007f]/g;

/** Longest base name a download gets (file systems allow 255 bytes; names may be multi-byte). */
export const DOWNLOAD_NAME_MAX_CHARS = 120;

/**
 * The download file name of a clip or its captions ('{name}.mp4'), the same in the
 * browser's download attribute and the gateway's Content-Disposition: characters invalid in file
 * names (/ \ : * ? " < > | and control characters) replaced by '_', runs of white space made one
 * space, trimmed, at most DOWNLOAD_NAME_MAX_CHARS characters; an empty name becomes 'clip'.
 */
export function downloadFileName(name: string, ext: 'mp4' | 'vtt'): string {
  const base = [...name.replace(INVALID_FILE_NAME_CHARS, '_').replace(/\s+/g, ' ').trim()].slice(0, DOWNLOAD_NAME_MAX_CHARS).join('').trim();
  return `${base || 'clip'}.${ext}`;
}

/** A toast's title and description. */
export interface ToastText {
  title: string;
  description: string;
}

/**
 * The toast for a failed clip creation:
 * - status 429 with error (or code) 'quota_exceeded': 'Export limit reached';
 * - a non-empty server message: 'Clip creation failed' with that message;
 * - otherwise (network failure: status null, no body): 'Failed to create clip' / 'Please try again.'
 */
export function clipErrorToast(
  status: number | null,
  body: { error?: string; code?: string; message?: string } | null,
): ToastText {
  if (status === 429 && (body?.error === ErrorCode.QuotaExceeded || body?.code === ErrorCode.QuotaExceeded)) {
    return {
      title: 'Export limit reached',
      description: "You've reached your monthly export limit. Please upgrade your plan to continue.",
    };
  }
  const message = body?.message?.trim();
  if (message) return { title: 'Clip creation failed', description: message };
  return { title: 'Failed to create clip', description: 'Please try again.' };
}

/** Tooltip of the disabled Create Clip button when the export quota is exceeded. */
export const EXPORT_LIMIT_TOOLTIP = 'Export limit reached. Please upgrade your plan.';
