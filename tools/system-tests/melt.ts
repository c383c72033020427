/**
 * Renders an MLT XML project with MLT's own command-line player, melt (Debian's `melt`), to a file
 * whose frames keep their bits: lossless FFV1 in Matroska, PCM audio, every frame rendered (no
 * frame dropping), no display needed.
 */
import { execFile } from 'node:child_process';
import { isAbsolute } from 'node:path';

export interface MeltRenderOptions {
  /** Default true: PCM audio beside the video; false renders video only. */
  audio?: boolean;
  /** Default 120 s. */
  timeoutMs?: number;
}

/** The melt command line that renders `project` to `output` (a .mkv path, absolute). */
export function meltArgs(project: string, output: string, options: MeltRenderOptions = {}): string[] {
  if (!isAbsolute(project) || !isAbsolute(output)) throw new Error('melt wants absolute paths (the project resolves its media beside itself)');
  return [
    project,
    // the avformat consumer writes a file; its target follows the colon
    '-consumer', `avformat:${output}`,
    // real_time < 0: processing threads without frame dropping
    'real_time=-1',
    'f=matroska', 'vcodec=ffv1', 'pix_fmt=yuv420p',
    ...(options.audio === false ? ['an=1'] : ['acodec=pcm_s16le']),
  ];
}

/**
 * Runs melt on `project`, writing `output`; rejects with melt's stderr when it fails, times out, or
 * cannot load a producer (melt then renders blank frames and still exits 0).
 */
export function renderWithMelt(project: string, output: string, options: MeltRenderOptions = {}): Promise<void> {
  const args = meltArgs(project, output, options);
  return new Promise((resolve, reject) => {
    execFile('melt', args, { timeout: options.timeoutMs ?? 120_000, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (err, _stdout, stderr) => {
      const why = err?.message ?? /failed to load producer[^\n]*/i.exec(stderr)?.[0];
      if (why) reject(new Error(`melt ${args.join(' ')} failed (${why}): ${stderr.slice(-2000)}`));
      else resolve();
    });
  });
}

/** Whether melt is installed (tools/scripts/setup.sh --tests installs it). */
export function meltInstalled(): Promise<boolean> {
  return new Promise((resolve) => execFile('melt', ['-version'], { timeout: 10_000 }, (err) => resolve(!err)));
}
