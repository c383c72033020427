import fc from 'fast-check';
import { ASPECT_RATIO_IDS, ASPECT_RATIOS, DEFAULT_REFRAME, RATIO_MATCH_TOLERANCE, planReframe, type AspectRatioId, type ReframePlan } from './reframe';

type TargetId = Exclude<AspectRatioId, 'Original'>;
const TARGETS = ASPECT_RATIO_IDS.filter((id): id is TargetId => id !== 'Original');

interface CropChain {
  sw: number;
  sh: number;
  cw: number;
  ch: number;
  x: number;
  y: number;
  pad: { w: number; h: number; x: number; y: number } | null;
}

/** Reads back the scale/crop/pad chain of a crop-mode plan (fails the test on any other shape). */
function parseCrop(plan: ReframePlan): CropChain {
  const m = /^scale=(\d+):(\d+):flags=lanczos,crop=(\d+):(\d+):(\d+):(\d+)(?:,pad=(\d+):(\d+):(\d+):(\d+):black)?,setsar=1$/.exec(plan.filter ?? '');
  if (!m) throw new Error(`unexpected filter: ${plan.filter}`);
  const n = m.slice(1).map((v) => (v === undefined ? NaN : Number(v)));
  const [sw, sh, cw, ch, x, y, pw, ph, px, py] = n as [number, number, number, number, number, number, number, number, number, number];
  return { sw, sh, cw, ch, x, y, pad: Number.isNaN(pw) ? null : { w: pw, h: ph, x: px, y: py } };
}

describe('ASPECT_RATIOS', () => {
  it('lists the six ratios at their export sizes', () => {
    expect(ASPECT_RATIO_IDS).toEqual(['16:9', '9:16', '1:1', '4:5', '21:9', 'Original']);
    expect(ASPECT_RATIOS['16:9']).toEqual({ name: 'Landscape', width: 1920, height: 1080 });
    expect(ASPECT_RATIOS['9:16']).toEqual({ name: 'Story', width: 1080, height: 1920 });
    expect(ASPECT_RATIOS['1:1']).toEqual({ name: 'Square', width: 1080, height: 1080 });
    expect(ASPECT_RATIOS['4:5']).toEqual({ name: 'Portrait', width: 1080, height: 1350 });
    expect(ASPECT_RATIOS['21:9']).toEqual({ name: 'Cinematic', width: 2560, height: 1080 });
    expect(ASPECT_RATIOS.Original).toEqual({ name: 'Original', width: 0, height: 0 });
  });

  it('uses even export sizes whose ratio matches the name (21:9 as the 2560x1080 ultrawide)', () => {
    const nominal: Record<TargetId, number> = { '16:9': 16 / 9, '9:16': 9 / 16, '1:1': 1, '4:5': 4 / 5, '21:9': 2560 / 1080 };
    for (const id of TARGETS) {
      const { width, height } = ASPECT_RATIOS[id];
      expect(width % 2).toBe(0);
      expect(height % 2).toBe(0);
      expect(width / height).toBeCloseTo(nominal[id], 9);
    }
  });
});

