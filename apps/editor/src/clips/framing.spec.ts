import { INITIAL_FRAMING, geometryOf, type Framing } from '@wordcut/edit-list';
import { clipReframe, framingHint, overlayRatio } from './framing';

const SMALL = { width: 1280, height: 720 };
const framing = (patch: Partial<Framing> = {}): Framing => ({ ...INITIAL_FRAMING, ...patch });
const hint = (f: Framing) => framingHint(f, geometryOf(f, SMALL));

describe('clip dialog framing', () => {
  it('tells what the clip keeps', () => {
    expect(framingHint(framing(), null)).toBe('Detecting the video size…');
    expect(hint(framing())).toBe('The clip keeps the whole frame (1280x720). Zoom in to reframe it.');
    expect(hint(framing({ ratio: '16:9' }))).toBe('The video already is 16:9: the whole frame, scaled to 1920x1080. Zoom in to reframe it.');
    expect(hint(framing({ ratio: '9:16' }))).toBe('Drag the picture or use the arrow keys to choose what the 1080x1920 clip shows, upscaled 2.7x.');
    expect(framingHint(framing({ ratio: '1:1' }), geometryOf(framing({ ratio: '1:1' }), { width: 3840, height: 2160 }))).toMatch(/clip shows, downscaled 0\.50x\.$/);
    expect(framingHint(framing({ ratio: '1:1' }), geometryOf(framing({ ratio: '1:1' }), { width: 1920, height: 1080 }))).toMatch(/1080x1080 clip shows\.$/);
  });

  it('sends no reframe when centred at zoom 1, else the zoom and the pan to 0.001 %', () => {
    expect(clipReframe(framing({ ratio: '9:16' }))).toBeUndefined();
    expect(clipReframe(framing({ ratio: '9:16', zoom: 1.5, offsetX: 12.34567, offsetY: -0.00049 }))).toEqual({ offsetX: 12.346, offsetY: 0, scale: 1.5 });
    expect(clipReframe(framing({ offsetY: 3 }))).toEqual({ offsetX: 0, offsetY: 3, scale: 1 });
  });

  it('frames the player for a ratio, and for Original only when zoomed', () => {
    expect(overlayRatio(framing(), geometryOf(framing(), SMALL))).toBeNull();
    expect(overlayRatio(framing({ zoom: 1.3 }), geometryOf(framing({ zoom: 1.3 }), SMALL))).toBe('Original');
    expect(overlayRatio(framing({ ratio: '4:5' }), null)).toBe('4:5');
  });
});
