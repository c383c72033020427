import fc from 'fast-check';
import {
  ASPECT_RATIO_IDS,
  canPan,
  clampReframe,
  clampZoom,
  exportSize,
  isHeavyUpscale,
  maxOffset,
  panByDrag,
  ratioMatches,
  reframeFromCrop,
  reframeGeometry,
  scaleKind,
  type AspectRatioId,
} from './reframe';

const TARGETS = ASPECT_RATIO_IDS.filter((id) => id !== 'Original');

describe('reframeGeometry', () => {
  it('passes Original through at zoom 1 without pan', () => {
    expect(reframeGeometry(1280, 720, 'Original')).toEqual({
      mode: 'original',
      width: 1280,
      height: 720,
      reframe: { offsetX: 0, offsetY: 0, scale: 1 },
      crop: { x: 0, y: 0, width: 1280, height: 720 },
      upscale: 1,
    });
  });

  it('scales a source of the ratio (within 0.01) to the export size', () => {
    const g = reframeGeometry(1280, 720, '16:9');
    expect(g.mode).toBe('ratio-match');
    expect([g.width, g.height]).toEqual([1920, 1080]);
    expect(g.upscale).toBeCloseTo(1.5, 9);
    expect(reframeGeometry(854, 480, '16:9').mode).toBe('ratio-match');
    expect(reframeGeometry(1000, 555, '16:9').mode).toBe('crop');
  });

  it('keeps the centred window of the ratio at zoom 1', () => {
    const g = reframeGeometry(1920, 1080, '9:16');
    expect(g.mode).toBe('crop');
    expect(g.crop.width).toBeCloseTo(607.5, 9);
    expect(g.crop.height).toBeCloseTo(1080, 9);
    expect(g.crop.x).toBeCloseTo((1920 - 607.5) / 2, 9);
    expect(g.crop.y).toBe(0);
    expect(g.upscale).toBeCloseTo(1920 / 1080, 9);
  });

  it('shrinks the window by the zoom and moves its centre by the pan, in percent of the frame', () => {
    const g = reframeGeometry(1280, 720, '9:16', { offsetX: 10, offsetY: -5, scale: 2 });
    // zoom 1: 405 x 720; zoom 2: 202.5 x 360
    expect(g.crop.width).toBeCloseTo(202.5, 9);
    expect(g.crop.height).toBeCloseTo(360, 9);
    expect(g.crop.x + g.crop.width / 2).toBeCloseTo(640 + 128, 9);
    expect(g.crop.y + g.crop.height / 2).toBeCloseTo(360 - 36, 9);
    expect(g.reframe).toEqual({ offsetX: 10, offsetY: -5, scale: 2 });
    expect(g.upscale).toBeCloseTo(1920 / 360, 9);
  });

  it('clamps the pan so the window stays on the frame', () => {
    const g = reframeGeometry(1280, 720, '9:16', { offsetX: 90, offsetY: -90, scale: 2 });
    expect(g.crop.x + g.crop.width).toBeCloseTo(1280, 9);
    expect(g.crop.y).toBeCloseTo(0, 9);
    expect(g.reframe.offsetX).toBeCloseTo(maxOffset(1280, 202.5), 9);
    expect(g.reframe.offsetY).toBeCloseTo(-maxOffset(720, 360), 9);
  });

  it('holds a pan of a window as large as the frame at the centre: still a pass-through', () => {
    expect(reframeGeometry(1920, 1080, '16:9', { offsetX: 20, offsetY: 20, scale: 1 }).mode).toBe('ratio-match');
    expect(reframeGeometry(1920, 1080, 'Original', { offsetX: 20, offsetY: 0, scale: 1 }).mode).toBe('original');
    // the window of 9:16 is as tall as the frame: only a horizontal pan
    expect(reframeGeometry(1920, 1080, '9:16', { offsetX: 0, offsetY: 40, scale: 1 }).reframe.offsetY).toBe(0);
  });

  it('crops a zoomed Original at the native size and ratio', () => {
    const g = reframeGeometry(1280, 720, 'Original', { offsetX: 0, offsetY: 0, scale: 2 });
    expect(g.mode).toBe('crop');
    expect([g.width, g.height]).toEqual([1280, 720]);
    expect(g.crop).toEqual({ x: 320, y: 180, width: 640, height: 360 });
    expect(g.upscale).toBe(2);
  });

  it('shows the whole side and pads below zoom 1', () => {
    const g = reframeGeometry(1920, 1080, '9:16', { offsetX: 0, offsetY: 30, scale: 0.5 });
    expect(g.crop.height).toBe(1080);
    expect(g.crop.y).toBe(0);
    expect(g.reframe.offsetY).toBe(0);
  });

  it('rejects a source without a positive size', () => {
    expect(() => reframeGeometry(0, 720, '16:9')).toThrow(RangeError);
    expect(() => reframeGeometry(1280, NaN, 'Original')).toThrow(RangeError);
  });

  const arbSize = fc.integer({ min: 16, max: 8000 });
  const arbRatio = fc.constantFrom<AspectRatioId>(...ASPECT_RATIO_IDS);
  const arbReframe = fc.record({
    offsetX: fc.double({ min: -200, max: 200, noNaN: true }),
    offsetY: fc.double({ min: -200, max: 200, noNaN: true }),
    scale: fc.double({ min: 1, max: 2.5, noNaN: true }),
  });

  it('keeps the frame covered: a window of the export ratio, inside the source, at zoom 1 or more', () => {
    fc.assert(
      fc.property(arbSize, arbSize, arbRatio, arbReframe, (w, h, ratio, reframe) => {
        const g = reframeGeometry(w, h, ratio, reframe);
        expect(g.crop.x).toBeGreaterThanOrEqual(-1e-6);
        expect(g.crop.y).toBeGreaterThanOrEqual(-1e-6);
        expect(g.crop.x + g.crop.width).toBeLessThanOrEqual(w + 1e-6);
        expect(g.crop.y + g.crop.height).toBeLessThanOrEqual(h + 1e-6);
        if (g.mode === 'crop') {
          expect(g.crop.width / g.crop.height).toBeCloseTo(g.width / g.height, 6);
          expect(g.crop.width * g.upscale).toBeCloseTo(g.width, 6);
        }
        // the clamped pan is a fixed point
        expect(reframeGeometry(w, h, ratio, g.reframe)).toEqual(g);
      }),
    );
  });

  it('passes through exactly when the ratio matches within 0.01 at zoom 1 with no pan', () => {
    fc.assert(
      fc.property(arbSize, arbSize, fc.constantFrom<AspectRatioId>(...TARGETS), (w, h, ratio) => {
        expect(reframeGeometry(w, h, ratio).mode).toBe(ratioMatches(w, h, ratio) ? 'ratio-match' : 'crop');
        expect(reframeGeometry(w, h, ratio, { offsetX: 0, offsetY: 0, scale: 1.1 }).mode).toBe('crop');
      }),
    );
  });
});

