import { spawn } from 'node:child_process';
import { redactUrls } from './args';
import { FfmpegAbortedError, FfmpegError, FfmpegTimeoutError } from './errors';

export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;

/** Keeps the last `limit` bytes of a stream. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  toString(): string {
    // A cut in the middle of a UTF-8 sequence decodes to U+FFFD; harmless for log text.
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export interface RunProcessOptions {
  binary: string;
  args: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
  onStdout?: (chunk: Buffer) => void;
  /** Collect stdout up to this many bytes (more => FfmpegError). 0 = do not collect. */
  maxStdoutBytes?: number;
  stderrTailBytes?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Niceness added to the caller's (default BACKGROUND_NICENESS; 0 runs at the caller's priority). */
  niceness?: number;
}

/**
 * Media work runs below the services' priority, so a render on the same cores leaves the CPU to
 * requests when they need it (a save waits for a core, not for ffmpeg's time slice).
 */
export const BACKGROUND_NICENESS = 10;

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: Buffer;
  stderrTail: string;
  durationMs: number;
}

/**
 * Spawns a binary with an argument array (never a shell), enforces timeout/abort with SIGKILL and
 * settles after the process has exited. Resolves whatever the exit code; rejects on timeout, abort,
 * spawn failure, stdout overflow or a throwing onStdout.
 */
export function runProcess(opts: RunProcessOptions): Promise<ProcessOutcome> {
  const { binary, args, timeoutMs, signal } = opts;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    return Promise.reject(new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`));
  }
  const started = Date.now();
  const details = (exitCode: number | null, sig: string | null, stderrTail: string): FfmpegError['details'] => ({
    binary,
    args: args.map(redactUrls),
    exitCode,
    signal: sig,
    stderrTail: redactUrls(stderrTail),
    durationMs: Date.now() - started,
  });
  if (signal?.aborted) {
    return Promise.reject(new FfmpegAbortedError(details(null, null, ''), signal.reason));
  }

  return new Promise<ProcessOutcome>((resolve, reject) => {
    const stderr = new TailBuffer(opts.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let failure: { kind: 'timeout' } | { kind: 'abort'; reason: unknown } | { kind: 'error'; error: Error } | null =
      null;

    const niceness = opts.niceness ?? BACKGROUND_NICENESS;
    // coreutils nice sets the niceness before exec, so no thread of the binary starts above it
    const [file, argv] = niceness === 0 ? [binary, [...args]] : ['nice', ['-n', String(niceness), '--', binary, ...args]];
    const child = spawn(file, argv, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const fail = (f: NonNullable<typeof failure>) => {
      if (!failure) failure = f;
      kill();
    };

    const timer = setTimeout(() => fail({ kind: 'timeout' }), timeoutMs);
    const onAbort = () => fail({ kind: 'abort', reason: signal?.reason });
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      if (opts.maxStdoutBytes) {
        stdoutBytes += chunk.length;
        if (stdoutBytes > opts.maxStdoutBytes) {
          fail({ kind: 'error', error: new Error(`stdout exceeded ${opts.maxStdoutBytes} bytes`) });
          return;
        }
        stdout.push(chunk);
      }
      if (opts.onStdout) {
        try {
          opts.onStdout(chunk);
        } catch (err) {
          fail({ kind: 'error', error: err instanceof Error ? err : new Error(String(err)) });
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let spawnError: Error | null = null;
    child.on('error', (err) => {
      // ENOENT / EACCES: 'close' still follows.
      spawnError = err;
    });

    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const tail = stderr.toString();
      const f = failure as typeof failure;
      if (f?.kind === 'timeout') return reject(new FfmpegTimeoutError(timeoutMs, details(code, sig, tail)));
      if (f?.kind === 'abort') return reject(new FfmpegAbortedError(details(code, sig, tail), f.reason));
      if (f?.kind === 'error') {
        return reject(new FfmpegError(`${binary}: ${f.error.message}`, details(code, sig, tail), { cause: f.error }));
      }
      if (spawnError) {
        const e = spawnError as NodeJS.ErrnoException;
        const what = e.code === 'ENOENT' ? `${file} not found (is ${file === 'nice' ? 'coreutils' : 'ffmpeg'} installed and on PATH?)` : e.message;
        return reject(new FfmpegError(`cannot start ${binary}: ${what}`, details(code, sig, tail), { cause: e }));
      }
      if (file === 'nice' && (code === 126 || code === 127) && /^nice: /m.test(tail)) {
        // nice itself could not run the binary: 127 = not found, 126 = not executable
        const what = code === 127 ? `${binary} not found (is ffmpeg installed and on PATH?)` : `${binary} is not executable`;
        return reject(new FfmpegError(`cannot start ${binary}: ${what}`, details(code, sig, tail)));
      }
      resolve({
        exitCode: code,
        signal: sig,
        stdout: Buffer.concat(stdout),
        stderrTail: tail,
        durationMs: Date.now() - started,
      });
    });
  });
}
