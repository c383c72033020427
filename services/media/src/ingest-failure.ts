import { FfmpegAbortedError, FfmpegError, FfmpegTimeoutError, isInputReadFailure, MediaProbeError } from '@wordcut/ffmpeg';
import { FetchFailedError, UnsafeUrlError } from '@wordcut/provider';
import { ObjectNotFoundError } from '@wordcut/storage';
import { TranscriptBuildError } from '@wordcut/transcript';

/** Messages for people (shown on the video as its error), by failure code. */
export const IngestMessages = {
  NOT_MEDIA: 'The file is not a playable video.',
  NOT_MP4: 'The file is not a video in MP4 or MOV format.',
  EXTERNAL_REFERENCE: 'The video refers to data outside the file. Please upload a self-contained MP4 or MOV file.',
  UNSAFE_STRUCTURE: 'The video file is built in a way we do not accept (for example two movies in one file, too many tracks or samples, or samples that overlap). Please export it again as a standard MP4 or MOV file.',
  NO_VIDEO: 'The file has no video track.',
  VIDEO_NOT_FOUND: 'The uploaded video is no longer available. Please upload it again.',
  CAPTIONS_NOT_FOUND: 'The uploaded subtitle file is no longer available. Please upload it again.',
  NO_CAPTIONS: 'No subtitles came with this video, so there is no transcript to edit.',
  PROXY_FAILED: 'The video could not be converted for playback in the browser.',
} as const;

/**
 * An ingest failure that a retry cannot fix: reported as videoIngestFailed and acknowledged.
 * `message` is for the person; `code` is for machines.
 */
export class IngestFailure extends Error {
  override readonly name = 'IngestFailure';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The answer to media that was read and refused (a MediaProbeError other than UNREADABLE): its
 * code (NOT_MP4, EXTERNAL_REFERENCE, UNSAFE_STRUCTURE, or NOT_MEDIA for the rest) and the message
 * for people.
 */
export function mediaRefusal(err: MediaProbeError): { code: 'NOT_MP4' | 'EXTERNAL_REFERENCE' | 'UNSAFE_STRUCTURE' | 'NOT_MEDIA'; message: string } {
  if (err.code === 'NOT_MP4' || err.code === 'EXTERNAL_REFERENCE' || err.code === 'UNSAFE_STRUCTURE') return { code: err.code, message: IngestMessages[err.code] };
  return { code: 'NOT_MEDIA', message: IngestMessages.NOT_MEDIA };
}

/** Refusals that only a crafted file earns: operators hear of them (warn, reported to the error log). */
export const isHostileRefusal = (code: string): boolean => code === 'EXTERNAL_REFERENCE' || code === 'UNSAFE_STRUCTURE';

/** HTTP answers of a provider that will not change on a retry (408 and 429 may). */
const isPermanentHttpStatus = (status: number | undefined): boolean =>
  status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Decides what an error thrown while ingesting means: an IngestFailure (report and ack) or null
 * (transient: throw, so JetStream redelivers; after the last delivery it is dead-lettered).
 * Pure: only looks at the error.
 */
export function classifyIngestError(err: unknown): IngestFailure | null {
  if (err instanceof IngestFailure) return err;
  if (err instanceof TranscriptBuildError) return new IngestFailure(err.code, err.message, { cause: err });
  if (err instanceof UnsafeUrlError) return new IngestFailure('UNSAFE_URL', err.message, { cause: err });
  if (err instanceof FetchFailedError) {
    if (err.code === 'TOO_LARGE') return new IngestFailure('TOO_LARGE', err.message, { cause: err });
    if (err.code === 'HTTP_ERROR' && isPermanentHttpStatus(err.status)) return new IngestFailure('IMPORT_FAILED', err.message, { cause: err });
    return null;
  }
  if (err instanceof MediaProbeError) {
    // UNREADABLE: our own bucket could not be read (a presigned URL of an object that exists): transient.
    if (err.code === 'UNREADABLE') return null;
    const { code, message } = mediaRefusal(err);
    return new IngestFailure(code, message, { cause: err });
  }
  if (err instanceof FfmpegTimeoutError || err instanceof FfmpegAbortedError) return null;
  if (err instanceof FfmpegError) {
    // ffmpeg ran and exited non-zero: the media is at fault unless it could not read its input.
    const systemError = typeof (err.cause as NodeJS.ErrnoException | undefined)?.code === 'string'; // cannot spawn ffmpeg
    if (err.exitCode === null || systemError || isInputReadFailure(err.stderrTail)) return null;
    return new IngestFailure('PROXY_FAILED', IngestMessages.PROXY_FAILED, { cause: err });
  }
  if (err instanceof ObjectNotFoundError) return new IngestFailure('NOT_FOUND', IngestMessages.VIDEO_NOT_FOUND, { cause: err });
  return null;
}
