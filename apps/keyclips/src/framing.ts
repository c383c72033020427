import { ASPECT_RATIOS, isHeavyUpscale, scaleKind, type AspectRatioId, type Framing, type ReframeGeometry, type SourceSize } from '@wordcut/edit-list';
import type { ExportKeyMomentBody } from '@wordcut/contracts';

/**
 * The KeyClips preview's texts and request. The framing itself (ratio, zoom, pan, clamping) is
 * @wordcut/edit-list's, shared with the editor's clip dialog; its geometry is the render's own.
 */
export {
  CLICK_DRAG_PX,
  INITIAL_FRAMING,
  KEY_PAN_PERCENT,
  canZoomIn,
  canZoomOut,
  chooseRatio,
  geometryOf,
  isClick,
  panAllowed,
  panBy,
  panByKey,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
  type SourceSize,
} from '@wordcut/edit-list';

/** The six ratio buttons, in order. */
export const RATIO_BUTTONS: readonly AspectRatioId[] = ['Original', '16:9', '9:16', '1:1', '4:5', '21:9'];

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
