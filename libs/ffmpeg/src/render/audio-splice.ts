/**
 * Gains (mutes) on stream-copied AAC without re-encoding the whole audio: only the packets around
 * each gain span are decoded, changed and encoded again; every other packet stays the source's.
 *
 * Packet j of a stream decodes (with packet j-1 before it) to block j: 1024 samples. A region of
 * packets [a, b) around a span is decoded from `PREROLL` packets earlier (the first decoded block has
 * no predecessor and is dropped), the gains are applied at their output samples, and the blocks are
 * encoded again. The encoder delays its input by one block, so its packet k carries input block k-1:
 * encoder packets replace packets a..b-1 one for one. The region reaches `MARGIN` packets beyond
 * the span on both sides, so the two junctions (an old packet beside a new one) fall where both
 * encode the same unchanged sound and their overlap adds back to it, up to coding noise.
 *
 * The result is measured: the spliced stream is decoded again over every region and compared with
 * the source's decode outside the spans (packets outside the regions are the source's bytes). The
 * caller falls back to a full audio encode when the signal-to-noise ratio there is under the
 * threshold.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toFfmpegInput } from '../args';
import { pcmInput, workFileInput } from '../input';
import { runFfmpeg } from '../run-ffmpeg';
import type { OutputVolumeRange } from './audio';

/** Samples per AAC-LC packet. */
export const AAC_BLOCK = 1024;
/**
 * Least signal-to-noise ratio (dB) of the spliced audio against the source's decode, outside the
 * gains, for a splice to be used (ADR 0020).
 */
export const SPLICE_MIN_SNR_DB = 20;
/** Packets decoded before a region only to prime the decoder (the first of them is dropped). */
const PREROLL = 2;
/** Unchanged packets re-encoded on each side of a span, so junctions fall in unchanged sound. */
const MARGIN = 3;

export interface SpliceRegion {
  /** first replaced packet */
  a: number;
  /** end (exclusive) */
  b: number;
}

/**
 * The packet regions to re-encode for gains on the output timeline (seconds), merged when close:
 * each span's packets plus MARGIN on both sides, within [0, packetCount).
 */
export function spliceRegions(volumes: readonly OutputVolumeRange[], sampleRate: number, packetCount: number): SpliceRegion[] {
  const raw = volumes
    .filter((v) => v.end > v.start && v.volume !== 1)
    .map((v) => ({
      a: Math.max(0, Math.floor((v.start * sampleRate) / AAC_BLOCK) - MARGIN),
      b: Math.min(packetCount, Math.ceil((v.end * sampleRate) / AAC_BLOCK) + MARGIN),
    }))
    .filter((r) => r.b > r.a)
    .sort((x, y) => x.a - y.a);
  const out: SpliceRegion[] = [];
  for (const r of raw) {
    const last = out[out.length - 1];
    // closer than the priming a new region would need: one region
    if (last && r.a <= last.b + PREROLL + 1) last.b = Math.max(last.b, r.b);
    else out.push({ ...r });
  }
  return out;
}

/** Where a region's decode starts, and the first block of that decode that is exact. */
function decodeWindow(r: SpliceRegion, packetCount: number): { from: number; to: number; firstExact: number } {
  const from = Math.max(0, r.a - PREROLL);
  // from packet 0 the decode is the stream's own: nothing to drop
  const firstExact = from === 0 ? 0 : from + 1;
  return { from, to: Math.min(packetCount, r.b + 2), firstExact };
}

export interface SpliceOutcome {
  packets: Buffer[];
  regions: number;
  /** packets replaced by re-encoded ones */
  replaced: number;
  /** decoded spliced audio vs the source's decode, outside the gain spans, over every region (dB) */
  snrDb: number;
}

