/**
 * The timecode's layout, which the generator and every verifier must agree on (bits per frame, the
 * burst rhythm, the grid frames are read at, the analysis rate), and their small helpers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bits of the frame index drawn per frame: indices wrap after 65536 frames (36 min at 30 fps). */
export const TIMECODE_BITS = 16;
/** A tone burst starts at every frame whose index is a multiple of this. */
export const BURST_EVERY_FRAMES = 5;
export const BURST_FREQUENCY_HZ = 1000;
export const BURST_DURATION_SEC = 0.01;
export const BURST_AMPLITUDE = 0.8;
/** The layout the verifier scales every frame to before reading the blocks (the generator's default size). */
export const TIMECODE_LAYOUT = { width: 320, height: 180 } as const;
/** Audio is analysed as mono 16-bit at this rate, whatever the file carries. */
export const ANALYSIS_SAMPLE_RATE = 48_000;

/** Formats a number for a filter expression without exponent notation. */
export function num(x: number): string {
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(12) : s;
}

/** Runs `fn` with a fresh temp dir that is removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'wordcut-timecode-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
