import { KEEP_EDGE_TOLERANCE_SECONDS, KEEP_MESSAGES, checkKeepSelection, selectRange, type Selection } from './index';

// five words: 0-1, 1-2, 2-3, 3-4, 4-5 (the video lasts 5 s)
const words = [0, 1, 2, 3, 4].map((k) => ({ start: k, end: k + 1 }));

describe('checkKeepSelection', () => {
  it('refuses an empty or non-contiguous selection', () => {
    expect(checkKeepSelection(words, [], 5)).toEqual({ ok: false, reason: 'empty' });
    expect(checkKeepSelection(words, [{ start: 7, end: 9 }], 5)).toEqual({ ok: false, reason: 'empty' });
    const gappy: Selection = [{ start: 0, end: 1 }, { start: 3, end: 3 }];
    expect(checkKeepSelection(words, gappy, 5)).toEqual({ ok: false, reason: 'not-contiguous' });
  });

  it('refuses a selection covering the whole video, within 0.1 s at both ends', () => {
    expect(KEEP_EDGE_TOLERANCE_SECONDS).toBe(0.1);
    expect(checkKeepSelection(words, selectRange(0, 4), 5)).toEqual({ ok: false, reason: 'whole-video' });
    expect(checkKeepSelection(words, selectRange(0, 4), 5.1)).toEqual({ ok: false, reason: 'whole-video' });
    const shifted = words.map((w) => ({ start: w.start + 0.1, end: w.end + 0.1 }));
    expect(checkKeepSelection(shifted, selectRange(0, 4), 5.2)).toEqual({ ok: false, reason: 'whole-video' });
  });

  it('cuts before and after the kept words', () => {
    expect(checkKeepSelection(words, selectRange(1, 2), 5)).toEqual({
      ok: true,
      start: 1,
      end: 3,
      cuts: [
        { start: 0, end: 1 },
        { start: 3, end: 5 },
      ],
    });
  });

  it('skips an edge cut within the tolerance', () => {
    expect(checkKeepSelection(words, selectRange(0, 2), 5)).toEqual({ ok: true, start: 0, end: 3, cuts: [{ start: 3, end: 5 }] });
    expect(checkKeepSelection(words, selectRange(2, 4), 5.05)).toEqual({ ok: true, start: 2, end: 5, cuts: [{ start: 0, end: 2 }] });
    // a 0.101 s sliver is cut
    expect(checkKeepSelection(words, selectRange(0, 4), 5.101)).toEqual({ ok: true, start: 0, end: 5, cuts: [{ start: 5, end: 5.101 }] });
  });

  it('has the toast texts of the seed', () => {
    expect(KEEP_MESSAGES).toEqual({
      notContiguousTitle: 'Selection must be contiguous',
      notContiguousDescription:
        'Keep selection requires a contiguous selection with no gaps between words. Please select a continuous range of text.',
      wholeVideoTitle: 'Selection covers entire video',
    });
  });
});
