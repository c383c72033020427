/**
 * Reframe overlay geometry (the overlay previews an aspect ratio on the player): where the picture
 * sits inside the player box (object-fit: contain) and which part of it a clip of the target ratio
 * keeps: the render's own window (@wordcut/edit-list reframe), drawn on the picture.
 */
import { DEFAULT_REFRAME, reframeGeometry, type AspectRatioId, type Reframe } from '@wordcut/edit-list';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The picture's box inside a `boxW` x `boxH` element showing a `srcW` x `srcH` video with object-fit: contain. */
export function containedBox(boxW: number, boxH: number, srcW: number, srcH: number): Box {
  if (!(boxW > 0) || !(boxH > 0) || !(srcW > 0) || !(srcH > 0)) return { x: 0, y: 0, width: Math.max(0, boxW), height: Math.max(0, boxH) };
  const scale = Math.min(boxW / srcW, boxH / srcH);
  const width = srcW * scale;
  const height = srcH * scale;
  return { x: (boxW - width) / 2, y: (boxH - height) / 2, width, height };
}

/** The part of `picture` (showing a `srcW` x `srcH` source) a clip of `ratio` keeps at a zoom and pan (default centred). */
export function cropBox(picture: Box, srcW: number, srcH: number, ratio: AspectRatioId, reframe: Reframe = DEFAULT_REFRAME): Box {
  if (!(picture.width > 0 && picture.height > 0 && srcW > 0 && srcH > 0)) return picture;
  const { crop } = reframeGeometry(srcW, srcH, ratio, reframe);
  const kx = picture.width / srcW;
  const ky = picture.height / srcH;
  return { x: picture.x + crop.x * kx, y: picture.y + crop.y * ky, width: crop.width * kx, height: crop.height * ky };
}
