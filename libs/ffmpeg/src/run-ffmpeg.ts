import { buildFfmpegArgs, redactUrls } from './args';
import { FfmpegError } from './errors';
import type { FfmpegInput } from './input';
import { DEFAULT_STDERR_TAIL_BYTES, runProcess } from './process';
import { ProgressParser, type FfmpegProgress } from './progress';

export interface RunFfmpegOptions {
  /**
   * The inputs, each with its pinned demuxer, format and protocol whitelists (input.ts). Every
   * worker command passes them; `args` then holds no `-i`.
   */
  inputs?: readonly FfmpegInput[];
  /**
   * Everything after the inputs: filters, output options, outputs. stdout carries `-progress`, so
   * outputs are files or URLs (or `-f null -`), never `pipe:1`. Without `inputs` (tools that
   * generate and read back local test media) raw `-i`s here are limited to the `file` protocol.
   */
  args: readonly string[];
  /** Hard limit; the process is SIGKILLed after it (FfmpegTimeoutError). */
  timeoutMs: number;
  /** Aborting SIGKILLs the process (FfmpegAbortedError). */
  signal?: AbortSignal;
  /** One call per -progress block (about twice a second and once at the end). */
  onProgress?: (progress: FfmpegProgress) => void;
  /** Expected output duration, for `percent`. */
  durationSec?: number | null;
  /** Default `ffmpeg` (PATH). */
  binary?: string;
  /** Default `warning`. */
  logLevel?: string;
  /** Add `-y`. Default true. */
  overwrite?: boolean;
  /** Bytes of stderr kept for error messages. Default 64 KiB. */
  stderrTailBytes?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunFfmpegResult {
  exitCode: number;
  durationMs: number;
  stderrTail: string;
}

/** Last non-empty lines of a stderr tail, for one-line error messages. */
export function lastLines(text: string, n = 3): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-n)
    .join(' | ');
}

/** Runs ffmpeg with machine-friendly global flags, progress parsing, timeout and abort. */
export async function runFfmpeg(opts: RunFfmpegOptions): Promise<RunFfmpegResult> {
  const binary = opts.binary ?? 'ffmpeg';
  const args = buildFfmpegArgs(opts.args, {
    inputs: opts.inputs,
    logLevel: opts.logLevel,
    overwrite: opts.overwrite,
  });
  const parser = opts.onProgress ? new ProgressParser(opts.onProgress, opts.durationSec) : null;
  const outcome = await runProcess({
    binary,
    args,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    onStdout: parser ? (chunk) => parser.push(chunk) : undefined,
    stderrTailBytes: opts.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES,
    cwd: opts.cwd,
    env: opts.env,
  });
  if (outcome.exitCode !== 0) {
    const tail = redactUrls(outcome.stderrTail);
    const how = outcome.exitCode === null ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
    throw new FfmpegError(`${binary} ${how}: ${lastLines(tail) || '(no stderr)'}`, {
      binary,
      args: args.map(redactUrls),
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      stderrTail: tail,
      durationMs: outcome.durationMs,
    });
  }
  return { exitCode: 0, durationMs: outcome.durationMs, stderrTail: outcome.stderrTail };
}
