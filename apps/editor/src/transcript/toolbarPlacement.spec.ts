/** @jest-environment jsdom */
import { TOOLBAR_GAP_PX, isOutsidePress, placeToolbar, unionBox } from './toolbarPlacement';

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

describe('placeToolbar among other words', () => {
  // lines 24 px high, 4 px apart: the selection on the line at 200
  const line = (top: number, from = 0, to = 500) => [{ top, left: from, bottom: top + 20, right: to }];
  const covers = (p: { top: number; left: number }, w: { top: number; left: number; bottom: number; right: number }) =>
    p.top < w.bottom && p.top + size.height > w.top && p.left < w.right && p.left + size.width > w.left;

  it('goes to the nearest place that hides no word at all', () => {
    const words = [...line(148), ...line(172), ...line(224), ...line(248)];
    const placed = placeToolbar({ top: 200, left: 50, bottom: 220, right: 120 }, viewport, size, words);
    expect(placed).toEqual({ top: 268 + TOOLBAR_GAP_PX, left: 50, side: 'below' });
    expect(words.some((w) => covers(placed, w))).toBe(false);
  });

  it('in a view full of words: past a neighbouring line on the nearer side; a line two away may be covered', () => {
    const words = Array.from({ length: 25 }, (_, i) => i * 24 + 4)
      .filter((top) => top !== 196)
      .flatMap((top) => line(top));
    const selection = { top: 196, left: 50, bottom: 216, right: 120 };
    const placed = placeToolbar(selection, viewport, size, words);
    expect(placed).toEqual({ top: 172 - TOOLBAR_GAP_PX - 40, left: 50, side: 'above' });
    const neighbours = words.filter((w) => w.top === 172 || w.top === 220);
    expect(neighbours.some((w) => covers(placed, w))).toBe(false);
  });

  it('stays right above when the line above is short and clear of it, and goes below when that is nearer', () => {
    expect(placeToolbar({ top: 200, left: 50, bottom: 220, right: 120 }, viewport, size, [...line(172, 400, 500), ...line(224)]).top).toBe(200 - TOOLBAR_GAP_PX - 40);
    // a line above, none below (the paragraph ends): right below
    expect(placeToolbar({ top: 200, left: 50, bottom: 220, right: 120 }, viewport, size, [...line(172), ...line(290)])).toEqual({ top: 220 + TOOLBAR_GAP_PX, left: 50, side: 'below' });
  });

  it('never hides a word of the neighbouring lines when the view has room past them', () => {
    for (const top of [52, 100, 300, 500]) {
      const words = [...line(top - 28), ...line(top + 28)];
      const placed = placeToolbar({ top, left: 10, bottom: top + 20, right: 60 }, viewport, size, words);
      expect(words.some((w) => covers(placed, w))).toBe(false);
    }
  });
});

describe('unionBox', () => {
  it('holds every box', () => {
    expect(unionBox([])).toBeNull();
    expect(unionBox([{ top: 5, left: 10, bottom: 20, right: 30 }, { top: 25, left: 0, bottom: 40, right: 15 }])).toEqual({ top: 5, left: 0, bottom: 40, right: 30 });
  });
});

describe('isOutsidePress', () => {
  it('a press on the page or the transcript\'s gaps is elsewhere; on a word, a control or the toolbar it is not', () => {
    document.body.innerHTML = '<main><p id="gap"><span data-word-index="3" id="word">Hi</span></p><button id="btn"><b id="inner">Go</b></button><div id="bar"><i id="in-bar"></i></div><div role="dialog"><p id="in-dialog"></p></div></main>';
    const $ = (id: string) => document.getElementById(id)!;
    expect(isOutsidePress($('gap'), $('bar'))).toBe(true);
    expect(isOutsidePress(document.body, $('bar'))).toBe(true);
    expect(isOutsidePress($('word'), $('bar'))).toBe(false);
    expect(isOutsidePress($('inner'), $('bar'))).toBe(false);
    expect(isOutsidePress($('in-bar'), $('bar'))).toBe(false);
    expect(isOutsidePress($('in-dialog'), $('bar'))).toBe(false);
  });
});
