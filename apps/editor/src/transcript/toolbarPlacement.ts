/** A box in one coordinate space (e.g. relative to the transcript area). */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Space kept between the selection and the toolbar. */
export const TOOLBAR_GAP_PX = 6;

/** Boxes this close in height (px) are on one line. */
const SAME_LINE_PX = 2;

/** The words of the line right above `selection` (the nearest row ending at or above its top). */
function lineAbove(selection: Box, words: readonly Box[]): Box[] {
  const above = words.filter((w) => w.bottom <= selection.top + SAME_LINE_PX && w.top < selection.top);
  const bottom = Math.max(...above.map((w) => w.bottom));
  return above.filter((w) => w.bottom >= bottom - SAME_LINE_PX);
}

/** The words of the line right below `selection`. */
function lineBelow(selection: Box, words: readonly Box[]): Box[] {
  const below = words.filter((w) => w.top >= selection.bottom - SAME_LINE_PX && w.bottom > selection.bottom);
  const top = Math.min(...below.map((w) => w.top));
  return below.filter((w) => w.top <= top + SAME_LINE_PX);
}

const overlapsAcross = (w: Box, left: number, right: number): boolean => w.left < right && w.right > left;

/**
 * Where the selection toolbar goes: above the selected words, else below them, kept inside the
 * visible transcript (horizontally too), and never over a word of the lines right before and after
 * the selection (`words`: the other words on screen). Where the view has a place that hides no word
 * at all, it goes to the nearest one; else past the neighbouring line on the nearer side (above on
 * a tie). It covers the selection or a neighbouring line only when neither side has room.
 */
export function placeToolbar(selection: Box, viewport: Box, size: { width: number; height: number }, words: readonly Box[] = []): { top: number; left: number; side: 'above' | 'below' } {
  const maxLeft = Math.max(viewport.left, viewport.right - size.width);
  const left = Math.min(Math.max(selection.left, viewport.left), maxLeft);
  const right = left + size.width;
  // the neighbouring line's words the toolbar would cover right next to the selection
  const nextTop = selection.top - TOOLBAR_GAP_PX - size.height;
  const nextBottom = selection.bottom + TOOLBAR_GAP_PX + size.height;
  const blockAbove = lineAbove(selection, words).filter((w) => overlapsAcross(w, left, right) && w.bottom > nextTop);
  const blockBelow = lineBelow(selection, words).filter((w) => overlapsAcross(w, left, right) && w.top < nextBottom);
  const above = Math.min(selection.top, ...blockAbove.map((w) => w.top)) - TOOLBAR_GAP_PX - size.height;
  const below = Math.max(selection.bottom, ...blockBelow.map((w) => w.bottom)) + TOOLBAR_GAP_PX;
  // a place that hides no word at all, the nearer side first, when the view has one
  const free = freeSlot(selection, viewport, size, left, words);
  if (free) return { top: free.top, left, side: free.side };
  const fitsAbove = above >= viewport.top;
  const fitsBelow = below + size.height <= viewport.bottom;
  if (fitsAbove && (!fitsBelow || selection.top - (above + size.height) <= below - selection.bottom)) return { top: above, left, side: 'above' };
  if (fitsBelow) return { top: below, left, side: 'below' };
  // no room past the neighbouring lines: next to the selection, as before
  const nextAbove = selection.top - TOOLBAR_GAP_PX - size.height;
  if (nextAbove >= viewport.top) return { top: nextAbove, left, side: 'above' };
  const nextBelow = selection.bottom + TOOLBAR_GAP_PX;
  if (nextBelow + size.height <= viewport.bottom) return { top: nextBelow, left, side: 'below' };
  // no room on either side: the side with more space, kept in view
  const top = selection.top - viewport.top >= viewport.bottom - selection.bottom ? viewport.top : Math.max(viewport.top, viewport.bottom - size.height);
  return { top, left, side: top === viewport.top ? 'above' : 'below' };
}

/** The nearest top above and below the selection where the toolbar covers no word, or null. */
function freeSlot(selection: Box, viewport: Box, size: { width: number; height: number }, left: number, words: readonly Box[]): { top: number; side: 'above' | 'below' } | null {
  const right = left + size.width;
  const across = words.filter((w) => overlapsAcross(w, left, right));
  const hit = (top: number) => across.filter((w) => w.top < top + size.height && w.bottom > top);
  let up: number | null = selection.top - TOOLBAR_GAP_PX - size.height;
  for (let h = hit(up); up !== null && h.length > 0; h = up === null ? [] : hit(up)) {
    const next: number = Math.min(...h.map((w) => w.top)) - TOOLBAR_GAP_PX - size.height;
    up = next >= viewport.top ? next : null;
  }
  if (up !== null && up < viewport.top) up = null;
  let down: number | null = selection.bottom + TOOLBAR_GAP_PX;
  for (let h = hit(down); down !== null && h.length > 0; h = down === null ? [] : hit(down)) {
    const next: number = Math.max(...h.map((w) => w.bottom)) + TOOLBAR_GAP_PX;
    down = next + size.height <= viewport.bottom ? next : null;
  }
  if (down !== null && down + size.height > viewport.bottom) down = null;
  if (up === null && down === null) return null;
  if (down === null || (up !== null && selection.top - (up + size.height) <= down - selection.bottom)) return { top: up!, side: 'above' };
  return { top: down, side: 'below' };
}

/** The smallest box holding all the boxes, or null for none. */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((a, b) => ({ top: Math.min(a.top, b.top), left: Math.min(a.left, b.left), bottom: Math.max(a.bottom, b.bottom), right: Math.max(a.right, b.right) }));
}

/** Elements a press on which keeps the selection: words, controls, menus and dialogs. */
const KEEPS_SELECTION = '[data-word-index], button, input, select, textarea, a[href], label, [role="menu"], [role="menuitem"], [role="dialog"], [role="toolbar"], [contenteditable="true"]';

/** True when a press on `target` means "elsewhere": not on a word, a control, a menu, a dialog or the toolbar. */
export function isOutsidePress(target: Element, toolbar: Element | null): boolean {
  if (toolbar?.contains(target)) return false;
  return target.closest(KEEPS_SELECTION) === null;
}
