/**
 * The audio track of a render: the source's AAC packets copied by range, with the packets around
 * gains re-encoded and spliced in (audio-splice.ts), or, where that cannot hold, the source decoded
 * once, cut at exact sample positions, gains applied and encoded once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toFfmpegInput } from '../args';
import { mediaInput, workFileInput, type FfmpegInput } from '../input';
import { runFfmpeg } from '../run-ffmpeg';
import { assemblePcm, decodeToPcm, encodePcmToAac, type OutputVolumeRange } from './audio';
import { adtsFrameOffsets, spliceGains, SPLICE_MIN_SNR_DB } from './audio-splice';
import type { RenderMediaInfo } from './media-info';
import { frameRangesToPacketPlan, frameRangesToSampleRanges, type FrameClock, type FrameRange } from './plan';
import type { RenderRequest, RenderResult } from './types';

/** Default bit rate for re-encoded AAC when the source's is unknown. */
const DEFAULT_AUDIO_BITRATE = 128_000;

export interface AudioRequest {
  req: RenderRequest;
  info: RenderMediaInfo;
  clock: FrameClock;
  ranges: readonly FrameRange[];
  volumes: readonly OutputVolumeRange[];
  mode: RenderResult['audio'];
  timeoutMs: number;
  /** where the source's extracted ADTS is cached (null: not cached) */
  adtsCacheKey: string | null;
}

export interface MadeAudio {
  /** the input that reads the audio back; null without audio */
  input: FfmpegInput | null;
  /** re-encoded audio: the MP4 it was written to */
  file?: string;
  mode: RenderResult['audio'];
  fallbackReason: string | null;
  splice?: { regions: number; replacedPackets: number; snrDb: number };
  /**
   * Copied and spliced audio, packet by packet in play order, as raw AAC (no ADTS header): a
   * source packet kept as it is (with its index), or a re-encoded one.
   */
  packets?: Array<{ source: number; bytes: Buffer } | Buffer>;
  /** Copied and spliced audio: seconds of silence before its first packet (the source's late start). */
  startSec?: number;
}

/** The AAC payload of one ADTS frame (its header is 7 bytes, 9 with a CRC). */
export const adtsPayload = (frame: Buffer): Buffer => frame.subarray(frame[1]! & 1 ? 7 : 9);

/**
 * The audio for the smart and copy-video paths: ADTS frames copied by packet ranges (stream copy),
 * with gains spliced in around their spans (audio-splice.ts), or an AAC-in-MP4 file made from
 * exact sample ranges with the gains applied.
 */
