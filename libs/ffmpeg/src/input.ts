/**
 * Every ffmpeg/ffprobe input is described, never guessed (ADR 0012): its demuxer (`-f`), the
 * demuxers it may open inside it (`-format_whitelist`) and the protocols it may use
 * (`-protocol_whitelist`) are pinned per input. Untrusted media is read only as MP4/MOV or as
 * Matroska/WebM (told apart by its first bytes, then checked: movie-check.ts); the worker's own
 * files only in the format it wrote them in.
 */

/** Protocols of the worker's own temporary files. */
export const LOCAL_FILE_PROTOCOLS = ['file'] as const;
/** Protocols of a presigned http(s) URL: no file, crypto, concat, subfile or data. */
export const PRESIGNED_URL_PROTOCOLS = ['http', 'https', 'tcp', 'tls'] as const;

export type InputProtocol = (typeof LOCAL_FILE_PROTOCOLS)[number] | (typeof PRESIGNED_URL_PROTOCOLS)[number];

/**
 * Demuxers the workers read with: `mov` is the MP4/MOV family (mp4, m4a, mov, 3gp); `matroska`
 * reads MKV and WebM; `aac` is raw ADTS; `s16le` raw PCM; `mp3`, `wav` and `flac` the speech audio
 * sent to a transcription endpoint.
 */
export type InputFormat = 'mov' | 'matroska' | 's16le' | 'aac' | SpeechAudioFormat;
const INPUT_FORMATS: ReadonlySet<string> = new Set<InputFormat>(['mov', 'matroska', 's16le', 'aac', 'mp3', 'wav', 'flac']);

/** The files speech audio is written as for a transcription endpoint. */
export type SpeechAudioFormat = 'mp3' | 'wav' | 'flac';
export const SPEECH_AUDIO_FORMATS: readonly SpeechAudioFormat[] = ['mp3', 'wav', 'flac'];

/** The containers an upload or import may be in. */
export type MediaContainer = 'mov' | 'matroska';
const INPUT_PROTOCOLS: ReadonlySet<string> = new Set<string>([...LOCAL_FILE_PROTOCOLS, ...PRESIGNED_URL_PROTOCOLS]);

/** Flags an input descriptor owns: callers cannot set or override them through `options`. */
const RESERVED = new Set(['-i', '-f', '-protocol_whitelist', '-protocol_blacklist', '-format_whitelist', '-enable_drefs', '-use_absolute_path', '-safe']);

export interface FfmpegInput {
  /** What ffmpeg opens: `file:<path>` or an http(s) URL. */
  readonly url: string;
  /** The demuxer (`-f`): never auto-detected. */
  readonly format: InputFormat;
  /** Demuxers this input may open: only its own (no input opens others). */
  readonly formats: readonly InputFormat[];
  readonly protocols: readonly InputProtocol[];
  /** Demuxer options that come with the format (`-enable_drefs 0`, `-ar`/`-ac`). */
  readonly demuxerOptions: readonly string[];
  /** Other input options, e.g. `-ss`/`-t` (see withInputOptions). */
  readonly options?: readonly string[];
}

/** A pinned command: its inputs, then everything after them (filters, maps, outputs). */
export interface FfmpegCommand {
  inputs: readonly FfmpegInput[];
  args: readonly string[];
}

const isHttpUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** A local path as ffmpeg must see it: `file:` so `clip:1.mp4` or `-x.mp4` is never a protocol or option. */
function fileUrl(path: string): string {
  if (!path) throw new Error('input path must not be empty');
  if (path.startsWith('file:')) return path;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) throw new Error(`not a local path: ${path.replace(/\?.*$/, '?<redacted>')}`);
  return `file:${path}`;
}

/**
 * Untrusted media (an upload, a provider import, or a copy of one on the worker's disk): only the
 * demuxer of its container (MP4/MOV by default, which must not follow external data references).
 * A presigned http(s) URL may use the network protocols only, a local path the `file` protocol
 * only; any other scheme is refused.
 */
export function mediaInput(pathOrUrl: string, container: MediaContainer = 'mov'): FfmpegInput {
  const remote = isHttpUrl(pathOrUrl);
  return {
    url: remote ? pathOrUrl : fileUrl(pathOrUrl),
    format: container,
    formats: [container],
    protocols: remote ? PRESIGNED_URL_PROTOCOLS : LOCAL_FILE_PROTOCOLS,
    // The default, stated: a track's data stays inside the file (checked too: mp4/movie.ts).
    demuxerOptions: container === 'mov' ? ['-enable_drefs', '0'] : [],
  };
}

/** A file this worker wrote itself, read back with the demuxer it was written for; `file` only. */
export function workFileInput(path: string, format: 'mov' | 'aac'): FfmpegInput {
  return {
    url: fileUrl(path),
    format,
    formats: [format],
    protocols: LOCAL_FILE_PROTOCOLS,
    demuxerOptions: format === 'mov' ? ['-enable_drefs', '0'] : [],
  };
}