describe('exportSize and ratioMatches', () => {
  it('answers the six sizes, Original native and even', () => {
    expect(exportSize(1280, 720, '9:16')).toEqual({ width: 1080, height: 1920 });
    expect(exportSize(1281, 721, 'Original')).toEqual({ width: 1280, height: 720 });
    expect(ratioMatches(1280, 720, '16:9')).toBe(true);
    expect(ratioMatches(1280, 720, '1:1')).toBe(false);
    expect(ratioMatches(7, 3, 'Original')).toBe(true);
  });
});

describe('clampZoom and clampReframe', () => {
  it('holds the zoom to 1..2.5 in steps of 0.1', () => {
    expect(clampZoom(0.4)).toBe(1);
    expect(clampZoom(3)).toBe(2.5);
    expect(clampZoom(1.26)).toBe(1.3);
    expect(clampZoom(1.1 + 0.1)).toBe(1.2);
    expect(clampZoom(NaN)).toBe(1);
  });

  it('holds the pan for the zoom', () => {
    expect(clampReframe(1280, 720, '16:9', { offsetX: 50, offsetY: 0, scale: 2 })).toEqual({ offsetX: 25, offsetY: 0, scale: 2 });
    expect(clampReframe(1280, 720, '16:9', { offsetX: 50, offsetY: 0, scale: 1 })).toEqual({ offsetX: 0, offsetY: 0, scale: 1 });
  });
});

describe('panByDrag', () => {
  it('moves the window against the drag, by the preview pixels in source pixels', () => {
    // 9:16 of 1280x720 at zoom 1: a 405-pixel window shown 270 pixels wide, 1.5 source pixels a preview pixel
    const next = panByDrag(1280, 720, '9:16', { offsetX: 0, offsetY: 0, scale: 1 }, 20, 0, 270);
    expect(next.offsetX).toBeCloseTo((-30 / 1280) * 100, 9);
    expect(next.offsetY).toBe(0);
  });

  it('stops at the frame edges', () => {
    const next = panByDrag(1280, 720, '9:16', { offsetX: 0, offsetY: 0, scale: 1 }, -10000, 0, 270);
    expect(next.offsetX).toBeCloseTo(maxOffset(1280, 405), 9);
  });
});

describe('canPan, scaleKind, isHeavyUpscale', () => {
  it('pans in cropping modes or when zoomed', () => {
    expect(canPan(1280, 720, '9:16', 1)).toBe(true);
    expect(canPan(1280, 720, '16:9', 1)).toBe(false);
    expect(canPan(1280, 720, 'Original', 1)).toBe(false);
    expect(canPan(1280, 720, 'Original', 1.5)).toBe(true);
  });

  it('names the scale: upscaled above 1.05, downscaled below 0.95, heavy from 2', () => {
    expect(scaleKind(1.05)).toBe('native');
    expect(scaleKind(1.06)).toBe('upscaled');
    expect(scaleKind(0.94)).toBe('downscaled');
    expect(isHeavyUpscale(1.99)).toBe(false);
    expect(isHeavyUpscale(2)).toBe(true);
  });
});

describe('reframeFromCrop', () => {
  it('answers the zoom and pan whose window is the rectangle', () => {
    const reframe = { offsetX: 12, offsetY: -8, scale: 1.7 };
    const g = reframeGeometry(1280, 720, '9:16', reframe);
    const back = reframeFromCrop(1280, 720, '9:16', g.crop);
    expect(back.scale).toBeCloseTo(1.7, 9);
    expect(back.offsetX).toBeCloseTo(12, 6);
    expect(back.offsetY).toBeCloseTo(-8, 6);
  });

  it('holds an impossible rectangle to the range and the frame', () => {
    expect(reframeFromCrop(1280, 720, '16:9', { x: -500, y: 0, width: 5000, height: 3000 })).toEqual({ offsetX: 0, offsetY: 0, scale: 1 });
    const tiny = reframeFromCrop(1280, 720, '16:9', { x: 1270, y: 710, width: 4, height: 4 });
    expect(tiny.scale).toBe(2.5);
    expect(tiny.offsetX).toBeCloseTo(maxOffset(1280, 512), 9);
  });
});
