/**
 * Aspect-ratio export: the six ratios at
 * their export sizes, and the ffmpeg filter chain that turns a source frame into one of them with
 * the reframe offsets and scale (crop, scale, pad as the mode needs).
 */

export const ASPECT_RATIOS = {
  '16:9': { name: 'Landscape', width: 1920, height: 1080 },
  '9:16': { name: 'Story', width: 1080, height: 1920 },
  '1:1': { name: 'Square', width: 1080, height: 1080 },
  '4:5': { name: 'Portrait', width: 1080, height: 1350 },
  '21:9': { name: 'Cinematic', width: 2560, height: 1080 },
  Original: { name: 'Original', width: 0, height: 0 },
} as const;
export type AspectRatioId = keyof typeof ASPECT_RATIOS;
export const ASPECT_RATIO_IDS = Object.keys(ASPECT_RATIOS) as AspectRatioId[];

/** Pass-through match tolerance between the source and target ratios. */
export const RATIO_MATCH_TOLERANCE = 0.01;

export interface Reframe {
  /** Horizontal pan in percent of the scaled frame's width; 0 = centred. */
  offsetX: number;
  /** Vertical pan in percent of the scaled frame's height; 0 = centred. */
  offsetY: number;
  /** Zoom on top of the scale that covers the target (1 = just covers). */
  scale: number;
}

export const DEFAULT_REFRAME: Reframe = { offsetX: 0, offsetY: 0, scale: 1 };

export type ReframeMode = 'original' | 'ratio-match' | 'crop';

export interface ReframePlan {
  mode: ReframeMode;
  /** Output size (even numbers). */
  width: number;
  height: number;
  /** Filter chain (comma-joined) or null for none. */
  filter: string | null;
}

const even = (n: number): number => Math.max(2, Math.round(n / 2) * 2);

/**
 * How a source of `srcW`x`srcH` (display size, after rotation) becomes `ratio`:
 * - Original: native size, no filter.
 * - ratio match (within 0.01) without pan or zoom: a plain scale to the export size.
 * - otherwise: scale so the frame covers the target times `scale`, crop the target window at the
 *   offsets (clamped so the window stays inside the frame), and pad with black where a zoom
 *   below 1 leaves the frame smaller than the target.
 */
export function planReframe(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe = DEFAULT_REFRAME): ReframePlan {
  if (!(srcW > 0 && srcH > 0)) throw new RangeError('source size must be positive');
  const zoom = Number.isFinite(reframe.scale) && reframe.scale > 0 ? reframe.scale : 1;
  if (ratio === 'Original') {
    // 4:2:0 needs even sizes: an odd source loses its last row/column.
    const w = srcW - (srcW % 2);
    const h = srcH - (srcH % 2);
    return { mode: 'original', width: w, height: h, filter: w === srcW && h === srcH ? null : `crop=${w}:${h}:0:0,setsar=1` };
  }
  const target = ASPECT_RATIOS[ratio];
  const W = target.width;
  const H = target.height;
  const pan = Math.abs(reframe.offsetX) > 1e-9 || Math.abs(reframe.offsetY) > 1e-9;
  if (Math.abs(srcW / srcH - W / H) <= RATIO_MATCH_TOLERANCE && Math.abs(zoom - 1) < 1e-9 && !pan) {
    return { mode: 'ratio-match', width: W, height: H, filter: `scale=${W}:${H}:flags=lanczos,setsar=1` };
  }
  const cover = Math.max(W / srcW, H / srcH) * zoom;
  const sw = even(srcW * cover);
  const sh = even(srcH * cover);
  const cw = Math.min(W, sw);
  const ch = Math.min(H, sh);
  const x = clamp(Math.round((sw - cw) / 2 + (reframe.offsetX / 100) * sw), 0, sw - cw);
  const y = clamp(Math.round((sh - ch) / 2 + (reframe.offsetY / 100) * sh), 0, sh - ch);
  const parts = [`scale=${sw}:${sh}:flags=lanczos`, `crop=${cw}:${ch}:${x}:${y}`];
  if (cw < W || ch < H) parts.push(`pad=${W}:${H}:${Math.floor((W - cw) / 2)}:${Math.floor((H - ch) / 2)}:black`);
  parts.push('setsar=1');
  return { mode: 'crop', width: W, height: H, filter: parts.join(',') };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
