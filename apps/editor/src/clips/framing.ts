import { scaleKind, type Framing, type Reframe, type ReframeGeometry } from '@wordcut/edit-list';

/** The hint under the zoom: what the clip keeps. */
export function framingHint(framing: Framing, geometry: ReframeGeometry | null): string {
  if (!geometry) return 'Detecting the video size…';
  const size = `${geometry.width}x${geometry.height}`;
  if (geometry.mode === 'original') return `The clip keeps the whole frame (${size}). Zoom in to reframe it.`;
  if (geometry.mode === 'ratio-match') return `The video already is ${framing.ratio}: the whole frame, scaled to ${size}. Zoom in to reframe it.`;
  const kind = scaleKind(geometry.upscale);
  const scale = kind === 'upscaled' ? `, upscaled ${geometry.upscale.toFixed(1)}x` : kind === 'downscaled' ? `, downscaled ${geometry.upscale.toFixed(2)}x` : '';
  return `Drag the picture or use the arrow keys to choose what the ${size} clip shows${scale}.`;
}

/** The zoom and pan the clip request carries: none when centred at zoom 1 (the render's default). */
export function clipReframe(framing: Framing): Reframe | undefined {
  if (framing.zoom === 1 && framing.offsetX === 0 && framing.offsetY === 0) return undefined;
  const round3 = (n: number) => Math.round(n * 1000) / 1000 || 0;
  return { offsetX: round3(framing.offsetX), offsetY: round3(framing.offsetY), scale: framing.zoom };
}

/** The ratio the player's overlay frames while the dialog is open: none for the whole native frame. */
export function overlayRatio(framing: Framing, geometry: ReframeGeometry | null): Framing['ratio'] | null {
  if (framing.ratio !== 'Original') return framing.ratio;
  return geometry && geometry.mode === 'crop' ? 'Original' : null;
}