export async function makeAudio(o: AudioRequest, fallbackReason: string | null = null): Promise<MadeAudio> {
  const { req, info, clock, ranges, volumes, mode, timeoutMs } = o;
  const reencode = (why: string | null = null) => makeAudio({ ...o, mode: 'reencoded' }, why);
  const a = info.audio;
  if (!a || mode === 'none') return { input: null, mode: 'none', fallbackReason: null };
  if (mode === 'copy-packets' || mode === 'spliced') {
    // AAC frames are copied as they are: the audio goes out as ADTS (every frame self-delimited),
    // the frames of each range are picked by index and written back to back, and the final mux
    // times them by count (1024 samples each), so the output audio is exactly contiguous.
    const adts = join(req.workDir, 'audio-source.aac');
    const adtsKey = o.adtsCacheKey;
    if (!(adtsKey && (await req.cache!.store.take(adtsKey, adts)))) {
      await runFfmpeg({
        inputs: [mediaInput(req.input)],
        args: ['-map', '0:a:0', '-vn', '-c', 'copy', '-f', 'adts', toFfmpegInput(adts)],
        timeoutMs,
        signal: req.signal,
      });
      if (adtsKey) await req.cache!.store.put(adtsKey, adts);
    }
    const bytes = await readFile(adts);
    const frames = adtsFrameOffsets(bytes);
    const tb = a.timeBase.num / a.timeBase.den;
    const v = info.video!;
    // Packet times on the video's timeline (frame 0 at 0).
    const videoStart = v.framePts[0]! * (v.timeBase.num / v.timeBase.den);
    const starts = a.packetPts.map((p) => p * tb - videoStart);
    const packetSec = a.packetTicks! * tb;
    const { startSec, ranges: packetRanges, wantedPackets } = frameRangesToPacketPlan(ranges, clock, starts, packetSec);
    const got = packetRanges.reduce((n, r) => n + r.count, 0);
    if (frames === null || frames.length !== starts.length || got < wantedPackets - 1) {
      // Unexpected framing, or the audio ends before the video: re-encode instead of drifting.
      return reencode();
    }
    let parts: Buffer[] = [];
    const indices: number[] = [];
    for (const r of packetRanges) {
      for (let i = r.first; i < r.first + r.count; i++) {
        parts.push(bytes.subarray(frames[i]!.offset, frames[i]!.offset + frames[i]!.length));
        indices.push(i);
      }
    }
    const copied = parts;
    let splice: MadeAudio['splice'];
    if (mode === 'spliced') {
      const refused = spliceRefusal(bytes, a);
      if (refused) return reencode(refused);
      const s = await spliceGains({
        packets: parts,
        sampleRate: a.sampleRate,
        channels: a.channels,
        bitRate: a.bitRate ?? DEFAULT_AUDIO_BITRATE,
        // gains are placed on the packets' own timeline, which starts `startSec` into the output
        volumes: volumes.map((v) => ({ ...v, start: v.start - startSec, end: v.end - startSec })),
        workDir: req.workDir,
        timeoutMs,
        signal: req.signal,
      });
      if (s.snrDb < SPLICE_MIN_SNR_DB) {
        const why = `the spliced audio measured ${s.snrDb.toFixed(1)} dB against the source outside the mutes (under ${SPLICE_MIN_SNR_DB} dB)`;
        return reencode(why);
      }
      parts = s.packets;
      splice = { regions: s.regions, replacedPackets: s.replaced, snrDb: Math.round(s.snrDb * 10) / 10 };
    }
    const out = join(req.workDir, 'audio-out.aac');
    await writeFile(out, Buffer.concat(parts));
    const packets = parts.map((p, k) => (p === copied[k] ? { source: indices[k]!, bytes: adtsPayload(p) } : adtsPayload(p)));
    return { input: workFileInput(out, 'aac'), mode, fallbackReason: null, packets, startSec, ...(splice ? { splice } : {}) };
  }
  const { path: assembled, fmt } = await assembledPcm(req, a, clock, ranges, volumes, timeoutMs);
  const out = join(req.workDir, 'audio-out.m4a');
  await encodePcmToAac(assembled, out, fmt, a.bitRate ?? DEFAULT_AUDIO_BITRATE, { signal: req.signal, timeoutMs });
  return { input: workFileInput(out, 'mov'), file: out, mode: 'reencoded', fallbackReason };
}

/**
 * Why gains cannot be spliced into this AAC stream, or null: the encoder here writes AAC-LC, mono
 * or stereo, so the source must be that too (its ADTS header says).
 */
function spliceRefusal(adts: Buffer, a: NonNullable<RenderMediaInfo['audio']>): string | null {
  if (adts.length < 7) return 'the audio stream is empty';
  const profile = (adts[2]! >> 6) & 3;
  if (profile !== 1) return 'the audio is not AAC-LC';
  if (a.channels < 1 || a.channels > 2) return `the audio has ${a.channels} channels`;
  return null;
}

/** The output audio as raw PCM: the source decoded once, cut at exact sample positions, gains applied. */
async function assembledPcm(
  req: RenderRequest,
  a: NonNullable<RenderMediaInfo['audio']>,
  clock: FrameClock,
  ranges: readonly FrameRange[],
  volumes: readonly OutputVolumeRange[],
  timeoutMs: number,
): Promise<{ path: string; fmt: { sampleRate: number; channels: number } }> {
  const fmt = { sampleRate: a.sampleRate, channels: Math.min(2, Math.max(1, a.channels)) };
  const pcm = join(req.workDir, 'audio-source.pcm');
  const path = join(req.workDir, 'audio-out.pcm');
  await decodeToPcm(mediaInput(req.input), pcm, fmt, { signal: req.signal, timeoutMs });
  await assemblePcm(pcm, path, frameRangesToSampleRanges(ranges, clock, fmt.sampleRate), volumes, fmt, req.signal);
  return { path, fmt };
}
