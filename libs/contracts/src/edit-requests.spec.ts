import { applyCutsRequestSchema, createClipRequestSchema, muteJobRequestSchema, processSilenceRequestSchema, removeFillersRequestSchema } from './edit-requests';
import { MAX_EDIT_RANGES, MAX_EXPORT_CLIPS, MAX_FILLER_WORDS, MAX_INSERTED_WORDS, MAX_WORD_DELTAS } from './limits';
import { exportRequestSchema } from './publishing';
import { MAX_TRANSCRIPT_WORDS, transcriptPatchSchema } from './videos';

const CLIP = { videoId: 'v', name: 'Clip', startTime: 1, endTime: 5 };

describe('POST /api/clips body', () => {
  it('carries the ratio and the zoom and pan, defaults filled in', () => {
    expect(createClipRequestSchema.parse({ ...CLIP, aspectRatio: '9:16', reframe: { offsetX: 12.5, offsetY: -4, scale: 1.5 } })).toEqual({
      ...CLIP,
      aspectRatio: '9:16',
      captions: false,
      reframe: { offsetX: 12.5, offsetY: -4, scale: 1.5 },
    });
    expect(createClipRequestSchema.parse({ ...CLIP, reframe: {} }).reframe).toEqual({ offsetX: 0, offsetY: 0, scale: 1 });
    expect(createClipRequestSchema.parse(CLIP)).toEqual({ ...CLIP, aspectRatio: 'Original', captions: false });
    expect(createClipRequestSchema.parse({ ...CLIP, captions: true }).captions).toBe(true);
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

describe('request list limits', () => {
  const ranges = (n: number) => Array.from({ length: n }, (_, i) => ({ start: i, end: i + 0.5 }));
  const over = (r: { success: boolean; error?: { issues: Array<{ code: string; message: string }> } }) => {
    expect(r.success).toBe(false);
    return r.error!.issues[0]!;
  };

  it('bounds cuts, silences and mutes to MAX_EDIT_RANGES, with a message naming the limit', () => {
    expect(applyCutsRequestSchema.safeParse({ cuts: ranges(MAX_EDIT_RANGES) }).success).toBe(true);
    expect(over(applyCutsRequestSchema.safeParse({ cuts: ranges(MAX_EDIT_RANGES + 1) }))).toMatchObject({ code: 'too_big', message: 'At most 5,000 cuts can be sent at once.' });
    expect(over(processSilenceRequestSchema.safeParse({ silenceRanges: ranges(MAX_EDIT_RANGES + 1) })).code).toBe('too_big');
    const mutes = ranges(MAX_EDIT_RANGES + 1).map((r) => ({ startTime: r.start, endTime: r.end }));
    expect(over(muteJobRequestSchema.safeParse({ videoId: 'v', pendingMutes: mutes })).code).toBe('too_big');
    expect(over(removeFillersRequestSchema.safeParse({ fillerWordIndices: Array.from({ length: MAX_FILLER_WORDS + 1 }, (_, i) => i) })).code).toBe('too_big');
  });

  it('bounds word deltas, the words they insert in all, and full replacements', () => {
    const insert = (n: number) => ({ word_order: -1, insertAfter: Array.from({ length: n }, () => ({ text: 'a', start: 0, end: 0.1 })) });
    // a union: the failing branch's issues are inside the union's issue
    expect(JSON.stringify(over(transcriptPatchSchema.safeParse({ wordDeltas: [insert(MAX_INSERTED_WORDS + 1)] })))).toContain('At most 10000 words can be inserted in one place.');
    const many = Array.from({ length: 21 }, () => insert(MAX_INSERTED_WORDS));
    expect(transcriptPatchSchema.safeParse({ wordDeltas: many.slice(0, 20) }).success).toBe(true);
    const tooMany = transcriptPatchSchema.safeParse({ wordDeltas: many });
    expect(tooMany.success).toBe(false);
    expect(JSON.stringify(tooMany.error?.issues)).toContain(`A transcript holds at most ${MAX_TRANSCRIPT_WORDS} words.`);
    const deltas = Array.from({ length: MAX_WORD_DELTAS + 1 }, (_, i) => ({ word_order: i, delete: true }));
    expect(transcriptPatchSchema.safeParse({ wordDeltas: deltas }).success).toBe(false);
    expect(transcriptPatchSchema.safeParse({ words: [], fillerWords: Array.from({ length: MAX_TRANSCRIPT_WORDS + 1 }, () => 0) }).success).toBe(false);
  });

  it('bounds the clips and mute segments of an export', () => {
    const base = { videoId: '0b6f7a8e-2f0c-4a55-9a63-1f1f6f1d2b3c', sessionId: 's', saveMainVideo: false, saveVtt: true, idempotencyKey: 'key-12345' };
    const clip = (i: number) => ({ clipId: '0b6f7a8e-2f0c-4a55-9a63-1f1f6f1d2b3c', clipIndex: i, duration: 1 });
    expect(exportRequestSchema.safeParse({ ...base, clips: Array.from({ length: MAX_EXPORT_CLIPS }, (_, i) => clip(i)) }).success).toBe(true);
    expect(over(exportRequestSchema.safeParse({ ...base, clips: Array.from({ length: MAX_EXPORT_CLIPS + 1 }, (_, i) => clip(i)) })).code).toBe('too_big');
    expect(over(exportRequestSchema.safeParse({ ...base, mainVideoEdits: { muteSegments: ranges(MAX_EDIT_RANGES + 1) } })).code).toBe('too_big');
  });
});
