import { INITIAL_FRAMING, canZoomIn, canZoomOut, chooseRatio, fitBox, geometryOf, isClick, panAllowed, panBy, panByKey, previewPictureBox, reframeOf, resetFraming, setZoom, zoomIn, zoomOut, type Framing } from './framing';

const HD = { width: 1920, height: 1080 };
const framing = (patch: Partial<Framing> = {}): Framing => ({ ...INITIAL_FRAMING, ...patch });

describe('ratio', () => {
  it('keeps the zoom and holds the pan to the new window', () => {
    const panned = framing({ ratio: '9:16', zoom: 1, offsetX: 30 });
    const square = chooseRatio(panned, '16:9', HD);
    expect(square).toEqual({ ratio: '16:9', zoom: 1, offsetX: 0, offsetY: 0 });
    const zoomed = chooseRatio(framing({ zoom: 2, offsetX: 40 }), '1:1', HD);
    expect(zoomed.zoom).toBe(2);
    expect(zoomed.offsetX).toBeLessThanOrEqual(50);
  });
});

describe('zoom', () => {
  it('runs from 1 to 2.5 in steps of 0.1, with in, out and reset', () => {
    let f = framing({ ratio: '9:16' });
    expect(canZoomOut(f)).toBe(false);
    f = zoomIn(f, HD);
    expect(f.zoom).toBe(1.1);
    f = setZoom(f, 9, HD);
    expect(f.zoom).toBe(2.5);
    expect(canZoomIn(f)).toBe(false);
    f = zoomOut(f, HD);
    expect(f.zoom).toBe(2.4);
    expect(setZoom(f, 0.2, HD).zoom).toBe(1);
    expect(resetFraming({ ...f, offsetX: 10, offsetY: -4 })).toEqual({ ratio: '9:16', zoom: 1, offsetX: 0, offsetY: 0 });
  });

  it('holds the pan when zooming out shrinks the room', () => {
    const f = panBy(framing({ ratio: '16:9', zoom: 2 }), HD, -10000, 0, 800);
    expect(f.offsetX).toBeCloseTo(25, 9);
    expect(setZoom(f, 1.5, HD).offsetX).toBeCloseTo(((1920 - 1280) / 2 / 1920) * 100, 9);
    expect(setZoom(f, 1, HD).offsetX).toBe(0);
  });
});

describe('pan', () => {
  it('is allowed in cropping modes or when zoomed, once the size is known', () => {
    expect(panAllowed(framing({ ratio: '9:16' }), HD)).toBe(true);
    expect(panAllowed(framing({ ratio: '16:9' }), HD)).toBe(false);
    expect(panAllowed(framing({ ratio: 'Original', zoom: 1.2 }), HD)).toBe(true);
    expect(panAllowed(framing({ ratio: '9:16' }), null)).toBe(false);
    expect(panBy(framing({ ratio: '16:9' }), HD, 100, 100, 800)).toEqual(framing({ ratio: '16:9' }));
  });

  it('follows the pointer: dragging the picture right shows more of its left', () => {
    const f = panBy(framing({ ratio: '9:16' }), HD, 50, 0, 300);
    expect(f.offsetX).toBeLessThan(0);
    expect(f.offsetY).toBe(0);
  });

  it('is clamped so the frame stays covered', () => {
    const f = panBy(framing({ ratio: '9:16' }), HD, 100000, 100000, 300);
    const g = geometryOf(f, HD)!;
    expect(g.crop.x).toBeCloseTo(0, 9);
    expect(g.crop.y).toBe(0);
  });

  it('moves by arrow keys, 5 % of the window a press, five times as far with Shift; other keys are not its', () => {
    const start = framing({ ratio: '9:16' });
    const right = panByKey(start, HD, 'ArrowRight', false)!;
    const far = panByKey(start, HD, 'ArrowRight', true)!;
    // the 9:16 window of 1920x1080 is 607.5 wide: 5 % of it in percent of the frame
    expect(right.offsetX).toBeCloseTo(((0.05 * 607.5) / 1920) * 100, 9);
    expect(far.offsetX).toBeCloseTo(right.offsetX * 5, 9);
    expect(panByKey(framing({ ratio: '9:16', zoom: 2 }), HD, 'ArrowDown', false)!.offsetY).toBeGreaterThan(0);
    expect(panByKey(start, HD, 'a', false)).toBeNull();
  });

  it('counts a press that moved under 5 px as a click', () => {
    expect(isClick(3, 3)).toBe(true);
    expect(isClick(4, 3)).toBe(false);
    expect(isClick(0, 5)).toBe(false);
  });
});

describe('preview box', () => {
  it('scales and moves the picture so the window fills the box', () => {
    const f = framing({ ratio: '9:16', zoom: 2, offsetX: 10 });
    const g = geometryOf(f, HD)!;
    const box = previewPictureBox(g, HD, 270);
    const k = 270 / g.crop.width;
    expect(box.width).toBeCloseTo(1920 * k, 9);
    expect(box.height).toBeCloseTo(1080 * k, 9);
    expect(box.left).toBeCloseTo(-g.crop.x * k, 9);
    expect(box.top).toBeCloseTo(-g.crop.y * k, 9);
    // the window's far corner lands on the box's far corner
    expect(box.left + (g.crop.x + g.crop.width) * k).toBeCloseTo(270, 9);
    expect(box.top + (g.crop.y + g.crop.height) * k).toBeCloseTo(480, 9);
  });

  it('shows the whole frame for a pass-through', () => {
    const g = geometryOf(framing(), HD)!;
    expect(previewPictureBox(g, HD, 480)).toEqual({ left: -0, top: -0, width: 480, height: 270 });
  });

  it('fits a box of the ratio into the stage', () => {
    expect(fitBox(400, 300, 9 / 16)).toEqual({ width: 168.75, height: 300 });
    expect(fitBox(400, 300, 16 / 9)).toEqual({ width: 400, height: 225 });
    expect(fitBox(0, 300, 1)).toEqual({ width: 0, height: 0 });
    expect(fitBox(400, 300, NaN)).toEqual({ width: 0, height: 0 });
  });

  it('gives the render its zoom and pan', () => {
    expect(reframeOf(framing({ ratio: '9:16', zoom: 1.5, offsetX: 3, offsetY: -2 }))).toEqual({ offsetX: 3, offsetY: -2, scale: 1.5 });
  });
});
