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
 * - otherwise: scale so the frame covers the target times the zoom, crop the target window at the
 *   clamped pan, and pad with black where a zoom below 1 leaves the frame smaller than the target.
 */
export function planReframe(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe = DEFAULT_REFRAME): ReframePlan {
  const geometry = reframeGeometry(srcW, srcH, ratio, reframe);
  const { mode, width: W, height: H } = geometry;
  if (mode === 'original') {
    return { mode, width: W, height: H, filter: W === srcW && H === srcH ? null : `crop=${W}:${H}:0:0,setsar=1` };
  }
  if (mode === 'ratio-match') return { mode, width: W, height: H, filter: `scale=${W}:${H}:flags=lanczos,setsar=1` };
  const { offsetX, offsetY } = geometry.reframe;
  const sw = evenSize(srcW * geometry.upscale);
  const sh = evenSize(srcH * geometry.upscale);
  const cw = Math.min(W, sw);
  const ch = Math.min(H, sh);
  const x = clamp(Math.round((sw - cw) / 2 + (offsetX / 100) * sw), 0, sw - cw);
  const y = clamp(Math.round((sh - ch) / 2 + (offsetY / 100) * sh), 0, sh - ch);
  const parts = [`scale=${sw}:${sh}:flags=lanczos`, `crop=${cw}:${ch}:${x}:${y}`];
  if (cw < W || ch < H) parts.push(`pad=${W}:${H}:${Math.floor((W - cw) / 2)}:${Math.floor((H - ch) / 2)}:black`);
  parts.push('setsar=1');
  return { mode, width: W, height: H, filter: parts.join(',') };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
