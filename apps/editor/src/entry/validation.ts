/** Client checks of the legacy upload form: an MP4 and a VTT file, each refused with its own toast text. */

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

/** The type is text/vtt or text/plain, or the name ends in .vtt (any case). */
export function isVttFile(file: FileLike): boolean {
  return file.type === 'text/vtt' || file.type === 'text/plain' || file.name.toLowerCase().endsWith('.vtt');
}

/** The message for a chosen video file, or null when it is acceptable. */
export function checkVideoFile(file: FileLike | null): ValidationMessage | null {
  return file && !isMp4File(file) ? INVALID_VIDEO : null;
}

/** The message for a chosen subtitle file, or null when it is acceptable. */
export function checkVttFile(file: FileLike | null): ValidationMessage | null {
  return file && !isVttFile(file) ? INVALID_SUBTITLE : null;
}

/** The first problem that blocks an upload of these two files, or null when both are fine. */
export function validateUpload(video: FileLike | null, vtt: FileLike | null): ValidationMessage | null {
  if (!video || !vtt) return MISSING_FILES;
  return checkVideoFile(video) ?? checkVttFile(vtt);
}
