/** Protocols ffmpeg/ffprobe may open for inputs unless configured otherwise (no `concat:`, `subfile`, `data` ...). */
export const DEFAULT_PROTOCOL_WHITELIST: readonly string[] = ['file', 'http', 'https', 'tcp', 'tls', 'crypto'];

export interface FfmpegArgsOptions {
  /** Added as `-protocol_whitelist` before every `-i` (unless the caller set one for that input). */
  protocolWhitelist?: readonly string[];
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

export function whitelistValue(protocols: readonly string[]): string {
  if (protocols.length === 0) throw new Error('protocol whitelist must not be empty');
  for (const p of protocols) {
    if (!/^[a-z0-9_+-]+$/i.test(p)) throw new Error(`invalid protocol name in whitelist: ${JSON.stringify(p)}`);
  }
  return protocols.join(',');
}

/**
 * Full ffmpeg argv: global flags for machine use (no banner, no stdin, progress as key=value on
 * stdout), then the caller's arguments with `-protocol_whitelist` inserted before each input.
 */
export function buildFfmpegArgs(args: readonly string[], opts: FfmpegArgsOptions = {}): string[] {
  assertArgs(args);
  const whitelist = whitelistValue(opts.protocolWhitelist ?? DEFAULT_PROTOCOL_WHITELIST);
  const out = ['-hide_banner', '-nostdin', '-nostats'];
  if (opts.progress ?? true) out.push('-progress', 'pipe:1');
  if (!args.includes('-v') && !args.includes('-loglevel')) out.push('-loglevel', opts.logLevel ?? 'warning');
  if ((opts.overwrite ?? true) && !args.includes('-y') && !args.includes('-n')) out.push('-y');
  // Input options apply to the next `-i` only: every `-i` gets the whitelist unless the caller gave
  // that input its own (fails closed: no input escapes a whitelist).
  let ownWhitelist = false;
  for (const a of args) {
    if (a === '-protocol_whitelist') ownWhitelist = true;
    if (a === '-i') {
      if (!ownWhitelist) out.push('-protocol_whitelist', whitelist);
      ownWhitelist = false;
    }
    out.push(a);
  }
  return out;
}

export interface FfprobeArgsOptions {
  protocolWhitelist?: readonly string[];
}

/** ffprobe argv printing format + streams as JSON. */
export function buildFfprobeArgs(input: string, opts: FfprobeArgsOptions = {}): string[] {
  assertArgs([input]);
  if (!input) throw new Error('ffprobe input must not be empty');
  return [
    '-hide_banner',
    '-v', 'error',
    '-print_format', 'json',
    '-show_format',
    '-show_streams',
    '-protocol_whitelist', whitelistValue(opts.protocolWhitelist ?? DEFAULT_PROTOCOL_WHITELIST),
    '-i', toFfmpegInput(input),
  ];
}

/**
 * URLs stay as they are; anything else is a local path and gets an explicit `file:` prefix so that a
 * name like `clip:1.mp4` or `-x.mp4` is never read as a protocol or an option.
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
