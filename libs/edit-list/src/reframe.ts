/**
 * Reframing a clip: the six export aspect ratios, and which part of the source frame a clip of a
 * ratio shows for a zoom and pan. One geometry for the browser's previews (KeyClips, the reframe
 * overlay) and the render (libs/ffmpeg turns it into a scale/crop/pad filter), so the export
 * shows what the preview showed. Sizes in pixels of the source (display size, after rotation).
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
/** The KeyClips zoom: 1 to 2.5 in steps of 0.1. */
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 2.5;
export const ZOOM_STEP = 0.1;
/** Upscaled above 1.05 output pixels per source pixel, downscaled below 0.95, heavy upscaling from 2. */
export const UPSCALED_ABOVE = 1.05;
export const DOWNSCALED_BELOW = 0.95;
export const HEAVY_UPSCALE_AT = 2;

export interface Reframe {
  /** Horizontal pan: the window's centre moves by this percent of the frame's width; 0 = centred. */
  offsetX: number;
  /** Vertical pan in percent of the frame's height; 0 = centred. */
  offsetY: number;
  /** Zoom on top of the scale that makes the frame cover the target (1 = just covers). */
  scale: number;
}

export const DEFAULT_REFRAME: Reframe = { offsetX: 0, offsetY: 0, scale: 1 };

/** original: native frame as it is; ratio-match: a plain scale; crop: scaled, cropped (and padded below zoom 1). */
export type ReframeMode = 'original' | 'ratio-match' | 'crop';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ReframeGeometry {
  mode: ReframeMode;
  /** the export size in pixels (Original: the native size made even) */
  width: number;
  height: number;
  /** the zoom and pan used, pan clamped so the window stays on the frame */
  reframe: Reframe;
  /** the part of the source the clip shows, in source pixels (the whole side where a zoom below 1 pads) */
  crop: Rect;
  /** output pixels per source pixel */
  upscale: number;
}

const EPSILON = 1e-9;

