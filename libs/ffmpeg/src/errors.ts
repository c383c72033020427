/** ffmpeg/ffprobe failed to run or exited non-zero. `stderrTail` is the end of its stderr (URLs redacted). */
export class FfmpegError extends Error {
  override readonly name: string = 'FfmpegError';
  constructor(
    message: string,
    readonly details: {
      binary: string;
      args: readonly string[];
      exitCode: number | null;
      signal: string | null;
      stderrTail: string;
      durationMs: number;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): number | null {
    return this.details.exitCode;
  }

  get stderrTail(): string {
    return this.details.stderrTail;
  }
}

/** The process ran longer than its timeout and was killed (SIGKILL). */
export class FfmpegTimeoutError extends FfmpegError {
  override readonly name = 'FfmpegTimeoutError';
  constructor(
    readonly timeoutMs: number,
    details: FfmpegError['details'],
  ) {
    super(`${baseName(details.binary)} timed out after ${timeoutMs} ms and was killed`, details);
  }
}

/** The caller's AbortSignal fired; the process was killed (SIGKILL). */
export class FfmpegAbortedError extends FfmpegError {
  override readonly name = 'FfmpegAbortedError';
  constructor(details: FfmpegError['details'], reason?: unknown) {
    super(`${baseName(details.binary)} was aborted`, details, { cause: reason });
  }
}

export type MediaProbeErrorCode =
  /** Not a file of the MP4/MOV family at all (text, a playlist, an ffconcat list, Matroska ...): refused unread. */
  | 'NOT_MP4'
  /** An MP4/MOV whose data references point outside the file (ADR 0012). */
  | 'EXTERNAL_REFERENCE'
  /** ffprobe could not parse it (truncated, no movie header, a malformed or compressed header ...). */
  | 'NOT_MEDIA'
  /** An MP4/MOV outside our reader's bounds: two movies, a movie alias, too many tracks, samples or boxes, overlapping samples. */
  | 'UNSAFE_STRUCTURE'
  /** Parsed, but it has no audio or video stream (subtitles only, a tty text file ...). */
  | 'NO_AUDIO_VIDEO'
  /** The input could not be read (missing file, HTTP error, protocol not allowed ...). */
  | 'UNREADABLE';

/** The input is not a playable media file (or could not be read). A user error, not a system fault. */
export class MediaProbeError extends Error {
  override readonly name = 'MediaProbeError';
  constructor(
    readonly code: MediaProbeErrorCode,
    /** ffprobe's own words (last stderr line), input paths/URLs redacted. */
    readonly reason: string,
    /** The probed input, with URL query strings (signatures) removed. */
    readonly input: string,
    options?: { cause?: unknown },
  ) {
    super(
      code === 'UNREADABLE' ? `cannot read media input: ${reason}` : `not a playable media file: ${reason}`,
      options,
    );
  }
}

function baseName(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

/** The input has no audio stream, so it has no waveform. A fact about the media, not a fault. */
export class NoAudioError extends Error {
  override readonly name = 'NoAudioError';
  readonly code = 'NO_AUDIO';
  constructor(
    /** The input, with URL query strings (signatures) removed. */
    readonly input: string,
  ) {
    super('This video has no audio track.');
  }
}
