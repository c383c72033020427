import { probeResultSchema, type ProbeResult, type ProbeStream } from '@wordcut/contracts';
import { buildFfprobeArgs, redactUrls } from './args';
import { FfmpegError, MediaProbeError, type MediaProbeErrorCode } from './errors';
import { mediaInput, type FfmpegInput } from './input';
import { assertCheckedInput, sniffContainer } from './movie-check';
import { runProcess, type ProcessOutcome } from './process';

export const DEFAULT_PROBE_TIMEOUT_MS = 60_000;

export interface ProbeOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default `ffprobe` (PATH). */
  binary?: string;
}

/** The parts of ffprobe's `-print_format json -show_format -show_streams` output we read. */
export interface FfprobeJson {
  format?: {
    format_name?: string;
    duration?: string | number;
    size?: string | number;
    bit_rate?: string | number;
  };
  streams?: Array<{
    index?: number;
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
    avg_frame_rate?: string;
    sample_rate?: string | number;
    channels?: number;
    duration?: string | number;
    disposition?: Record<string, number>;
    pix_fmt?: string;
    profile?: string;
    tags?: Record<string, string>;
    side_data_list?: Array<{ side_data_type?: string; rotation?: number | string }>;
  }>;
}

/**
 * Clockwise display rotation of a video stream in degrees (0, 90, 180 or 270): the display matrix
 * side data (ffprobe reports it counter-clockwise, e.g. -90 for a phone held upright) or, from
 * older muxers, the `rotate` tag (clockwise). Angles are rounded to the nearest quarter turn.
 */
export function streamRotation(s: NonNullable<FfprobeJson['streams']>[number]): number {
  // ffprobe 5 names it 'DisplayMatrix', later versions 'Display Matrix'.
  const matrix = s.side_data_list?.find((d) => /^display ?matrix$/i.test(d.side_data_type ?? '') && d.rotation !== undefined);
  const fromMatrix = matrix ? toNumber(matrix.rotation) : null;
  const fromTag = toNumber(s.tags?.['rotate']);
  const clockwise = fromMatrix !== null ? -fromMatrix : (fromTag ?? 0);
  const quarter = Math.round(clockwise / 90);
  return (((quarter % 4) + 4) % 4) * 90;
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (t === '' || t === 'N/A') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function toInt(v: unknown): number | null {
  const n = toNumber(v);
  return n === null ? null : Math.round(n);
}

function positive(n: number | null): number | null {
  return n !== null && n > 0 ? n : null;
}

/** "30000/1001" -> 29.97..., "25/1" -> 25, "0/0" / absent -> null. */
export function parseRational(v: string | undefined): number | null {
  if (!v) return null;
  const m = /^(-?\d+(?:\.\d+)?)(?:\/(-?\d+(?:\.\d+)?))?$/.exec(v.trim());
  if (!m) return null;
  const num = Number(m[1]);
  const den = m[2] === undefined ? 1 : Number(m[2]);
  if (!den) return null;
  const r = num / den;
  return Number.isFinite(r) && r > 0 ? r : null;
}

/** Maps ffprobe JSON to the ProbeResult contract (validated by its schema). */
export function mapFfprobeJson(json: FfprobeJson): ProbeResult {
  const f = json.format ?? {};
  const streams: ProbeStream[] = (json.streams ?? []).map((s, i) => {
    const isVideo = s.codec_type === 'video';
    return {
      index: typeof s.index === 'number' ? s.index : i,
      codecType: s.codec_type ?? 'unknown',
      codecName: s.codec_name ?? null,
      width: positive(toInt(s.width)),
      height: positive(toInt(s.height)),
      frameRate: isVideo ? (parseRational(s.r_frame_rate) ?? parseRational(s.avg_frame_rate)) : null,
      sampleRate: positive(toInt(s.sample_rate)),
      channels: positive(toInt(s.channels)),
      durationSec: toNumber(s.duration),
      ...(isVideo ? { pixFmt: s.pix_fmt ?? null, rotation: streamRotation(s) } : {}),
      ...(s.profile !== undefined ? { profile: s.profile } : {}),
    };
  });
  return probeResultSchema.parse({
    formatName: f.format_name ?? 'unknown',
    durationSec: toNumber(f.duration),
    sizeBytes: toInt(f.size),
    bitRate: toInt(f.bit_rate),
    streams,
  });
}

const IMAGE_FORMAT = /(^|,)(image2|[a-z0-9]+_pipe)(,|$)/;

/**
 * Why a successfully parsed input is still not playable media, or null when it is: it needs an
 * audio stream or a moving-picture video stream (not cover art, not a still image, not a tty text).
 */
export function unplayableReason(json: FfprobeJson): string | null {
  const format = json.format?.format_name ?? 'unknown';
  const streams = json.streams ?? [];
  if (format === 'tty') return 'text file (tty), no audio or video stream';
  const audio = streams.filter((s) => s.codec_type === 'audio');
  const video = streams.filter(
    (s) => s.codec_type === 'video' && !s.disposition?.['attached_pic'] && !s.disposition?.['still_image'],
  );
  if (audio.length > 0) return null;
  if (video.length > 0 && !IMAGE_FORMAT.test(format)) return null;
  if (video.length > 0) return `still image (${format}), no audio or video stream`;
  const kinds = [...new Set(streams.map((s) => s.codec_type ?? 'unknown'))];
  return kinds.length === 0
    ? `no streams (format ${format})`
    : `no audio or video stream (format ${format}, streams: ${kinds.join(', ')})`;
}

const UNREADABLE =
  /No such file|Is a directory|Permission denied|Connection refused|Connection timed out|timed out|Server returned|not on whitelist|Protocol not found|Failed to resolve|Network is unreachable|HTTP error|I\/O error|Input\/output error/i;

/** Whether ffmpeg/ffprobe stderr says the input could not be read (I/O, HTTP, network), not that it is bad media. */
export function isInputReadFailure(stderr: string): boolean {
  return UNREADABLE.test(stderr);
}

/** One-line reason from ffprobe's stderr: log prefixes and the input name removed, URLs redacted. */
export function probeFailureReason(stderr: string, input: string): { code: MediaProbeErrorCode; reason: string } {
  const lines = redactUrls(stderr.split(input).join('<input>'))
    .split(/\r?\n/)
    .map((l) =>
      l
        .replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '')
        .replace(/^(file:)?<input>:\s*/, '')
        .trim(),
    )
    .filter(Boolean);
  const unique = [...new Set(lines)].slice(-2);
  const reason = unique.join('; ') || 'ffprobe failed without a message';
  return { code: UNREADABLE.test(stderr) ? 'UNREADABLE' : 'NOT_MEDIA', reason };
}

