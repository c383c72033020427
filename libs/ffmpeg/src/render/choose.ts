/**
 * Which way a render goes and why, from the source's media info and the request. Pure.
 */
import type { RenderMediaInfo, VideoTrackInfo } from './media-info';
import type { FrameClock } from './plan';
import type { AudioMode, RenderRequest } from './types';

/** Frames per second of a video track: its constant rate, or its mean rate when variable; null when unknown. */
export function fpsOf(v: VideoTrackInfo): number | null {
  if (v.frameTicks === null) {
    if (v.framePts.length < 2) return null;
    const span = (v.framePts[v.framePts.length - 1]! - v.framePts[0]!) * (v.timeBase.num / v.timeBase.den);
    return span > 0 ? (v.framePts.length - 1) / span : null;
  }
  return v.timeBase.den / (v.frameTicks * v.timeBase.num);
}

/** Pixel formats whose pieces x264/x265 re-encode exactly as the source stores them (8- and 10-bit 4:2:0). */
const SMART_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p', 'yuv420p10le']);

/** True when a video stores more than 8 bits per sample (10-bit HDR, log profiles). */
export const isHighBitDepth = (v: Pick<VideoTrackInfo, 'pixFmt'>): boolean => /p1[0-6](le|be)$/.test(v.pixFmt ?? '');

/** Ticks from the first frame at which each frame starts (display order), then where the last one ends. */
export function frameStartTicks(v: Pick<VideoTrackInfo, 'framePts' | 'frameTicks'>): Float64Array {
  const n = v.framePts.length;
  const out = new Float64Array(n + 1);
  const first = v.framePts[0] ?? 0;
  for (let i = 0; i < n; i++) out[i] = v.framePts[i]! - first;
  // the last frame lasts the constant duration, or as long as the one before it
  out[n] = n === 0 ? 0 : out[n - 1]! + (v.frameTicks ?? (n >= 2 ? out[n - 1]! - out[n - 2]! : 1));
  return out;
}

/** The clock a render places frames on: the constant rate, or (variable rate) every frame's own start. */
export function frameClockOf(v: VideoTrackInfo): FrameClock | null {
  if (v.frameTicks !== null) return fpsOf(v);
  if (v.framePts.length < 2) return null;
  const tb = v.timeBase.num / v.timeBase.den;
  const ticks = frameStartTicks(v);
  const starts = Array.from(ticks.subarray(0, v.framePts.length), (t) => t * tb);
  return { starts, end: ticks[v.framePts.length]! * tb };
}

/**
 * Why `info` cannot take the smart path (stream-copy whole GOPs, re-encode partial ones), or null.
 * It needs H.264 or HEVC in MP4/MOV, 8- or 10-bit 4:2:0, a first frame that is a keyframe, and
 * not the baseline profile (piece re-encodes must match the source exactly). A rotation is the
 * track's display matrix, which the output copies; a variable frame rate keeps every frame's time;
 * an open GOP's leading pictures are re-encoded where the GOP before them is not copied too.
 */
export function smartRenderBlocker(info: RenderMediaInfo): string | null {
  const v = info.video;
  if (!v) return 'no video stream';
  if (!/mp4|mov/.test(info.formatName)) return `container ${info.formatName} is not MP4`;
  if (v.codec !== 'h264' && v.codec !== 'hevc') return `codec ${v.codec} is not H.264/HEVC`;
  if (!SMART_PIXEL_FORMATS.has(v.pixFmt ?? '')) return `pixel format ${v.pixFmt ?? 'unknown'} is not 8- or 10-bit 4:2:0`;
  if (v.leading === null) return 'open GOPs whose leading pictures are not the frames before their keyframe';
  if (v.keyframes[0] !== 0) return 'the first frame is not a keyframe';
  if (/baseline/i.test(v.profile ?? '')) return 'baseline profile';
  return null;
}

/** Why this request must take the full re-encode whatever the source (or the source's reason), or null. */
export function renderBlocker(req: Pick<RenderRequest, 'forceReencode' | 'assScript' | 'videoFilter'>, info: RenderMediaInfo): string | null {
  if (req.forceReencode) return 'full re-encode requested';
  if (req.assScript) return 'burned captions';
  if (req.videoFilter) return 'reframing';
  return smartRenderBlocker(info);
}

/**
 * How the audio is made: AAC packets copied (spliced around gains) when the source's audio is AAC
 * of a constant packet rate, else decoded, cut and encoded.
 */
export function audioModeOf(info: RenderMediaInfo, hasGains: boolean): AudioMode {
  if (!info.audio) return 'none';
  const copyable = info.audio.codec === 'aac' && info.audio.packetTicks !== null;
  if (!copyable) return 'reencoded';
  return hasGains ? 'spliced' : 'copy-packets';
}