export interface SpliceOptions {
  packets: readonly Buffer[];
  sampleRate: number;
  channels: number;
  bitRate: number;
  volumes: readonly OutputVolumeRange[];
  workDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Applies gains to an ADTS packet list by re-encoding only the regions around them. */
export async function spliceGains(o: SpliceOptions): Promise<SpliceOutcome> {
  const n = o.packets.length;
  const fmt = { sampleRate: o.sampleRate, channels: o.channels };
  const frameBytes = 2 * o.channels;
  const blockBytes = AAC_BLOCK * frameBytes;
  const regions = spliceRegions(o.volumes, o.sampleRate, n);
  if (regions.length === 0) return { packets: [...o.packets], regions: 0, replaced: 0, snrDb: Infinity };
  const windows = regions.map((r) => decodeWindow(r, n));

  // 1. every region's window decoded in one run (each window's first block only primes)
  const before = await decodeWindows(o, o.packets, windows, 'before');

  // 2. the exact blocks of each window with the gains applied, encoded in one run
  const gains = o.volumes
    .filter((v) => v.end > v.start && v.volume !== 1)
    .map((v) => ({ start: Math.round(v.start * o.sampleRate), end: Math.round(v.end * o.sampleRate), volume: v.volume }));
  const inputs: Buffer[] = [];
  const inputStart: number[] = [];
  let inputBlocks = 0;
  windows.forEach((w, i) => {
    const exact = before[i]!.subarray((w.firstExact - w.from) * blockBytes);
    const gained = Buffer.from(exact);
    const firstSample = w.firstExact * AAC_BLOCK;
    for (const g of gains) {
      const from = Math.max(g.start, firstSample);
      const to = Math.min(g.end, firstSample + gained.length / frameBytes);
      for (let s = from; s < to; s++) {
        for (let c = 0; c < o.channels; c++) {
          const off = ((s - firstSample) * o.channels + c) * 2;
          gained.writeInt16LE(Math.round(gained.readInt16LE(off) * g.volume), off);
        }
      }
    }
    inputStart.push(inputBlocks);
    inputBlocks += gained.length / blockBytes;
    inputs.push(gained);
  });
  const pcm = join(o.workDir, 'splice-in.pcm');
  const encoded = join(o.workDir, 'splice-out.aac');
  await writeFile(pcm, Buffer.concat(inputs));
  await runFfmpeg({
    inputs: [pcmInput(pcm, fmt)],
    args: ['-c:a', 'aac', '-b:a', String(o.bitRate), '-f', 'adts', toFfmpegInput(encoded)],
    timeoutMs: o.timeoutMs,
    signal: o.signal,
  });
  const newBytes = await readFile(encoded);
  const frames = adtsFrameOffsets(newBytes);
  if (!frames) throw new Error('the audio encoder wrote no ADTS stream');

  // 3. encoder packet k carries input block k-1: packet j of region r takes encoder packet
  //    (inputStart[r] + j - firstExact + 1)
  const packets = [...o.packets];
  let replaced = 0;
  regions.forEach((r, i) => {
    const w = windows[i]!;
    for (let j = r.a; j < r.b; j++) {
      const k = inputStart[i]! + (j - w.firstExact) + 1;
      const f = frames[k];
      if (!f) throw new Error(`the audio encoder wrote ${frames.length} packets, fewer than the splice needs`);
      packets[j] = newBytes.subarray(f.offset, f.offset + f.length);
      replaced++;
    }
  });

  // 4. the measure: the same windows decoded from the spliced stream, against the source's decode
  const after = await decodeWindows(o, packets, windows, 'after');
  let signal = 0;
  let noise = 0;
  windows.forEach((w, i) => {
    const ref = before[i]!;
    const got = after[i]!;
    const skip = (w.firstExact - w.from) * AAC_BLOCK;
    const frames = Math.min(ref.length, got.length) / frameBytes;
    for (let f = skip; f < frames; f++) {
      const sample = w.from * AAC_BLOCK + f;
      if (gains.some((g) => sample >= g.start && sample < g.end)) continue;
      for (let c = 0; c < o.channels; c++) {
        const off = (f * o.channels + c) * 2;
        const x = ref.readInt16LE(off);
        const d = got.readInt16LE(off) - x;
        signal += x * x;
        noise += d * d;
      }
    }
  });
  const snrDb = noise === 0 ? Infinity : 10 * Math.log10(Math.max(signal, 1) / noise);
  return { packets, regions: regions.length, replaced, snrDb };
}

/** Decodes each window's packets (back to back in one ADTS stream) to s16le, one buffer per window. */
async function decodeWindows(
  o: SpliceOptions,
  packets: readonly Buffer[],
  windows: ReadonlyArray<{ from: number; to: number }>,
  name: string,
): Promise<Buffer[]> {
  const adts = join(o.workDir, `splice-${name}.aac`);
  const pcm = join(o.workDir, `splice-${name}.pcm`);
  await writeFile(adts, Buffer.concat(windows.flatMap((w) => packets.slice(w.from, w.to))));
  await runFfmpeg({
    inputs: [workFileInput(adts, 'aac')],
    args: ['-ac', String(o.channels), '-ar', String(o.sampleRate), '-f', 's16le', toFfmpegInput(pcm)],
    timeoutMs: o.timeoutMs,
    signal: o.signal,
  });
  const all = await readFile(pcm);
  const blockBytes = AAC_BLOCK * 2 * o.channels;
  const out: Buffer[] = [];
  let at = 0;
  for (const w of windows) {
    const bytes = (w.to - w.from) * blockBytes;
    out.push(all.subarray(at, at + bytes));
    at += bytes;
  }
  if (at !== all.length) throw new Error(`decoding ${windows.length} audio regions gave ${all.length} bytes, not ${at}`);
  return out;
}

/** Offsets and lengths of the frames of an ADTS stream, or null when it is not one. */
export function adtsFrameOffsets(b: Buffer): Array<{ offset: number; length: number }> | null {
  const out: Array<{ offset: number; length: number }> = [];
  let i = 0;
  while (i + 7 <= b.length) {
    if (b[i] !== 0xff || (b[i + 1]! & 0xf6) !== 0xf0) return null;
    const length = ((b[i + 3]! & 0x03) << 11) | (b[i + 4]! << 3) | (b[i + 5]! >> 5);
    if (length < 7 || i + length > b.length) return null;
    out.push({ offset: i, length });
    i += length;
  }
  return i === b.length ? out : null;
}
