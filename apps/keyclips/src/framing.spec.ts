import {
  INITIAL_FRAMING,
  RATIO_BUTTONS,
  canZoomIn,
  canZoomOut,
  chooseRatio,
  exportBody,
  exportLabel,
  geometryOf,
  heavyUpscale,
  hintText,
  isClick,
  panAllowed,
  panBy,
  panByKey,
  ratioDescription,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
} from './framing';

const HD = { width: 1920, height: 1080 };
const SMALL = { width: 1280, height: 720 };
const framing = (patch: Partial<Framing> = {}): Framing => ({ ...INITIAL_FRAMING, ...patch });
const label = (f: Framing, size = HD) => exportLabel(f, geometryOf(f, size));

describe('ratio buttons', () => {
  it('offers the six ratios, Original first', () => {
    expect(RATIO_BUTTONS).toEqual(['Original', '16:9', '9:16', '1:1', '4:5', '21:9']);
    expect(ratioDescription('9:16')).toEqual({ name: 'Story', size: '1080x1920' });
    expect(ratioDescription('Original')).toEqual({ name: 'Original', size: 'Native size' });
  });

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

describe('export label', () => {
  it('says Original Clip for the pass-through original', () => {
    expect(label(framing())).toBe('Export Original Clip');
    expect(exportLabel(framing(), null)).toBe('Export Original Clip');
  });

  it('says {ratio} Clip for a matching ratio, (Upscaled) above 1.05', () => {
    expect(label(framing({ ratio: '16:9' }))).toBe('Export 16:9 Clip');
    expect(label(framing({ ratio: '16:9' }), SMALL)).toBe('Export 16:9 Clip (Upscaled)');
    expect(label(framing({ ratio: '16:9' }), { width: 1856, height: 1044 })).toBe('Export 16:9 Clip');
  });

  it('says (Reframed) when cropping or zoomed', () => {
    expect(label(framing({ ratio: '9:16' }))).toBe('Export 9:16 (Reframed)');
    expect(label(framing({ ratio: '16:9', zoom: 1.5 }))).toBe('Export 16:9 (Reframed)');
    expect(label(framing({ ratio: 'Original', zoom: 1.5 }))).toBe('Export Original (Reframed)');
  });
});

describe('heavy upscale, hint, request', () => {
  it('warns from an upscale of 2', () => {
    expect(heavyUpscale(geometryOf(framing({ ratio: '9:16' }), HD))).toBe(false); // 1.78x
    expect(heavyUpscale(geometryOf(framing({ ratio: '9:16', zoom: 1.2 }), HD))).toBe(true); // 2.13x
    expect(heavyUpscale(geometryOf(framing({ ratio: '9:16' }), SMALL))).toBe(true); // 2.67x
    expect(heavyUpscale(null)).toBe(false);
  });

  it('tells what the mode does', () => {
    expect(hintText(framing(), null, null)).toBe('Detecting the video size…');
    expect(hintText(framing(), HD, geometryOf(framing(), HD))).toMatch(/^Pass-through: the clip keeps the original frame \(1920x1080\)/);
    expect(hintText(framing({ ratio: '16:9' }), HD, geometryOf(framing({ ratio: '16:9' }), HD))).toMatch(/already is 16:9/);
    const crop = framing({ ratio: '9:16' });
    expect(hintText(crop, SMALL, geometryOf(crop, SMALL))).toBe(
      'Drag the picture or use the arrow keys to choose what the 1080x1920 clip shows, upscaled 2.7x. Click to play or pause.',
    );
  });

  it('sends the ratio, the reframe and the window the preview shows', () => {
    const f = framing({ ratio: '9:16', zoom: 2, offsetX: 10, offsetY: -5 });
    expect(exportBody(f, geometryOf(f, SMALL))).toEqual({
      aspectRatio: '9:16',
      mode: 'reframe',
      reframe: { offsetX: 10, offsetY: -5, scale: 2 },
      crop: { x: 666.75, y: 144, width: 202.5, height: 360 },
    });
    expect(exportBody(framing(), null)).toEqual({ aspectRatio: 'Original', mode: 'reframe', reframe: { offsetX: 0, offsetY: 0, scale: 1 } });
  });
});
