/**
 * The timecode media generator: frame N shows N as 16 binary blocks, the audio a tone burst every 5th
 * frame (layout in timecode-layout.ts).
 */
import { runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { z } from 'zod';
import { BURST_AMPLITUDE, BURST_DURATION_SEC, BURST_EVERY_FRAMES, BURST_FREQUENCY_HZ, num, TIMECODE_BITS, withTempDir } from './timecode-layout';

const generateOptionsSchema = z.object({
  durationSec: z.number().positive().finite(),
  fps: z.number().positive().max(240).default(30),
  frameRate: z.string().regex(/^\d{1,6}\/\d{1,6}$/).optional(),
  width: z.number().int().min(TIMECODE_BITS * 2).max(7680).default(320),
  height: z.number().int().min(16).max(4320).default(180),
  gopFrames: z.number().int().positive().default(60),
  codec: z.enum(['h264', 'hevc', 'vp9']).default('h264'),
  audioCodec: z.enum(['aac', 'opus']).default('aac'),
  bFrames: z.boolean().default(true),
  openGop: z.boolean().default(false),
  rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
  hdr: z.enum(['none', 'hlg']).default('none'),
  audio: z.boolean().default(true),
  sampleRate: z.number().int().min(8000).max(192_000).default(48_000),
  channels: z.union([z.literal(1), z.literal(2)]).default(2),
  audioDelaySec: z.number().min(0).max(10).default(0),
  container: z.enum(['mp4', 'mov', 'mkv', 'webm']).optional(),
  noise: z.number().min(0).max(40).default(0),
  timeoutMs: z.number().int().positive().optional(),
});

export interface TimecodeMediaOptions {
  durationSec: number;
  /** Default 30. */
  fps?: number;
  /** The rate as a fraction ('30000/1001'); overrides `fps`. */
  frameRate?: string;
  /** Default 320 (even numbers only: yuv420p). */
  width?: number;
  /** Default 180. */
  height?: number;
  /** Keyframe interval in frames (fixed, no scene-cut keyframes). Default 60. */
  gopFrames?: number;
  /** Default h264 (libx264); hevc uses libx265 (tagged hvc1 in mp4); vp9 libvpx-vp9 (for WebM). */
  codec?: 'h264' | 'hevc' | 'vp9';
  /** Default aac; opus as OBS and browsers record it (MKV, WebM). */
  audioCodec?: 'aac' | 'opus';
  /** Default true (the encoder's default B-frames); false disables B-frames. */
  bFrames?: boolean;
  /** Default false: closed GOPs (x265's own default is open GOPs, which the smart render refuses). */
  openGop?: boolean;
  /** Clockwise display rotation written as the track's matrix (a phone held upright: 90). Default 0. */
  rotation?: 0 | 90 | 180 | 270;
  /** 'hlg': HEVC Main 10 (yuv420p10le) tagged BT.2020 / HLG, as phones record HDR. Default 'none'. */
  hdr?: 'none' | 'hlg';
  /** Default true: AAC 128k stereo with the tone bursts. */
  audio?: boolean;
  /** Default 48000. */
  sampleRate?: number;
  /** Default 2 (stereo); phones often record mono. */
  channels?: 1 | 2;
  /**
   * The audio starts this long after the video (an offset edit in MP4, as phones write): its first
   * samples are cut away, so every burst stays where its frame is. Default 0.
   */
  audioDelaySec?: number;
  /** Default: mkv, webm or mov when outPath ends so, else mp4. */
  container?: 'mp4' | 'mov' | 'mkv' | 'webm';
  /** Temporal noise strength over the picture, as a camera's (0: none; 9 makes 720p about 6.5 Mbit/s). */
  noise?: number;
  /** Default 60 s + 2 s per second of media. */
  timeoutMs?: number;
}

/** Luma of a set bit, a clear bit and the bottom half (limited range: black 16, white 235). */
const LUMA_ONE = 235;
const LUMA_ZERO = 16;
const LUMA_GREY = 128;

/**
 * The pattern of `frames` frames at the smallest size that holds it: raw yuv420p 16x2, one luma
 * pixel per bit in the top row, a grey bottom row, neutral chroma. Scaling it up with
 * nearest-neighbour gives blocks of width/16 across the top half and a grey bottom half, at any size
 * and far faster than drawing every pixel with `geq` (which manages ~170 fps even at 320x180).
 */
export function timecodePattern(frames: number): Buffer {
  const frameBytes = TIMECODE_BITS * 2 + (TIMECODE_BITS / 2) * 2;
  const buf = Buffer.alloc(frames * frameBytes, LUMA_GREY);
  for (let n = 0; n < frames; n++) {
    for (let bit = 0; bit < TIMECODE_BITS; bit++) buf[n * frameBytes + bit] = (n >> bit) & 1 ? LUMA_ONE : LUMA_ZERO;
  }
  return buf;
}

/**
 * lavfi source of the tone bursts: burst k starts at sample ceil(k * 5 * rate / fps), i.e. at the
 * first sample at or after the start time of frame 5k, and starts at sine phase 0.
 */
export function timecodeAudioFilter(sampleRate: number, fps: number | string, durationSec: number): string {
  const rate = typeof fps === 'number' ? fps : Number(fps.split('/')[0]) / Number(fps.split('/')[1]);
  const period = (BURST_EVERY_FRAMES * sampleRate) / rate;
  const burst = BURST_DURATION_SEC * sampleRate;
  const phase = `mod(n,${num(period)})`;
  const expr = `${BURST_AMPLITUDE}*sin(2*PI*${BURST_FREQUENCY_HZ}*${phase}/s)*lt(${phase},${num(burst)})`;
  return `aevalsrc=exprs='${expr}':s=${sampleRate}:c=stereo:d=${num(durationSec)}`;
}

/**
 * Writes a clip whose frames and audio encode their own timestamps to `outPath`
 * (round(durationSec * fps) frames, frame N at N / fps).
 */
export async function generateTimecodeMedia(outPath: string, options: TimecodeMediaOptions): Promise<void> {
  const o = generateOptionsSchema.parse(options);
  if (o.frameRate) {
    const [num, den] = o.frameRate.split('/').map(Number) as [number, number];
    o.fps = num / den;
  }
  if (o.hdr !== 'none' && o.codec !== 'hevc') throw new Error('HDR media is generated as HEVC');
  if (o.width % 2 || o.height % 2) throw new Error(`width and height must be even (yuv420p): ${o.width}x${o.height}`);
  const frames = Math.round(o.durationSec * o.fps);
  if (frames < 1) throw new Error(`durationSec ${o.durationSec} at ${o.fps} fps makes no frame`);
  if (frames > 2 ** TIMECODE_BITS) throw new Error(`${frames} frames do not fit in ${TIMECODE_BITS} bits`);
  const ext = extname(outPath).toLowerCase();
  const container = o.container ?? (ext === '.mkv' ? 'mkv' : ext === '.webm' ? 'webm' : ext === '.mov' ? 'mov' : 'mp4');
  const videoSec = frames / o.fps;

  const vp9 = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-crf', '30', '-b:v', '0', '-g', String(o.gopFrames), '-keyint_min', String(o.gopFrames)];
  const video =
    o.codec === 'vp9'
      ? vp9
      : o.codec === 'h264'
      ? [
          '-c:v', 'libx264', '-preset', 'veryfast',
          '-g', String(o.gopFrames), '-keyint_min', String(o.gopFrames), '-sc_threshold', '0',
          ...(o.bFrames ? [] : ['-bf', '0']),
          ...(o.openGop ? ['-x264-params', 'open-gop=1:b-adapt=0'] : []), // fixed B-frames: leading pictures before every keyframe
        ]
      : [
          '-c:v', 'libx265', '-preset', 'veryfast',
          '-x265-params',
          [
            `keyint=${o.gopFrames}`, `min-keyint=${o.gopFrames}`, 'scenecut=0', 'log-level=error', `open-gop=${o.openGop ? 1 : 0}`,
            ...(o.bFrames ? [] : ['bframes=0']),
          ].join(':'),
          ...(container !== 'mkv' ? ['-tag:v', 'hvc1'] : []),
        ];
  const pixel = o.hdr === 'hlg' ? ['-pix_fmt', 'yuv420p10le', '-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc'] : ['-pix_fmt', 'yuv420p'];
  const rate = o.frameRate ?? num(o.fps);
  const audioIn = o.audio ? ['-f', 'lavfi', '-i', timecodeAudioFilter(o.sampleRate, o.frameRate ?? o.fps, videoSec)] : [];
  // a delayed start keeps its timestamps: the muxer writes the gap as an empty edit
  const delay = o.audioDelaySec > 0 ? ['-af', `atrim=start=${num(o.audioDelaySec)}`] : [];
  const audioCodec = o.audioCodec === 'opus' ? ['-c:a', 'libopus', '-b:a', '96k'] : ['-c:a', 'aac', '-b:a', '128k'];
  const audioOut = o.audio ? ['-map', '1:a', ...delay, ...audioCodec, '-ac', String(o.channels), '-ar', String(o.sampleRate)] : ['-an'];
  const muxer = container === 'mkv' ? ['-f', 'matroska'] : container === 'webm' ? ['-f', 'webm'] : ['-movflags', '+faststart', '-f', container];

  await withTempDir(async (dir) => {
    const pattern = join(dir, 'pattern.yuv');
    await writeFile(pattern, timecodePattern(frames));
    const timeoutMs = o.timeoutMs ?? 60_000 + videoSec * 2_000;
    // a rotation is a tag the mov muxer writes when copying (ffmpeg 5: `rotate`, clockwise)
    const encoded = o.rotation ? join(dir, `upright.${container}`) : outPath;
    await runFfmpeg({
      timeoutMs,
      args: [
        '-f', 'rawvideo', '-pixel_format', 'yuv420p', '-video_size', `${TIMECODE_BITS}x2`, '-framerate', rate,
        '-i', toFfmpegInput(pattern),
        ...audioIn,
        '-map', '0:v', '-vf', `scale=${o.width}:${o.height}:flags=neighbor,setsar=1${o.noise > 0 ? `,noise=alls=${o.noise}:allf=t` : ''}`,
        ...video, ...pixel,
        ...audioOut,
        ...muxer, toFfmpegInput(encoded),
      ],
    });
    if (o.rotation) {
      await runFfmpeg({ timeoutMs, args: ['-i', toFfmpegInput(encoded), '-map', '0', '-c', 'copy', '-metadata:s:v:0', `rotate=${o.rotation}`, ...muxer, toFfmpegInput(outPath)] });
    }
  });
}
