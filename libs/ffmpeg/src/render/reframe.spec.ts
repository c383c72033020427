import fc from 'fast-check';
import { reframeGeometry } from '@wordcut/edit-list';
import { ASPECT_RATIO_IDS, ASPECT_RATIOS, DEFAULT_REFRAME, RATIO_MATCH_TOLERANCE, planReframe, type AspectRatioId, type ReframePlan } from './reframe';

type TargetId = Exclude<AspectRatioId, 'Original'>;
const TARGETS = ASPECT_RATIO_IDS.filter((id): id is TargetId => id !== 'Original');

interface CropChain {
  cw: number;
  ch: number;
  x: number;
  y: number;
  /** the size the window is scaled to */
  ow: number;
  oh: number;
  pad: { w: number; h: number; x: number; y: number } | null;
}

/** Reads back the crop/scale/pad chain of a crop-mode plan (fails the test on any other shape). */
function parseCrop(plan: ReframePlan): CropChain {
  const m = /^crop=(\d+):(\d+):(\d+):(\d+),scale=(\d+):(\d+):flags=lanczos(?:,pad=(\d+):(\d+):(\d+):(\d+):black)?,setsar=1$/.exec(plan.filter ?? '');
  if (!m) throw new Error(`unexpected filter: ${plan.filter}`);
  const n = m.slice(1).map((v) => (v === undefined ? NaN : Number(v)));
  const [cw, ch, x, y, ow, oh, pw, ph, px, py] = n as [number, number, number, number, number, number, number, number, number, number];
  return { cw, ch, x, y, ow, oh, pad: Number.isNaN(pw) ? null : { w: pw, h: ph, x: px, y: py } };
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
    // zoom 2: a 360x640 window at the clamped pan (+25 % of 720 = 180 right of centre), scaled to the native size
    expect(planReframe(720, 1280, 'Original', { offsetX: 30, offsetY: 0, scale: 2 })).toEqual({
      mode: 'crop',
      width: 720,
      height: 1280,
      filter: 'crop=360:640:360:320,scale=720:1280:flags=lanczos,setsar=1',
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
    // the 9:16 window of 1920x1080 is 607.5 x 1080 (608 whole pixels), centred at 656.25, then scaled: only the kept pixels are scaled
    expect(planReframe(1920, 1080, '9:16')).toEqual({
      mode: 'crop',
      width: 1080,
      height: 1920,
      filter: 'crop=608:1080:656:0,scale=1080:1920:flags=lanczos,setsar=1',
    });
  });

  it('pans by a percentage of the frame, clamped to its edges', () => {
    const x = (offsetX: number): number => parseCrop(planReframe(1920, 1080, '9:16', { offsetX, offsetY: 0, scale: 1 })).x;
    expect(x(10)).toBe(848); // 656.25 + 192
    expect(x(-10)).toBe(464); // 656.25 - 192
    expect(x(100)).toBe(1920 - 608);
    expect(x(-100)).toBe(0);
    expect(x(1e6)).toBe(1920 - 608);
    // vertical pan of a 4:3 source into 16:9: a 1440x810 window
    const y = (offsetY: number): number => parseCrop(planReframe(1440, 1080, '16:9', { offsetX: 0, offsetY, scale: 1 })).y;
    expect(y(0)).toBe(135);
    expect(y(-100)).toBe(0);
    expect(y(100)).toBe(270);
  });

  it('leaves ratio-match for a crop when the source matches but is panned or zoomed', () => {
    expect(planReframe(1920, 1080, '16:9', { offsetX: 0, offsetY: 0, scale: 1.5 })).toEqual({
      mode: 'crop',
      width: 1920,
      height: 1080,
      filter: 'crop=1280:720:320:180,scale=1920:1080:flags=lanczos,setsar=1',
    });
    expect(planReframe(1920, 1080, '16:9', { offsetX: 5, offsetY: 0, scale: 1.2 }).mode).toBe('crop');
    // a pan of the whole frame is held at the centre: still a plain scale
    expect(planReframe(1920, 1080, '16:9', { offsetX: 5, offsetY: -5, scale: 1 }).mode).toBe('ratio-match');
  });

  it('pads with black when a zoom below 1 leaves the frame smaller than the target', () => {
    // cover 1.778 * 0.5 = 0.889: a 1215 x 1080 window (the whole height) becomes 1080 x 960, padded 480 above and below
    expect(planReframe(1920, 1080, '9:16', { offsetX: 0, offsetY: 0, scale: 0.5 })).toEqual({
      mode: 'crop',
      width: 1080,
      height: 1920,
      filter: 'crop=1215:1080:353:0,scale=1080:960:flags=lanczos,pad=1080:1920:0:480:black,setsar=1',
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

  it('always outputs the export size of the ratio, the window inside the frame and as the geometry says', () => {
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
        // the window: the geometry's, in whole source pixels, inside the frame
        const g = reframeGeometry(w, h, id, reframe);
        expect(Math.abs(c.cw - g.crop.width)).toBeLessThanOrEqual(Math.max(0.5, 1 - g.crop.width) + 1e-9);
        expect(Math.abs(c.ch - g.crop.height)).toBeLessThanOrEqual(Math.max(0.5, 1 - g.crop.height) + 1e-9);
        expect(Math.abs(c.x - g.crop.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(c.y - g.crop.y)).toBeLessThanOrEqual(1);
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.y).toBeGreaterThanOrEqual(0);
        expect(c.x + c.cw).toBeLessThanOrEqual(w);
        expect(c.y + c.ch).toBeLessThanOrEqual(h);
        // scaled to the target, or an even side smaller than it; padded exactly then, centred, to the target size
        expect(c.ow % 2).toBe(0);
        expect(c.oh % 2).toBe(0);
        expect(c.ow).toBeLessThanOrEqual(W);
        expect(c.oh).toBeLessThanOrEqual(H);
        if (c.ow < W || c.oh < H) {
          expect(c.pad).toEqual({ w: W, h: H, x: Math.floor((W - c.ow) / 2), y: Math.floor((H - c.oh) / 2) });
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
          expect(Math.abs(centred.x - (w - centred.cw) / 2)).toBeLessThanOrEqual(1);
          expect(Math.abs(centred.y - (h - centred.ch) / 2)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});
