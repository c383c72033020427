import fc from 'fast-check';
import {
  CUT_MERGE_GAP_SECONDS,
  MUTE_LEVEL_CODE,
  applyEdit,
  cutRanges,
  isCutMark,
  markCuts,
  mapPendingThrough,
  markMutes,
  mergeCloseRanges,
  muteLevelOfMark,
  remapPending,
  runsOf,
  summarizeList,
  unmarkCuts,
  unmarkMutes,
  wordMarks,
  type PendingCut,
  type PendingMute,
} from './index';
import { transcript } from './testing.spec-helpers';

// ten words, word k at k/2 .. k/2 + 0.4
const t = transcript('w0 w1 w2 w3 w4 w5 w6 w7 w8 w9');
const { words } = t;

describe('runsOf', () => {
  it('groups sorted unique indices into runs', () => {
    expect(runsOf([5, 1, 2, 2, 9, 7, 8])).toEqual([[1, 2], [5], [7, 8, 9]]);
    expect(runsOf([])).toEqual([]);
  });
});

describe('pending cuts', () => {
  it('marks runs of words as cuts with times and text', () => {
    expect(markCuts([], words, [3, 1, 2, 7])).toEqual([
      { id: 'cut-1-3', wordIndices: [1, 2, 3], startTime: 0.5, endTime: 1.9, text: 'w1 w2 w3' },
      { id: 'cut-7-7', wordIndices: [7], startTime: 3.5, endTime: 3.9, text: 'w7' },
    ]);
  });

  it('merges new words into the cuts already marked', () => {
    const cuts = markCuts([], words, [1, 2, 7]);
    expect(markCuts(cuts, words, [3, 4, 5, 6]).map((c) => c.id)).toEqual(['cut-1-7']);
    expect(markCuts(cuts, words, [9, 0]).map((c) => c.id)).toEqual(['cut-0-2', 'cut-7-7', 'cut-9-9']);
    expect(markCuts(cuts, words, [42, -1])).toEqual(cuts);
  });

  it('unmarks words, splitting a cut', () => {
    const cuts = markCuts([], words, [1, 2, 3, 4, 5]);
    expect(unmarkCuts(cuts, words, [3]).map((c) => [c.id, c.text])).toEqual([
      ['cut-1-2', 'w1 w2'],
      ['cut-4-5', 'w4 w5'],
    ]);
    expect(unmarkCuts(cuts, words, [1, 2, 3, 4, 5])).toEqual([]);
  });

  it('sorts cuts by start time even when indices are not time-ordered', () => {
    const shuffled = words.map((w, k) => (k === 8 ? { ...w, start: 0.1, end: 0.2 } : w));
    expect(markCuts([], shuffled, [2, 8]).map((c) => c.id)).toEqual(['cut-8-8', 'cut-2-2']);
  });
});

describe('pending mutes', () => {
  it('marks words at a level, one mute per run of the same level', () => {
    let mutes = markMutes([], words, [1, 2, 3], 'whisper');
    mutes = markMutes(mutes, words, [3, 4], 'silence');
    expect(mutes.map((m) => [m.id, m.level, m.text])).toEqual([
      ['mute-1-2', 'whisper', 'w1 w2'],
      ['mute-3-4', 'silence', 'w3 w4'],
    ]);
    expect(mutes[1]).toMatchObject({ startTime: 1.5, endTime: 2.4, wordIndices: [3, 4] });
    expect(markMutes(mutes, words, [3, 4], 'whisper').map((m) => m.id)).toEqual(['mute-1-4']);
  });

  it('unmarks words, splitting a mute', () => {
    const mutes = markMutes([], words, [0, 1, 2, 3], 'background');
    expect(unmarkMutes(mutes, words, [1]).map((m) => [m.id, m.level])).toEqual([
      ['mute-0-0', 'background'],
      ['mute-2-3', 'background'],
    ]);
  });
});

