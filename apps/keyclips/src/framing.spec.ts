import {
  INITIAL_FRAMING,
  RATIO_BUTTONS,
  exportBody,
  exportLabel,
  geometryOf,
  heavyUpscale,
  hintText,
  ratioDescription,
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
