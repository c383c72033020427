/**
 * Reframe overlay geometry (the overlay previews an aspect ratio on the player): where the picture sits inside the player box (object-fit: contain) and which part of it
 * a clip of the target ratio keeps when centred (the render scales the frame to cover the target
 * and crops the middle: docs/EDIT-JOBS.md "Clips").
 */

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

/** '16:9' -> 16/9; 'Original' or anything unparsable -> null. */
export function ratioValue(ratio: string): number | null {
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio.trim());
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? w / h : null;
}

/** The centred part of `picture` a clip of aspect `ratio` (width / height) keeps. */
export function cropBox(picture: Box, ratio: number): Box {
  if (!(ratio > 0) || !(picture.width > 0) || !(picture.height > 0)) return picture;
  const pictureRatio = picture.width / picture.height;
  if (ratio < pictureRatio) {
    const width = picture.height * ratio;
    return { x: picture.x + (picture.width - width) / 2, y: picture.y, width, height: picture.height };
  }
  const height = picture.width / ratio;
  return { x: picture.x, y: picture.y + (picture.height - height) / 2, width: picture.width, height };
}
