/**
 * Client checks of the legacy upload form: a video (MP4, or a MOV, MKV or WebM recording) and a
 * caption file (WebVTT, or SubRip, Whisper/WhisperX or word JSON), each refused with its own
 * toast text. The server tells formats apart by content; these checks only catch a wrong choice.
 */

export interface ValidationMessage {
  /** toast title */
  title: string;
  /** toast description */
  description: string;
}

export const INVALID_VIDEO: ValidationMessage = { title: 'Invalid video format', description: 'Please select an MP4 video file.' };
export const INVALID_SUBTITLE: ValidationMessage = { title: 'Invalid subtitle format', description: 'Please select a VTT subtitle file.' };
export const MISSING_FILES: ValidationMessage = {
  title: 'Missing files',
  description: 'Please select both MP4 video and VTT subtitle files.',
};

/** 'Title: Description', a message on one line. */
export function messageText(message: ValidationMessage): string {
  return `${message.title}: ${message.description}`;
}

/** What the checks need of a File. */
export interface FileLike {
  name: string;
  type: string;
}

/** The type is video/mp4 or the name ends in .mp4 (any case). */
export function isMp4File(file: FileLike): boolean {
  return file.type === 'video/mp4' || file.name.toLowerCase().endsWith('.mp4');
}

/** Recordings taken besides MP4: MOV, MKV (OBS) and WebM (browser recordings), by type or name. */
const OTHER_VIDEO_TYPES = new Set(['video/quicktime', 'video/x-matroska', 'video/matroska', 'video/webm']);
const OTHER_VIDEO_NAMES = /\.(mov|mkv|webm)$/i;

/** An MP4, or a MOV, MKV or WebM recording. */
export function isVideoFile(file: FileLike): boolean {
  return isMp4File(file) || OTHER_VIDEO_TYPES.has(file.type.toLowerCase()) || OTHER_VIDEO_NAMES.test(file.name);
}

/** The type is text/vtt or text/plain, or the name ends in .vtt (any case). */
export function isVttFile(file: FileLike): boolean {
  return file.type === 'text/vtt' || file.type === 'text/plain' || file.name.toLowerCase().endsWith('.vtt');
}

const OTHER_CAPTION_TYPES = new Set(['application/x-subrip', 'text/srt', 'application/json']);
const OTHER_CAPTION_NAMES = /\.(srt|json)$/i;

/** A WebVTT file, or SubRip (.srt) or a JSON transcript (Whisper, WhisperX, word timings). */
export function isCaptionFile(file: FileLike): boolean {
  return isVttFile(file) || OTHER_CAPTION_TYPES.has(file.type.toLowerCase()) || OTHER_CAPTION_NAMES.test(file.name);
}

/** The file input's accept lists. */
export const VIDEO_ACCEPT = 'video/mp4,.mp4,video/quicktime,.mov,video/x-matroska,.mkv,video/webm,.webm';
export const CAPTION_ACCEPT = 'text/vtt,.vtt,application/x-subrip,.srt,application/json,.json';

/** The message for a chosen video file, or null when it is acceptable. */
export function checkVideoFile(file: FileLike | null): ValidationMessage | null {
  return file && !isVideoFile(file) ? INVALID_VIDEO : null;
}

/** The message for a chosen subtitle file, or null when it is acceptable. */
export function checkVttFile(file: FileLike | null): ValidationMessage | null {
  return file && !isCaptionFile(file) ? INVALID_SUBTITLE : null;
}

/**
 * The first problem that blocks an upload of these files, or null when they are fine. Without a
 * caption file the video is transcribed when `canTranscribe`, else the captions are needed.
 */
export function validateUpload(video: FileLike | null, vtt: FileLike | null, o: { canTranscribe?: boolean } = {}): ValidationMessage | null {
  if (!video) return MISSING_FILES;
  if (!vtt && !o.canTranscribe) return MISSING_FILES;
  return checkVideoFile(video) ?? checkVttFile(vtt);
}
