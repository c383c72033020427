/**
 * Aspect-ratio export: the ffmpeg filter chain that turns a source frame into a clip of one of the
 * six ratios with the reframe zoom and pan. Which part of the frame is kept is decided by the
 * geometry shared with the browser's preview (@wordcut/edit-list reframe); this file only turns it
 * into whole pixels (scale, crop, pad).
 */
import { ASPECT_RATIOS, ASPECT_RATIO_IDS, DEFAULT_REFRAME, RATIO_MATCH_TOLERANCE, evenSize, reframeGeometry, type AspectRatioId, type Reframe, type ReframeMode } from '@wordcut/edit-list';

export { ASPECT_RATIOS, ASPECT_RATIO_IDS, DEFAULT_REFRAME, RATIO_MATCH_TOLERANCE, type AspectRatioId, type Reframe, type ReframeMode };

export interface ReframePlan {
  mode: ReframeMode;
  /** Output size (even numbers). */
  width: number;
  height: number;
  /** Filter chain (comma-joined) or null for none. */
  filter: string | null;
}

/**
 * How a source of `srcW`x`srcH` (display size, after rotation) becomes `ratio`:
 * - Original without zoom or pan: native size, no filter (an odd side loses its last row or column).
 * - ratio match (within 0.01) without zoom or pan: a plain scale to the export size.
 * - otherwise: crop the geometry's window (whole source pixels) first, then scale it to the export
 *   size (cropping first scales only the pixels kept), padding with black where a zoom below 1 leaves
 *   the frame smaller than the target.
 */
export function planReframe(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe = DEFAULT_REFRAME): ReframePlan {
  const geometry = reframeGeometry(srcW, srcH, ratio, reframe);
  const { mode, width: W, height: H } = geometry;
  if (mode === 'original') {
    return { mode, width: W, height: H, filter: W === srcW && H === srcH ? null : `crop=${W}:${H}:0:0,setsar=1` };
  }
  if (mode === 'ratio-match') return { mode, width: W, height: H, filter: `scale=${W}:${H}:flags=lanczos,setsar=1` };
  const { crop, upscale } = geometry;
  // the window in whole source pixels, held on the frame
  const cw = clamp(Math.round(crop.width), 1, srcW);
  const ch = clamp(Math.round(crop.height), 1, srcH);
  const x = clamp(Math.round(crop.x), 0, srcW - cw);
  const y = clamp(Math.round(crop.y), 0, srcH - ch);
  // a side narrower than the target (zoom below 1) keeps its scale and is padded
  const ow = crop.width * upscale < W - 1 ? Math.min(W, evenSize(crop.width * upscale)) : W;
  const oh = crop.height * upscale < H - 1 ? Math.min(H, evenSize(crop.height * upscale)) : H;
  const parts = [`crop=${cw}:${ch}:${x}:${y}`, `scale=${ow}:${oh}:flags=lanczos`];
  if (ow < W || oh < H) parts.push(`pad=${W}:${H}:${Math.floor((W - ow) / 2)}:${Math.floor((H - oh) / 2)}:black`);
  parts.push('setsar=1');
  return { mode, width: W, height: H, filter: parts.join(',') };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