/** 4:2:0 video needs even sizes. */
export function evenSize(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** A zoom that is not a positive number counts as 1. */
function zoomOf(reframe: Reframe): number {
  return Number.isFinite(reframe.scale) && reframe.scale > 0 ? reframe.scale : 1;
}

function finiteOr0(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

/** The export size of `ratio` for a source (Original: the native size, even). */
export function exportSize(srcW: number, srcH: number, ratio: AspectRatioId): { width: number; height: number } {
  if (ratio === 'Original') return { width: srcW - (srcW % 2), height: srcH - (srcH % 2) };
  return { width: ASPECT_RATIOS[ratio].width, height: ASPECT_RATIOS[ratio].height };
}

/** Whether the source already has the ratio (within 0.01; Original always has). */
export function ratioMatches(srcW: number, srcH: number, ratio: AspectRatioId): boolean {
  if (ratio === 'Original') return true;
  const { width, height } = ASPECT_RATIOS[ratio];
  return Math.abs(srcW / srcH - width / height) <= RATIO_MATCH_TOLERANCE;
}

/** The zoom held to the KeyClips range and its 0.1 steps. */
export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return ZOOM_MIN;
  return clamp(Math.round(zoom / ZOOM_STEP) / Math.round(1 / ZOOM_STEP), ZOOM_MIN, ZOOM_MAX);
}

/**
 * Where a clip of `ratio` sits on a `srcW` x `srcH` source for a zoom and pan:
 * - Original at zoom 1 without pan: the native frame, passed through;
 * - a source of the ratio (within 0.01) at zoom 1 without pan: the whole frame, scaled to the export size;
 * - otherwise: the window of the ratio that covers the frame at zoom 1, shrunk by the zoom, its centre
 *   moved by the pan (percent of the frame) and clamped so it stays on the frame; a zoom below 1 shows
 *   the whole side and pads the rest black. Original keeps the source's ratio and native size.
 */
export function reframeGeometry(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe = DEFAULT_REFRAME): ReframeGeometry {
  if (!(srcW > 0 && srcH > 0 && Number.isFinite(srcW) && Number.isFinite(srcH))) throw new RangeError('source size must be positive');
  const zoom = zoomOf(reframe);
  const { width, height } = exportSize(srcW, srcH, ratio);
  // the scale that makes the frame cover the target, times the zoom: output pixels per source pixel
  const cover = Math.max(width / srcW, height / srcH) * zoom;
  const cropW = Math.min(srcW, width / cover);
  const cropH = Math.min(srcH, height / cover);
  const offsetX = clampOffset(finiteOr0(reframe.offsetX), srcW, cropW);
  const offsetY = clampOffset(finiteOr0(reframe.offsetY), srcH, cropH);
  if (Math.abs(zoom - 1) < EPSILON && offsetX === 0 && offsetY === 0 && ratioMatches(srcW, srcH, ratio)) {
    const mode: ReframeMode = ratio === 'Original' ? 'original' : 'ratio-match';
    return { mode, width, height, reframe: { ...DEFAULT_REFRAME }, crop: { x: 0, y: 0, width: srcW, height: srcH }, upscale: ratio === 'Original' ? 1 : width / srcW };
  }
  const x = clamp(srcW / 2 + (offsetX / 100) * srcW - cropW / 2, 0, srcW - cropW);
  const y = clamp(srcH / 2 + (offsetY / 100) * srcH - cropH / 2, 0, srcH - cropH);
  return { mode: 'crop', width, height, reframe: { offsetX, offsetY, scale: zoom }, crop: { x, y, width: cropW, height: cropH }, upscale: cover };
}

/** The largest pan (percent of the frame) that keeps a window of `window` on a side of `side`. */
export function maxOffset(side: number, window: number): number {
  return Math.max(0, ((side - window) / 2 / side) * 100);
}

function clampOffset(offset: number, side: number, window: number): number {
  const limit = maxOffset(side, window);
  const held = clamp(offset, -limit, limit);
  return Math.abs(held) < EPSILON ? 0 : held;
}

/** The pan held so the window stays on the frame (and the zoom held to the KeyClips range). */
export function clampReframe(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe): Reframe {
  return reframeGeometry(srcW, srcH, ratio, { ...reframe, scale: clampZoom(reframe.scale) }).reframe;
}

/**
 * The reframe after dragging the picture by `dx`, `dy` pixels of a preview `frameWidth` pixels wide
 * that shows the clip's window: the picture follows the pointer, so the window moves the other way.
 */
export function panByDrag(srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe, dx: number, dy: number, frameWidth: number): Reframe {
  const geometry = reframeGeometry(srcW, srcH, ratio, reframe);
  if (!(frameWidth > 0)) return geometry.reframe;
  const sourcePerPixel = geometry.crop.width / frameWidth;
  const next = {
    offsetX: geometry.reframe.offsetX - ((dx * sourcePerPixel) / srcW) * 100,
    offsetY: geometry.reframe.offsetY - ((dy * sourcePerPixel) / srcH) * 100,
    scale: geometry.reframe.scale,
  };
  return reframeGeometry(srcW, srcH, ratio, next).reframe;
}

/**
 * The zoom and pan that show `crop` (a rectangle of the source, in its pixels) in a clip of `ratio`:
 * the zoom from its area against the window at zoom 1, the pan from its centre; both then held to
 * the KeyClips range and the frame.
 */
export function reframeFromCrop(srcW: number, srcH: number, ratio: AspectRatioId, crop: Rect): Reframe {
  const base = reframeGeometry(srcW, srcH, ratio, { offsetX: 0, offsetY: 0, scale: 1.5 });
  const baseArea = base.crop.width * base.crop.height * 1.5 * 1.5;
  const area = crop.width * crop.height;
  const zoom = area > 0 ? Math.sqrt(baseArea / area) : 1;
  const offsetX = ((crop.x + crop.width / 2 - srcW / 2) / srcW) * 100;
  const offsetY = ((crop.y + crop.height / 2 - srcH / 2) / srcH) * 100;
  return clampReframe(srcW, srcH, ratio, { offsetX, offsetY, scale: zoom });
}

/** Whether a ratio and zoom leave room to pan: a crop that is not the whole frame. */
export function canPan(srcW: number, srcH: number, ratio: AspectRatioId, zoom: number): boolean {
  if (zoomOf({ offsetX: 0, offsetY: 0, scale: zoom }) > 1 + EPSILON) return true;
  return !ratioMatches(srcW, srcH, ratio);
}

/** 'upscaled' above 1.05, 'downscaled' below 0.95, else 'native'. */
export function scaleKind(upscale: number): 'upscaled' | 'downscaled' | 'native' {
  if (upscale > UPSCALED_ABOVE) return 'upscaled';
  if (upscale < DOWNSCALED_BELOW) return 'downscaled';
  return 'native';
}

/** Whether the export enlarges the source twice or more (soft picture). */
export function isHeavyUpscale(upscale: number): boolean {
  return upscale >= HEAVY_UPSCALE_AT - EPSILON;
}