describe('word marks', () => {
  it('packs the cut bit and the mute level per word', () => {
    const cuts = markCuts([], words, [1, 2]);
    const mutes = [...markMutes([], words, [2, 3], 'silence'), ...markMutes([], words, [5], 'background')];
    const marks = wordMarks(cuts, mutes, 6);
    expect(Array.from(marks)).toEqual([0, 1, 1 | (1 << 1), 1 << 1, 0, 3 << 1]);
    expect(Array.from(marks, isCutMark)).toEqual([false, true, true, false, false, false]);
    expect(Array.from(marks, muteLevelOfMark)).toEqual([null, null, 'silence', 'silence', null, 'background']);
    expect(MUTE_LEVEL_CODE).toEqual({ silence: 1, whisper: 2, background: 3 });
    expect(muteLevelOfMark(2 << 1)).toBe('whisper');
  });

  it('ignores words beyond the word count', () => {
    expect(Array.from(wordMarks(markCuts([], words, [8, 9]), [], 9))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });
});

describe('remapPending', () => {
  it('follows cuts and mutes through an edit by time', () => {
    const cuts = markCuts([], words, [4, 5, 8]);
    const mutes = markMutes([], words, [6], 'whisper');
    // delete w1 and insert a word after w5 (zero length at 2.9, inside the first cut)
    const edited = applyEdit(t, [
      { word_order: 1, delete: true },
      { word_order: 5, insertAfter: [{ text: 'new', start: 2.9, end: 2.9, confidence: 0.9 }] },
    ]);
    const remapped = remapPending(cuts, edited.words);
    expect(remapped.map((c) => [c.id, c.wordIndices, c.text])).toEqual([
      ['cut-4-5', [3, 4, 5], 'w4 w5 new'],
      ['cut-8-8', [8], 'w8'],
    ]);
    const mutesAfter: PendingMute[] = remapPending(mutes, edited.words);
    expect(mutesAfter).toEqual([{ ...mutes[0]!, wordIndices: [6] }]);
  });

  it('drops items whose words are gone', () => {
    const cuts = markCuts([], words, [2]);
    const edited = applyEdit(t, [{ word_order: 2, delete: true }]);
    expect(remapPending(cuts, edited.words)).toEqual([]);
  });

  it('works on words that are not time-ordered', () => {
    const shuffled = [words[3]!, words[0]!, words[1]!];
    const cut: PendingCut = { id: 'c', wordIndices: [0], startTime: 0, endTime: 0.9, text: 'old' };
    expect(remapPending([cut], shuffled)).toEqual([{ ...cut, wordIndices: [1, 2], text: 'w0 w1' }]);
  });

  it('agrees with a linear scan (property)', () => {
    const timed = fc.array(fc.record({ start: fc.integer({ min: 0, max: 100 }), len: fc.integer({ min: 0, max: 10 }) }), { maxLength: 30 });
    const range = fc.record({ a: fc.integer({ min: 0, max: 110 }), b: fc.integer({ min: 0, max: 110 }) });
    fc.assert(
      fc.property(timed, fc.array(range, { maxLength: 5 }), fc.boolean(), (raw, ranges, sorted) => {
        const list = (sorted ? [...raw].sort((x, y) => x.start - y.start) : raw).map((r, k) => ({ text: `w${k}`, start: r.start / 10, end: (r.start + r.len) / 10 }));
        const items = ranges.map((r, k) => ({ id: `i${k}`, wordIndices: [], startTime: Math.min(r.a, r.b) / 10, endTime: Math.max(r.a, r.b) / 10, text: '' }));
        const expected = items.flatMap((item) => {
          const inside = list.flatMap((w, i) => ((w.start + w.end) / 2 >= item.startTime && (w.start + w.end) / 2 <= item.endTime ? [i] : []));
          return inside.length ? [{ ...item, wordIndices: inside, text: inside.map((i) => list[i]!.text).join(' ') }] : [];
        });
        expect(remapPending(items, list)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('ranges', () => {
  it('gives the apply-cuts payload: sorted, overlapping ones merged', () => {
    const cuts = [
      { id: 'b', wordIndices: [5], startTime: 5, endTime: 6, text: '' },
      { id: 'a', wordIndices: [1], startTime: 1, endTime: 2, text: '' },
      { id: 'c', wordIndices: [2], startTime: 1.5, endTime: 3, text: '' },
      { id: 'd', wordIndices: [3], startTime: 3, endTime: 3.5, text: '' },
      { id: 'e', wordIndices: [4], startTime: 3.55, endTime: 4, text: '' },
    ];
    expect(cutRanges(cuts)).toEqual([
      { start: 1, end: 3.5 },
      { start: 3.55, end: 4 },
      { start: 5, end: 6 },
    ]);
    expect(cutRanges([])).toEqual([]);
  });

  it('merges ranges at most 0.1 s apart for playback skipping', () => {
    expect(CUT_MERGE_GAP_SECONDS).toBe(0.1);
    const ranges = [
      { start: 1.3, end: 2 },
      { start: 0, end: 1.2 },
      { start: 2.11, end: 3 },
    ];
    // 1.3 - 1.2 is 0.10000000000000009 in floats: still a 0.1 s gap
    expect(mergeCloseRanges(ranges)).toEqual([
      { start: 0, end: 2 },
      { start: 2.11, end: 3 },
    ]);
    expect(mergeCloseRanges(ranges, 0.2)).toEqual([{ start: 0, end: 3 }]);
    expect(ranges[1]).toEqual({ start: 0, end: 1.2 });
  });

  it('summarises a list as the first five and a count of the rest', () => {
    expect(summarizeList([1, 2, 3, 4, 5, 6, 7])).toEqual({ shown: [1, 2, 3, 4, 5], more: 2 });
    expect(summarizeList([1, 2])).toEqual({ shown: [1, 2], more: 0 });
    expect(summarizeList([1, 2, 3], 1)).toEqual({ shown: [1], more: 2 });
  });
});

describe('mapPendingThrough (marks through a render)', () => {
  // the render cut w2..w3 and w6 and played the rest in order: seven words, retimed
  const after = transcript('w0 w1 w4 w5 w7 w8 w9').words;
  const runs = [[0, 2], [4, 2], [7, 3]] as const;

  it('a mute keeps its surviving words at their new indices, times and text', () => {
    const mutes = markMutes([], words, [1, 2, 3, 4], 'whisper');
    const out = mapPendingThrough({ cuts: [], mutes }, runs, words.length, after)!;
    expect(out.mutes.map((m) => [m.wordIndices, m.level, m.text, m.startTime, m.endTime])).toEqual([[[1, 2], 'whisper', 'w1 w4', after[1]!.start, after[2]!.end]]);
    expect(out.droppedMutes).toBe(0);
  });

  it('a mute inside a removed range goes with it and is counted; a cut mark too', () => {
    const mutes = markMutes(markMutes([], words, [2, 3], 'silence'), words, [8], 'background');
    const cuts = markCuts([], words, [6]);
    const out = mapPendingThrough({ cuts, mutes }, runs, words.length, after)!;
    expect(out.mutes.map((m) => [m.wordIndices, m.level])).toEqual([[[5], 'background']]);
    expect(out).toMatchObject({ droppedMutes: 1, droppedCuts: 1, cuts: [] });
  });

  it('follows a reorder', () => {
    const moved = transcript('w5 w6 w7 w8 w9 w0 w1 w2 w3 w4').words;
    const mutes = markMutes([], words, [0, 9], 'silence');
    const out = mapPendingThrough({ cuts: [], mutes }, [[5, 5], [0, 5]], words.length, moved)!;
    expect(out.mutes.map((m) => m.wordIndices)).toEqual([[4, 5]]);
  });

  it('refuses a map of other words', () => {
    expect(mapPendingThrough({ cuts: [], mutes: [] }, [[0, 11]], words.length, after)).toBeNull();
    expect(mapPendingThrough({ cuts: [], mutes: [] }, runs, words.length, words)).toBeNull();
  });

  it('never gives a mark an index outside the new words (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 10 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }), (kept, muted) => {
        const sorted = [...kept].sort((a, b) => a - b);
        const wordsAfter = transcript(sorted.length ? sorted.map((k) => `w${k}`).join(' ') : 'x').words.slice(0, sorted.length);
        const runsOfKept = sorted.reduce<[number, number][]>((rs, i) => {
          const last = rs[rs.length - 1];
          if (last && last[0] + last[1] === i) last[1]++;
          else rs.push([i, 1]);
          return rs;
        }, []);
        const out = mapPendingThrough({ cuts: [], mutes: markMutes([], words, muted, 'silence') }, runsOfKept, words.length, wordsAfter)!;
        const survivors = new Set(muted.filter((m) => kept.includes(m)).map((m) => sorted.indexOf(m)));
        expect(new Set(out.mutes.flatMap((m) => m.wordIndices))).toEqual(survivors);
      }),
    );
  });
});
