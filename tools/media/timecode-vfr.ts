/**
 * Timecode media at a variable frame rate, as phones record it: 30 fps for the first third, then
 * 20 fps, every frame's time jittered by ±1.5 ms, and one frame dropped (its number never shown).
 * Each shown frame carries its number; a tone burst starts at the time of every frame whose number
 * is a multiple of 5 (the same layout as the constant-rate generator).
 */
import { runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timecodePattern } from './timecode-generate';
import { BURST_AMPLITUDE, BURST_DURATION_SEC, BURST_EVERY_FRAMES, BURST_FREQUENCY_HZ, TIMECODE_BITS, withTempDir } from './timecode-layout';

/** Ticks per second of the generated video track. */
export const VFR_TIMESCALE = 90_000;
const FAST = 3000; // 1/30 s
const SLOW = 4500; // 1/20 s
const JITTER = 135; // 1.5 ms

export interface VfrTimeline {
  /** The number each frame shows, display order. */
  numbers: number[];
  /** Each frame's start in VFR_TIMESCALE ticks (the first at 0), display order. */
  ticks: number[];
  /** Where the last frame ends (ticks). */
  endTicks: number;
  /** The number that is never shown (the dropped frame). */
  dropped: number;
  /** Numbers below this are 30 fps, the rest 20 fps. */
  fastUntil: number;
}

/** The frames of `durationSec` of VFR media: which numbers, and when. */
export function vfrTimeline(durationSec: number): VfrTimeline {
  const fastUntil = Math.round((durationSec / 3) * 30);
  const dropped = fastUntil + 7;
  const at = (m: number) => (m < fastUntil ? m * FAST : fastUntil * FAST + (m - fastUntil) * SLOW) + (m > 0 ? JITTER * ((m % 3) - 1) : 0);
  const numbers: number[] = [];
  const ticks: number[] = [];
  for (let m = 0; at(m) < durationSec * VFR_TIMESCALE; m++) {
    if (m === dropped) continue;
    numbers.push(m);
    ticks.push(at(m));
  }
  const last = numbers[numbers.length - 1]!;
  return { numbers, ticks, endTicks: at(last + 1), dropped, fastUntil };
}

/** The same as a setpts expression over the input frame count N (ticks of 1/VFR_TIMESCALE). */
function setptsExpr(t: VfrTimeline): string {
  // M: the number shown by input frame N (the dropped one skipped)
  const m = `(N+gte(N,${t.dropped}))`;
  const fast = t.fastUntil;
  return `if(lt(${m},${fast}),${m}*${FAST},${fast * FAST}+(${m}-${fast})*${SLOW})+gt(${m},0)*${JITTER}*(mod(${m},3)-1)`;
}

/** Stereo f32 PCM with a burst at the time of every frame numbered a multiple of 5, written a minute at a time. */
async function writeBurstPcm(path: string, t: VfrTimeline, rate: number): Promise<void> {
  const samples = Math.ceil((t.endTicks / VFR_TIMESCALE) * rate);
  const burst = Math.round(BURST_DURATION_SEC * rate);
  const starts = t.numbers.flatMap((n, i) => (n % BURST_EVERY_FRAMES === 0 ? [Math.ceil((t.ticks[i]! / VFR_TIMESCALE) * rate)] : []));
  const chunk = 60 * rate;
  const out = await open(path, 'w');
  try {
    let next = 0;
    for (let from = 0; from < samples; from += chunk) {
      const n = Math.min(chunk, samples - from);
      const pcm = new Float32Array(n * 2);
      while (next > 0 && starts[next - 1]! + burst > from) next--;
      for (let b = next; b < starts.length && starts[b]! < from + n; b++) {
        for (let s = Math.max(0, from - starts[b]!); s < burst && starts[b]! + s < from + n; s++) {
          const v = BURST_AMPLITUDE * Math.sin((2 * Math.PI * BURST_FREQUENCY_HZ * s) / rate);
          pcm[(starts[b]! + s - from) * 2] = v;
          pcm[(starts[b]! + s - from) * 2 + 1] = v;
        }
        next = b + 1;
      }
      await out.write(Buffer.from(pcm.buffer));
    }
  } finally {
    await out.close();
  }
}

export interface VfrMediaOptions {
  durationSec: number;
  /** Keyframe interval in frames. Default 30. */
  gopFrames?: number;
  sampleRate?: number;
  width?: number;
  height?: number;
}

/** Writes VFR timecode media (H.264 + AAC in MP4) to `outPath`; returns its timeline. */
export async function generateVfrTimecodeMedia(outPath: string, o: VfrMediaOptions): Promise<VfrTimeline> {
  const t = vfrTimeline(o.durationSec);
  if (t.numbers[t.numbers.length - 1]! >= 2 ** TIMECODE_BITS) throw new Error('too many frames for the timecode');
  const rate = o.sampleRate ?? 48_000;
  const gop = o.gopFrames ?? 30;
  await withTempDir(async (dir) => {
    const frameBytes = TIMECODE_BITS * 3;
    const all = timecodePattern(t.numbers[t.numbers.length - 1]! + 1);
    const pattern = Buffer.concat([all.subarray(0, t.dropped * frameBytes), all.subarray((t.dropped + 1) * frameBytes)]);
    const patternFile = join(dir, 'pattern.yuv');
    const pcmFile = join(dir, 'audio.f32');
    await writeFile(patternFile, pattern.subarray(0, t.numbers.length * frameBytes));
    await writeBurstPcm(pcmFile, t, rate);
    await runFfmpeg({
      timeoutMs: 60_000 + o.durationSec * 2_000,
      args: [
        '-f', 'rawvideo', '-pixel_format', 'yuv420p', '-video_size', `${TIMECODE_BITS}x2`, '-framerate', '30', '-i', toFfmpegInput(patternFile),
        '-f', 'f32le', '-ar', String(rate), '-ac', '2', '-i', toFfmpegInput(pcmFile),
        '-map', '0:v', '-vf', `scale=${o.width ?? 320}:${o.height ?? 180}:flags=neighbor,setsar=1,settb=1/${VFR_TIMESCALE},setpts='${setptsExpr(t)}'`,
        '-c:v', 'libx264', '-preset', 'veryfast', '-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0', '-pix_fmt', 'yuv420p',
        '-fps_mode', 'passthrough', '-enc_time_base', `1/${VFR_TIMESCALE}`, '-video_track_timescale', String(VFR_TIMESCALE),
        '-map', '1:a', '-c:a', 'aac', '-b:a', '128k',
        '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(outPath),
      ],
    });
  });
  return t;
}