/** A speech-audio file on local disk, read only with its own demuxer; `file` only. */
export function speechAudioInput(path: string, format: SpeechAudioFormat): FfmpegInput {
  if (!SPEECH_AUDIO_FORMATS.includes(format)) throw new RangeError(`not a speech audio format: ${String(format)}`);
  return { url: fileUrl(path), format, formats: [format], protocols: LOCAL_FILE_PROTOCOLS, demuxerOptions: [] };
}

/** Raw interleaved s16le PCM this worker wrote (it has no header: rate and channels are given). */
export function pcmInput(path: string, fmt: { sampleRate: number; channels: number }): FfmpegInput {
  if (!Number.isInteger(fmt.sampleRate) || fmt.sampleRate <= 0 || !Number.isInteger(fmt.channels) || fmt.channels <= 0) {
    throw new RangeError(`invalid PCM format ${fmt.sampleRate} Hz x ${fmt.channels}`);
  }
  return {
    url: fileUrl(path),
    format: 's16le',
    formats: ['s16le'],
    protocols: LOCAL_FILE_PROTOCOLS,
    demuxerOptions: ['-ar', String(fmt.sampleRate), '-ac', String(fmt.channels)],
  };
}

/** The same input with extra input options (seeking: `-ss`, `-t`), placed before its `-f`. */
export function withInputOptions(input: FfmpegInput, ...options: string[]): FfmpegInput {
  return { ...input, options: [...(input.options ?? []), ...options] };
}

export function whitelistValue(protocols: readonly string[]): string {
  if (protocols.length === 0) throw new Error('protocol whitelist must not be empty');
  for (const p of protocols) {
    if (!/^[a-z0-9_+-]+$/i.test(p)) throw new Error(`invalid protocol name in whitelist: ${JSON.stringify(p)}`);
  }
  return protocols.join(',');
}

/**
 * Refuses a descriptor that is not pinned or is inconsistent (they are plain objects, so casts and
 * spreads could break them): unknown format, the format missing from its own whitelist, unknown or
 * missing protocols, a local file with network protocols or a URL with `file`, reserved flags.
 */
export function assertPinnedInput(input: FfmpegInput): void {
  const shown = input.url.replace(/\?.*$/, '?<redacted>');
  if (!INPUT_FORMATS.has(input.format)) throw new Error(`input ${shown} has no pinned format (got ${JSON.stringify(input.format)})`);
  if (input.formats[0] !== input.format || input.formats.some((f) => !INPUT_FORMATS.has(f))) {
    throw new Error(`input ${shown}: format whitelist ${JSON.stringify(input.formats)} must start with ${input.format}`);
  }
  if (input.protocols.length === 0 || input.protocols.some((p) => !INPUT_PROTOCOLS.has(p))) {
    throw new Error(`input ${shown}: invalid protocols ${JSON.stringify(input.protocols)}`);
  }
  if (input.url.startsWith('file:')) {
    if (input.protocols.length !== 1 || input.protocols[0] !== 'file') throw new Error(`local input ${shown} may only use the file protocol`);
  } else if (isHttpUrl(input.url)) {
    if (input.protocols.includes('file')) throw new Error(`URL input ${shown} must not use the file protocol`);
  } else {
    throw new Error(`input ${shown} is neither a file: path nor an http(s) URL`);
  }
  for (const o of [...input.demuxerOptions, ...(input.options ?? [])]) {
    if (typeof o !== 'string' || o.includes('\0')) throw new TypeError(`input ${shown} has an invalid option`);
  }
  const reserved = (input.options ?? []).find((o) => RESERVED.has(o));
  if (reserved) throw new Error(`input ${shown}: ${reserved} is set by the input descriptor, not by options`);
}

/** The argv of one input: its options, then demuxer, format and protocol whitelists, then `-i`. */
export function inputArgs(input: FfmpegInput): string[] {
  assertPinnedInput(input);
  return [
    ...(input.options ?? []),
    '-f', input.format,
    '-format_whitelist', input.formats.join(','),
    ...input.demuxerOptions,
    '-protocol_whitelist', whitelistValue(input.protocols),
    '-i', input.url,
  ];
}

/**
 * Inputs of an argv that are not pinned: every `-i` needs its own `-f`, `-format_whitelist` and
 * `-protocol_whitelist` since the previous `-i`. Returns the indexes of the offending `-i`s.
 */
export function unpinnedInputs(argv: readonly string[]): number[] {
  const bad: number[] = [];
  let seen = new Set<string>();
  argv.forEach((a, i) => {
    if (a === '-i') {
      if (!seen.has('-f') || !seen.has('-format_whitelist') || !seen.has('-protocol_whitelist')) bad.push(i);
      seen = new Set();
    } else if (a === '-f' || a === '-format_whitelist' || a === '-protocol_whitelist') seen.add(a);
  });
  return bad;
}
