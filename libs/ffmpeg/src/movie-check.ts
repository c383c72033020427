/**
 * The container check of an ffmpeg input (local file or presigned URL) before ffprobe/ffmpeg parse
 * it: MP4/MOV boxes (mp4/movie.ts) or Matroska/WebM elements (mkv/matroska.ts). Its bytes come
 * through a ByteSource, its refusals become MediaProbeErrors.
 */
import { MediaProbeError, type MediaProbeErrorCode } from './errors';
import { mediaInput, type FfmpegInput, type MediaContainer } from './input';
import { checkMatroska, startsLikeEbml, type MatroskaCheck, type MatroskaProblem } from './mkv/matroska';
import { checkMovieBoxes, MP4_LIMITS, openFileSource, type ByteSource, type ClosableSource, type MovieCheck, type MovieProblem } from './mp4';

/** Bytes fetched per ranged HTTP read at least (headers of neighbouring boxes come in one read). */
const HTTP_BLOCK_BYTES = 64 * 1024;
/** A server that ignores `Range` answers with the whole file: accepted only when it is this small. */
const WHOLE_BODY_MAX_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MOVIE_CHECK_TIMEOUT_MS = 60_000;

export interface MovieCheckOptions {
  signal?: AbortSignal;
  /** Default 60 s for all reads of one check. */
  timeoutMs?: number;
  maxBoxBytes?: number;
}

class ReadError extends Error {}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EISDIR: 'Is a directory',
  ECONNREFUSED: 'Connection refused',
  ETIMEDOUT: 'Connection timed out',
  ENOTFOUND: 'Failed to resolve hostname',
};

function errnoText(err: unknown): string {
  const e = (err as { cause?: NodeJS.ErrnoException }).cause ?? (err as NodeJS.ErrnoException);
  return (e.code && ERRNO_TEXT[e.code]) ?? e.message ?? String(err);
}

/** A regular local file (never a FIFO or device: opening those could block or never end). */
async function fileSource(path: string): Promise<ClosableSource> {
  let source: ClosableSource;
  try {
    source = await openFileSource(path);
  } catch (err) {
    throw new ReadError((err as Error).message === 'Not a regular file' ? 'Not a regular file' : errnoText(err));
  }
  return {
    size: source.size,
    read: (offset, length) => source.read(offset, length).catch((err: unknown) => Promise.reject(new ReadError((err as Error).message))),
    close: () => source.close(),
  };
}

/**
 * Ranged GETs of a presigned http(s) URL, as ffmpeg reads it: no redirects followed, a Range
 * header per read, the size from Content-Range.
 */
