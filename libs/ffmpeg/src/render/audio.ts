import { open, stat, type FileHandle } from 'node:fs/promises';
import { toFfmpegInput } from '../args';
import { mediaInput, pcmInput, type FfmpegInput } from '../input';
import { runFfmpeg } from '../run-ffmpeg';
import type { SampleRange } from './plan';

export interface OutputVolumeRange {
  /** Output seconds. */
  start: number;
  end: number;
  /** Linear gain (a mute's is MUTE_VOLUME of its level, @wordcut/contracts). */
  volume: number;
}

export interface PcmFormat {
  sampleRate: number;
  channels: number;
}

/**
 * Decodes the first audio stream to interleaved s16le PCM (the player's timeline: sample 0 = time 0).
 * A plain string input is untrusted media (mediaInput).
 */
export async function decodeToPcm(input: FfmpegInput | string, output: string, fmt: PcmFormat, o: { signal?: AbortSignal; timeoutMs: number }): Promise<void> {
  await runFfmpeg({
    inputs: [typeof input === 'string' ? mediaInput(input) : input],
    // sample 0 plays at time 0: audio that starts late is preceded by silence, not moved earlier
    args: ['-map', '0:a:0', '-vn', '-sn', '-dn', '-af', 'aresample=async=1:first_pts=0', '-ac', String(fmt.channels), '-ar', String(fmt.sampleRate), '-f', 's16le', toFfmpegInput(output)],
    timeoutMs: o.timeoutMs,
    signal: o.signal,
  });
}

const CHUNK_FRAMES = 64 * 1024;

/**
 * Builds the output PCM from sample ranges of the decoded source (in play order; zeros past the
 * end of the source) and applies the mute gains on the output timeline, sample-exactly. Streams
 * in 64k-sample chunks, so memory stays flat whatever the length.
 */
export async function assemblePcm(
  sourcePcm: string,
  output: string,
  ranges: readonly SampleRange[],
  volumes: readonly OutputVolumeRange[],
  fmt: PcmFormat,
  signal?: AbortSignal,
): Promise<number> {
  const frameBytes = 2 * fmt.channels;
  const srcFrames = Math.floor((await stat(sourcePcm)).size / frameBytes);
  const gains = [...volumes]
    .map((v) => ({ start: Math.round(v.start * fmt.sampleRate), end: Math.round(v.end * fmt.sampleRate), volume: v.volume }))
    .filter((v) => v.end > v.start)
    .sort((a, b) => a.start - b.start);
  let src: FileHandle | null = null;
  let dst: FileHandle | null = null;
  let outPos = 0;
  try {
    src = await open(sourcePcm, 'r');
    dst = await open(output, 'w');
    const buf = Buffer.alloc(CHUNK_FRAMES * frameBytes);
    for (const r of ranges) {
      for (let pos = r.start; pos < r.end; ) {
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
        const n = Math.min(CHUNK_FRAMES, r.end - pos);
        buf.fill(0, 0, n * frameBytes);
        const readFrom = Math.max(0, pos);
        const readFrames = Math.max(0, Math.min(pos + n, srcFrames) - readFrom);
        if (readFrames > 0) await src.read(buf, (readFrom - pos) * frameBytes, readFrames * frameBytes, readFrom * frameBytes);
        applyGains(buf, n, outPos, gains, fmt.channels);
        await dst.write(buf, 0, n * frameBytes);
        pos += n;
        outPos += n;
      }
    }
  } finally {
    await src?.close();
    await dst?.close();
  }
  return outPos;
}

function applyGains(buf: Buffer, frames: number, outStart: number, gains: ReadonlyArray<{ start: number; end: number; volume: number }>, channels: number): void {
  const outEnd = outStart + frames;
  for (const g of gains) {
    if (g.end <= outStart) continue;
    if (g.start >= outEnd) break;
    const from = Math.max(g.start, outStart) - outStart;
    const to = Math.min(g.end, outEnd) - outStart;
    for (let f = from; f < to; f++) {
      for (let c = 0; c < channels; c++) {
        const off = (f * channels + c) * 2;
        buf.writeInt16LE(Math.round(buf.readInt16LE(off) * g.volume), off);
      }
    }
  }
}

/** Encodes raw PCM (a file this worker wrote, read as s16le) to AAC in an MP4 audio file. */
export async function encodePcmToAac(
  pcm: string,
  output: string,
  fmt: PcmFormat,
  bitRate: number,
  o: { signal?: AbortSignal; timeoutMs: number; onProgress?: (sec: number) => void },
): Promise<void> {
  await runFfmpeg({
    inputs: [pcmInput(pcm, fmt)],
    args: ['-c:a', 'aac', '-b:a', String(bitRate), '-f', 'mp4', toFfmpegInput(output)],
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    onProgress: o.onProgress ? (p) => p.outTimeSec !== null && o.onProgress!(p.outTimeSec) : undefined,
  });
}
