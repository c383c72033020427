import { createClipRequestSchema } from './edit-requests';

const CLIP = { videoId: 'v', name: 'Clip', startTime: 1, endTime: 5 };

describe('POST /api/clips body', () => {
  it('carries the ratio and the zoom and pan, defaults filled in', () => {
    expect(createClipRequestSchema.parse({ ...CLIP, aspectRatio: '9:16', reframe: { offsetX: 12.5, offsetY: -4, scale: 1.5 } })).toEqual({
      ...CLIP,
      aspectRatio: '9:16',
      reframe: { offsetX: 12.5, offsetY: -4, scale: 1.5 },
    });
    expect(createClipRequestSchema.parse({ ...CLIP, reframe: {} }).reframe).toEqual({ offsetX: 0, offsetY: 0, scale: 1 });
    expect(createClipRequestSchema.parse(CLIP)).toEqual({ ...CLIP, aspectRatio: 'Original' });
  });

  it('holds the zoom to 1 to 2.5 and the pan to ±100 %', () => {
    for (const reframe of [{ scale: 0.5 }, { scale: 2.6 }, { offsetX: 101 }, { offsetY: -100.5 }, { scale: Number.NaN }, { offsetX: '5' }]) {
      expect(createClipRequestSchema.safeParse({ ...CLIP, aspectRatio: '9:16', reframe }).success).toBe(false);
    }
    expect(createClipRequestSchema.safeParse({ ...CLIP, aspectRatio: '9:16', reframe: { scale: 2.5, offsetX: -100, offsetY: 100 } }).success).toBe(true);
  });

  it('knows only the six ratios', () => {
    expect(createClipRequestSchema.safeParse({ ...CLIP, aspectRatio: '3:2' }).success).toBe(false);
  });
});
