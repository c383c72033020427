import {
  ASPECT_RATIOS,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
  canPan,
  clampReframe,
  clampZoom,
  isHeavyUpscale,
  panByDrag,
  reframeGeometry,
  scaleKind,
  type AspectRatioId,
  type ReframeGeometry,
} from '@wordcut/edit-list';
import type { ExportKeyMomentBody } from '@wordcut/contracts';

/**
 * The framing of the KeyClips preview: ratio, zoom and pan, as plain functions over one value. The
 * geometry (window, clamping, pass-through, upscale) is @wordcut/edit-list's, the render's own.
 */

/** The six ratio buttons, in order. */
export const RATIO_BUTTONS: readonly AspectRatioId[] = ['Original', '16:9', '9:16', '1:1', '4:5', '21:9'];

export interface Framing {
  ratio: AspectRatioId;
  zoom: number;
  offsetX: number;
  offsetY: number;
}

export interface SourceSize {
  width: number;
  height: number;
}

export const INITIAL_FRAMING: Framing = { ratio: 'Original', zoom: 1, offsetX: 0, offsetY: 0 };

/** A drag of under 5 px in total is a click (it toggles play). */
export const CLICK_DRAG_PX = 5;
/** An arrow key pans by this percent of the window's width (five times as far with Shift). */
export const KEY_PAN_PERCENT = 5;

function held(framing: Framing, size: SourceSize | null): Framing {
  const zoom = clampZoom(framing.zoom);
  if (!size) return { ...framing, zoom };
  const reframe = clampReframe(size.width, size.height, framing.ratio, { offsetX: framing.offsetX, offsetY: framing.offsetY, scale: zoom });
  return { ratio: framing.ratio, zoom: reframe.scale, offsetX: reframe.offsetX, offsetY: reframe.offsetY };
}

/** Another ratio: the zoom stays, the pan is held to the new window. */
export function chooseRatio(framing: Framing, ratio: AspectRatioId, size: SourceSize | null): Framing {
  return held({ ...framing, ratio }, size);
}

/** The zoom set (1 to 2.5 in steps of 0.1), the pan held to the smaller or larger window. */
export function setZoom(framing: Framing, zoom: number, size: SourceSize | null): Framing {
  return held({ ...framing, zoom }, size);
}

export const zoomIn = (framing: Framing, size: SourceSize | null): Framing => setZoom(framing, framing.zoom + ZOOM_STEP, size);
export const zoomOut = (framing: Framing, size: SourceSize | null): Framing => setZoom(framing, framing.zoom - ZOOM_STEP, size);
/** Reset: zoom 1, centred. */
export const resetFraming = (framing: Framing): Framing => ({ ...framing, zoom: ZOOM_MIN, offsetX: 0, offsetY: 0 });

export const canZoomIn = (framing: Framing): boolean => framing.zoom < ZOOM_MAX - 1e-9;
export const canZoomOut = (framing: Framing): boolean => framing.zoom > ZOOM_MIN + 1e-9;

/** Pan is allowed in cropping modes, or when zoomed. */
export function panAllowed(framing: Framing, size: SourceSize | null): boolean {
  return size !== null && canPan(size.width, size.height, framing.ratio, framing.zoom);
}

/** The picture dragged by `dx`, `dy` preview pixels on a preview `frameWidth` wide. */
export function panBy(framing: Framing, size: SourceSize | null, dx: number, dy: number, frameWidth: number): Framing {
  if (!size || !panAllowed(framing, size)) return framing;
  const next = panByDrag(size.width, size.height, framing.ratio, { offsetX: framing.offsetX, offsetY: framing.offsetY, scale: framing.zoom }, dx, dy, frameWidth);
  return { ...framing, offsetX: next.offsetX, offsetY: next.offsetY };
}

const KEY_DIRECTIONS: Record<string, [number, number]> = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** An arrow key moves the window the arrow's way (the picture the other way); null for other keys. */
export function panByKey(framing: Framing, size: SourceSize | null, key: string, shift: boolean): Framing | null {
  const direction = KEY_DIRECTIONS[key];
  if (!direction) return null;
  const step = KEY_PAN_PERCENT * (shift ? 5 : 1);
  // a drag of `step` on a preview 100 wide
  return panBy(framing, size, direction[0] * step, direction[1] * step, 100);
}

/** Whether a pointer that moved `dx`, `dy` in total was a click. */
export function isClick(dx: number, dy: number): boolean {
  return Math.hypot(dx, dy) < CLICK_DRAG_PX;
}

/** The geometry of the framing on the source; null until the source size is known. */
export function geometryOf(framing: Framing, size: SourceSize | null): ReframeGeometry | null {
  if (!size) return null;
  return reframeGeometry(size.width, size.height, framing.ratio, { offsetX: framing.offsetX, offsetY: framing.offsetY, scale: framing.zoom });
}

/** The export button's label. */
export function exportLabel(framing: Framing, geometry: ReframeGeometry | null): string {
  if (!geometry) return framing.ratio === 'Original' ? 'Export Original Clip' : `Export ${framing.ratio} Clip`;
  if (geometry.mode === 'original') return 'Export Original Clip';
  if (geometry.mode === 'ratio-match') return scaleKind(geometry.upscale) === 'upscaled' ? `Export ${framing.ratio} Clip (Upscaled)` : `Export ${framing.ratio} Clip`;
  return `Export ${framing.ratio} (Reframed)`;
}

/** The heavy-upscale warning shows from 2 output pixels per source pixel. */
export function heavyUpscale(geometry: ReframeGeometry | null): boolean {
  return geometry !== null && isHeavyUpscale(geometry.upscale);
}

/** The hint line under the controls. */
export function hintText(framing: Framing, size: SourceSize | null, geometry: ReframeGeometry | null): string {
  if (!size || !geometry) return 'Detecting the video size…';
  const sizeText = `${geometry.width}x${geometry.height}`;
  if (geometry.mode === 'original') return `Pass-through: the clip keeps the original frame (${sizeText}). Zoom in to reframe it.`;
  if (geometry.mode === 'ratio-match') return `Pass-through: the video already is ${framing.ratio}, scaled to ${sizeText}. Zoom in to reframe it.`;
  const kind = scaleKind(geometry.upscale);
  const scale = kind === 'upscaled' ? `, upscaled ${geometry.upscale.toFixed(1)}x` : kind === 'downscaled' ? `, downscaled ${geometry.upscale.toFixed(2)}x` : '';
  return `Drag the picture or use the arrow keys to choose what the ${sizeText} clip shows${scale}. Click to play or pause.`;
}

/** The export request of a framing. */
export function exportBody(framing: Framing, geometry: ReframeGeometry | null): ExportKeyMomentBody {
  const body: ExportKeyMomentBody = { aspectRatio: framing.ratio, mode: 'reframe', reframe: { offsetX: framing.offsetX, offsetY: framing.offsetY, scale: framing.zoom } };
  if (geometry) {
    const { x, y, width, height } = geometry.crop;
    body.crop = { x: round2(x), y: round2(y), width: round2(width), height: round2(height) };
  }
  return body;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The name and size of a ratio button ('Story', '1080x1920'; Original: 'Native size'). */
export function ratioDescription(ratio: AspectRatioId): { name: string; size: string } {
  const info = ASPECT_RATIOS[ratio];
  return { name: info.name, size: info.width ? `${info.width}x${info.height}` : 'Native size' };
}
