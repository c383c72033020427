import { LOCAL_FILE_PROTOCOLS, inputArgs, mediaInput, unpinnedInputs, whitelistValue, type FfmpegInput } from './input';

export interface FfmpegArgsOptions {
  /**
   * The inputs, each with its pinned demuxer and protocols (input.ts), placed before `args`; `args`
   * must then hold no `-i` of its own. Every worker command passes them.
   */
  inputs?: readonly FfmpegInput[];
  /** `-loglevel` unless `args` set `-v`/`-loglevel`. Default `warning` (errors and warnings only). */
  logLevel?: string;
  /** Add `-y` (overwrite outputs) unless `args` contain `-y`/`-n`. Default true. */
  overwrite?: boolean;
  /**
   * Write `-progress` key=values to stdout. Default true; false leaves stdout to the output
   * (e.g. raw samples on `pipe:1`).
   */
  progress?: boolean;
}

/** Rejects what would make an argv unsafe or surprising (non-strings, NUL bytes). */
export function assertArgs(args: readonly unknown[]): asserts args is readonly string[] {
  args.forEach((a, i) => {
    if (typeof a !== 'string') throw new TypeError(`ffmpeg argument #${i} is not a string: ${String(a)}`);
    if (a.includes('\0')) throw new TypeError(`ffmpeg argument #${i} contains a NUL byte`);
  });
}

/** Flags that belong to an input descriptor: with `inputs`, `args` may not carry them. */
const INPUT_FLAGS = new Set(['-i', '-protocol_whitelist', '-protocol_blacklist', '-format_whitelist', '-enable_drefs', '-safe']);

/**
 * Full ffmpeg argv: global flags for machine use (no banner, no stdin, progress as key=value on
 * stdout), then the pinned inputs, then the caller's arguments.
 *
 * Without `inputs` (tools that generate and read back their own local test media) each raw `-i`
 * in `args` gets `-protocol_whitelist file` unless it has its own: fails closed to local files.
 */
export function buildFfmpegArgs(args: readonly string[], opts: FfmpegArgsOptions = {}): string[] {
  assertArgs(args);
  const out = ['-hide_banner', '-nostdin', '-nostats'];
  if (opts.progress ?? true) out.push('-progress', 'pipe:1');
  if (!args.includes('-v') && !args.includes('-loglevel')) out.push('-loglevel', opts.logLevel ?? 'warning');
  if ((opts.overwrite ?? true) && !args.includes('-y') && !args.includes('-n')) out.push('-y');
  if (opts.inputs) {
    if (opts.inputs.length === 0) throw new Error('a pinned ffmpeg command needs at least one input');
    const stray = args.find((a) => INPUT_FLAGS.has(a));
    if (stray) throw new Error(`${stray} in args: inputs are given as pinned descriptors only`);
    for (const input of opts.inputs) out.push(...inputArgs(input));
    out.push(...args);
    if (unpinnedInputs(out).length > 0) throw new Error('an ffmpeg input is not pinned');
    return out;
  }
  // Input options apply to the next `-i` only: every raw `-i` gets a whitelist of its own.
  let ownWhitelist = false;
  for (const a of args) {
    if (a === '-protocol_whitelist') ownWhitelist = true;
    if (a === '-i') {
      if (!ownWhitelist) out.push('-protocol_whitelist', whitelistValue(LOCAL_FILE_PROTOCOLS));
      ownWhitelist = false;
    }
    out.push(a);
  }
  return out;
}

/**
 * ffprobe argv printing format + streams as JSON. A plain string is untrusted media (mediaInput:
 * MP4/MOV only, protocols from path or URL).
 */
export function buildFfprobeArgs(input: FfmpegInput | string): string[] {
  const pinned = typeof input === 'string' ? mediaInput(input) : input;
  assertArgs([pinned.url]);
  return ['-hide_banner', '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(pinned)];
}

/**
 * URLs stay as they are; anything else is a local path and gets an explicit `file:` prefix so that a
 * name like `clip:1.mp4` or `-x.mp4` is never read as a protocol or an option. (Outputs, and the raw
 * inputs of local tools; worker inputs are FfmpegInput descriptors.)
 */
export function toFfmpegInput(pathOrUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl) || pathOrUrl.startsWith('file:') || pathOrUrl.startsWith('pipe:')) {
    return pathOrUrl;
  }
  return `file:${pathOrUrl}`;
}

/** Removes query strings (presigned signatures, tokens) from every URL in a text. */
export function redactUrls(text: string): string {
  // The query ends at whitespace/quote/end; a trailing ':' (ffprobe's "<url>: reason") is kept.
  return text.replace(/\b((?:https?|tls|tcp):\/\/[^\s?'"]+)\?[^\s'"]*?(?=:?(?:[\s'"]|$))/gim, '$1?<redacted>');
}