async function httpSource(url: string, signal: AbortSignal): Promise<ClosableSource> {
  let cache: { offset: number; bytes: Uint8Array } = { offset: 0, bytes: new Uint8Array(0) };
  const get = async (offset: number, length: number): Promise<{ bytes: Uint8Array; total: number; whole: boolean }> => {
    let res: Response;
    try {
      res = await fetch(url, { headers: { range: `bytes=${offset}-${offset + length - 1}` }, redirect: 'error', signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new ReadError(errnoText(err));
    }
    if (res.status === 416 && offset === 0) {
      await res.body?.cancel();
      return { bytes: new Uint8Array(0), total: 0, whole: true };
    }
    if (res.status === 200) {
      const announced = Number(res.headers.get('content-length'));
      if (!(announced <= WHOLE_BODY_MAX_BYTES)) {
        await res.body?.cancel();
        throw new ReadError('HTTP error: the server ignores range requests');
      }
      const all = new Uint8Array(await res.arrayBuffer());
      return { bytes: all, total: all.length, whole: true };
    }
    if (res.status !== 206) {
      await res.body?.cancel();
      throw new ReadError(`Server returned ${res.status} ${res.statusText}`.trim());
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!range || Number(range[1]) !== offset || bytes.length !== Number(range[2]) - offset + 1) {
      throw new ReadError('HTTP error: unexpected answer to a range request');
    }
    return { bytes, total: Number(range[3]), whole: false };
  };
  const first = await get(0, HTTP_BLOCK_BYTES);
  cache = { offset: 0, bytes: first.bytes };
  const size = first.total;
  return {
    size,
    read: async (offset, length) => {
      if (offset >= cache.offset && offset + length <= cache.offset + cache.bytes.length) {
        return cache.bytes.subarray(offset - cache.offset, offset - cache.offset + length);
      }
      if (first.whole) throw new ReadError('I/O error: read past the end of the file');
      const got = await get(offset, Math.max(length, Math.min(HTTP_BLOCK_BYTES, size - offset)));
      if (got.bytes.length < length) throw new ReadError('I/O error: the file is shorter than announced');
      cache = { offset, bytes: got.bytes };
      return got.bytes.subarray(0, length);
    },
    close: () => Promise.resolve(),
  };
}

/** Runs `check` on the bytes of a local file or presigned URL under one deadline; read failures become ReadErrors. */
async function withInputSource<T>(input: FfmpegInput, o: MovieCheckOptions, check: (source: ByteSource, signal: AbortSignal, deadline: number) => Promise<T>): Promise<T> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_MOVIE_CHECK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let source: ClosableSource | null = null;
  try {
    source = input.url.startsWith('file:') ? await fileSource(input.url.slice('file:'.length)) : await httpSource(input.url, signal);
    const s = source;
    const guarded: ByteSource = {
      size: s.size,
      read: (offset, length) => {
        if (signal.aborted) return Promise.reject(signal.reason as Error);
        return s.read(offset, length);
      },
    };
    return await check(guarded, signal, Date.now() + timeoutMs);
  } catch (err) {
    if (o.signal?.aborted) throw o.signal.reason;
    if (timeout.aborted) throw new ReadError('Connection timed out while reading the file');
    throw err;
  } finally {
    await source?.close();
  }
}

/** Checks the movie of a pinned `mov` input (local file or presigned URL); see mp4/movie.ts. */
export async function checkMovieInput(input: FfmpegInput, o: MovieCheckOptions = {}): Promise<MovieCheck> {
  if (input.format !== 'mov') throw new Error(`only mov inputs have movie boxes to check, not ${input.format}`);
  const limits = o.maxBoxBytes === undefined ? MP4_LIMITS : { ...MP4_LIMITS, maxMovieBytes: o.maxBoxBytes };
  return withInputSource(input, o, (source, signal, deadline) => checkMovieBoxes(source, { limits, signal, deadline }));
}

/** Checks the elements of a pinned `matroska` input (local file or presigned URL); see mkv/matroska.ts. */
export async function checkMatroskaInput(input: FfmpegInput, o: MovieCheckOptions = {}): Promise<MatroskaCheck> {
  if (input.format !== 'matroska') throw new Error(`only matroska inputs have EBML elements to check, not ${input.format}`);
  return withInputSource(input, o, (source, signal, deadline) => checkMatroska(source, { signal, deadline }));
}

/**
 * The container of untrusted media by its first bytes: Matroska/WebM when it starts with the
 * EBML magic, else MP4/MOV (whose check refuses what is neither). UNREADABLE when it cannot be read.
 */
export async function sniffContainer(pathOrUrl: string, shownInput: string, o: MovieCheckOptions = {}): Promise<MediaContainer> {
  try {
    return await withInputSource(mediaInput(pathOrUrl), o, async (source) => (source.size >= 4 && startsLikeEbml(await source.read(0, 4)) ? 'matroska' : 'mov'));
  } catch (err) {
    if (err instanceof ReadError) throw new MediaProbeError('UNREADABLE', err.message, shownInput, { cause: err });
    throw err;
  }
}

const CODES: Record<MovieProblem, MediaProbeErrorCode> = {
  'not-mp4': 'NOT_MP4',
  'external-reference': 'EXTERNAL_REFERENCE',
  'no-movie': 'NOT_MEDIA',
  'compressed-movie': 'NOT_MEDIA',
  'malformed-reference': 'NOT_MEDIA',
  'too-large': 'UNSAFE_STRUCTURE',
  'several-movies': 'UNSAFE_STRUCTURE',
  'movie-alias': 'UNSAFE_STRUCTURE',
  'outside-bounds': 'UNSAFE_STRUCTURE',
};

/**
 * Refuses a `mov` input that is not MP4/MOV at all, has no movie, whose data references point
 * outside the file, or whose structure is outside our reader's bounds, before ffprobe/ffmpeg parse
 * it: MediaProbeError (NOT_MP4, EXTERNAL_REFERENCE, NOT_MEDIA, UNSAFE_STRUCTURE; UNREADABLE when
 * the bytes could not be read). `shownInput` names it in errors.
 */
export async function assertSelfContainedMovie(input: FfmpegInput, shownInput: string, o: MovieCheckOptions = {}): Promise<void> {
  let result: MovieCheck;
  try {
    result = await checkMovieInput(input, o);
  } catch (err) {
    if (err instanceof ReadError) throw new MediaProbeError('UNREADABLE', err.message, shownInput, { cause: err });
    throw err;
  }
  if (!result.ok) throw new MediaProbeError(CODES[result.problem], result.reason, shownInput);
}

const MATROSKA_CODES: Record<MatroskaProblem, MediaProbeErrorCode> = {
  'not-matroska': 'NOT_MP4',
  'external-reference': 'EXTERNAL_REFERENCE',
  encrypted: 'NOT_MEDIA',
  'too-large': 'UNSAFE_STRUCTURE',
  'outside-bounds': 'UNSAFE_STRUCTURE',
};

/**
 * Refuses an untrusted input whose container check fails, before ffprobe/ffmpeg parse it: a `mov`
 * input as assertSelfContainedMovie does, a `matroska` one that is not Matroska/WebM, links to
 * other files, is encrypted, or whose element sizes leave their parents (UNREADABLE when the
 * bytes could not be read). Other formats are the worker's own files: nothing to check.
 */
export async function assertCheckedInput(input: FfmpegInput, shownInput: string, o: MovieCheckOptions = {}): Promise<void> {
  if (input.format === 'mov') return assertSelfContainedMovie(input, shownInput, o);
  if (input.format !== 'matroska') return;
  let result: MatroskaCheck;
  try {
    result = await checkMatroskaInput(input, o);
  } catch (err) {
    if (err instanceof ReadError) throw new MediaProbeError('UNREADABLE', err.message, shownInput, { cause: err });
    throw err;
  }
  if (!result.ok) throw new MediaProbeError(MATROSKA_CODES[result.problem], result.reason, shownInput);
}
