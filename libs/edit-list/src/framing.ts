/**
 * Framing a clip in a preview: ratio, zoom and pan as one value, changed by plain functions (the
 * slider, zoom in / out / reset, a drag, an arrow key), always held to the reframe geometry so the
 * preview shows what the render keeps. Used by the KeyClips panel and the editor's clip dialog.
 */
import { ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, canPan, clampReframe, clampZoom, panByDrag, reframeGeometry, type AspectRatioId, type Reframe, type ReframeGeometry } from './reframe';

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

/** A drag of under 5 px in total is a click. */
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
  const next = panByDrag(size.width, size.height, framing.ratio, reframeOf(framing), dx, dy, frameWidth);
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

/** The zoom and pan of a framing, as the render takes them. */
export function reframeOf(framing: Framing): Reframe {
  return { offsetX: framing.offsetX, offsetY: framing.offsetY, scale: framing.zoom };
}

/** The geometry of the framing on the source; null until the source size is known. */
export function geometryOf(framing: Framing, size: SourceSize | null): ReframeGeometry | null {
  if (!size) return null;
  return reframeGeometry(size.width, size.height, framing.ratio, reframeOf(framing));
}

/**
 * Where the whole picture sits in a preview box `frameWidth` wide that shows the clip's window:
 * scaled so the window is the box's width, moved so the window's corner is the box's corner.
 */
export function previewPictureBox(geometry: ReframeGeometry, size: SourceSize, frameWidth: number): { left: number; top: number; width: number; height: number } {
  const k = geometry.crop.width > 0 ? frameWidth / geometry.crop.width : 0;
  return { left: -geometry.crop.x * k, top: -geometry.crop.y * k, width: size.width * k, height: size.height * k };
}

/** The largest box of `ratio` (width / height) that fits in `boxW` x `boxH`. */
export function fitBox(boxW: number, boxH: number, ratio: number): { width: number; height: number } {
  if (!(ratio > 0) || !(boxW > 0) || !(boxH > 0)) return { width: 0, height: 0 };
  const width = Math.min(boxW, boxH * ratio);
  return { width, height: width / ratio };
}
