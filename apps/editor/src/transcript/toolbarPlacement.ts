/** A box in one coordinate space (e.g. relative to the transcript area). */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Space kept between the selection and the toolbar. */
export const TOOLBAR_GAP_PX = 6;

/**
 * Where the selection toolbar goes: just above the selected words, else just below them when
 * there is no room above, kept inside the visible transcript (horizontally too). It covers the
 * selected words only when neither side has room.
 */
export function placeToolbar(selection: Box, viewport: Box, size: { width: number; height: number }): { top: number; left: number; side: 'above' | 'below' } {
  const maxLeft = Math.max(viewport.left, viewport.right - size.width);
  const left = Math.min(Math.max(selection.left, viewport.left), maxLeft);
  const above = selection.top - TOOLBAR_GAP_PX - size.height;
  if (above >= viewport.top) return { top: above, left, side: 'above' };
  const below = selection.bottom + TOOLBAR_GAP_PX;
  if (below + size.height <= viewport.bottom) return { top: below, left, side: 'below' };
  // no room on either side: the side with more space, kept in view
  const top = selection.top - viewport.top >= viewport.bottom - selection.bottom ? viewport.top : Math.max(viewport.top, viewport.bottom - size.height);
  return { top, left, side: top === viewport.top ? 'above' : 'below' };
}

/** The smallest box holding all the boxes, or null for none. */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((a, b) => ({ top: Math.min(a.top, b.top), left: Math.min(a.left, b.left), bottom: Math.max(a.bottom, b.bottom), right: Math.max(a.right, b.right) }));
}
