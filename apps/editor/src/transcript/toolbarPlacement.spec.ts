import { TOOLBAR_GAP_PX, placeToolbar, unionBox } from './toolbarPlacement';

const viewport = { top: 0, left: 0, bottom: 600, right: 500 };
const size = { width: 300, height: 40 };

describe('placeToolbar', () => {
  it('goes just above the selection when there is room', () => {
    expect(placeToolbar({ top: 200, left: 50, bottom: 220, right: 120 }, viewport, size)).toEqual({ top: 200 - TOOLBAR_GAP_PX - 40, left: 50, side: 'above' });
  });

  it('goes below when the selection is at the top of the view', () => {
    expect(placeToolbar({ top: 10, left: 50, bottom: 30, right: 120 }, viewport, size)).toEqual({ top: 30 + TOOLBAR_GAP_PX, left: 50, side: 'below' });
  });

  it('stays inside the view horizontally', () => {
    expect(placeToolbar({ top: 300, left: 450, bottom: 320, right: 490 }, viewport, size).left).toBe(200);
    expect(placeToolbar({ top: 300, left: -20, bottom: 320, right: 40 }, viewport, size).left).toBe(0);
  });

  it('never covers the selected words when either side has room', () => {
    for (const top of [0, 5, 45, 100, 300, 540, 560]) {
      const selection = { top, left: 10, bottom: top + 20, right: 60 };
      const placed = placeToolbar(selection, viewport, size);
      const overlaps = placed.top < selection.bottom && placed.top + size.height > selection.top;
      expect(overlaps).toBe(false);
    }
  });

  it('with no room on either side, stays in view', () => {
    const placed = placeToolbar({ top: 20, left: 0, bottom: 590, right: 100 }, viewport, size);
    expect(placed.top).toBeGreaterThanOrEqual(0);
    expect(placed.top + size.height).toBeLessThanOrEqual(600);
  });
});

describe('unionBox', () => {
  it('holds every box', () => {
    expect(unionBox([])).toBeNull();
    expect(unionBox([{ top: 5, left: 10, bottom: 20, right: 30 }, { top: 25, left: 0, bottom: 40, right: 15 }])).toEqual({ top: 5, left: 0, bottom: 40, right: 30 });
  });
});