/**
 * ffprobe a pinned input; a plain string (local path or presigned http(s) URL) is untrusted media,
 * MP4/MOV or Matroska/WebM by its first bytes (mediaInput). Its container is checked first (not
 * MP4/MOV/MKV/WebM, no movie, external references, sizes out of bounds: refused before ffprobe
 * reads it). Not media => MediaProbeError; timeout/abort => FfmpegTimeoutError/FfmpegAbortedError.
 */
export async function probe(input: FfmpegInput | string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const binary = opts.binary ?? 'ffprobe';
  const shownInput = redactUrls(typeof input === 'string' ? input : input.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const pinned = typeof input === 'string' ? mediaInput(input, await sniffContainer(input, shownInput, { signal: opts.signal, timeoutMs })) : input;
  const args = buildFfprobeArgs(pinned);
  await assertCheckedInput(pinned, shownInput, { signal: opts.signal, timeoutMs });
  const outcome = await runProcess({
    binary,
    args,
    timeoutMs,
    signal: opts.signal,
    maxStdoutBytes: 16 * 1024 * 1024,
    stderrTailBytes: 16 * 1024,
  });
  if (outcome.exitCode !== 0) {
    if (outcome.exitCode === null) throw killedError(binary, args, outcome);
    const { code, reason } = probeFailureReason(outcome.stderrTail, pinned.url);
    throw new MediaProbeError(code, reason, shownInput);
  }
  let json: FfprobeJson;
  try {
    json = JSON.parse(outcome.stdout.toString('utf8')) as FfprobeJson;
  } catch (err) {
    throw new MediaProbeError('NOT_MEDIA', 'ffprobe printed no readable JSON', shownInput, { cause: err });
  }
  if (!json.format) throw new MediaProbeError('NOT_MEDIA', 'ffprobe found no container format', shownInput);
  const unplayable = unplayableReason(json);
  if (unplayable) throw new MediaProbeError('NO_AUDIO_VIDEO', unplayable, shownInput);
  return mapFfprobeJson(json);
}

/** The error for an ffmpeg/ffprobe process ended by a signal (timeout, abort, OOM killer); URLs redacted. */
export function killedError(
  binary: string,
  args: readonly string[],
  outcome: Pick<ProcessOutcome, 'signal' | 'stderrTail' | 'durationMs'>,
): FfmpegError {
  return new FfmpegError(`${binary} was killed by ${outcome.signal}`, {
    binary,
    args: args.map(redactUrls),
    exitCode: null,
    signal: outcome.signal,
    stderrTail: redactUrls(outcome.stderrTail),
    durationMs: outcome.durationMs,
  });
}
