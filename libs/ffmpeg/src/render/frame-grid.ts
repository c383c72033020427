/** Where each frame of a variable-frame-rate source starts, read once at ingest for cutting on its frames. */
import type { FfmpegInput } from '../input';
import { frameClockOf } from './choose';
import { readRenderMediaInfo, type ReadMediaInfoOptions } from './media-info';

/** The source's frame starts (seconds from its first frame) and the end of its last, or null at a constant rate. */
export async function readFrameGrid(source: FfmpegInput | string, o: ReadMediaInfoOptions = {}): Promise<{ starts: number[]; end: number } | null> {
  const info = await readRenderMediaInfo(source, o);
  const clock = info.video ? frameClockOf(info.video) : null;
  return clock !== null && typeof clock !== 'number' && 'starts' in clock ? { starts: Array.from(clock.starts), end: clock.end } : null;
}
