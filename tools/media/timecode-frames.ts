/** Reads back the frame index every decoded frame of a timecode render shows. */
import { runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { TIMECODE_BITS, TIMECODE_LAYOUT, withTempDir } from './timecode-layout';

export interface ReadFramesOptions {
  /** The grid every frame is scaled to (nearest-neighbour) before reading. Default TIMECODE_LAYOUT. */
  width?: number;
  height?: number;
  timeoutMs?: number;
  /** Read pictures as stored, not turned by the track's display matrix (a rotated source). */
  asStored?: boolean;
}

/**
 * Decoded frame index of every displayed frame of the first video stream, in display order.
 * Each frame is scaled to the layout grid (so renders at any size can be read, as long as the
 * picture is the full frame: no crop, no letterbox), and each block is read as the mean luma of a
 * patch around its centre, thresholded at 128.
 */
export async function readFrameNumbers(path: string, options: ReadFramesOptions = {}): Promise<number[]> {
  const width = options.width ?? TIMECODE_LAYOUT.width;
  const height = options.height ?? TIMECODE_LAYOUT.height;
  if (width < TIMECODE_BITS * 4 || height < 12) throw new Error(`layout ${width}x${height} is too small to read`);
  // Only a band through the middle of the top half is read: 1/6 .. 2/6 of the height.
  const bandTop = Math.floor(height / 6);
  const bandRows = Math.max(1, Math.floor(height / 6));
  return withTempDir(async (dir) => {
    const raw = join(dir, 'frames.gray');
    await runFfmpeg({
      timeoutMs: options.timeoutMs ?? 600_000,
      args: [
        ...(options.asStored ? ['-noautorotate'] : []),
        '-i', toFfmpegInput(path),
        '-map', '0:v:0', '-an', '-sn', '-dn',
        // One output frame per decoded frame: no duplication or dropping by the muxer's frame rate.
        '-fps_mode', 'passthrough',
        '-vf', `scale=${width}:${height}:flags=neighbor,format=gray,crop=${width}:${bandRows}:0:${bandTop}`,
        '-f', 'rawvideo', '-pix_fmt', 'gray', toFfmpegInput(raw),
      ],
    });
    return readBands(raw, width, bandRows);
  });
}

/** Reads the raw band file frame by frame (a long render would not fit one Buffer comfortably). */
async function readBands(raw: string, width: number, rows: number): Promise<number[]> {
  const frameBytes = width * rows;
  const blockW = width / TIMECODE_BITS;
  // Middle 40 % of each block: clear of the ringing next to block edges.
  const xs = Array.from({ length: TIMECODE_BITS }, (_, b) => [Math.ceil(blockW * (b + 0.3)), Math.floor(blockW * (b + 0.7))] as const);
  const out: number[] = [];
  const file = await open(raw, 'r');
  try {
    const chunk = Buffer.alloc(frameBytes * Math.max(1, Math.floor((4 << 20) / frameBytes)));
    let filled = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, filled, chunk.length - filled);
      filled += bytesRead;
      const whole = Math.floor(filled / frameBytes);
      for (let f = 0; f < whole; f++) out.push(decodeBand(chunk, f * frameBytes, width, rows, xs));
      chunk.copy(chunk, 0, whole * frameBytes, filled);
      filled -= whole * frameBytes;
      if (bytesRead === 0) break;
    }
    if (filled !== 0) throw new Error(`raw frame file ends with a partial frame (${filled} of ${frameBytes} bytes)`);
  } finally {
    await file.close();
  }
  return out;
}

function decodeBand(buf: Buffer, offset: number, width: number, rows: number, xs: ReadonlyArray<readonly [number, number]>): number {
  let n = 0;
  xs.forEach(([x0, x1], bit) => {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < rows; y++) {
      const row = offset + y * width;
      for (let x = x0; x <= x1; x++) {
        sum += buf[row + x]!;
        count++;
      }
    }
    if (sum / count >= 128) n |= 1 << bit;
  });
  return n;
}