describe('planReframe', () => {
  it('keeps the native size without a filter for Original', () => {
    expect(planReframe(1920, 1080, 'Original')).toEqual({ mode: 'original', width: 1920, height: 1080, filter: null });
    // a pan alone cannot move a window that is the whole frame
    expect(planReframe(720, 1280, 'Original', { offsetX: 30, offsetY: 0, scale: 1 })).toEqual({ mode: 'original', width: 720, height: 1280, filter: null });
  });

  it('crops a zoomed Original at the native size', () => {
    // zoom 2: the frame scaled to 1440x2560, the native-size window 720x1280 at the clamped pan (+25 % of 1440 = 360 right of centre)
    expect(planReframe(720, 1280, 'Original', { offsetX: 30, offsetY: 0, scale: 2 })).toEqual({
      mode: 'crop',
      width: 720,
      height: 1280,
      filter: 'scale=1440:2560:flags=lanczos,crop=720:1280:720:640,setsar=1',
    });
  });

  it('scales straight to the export size when the source already has the ratio', () => {
    const plan = { mode: 'ratio-match', width: 1920, height: 1080, filter: 'scale=1920:1080:flags=lanczos,setsar=1' };
    expect(planReframe(1280, 720, '16:9')).toEqual(plan);
    expect(planReframe(3840, 2160, '16:9', DEFAULT_REFRAME)).toEqual(plan);
    expect(planReframe(854, 480, '16:9')).toEqual(plan); // 1.779: within the tolerance
    expect(planReframe(720, 1280, '9:16')).toEqual({ mode: 'ratio-match', width: 1080, height: 1920, filter: 'scale=1080:1920:flags=lanczos,setsar=1' });
    expect(planReframe(500, 500, '1:1').mode).toBe('ratio-match');
  });

  it('matches ratios within RATIO_MATCH_TOLERANCE only', () => {
    expect(RATIO_MATCH_TOLERANCE).toBe(0.01);
    expect(planReframe(1000, 560, '16:9').mode).toBe('ratio-match'); // 1.7857: 0.008 off
    expect(planReframe(1000, 555, '16:9').mode).toBe('crop'); // 1.8018: 0.024 off
    expect(planReframe(1920, 1088, '16:9').mode).toBe('crop'); // 1.7647: 0.013 off, cropped rather than stretched
  });

  it('crops a landscape source to a centred story window', () => {
    // cover: 1920/1080 = 1.778 -> 3413.3 x 1920, rounded to even 3414; window 1080 wide, centred at (3414-1080)/2
    expect(planReframe(1920, 1080, '9:16')).toEqual({
      mode: 'crop',
      width: 1080,
      height: 1920,
      filter: 'scale=3414:1920:flags=lanczos,crop=1080:1920:1167:0,setsar=1',
    });
  });

  it('pans by a percentage of the scaled frame, clamped to its edges', () => {
    const x = (offsetX: number): number => parseCrop(planReframe(1920, 1080, '9:16', { offsetX, offsetY: 0, scale: 1 })).x;
    expect(x(10)).toBe(1508); // 1167 + 341.4
    expect(x(-10)).toBe(826); // 1167 - 341.4
    expect(x(100)).toBe(3414 - 1080);
    expect(x(-100)).toBe(0);
    expect(x(1e6)).toBe(3414 - 1080);
    // vertical pan of a 4:3 source into 16:9
    const y = (offsetY: number): number => parseCrop(planReframe(1440, 1080, '16:9', { offsetX: 0, offsetY, scale: 1 })).y;
    expect(y(0)).toBe(180);
    expect(y(-100)).toBe(0);
    expect(y(100)).toBe(360);
  });

  it('leaves ratio-match for a crop when the source matches but is panned or zoomed', () => {
    expect(planReframe(1920, 1080, '16:9', { offsetX: 0, offsetY: 0, scale: 1.5 })).toEqual({
      mode: 'crop',
      width: 1920,
      height: 1080,
      filter: 'scale=2880:1620:flags=lanczos,crop=1920:1080:480:270,setsar=1',
    });
    expect(planReframe(1920, 1080, '16:9', { offsetX: 5, offsetY: 0, scale: 1.2 }).mode).toBe('crop');
    // a pan of the whole frame is held at the centre: still a plain scale
    expect(planReframe(1920, 1080, '16:9', { offsetX: 5, offsetY: -5, scale: 1 }).mode).toBe('ratio-match');
  });

  it('pads with black when a zoom below 1 leaves the frame smaller than the target', () => {
    // cover 1.778 * 0.5 -> 1706 x 960: full width is kept (1706 > 1080), the height is padded 480 above and below
    expect(planReframe(1920, 1080, '9:16', { offsetX: 0, offsetY: 0, scale: 0.5 })).toEqual({
      mode: 'crop',
      width: 1080,
      height: 1920,
      filter: 'scale=1706:960:flags=lanczos,crop=1080:960:313:0,pad=1080:1920:0:480:black,setsar=1',
    });
  });

  it('treats a missing, zero, negative or infinite zoom as 1', () => {
    for (const scale of [0, -2, NaN, Infinity]) {
      expect(planReframe(1920, 1080, '16:9', { offsetX: 0, offsetY: 0, scale })).toEqual(planReframe(1920, 1080, '16:9'));
      expect(planReframe(1920, 1080, '9:16', { offsetX: 0, offsetY: 0, scale })).toEqual(planReframe(1920, 1080, '9:16'));
    }
  });

  it('rejects sources without a positive size', () => {
    expect(() => planReframe(0, 1080, '16:9')).toThrow(RangeError);
    expect(() => planReframe(1920, -1, '16:9')).toThrow(RangeError);
    expect(() => planReframe(NaN, 1080, 'Original')).toThrow(RangeError);
  });

  it('gives even output sizes for Original', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8000 }), fc.integer({ min: 1, max: 8000 }), (w, h) => {
        const plan = planReframe(w, h, 'Original');
        expect(plan.width % 2).toBe(0);
        expect(plan.height % 2).toBe(0);
        expect(Math.abs(plan.width - w)).toBeLessThanOrEqual(1);
        expect(Math.abs(plan.height - h)).toBeLessThanOrEqual(1);
      }),
    );
  });

  // libx264 refuses odd 4:2:0 sizes: the plan's size is what its filter produces
  it('produces the even size it reports for an odd-sized Original source (needs a filter)', () => {
    const plan = planReframe(1081, 1921, 'Original');
    expect(plan.width % 2).toBe(0);
    expect(plan.height % 2).toBe(0);
    expect(plan.filter).not.toBeNull();
  });

  const arbReframe = fc.record({
    offsetX: fc.double({ min: -150, max: 150, noNaN: true }),
    offsetY: fc.double({ min: -150, max: 150, noNaN: true }),
    scale: fc.double({ min: 0.2, max: 4, noNaN: true }),
  });
  const arbSize = fc.integer({ min: 16, max: 8000 });

  it('always outputs the export size of the ratio, crop windows inside the scaled frame', () => {
    fc.assert(
      fc.property(arbSize, arbSize, fc.constantFrom(...TARGETS), arbReframe, (w, h, id, reframe) => {
        const { width: W, height: H } = ASPECT_RATIOS[id];
        const plan = planReframe(w, h, id, reframe);
        expect([plan.width, plan.height]).toEqual([W, H]);
        if (plan.mode === 'ratio-match') {
          expect(plan.filter).toBe(`scale=${W}:${H}:flags=lanczos,setsar=1`);
          return;
        }
        expect(plan.mode).toBe('crop');
        const c = parseCrop(plan);
        // scaled frame: even, the source's ratio (within rounding), covering the target times the zoom
        expect(c.sw % 2).toBe(0);
        expect(c.sh % 2).toBe(0);
        const cover = Math.max(W / w, H / h) * reframe.scale;
        expect(Math.abs(c.sw - w * cover)).toBeLessThanOrEqual(1 + 1e-6);
        expect(Math.abs(c.sh - h * cover)).toBeLessThanOrEqual(1 + 1e-6);
        // crop window: the target, or the whole scaled side where that is smaller; inside the frame
        expect(c.cw).toBe(Math.min(W, c.sw));
        expect(c.ch).toBe(Math.min(H, c.sh));
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.y).toBeGreaterThanOrEqual(0);
        expect(c.x + c.cw).toBeLessThanOrEqual(c.sw);
        expect(c.y + c.ch).toBeLessThanOrEqual(c.sh);
        // pad exactly when the window is smaller than the target, centred, to the target size
        if (c.cw < W || c.ch < H) {
          expect(c.pad).toEqual({ w: W, h: H, x: (W - c.cw) / 2, y: (H - c.ch) / 2 });
        } else {
          expect(c.pad).toBeNull();
        }
        if (reframe.scale >= 1) expect(c.pad).toBeNull();
        if (reframe.scale <= 0.99) expect(c.pad).not.toBeNull();
      }),
    );
  });

  it('takes the ratio-match path exactly when the ratio matches within 0.01 with no pan or zoom', () => {
    fc.assert(
      fc.property(arbSize, arbSize, fc.constantFrom(...TARGETS), (w, h, id) => {
        const { width: W, height: H } = ASPECT_RATIOS[id];
        const matches = Math.abs(w / h - W / H) <= RATIO_MATCH_TOLERANCE;
        expect(planReframe(w, h, id).mode).toBe(matches ? 'ratio-match' : 'crop');
        if (w * H === h * W) expect(planReframe(w, h, id, { offsetX: 1, offsetY: 1, scale: 1 }).mode).toBe('ratio-match');
        else expect(planReframe(w, h, id, { offsetX: 1, offsetY: 1, scale: 1 }).mode).toBe('crop');
        expect(planReframe(w, h, id, { offsetX: 0, offsetY: 0, scale: 1.1 }).mode).toBe('crop');
      }),
    );
  });

  it('moves the window monotonically with the offset and centres it at 0', () => {
    fc.assert(
      fc.property(
        arbSize,
        arbSize,
        fc.constantFrom(...TARGETS),
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: 0.2, max: 4, noNaN: true }),
        (w, h, id, a, b, scale) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const at = (offsetX: number, offsetY: number): CropChain => parseCrop(planReframe(w, h, id, { offsetX, offsetY, scale: Math.abs(scale - 1) < 1e-6 ? 1.5 : scale }));
          expect(at(lo, 0).x).toBeLessThanOrEqual(at(hi, 0).x);
          expect(at(0, lo).y).toBeLessThanOrEqual(at(0, hi).y);
          const centred = at(0, 0);
          expect(Math.abs(centred.x - (centred.sw - centred.cw) / 2)).toBeLessThanOrEqual(0.5);
          expect(Math.abs(centred.y - (centred.sh - centred.ch) / 2)).toBeLessThanOrEqual(0.5);
        },
      ),
    );
  });
});
