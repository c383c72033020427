import fc from 'fast-check';
import type { MuteLevel } from '@wordcut/edit-list';
import {
  MIN_PREVIEW_SEGMENT_SECONDS,
  SKIP_MARGIN_SECONDS,
  advanceWindow,
  buildPlaybackRules,
  clampSeek,
  cutSkipRanges,
  muteVolumeRanges,
  playbackStep,
  previewButtonState,
  reorderPreviewStep,
  silenceSkipRanges,
  validatePreviewSegments,
  volumeAt,
  type PlaybackRules,
  type ReorderSegment,
  type TimeRange,
} from './preview';

const cut = (startTime: number, endTime: number) => ({ startTime, endTime });
const mute = (startTime: number, endTime: number, level: MuteLevel) => ({ startTime, endTime, level });
const silence = (startTime: number, endTime: number, recommendation = 'remove') => ({ startTime, endTime, recommendation });

function rules(partial: Partial<PlaybackRules> = {}): PlaybackRules {
  return { skips: [], mutes: [], range: null, duration: 100, ...partial };
}

function seg(start: number, end: number, k = 0): ReorderSegment {
  return { id: `p${k}`, start, end, paragraphId: k, wordIndices: [k], type: 'paragraph' };
}

describe('constants', () => {
  it('skip margin and minimum preview segment are 0.1 s', () => {
    expect(SKIP_MARGIN_SECONDS).toBe(0.1);
    expect(MIN_PREVIEW_SEGMENT_SECONDS).toBe(0.1);
  });
});

describe('cutSkipRanges', () => {
  it('is empty without cuts', () => {
    expect(cutSkipRanges([])).toEqual([]);
  });

  it('sorts cuts and merges those at most 0.1 s apart (float noise included)', () => {
    expect(cutSkipRanges([cut(5, 6), cut(1, 1.2), cut(1.3, 2), cut(2.2, 3)])).toEqual([
      { start: 1, end: 2 },
      { start: 2.2, end: 3 },
      { start: 5, end: 6 },
    ]);
  });

  it('merges overlapping and contained cuts', () => {
    expect(cutSkipRanges([cut(1, 4), cut(2, 3), cut(3.5, 5)])).toEqual([{ start: 1, end: 5 }]);
  });

  it('drops ranges without length and non-finite times', () => {
    expect(cutSkipRanges([cut(2, 2), cut(Number.NaN, 3), cut(4, 5)])).toEqual([{ start: 4, end: 5 }]);
  });
});

describe('silenceSkipRanges', () => {
  it('keeps only silences recommended for removal, sorted, overlapping and touching ones merged', () => {
    const out = silenceSkipRanges([silence(8, 9), silence(1, 2, 'keep'), silence(3, 4), silence(3.5, 5), silence(5, 6), silence(6.05, 7)]);
    expect(out).toEqual([
      { start: 3, end: 6 },
      { start: 6.05, end: 7 },
      { start: 8, end: 9 },
    ]);
  });

  it('is empty when nothing is marked remove', () => {
    expect(silenceSkipRanges([silence(1, 2, 'keep'), silence(3, 4, 'review')])).toEqual([]);
  });
});

describe('muteVolumeRanges', () => {
  it('gives each level its volume (silence 0, whisper 0.1, background 0.3), sorted', () => {
    expect(muteVolumeRanges([mute(5, 6, 'background'), mute(1, 2, 'silence'), mute(3, 4, 'whisper')])).toEqual([
      { start: 1, end: 2, volume: 0 },
      { start: 3, end: 4, volume: 0.1 },
      { start: 5, end: 6, volume: 0.3 },
    ]);
  });

  it('lets the lowest volume win where mutes overlap, and splits into disjoint pieces', () => {
    expect(muteVolumeRanges([mute(0, 10, 'background'), mute(2, 4, 'silence'), mute(3, 6, 'whisper')])).toEqual([
      { start: 0, end: 2, volume: 0.3 },
      { start: 2, end: 4, volume: 0 },
      { start: 4, end: 6, volume: 0.1 },
      { start: 6, end: 10, volume: 0.3 },
    ]);
  });

  it('joins touching pieces of one volume and keeps gaps', () => {
    expect(muteVolumeRanges([mute(1, 2, 'whisper'), mute(2, 3, 'whisper'), mute(4, 5, 'whisper')])).toEqual([
      { start: 1, end: 3, volume: 0.1 },
      { start: 4, end: 5, volume: 0.1 },
    ]);
  });

  it('drops empty or inverted mutes', () => {
    expect(muteVolumeRanges([mute(2, 2, 'silence'), mute(5, 4, 'silence')])).toEqual([]);
  });

  it('agrees with the naive minimum at every sampled time (property)', () => {
    const muteArb = fc.record({
      startTime: fc.integer({ min: 0, max: 40 }).map((x) => x / 4),
      len: fc.integer({ min: 1, max: 12 }).map((x) => x / 4),
      level: fc.constantFrom<MuteLevel>('silence', 'whisper', 'background'),
    });
    const volumes = { silence: 0, whisper: 0.1, background: 0.3 };
    fc.assert(
      fc.property(fc.array(muteArb, { maxLength: 12 }), (raw) => {
        const mutes = raw.map((m) => mute(m.startTime, m.startTime + m.len, m.level));
        const pieces = muteVolumeRanges(mutes);
        pieces.forEach((p, k) => {
          expect(p.end).toBeGreaterThan(p.start);
          if (k > 0) expect(p.start).toBeGreaterThanOrEqual(pieces[k - 1]!.end);
        });
        for (let t = 0; t <= 14; t += 0.125) {
          const covering = mutes.filter((m) => m.startTime <= t && t < m.endTime).map((m) => volumes[m.level]);
          expect(volumeAt(pieces, t)).toBe(covering.length ? Math.min(...covering) : 1);
        }
      }),
    );
  });
});

describe('buildPlaybackRules', () => {
  const input = {
    cuts: [cut(1, 2)],
    mutes: [mute(4, 5, 'whisper')],
    silences: [silence(1.9, 3), silence(6, 7, 'keep')],
    mutePreview: false,
    silencePreview: false,
    range: null,
    duration: 30,
  };

  it('always skips cuts; silences and mutes only in their preview modes', () => {
    expect(buildPlaybackRules(input)).toEqual({ skips: [{ start: 1, end: 2 }], mutes: [], range: null, duration: 30 });
    const both = buildPlaybackRules({ ...input, mutePreview: true, silencePreview: true });
    expect(both.skips).toEqual([{ start: 1, end: 3 }]);
    expect(both.mutes).toEqual([{ start: 4, end: 5, volume: 0.1 }]);
  });

  it('keeps a valid range and drops an empty or inverted one', () => {
    expect(buildPlaybackRules({ ...input, range: { start: 3, end: 8 } }).range).toEqual({ start: 3, end: 8 });
    expect(buildPlaybackRules({ ...input, range: { start: 8, end: 8 } }).range).toBeNull();
    expect(buildPlaybackRules({ ...input, range: { start: 9, end: 8 } }).range).toBeNull();
  });

  it('treats an unknown duration as 0', () => {
    expect(buildPlaybackRules({ ...input, duration: Number.NaN }).duration).toBe(0);
    expect(buildPlaybackRules({ ...input, duration: -1 }).duration).toBe(0);
  });

  it('builds thousands of ranges quickly', () => {
    const cuts = Array.from({ length: 5000 }, (_, k) => cut(k * 2, k * 2 + 0.5));
    const mutes = Array.from({ length: 5000 }, (_, k) => mute(k * 2 + 1, k * 2 + 1.5, 'silence'));
    const r = buildPlaybackRules({ ...input, cuts, mutes, mutePreview: true, duration: 10_800 });
    expect(r.skips).toHaveLength(5000);
    expect(r.mutes).toHaveLength(5000);
  });
});

describe('playbackStep', () => {
  it('does nothing outside skips and mutes', () => {
    expect(playbackStep(rules({ skips: [{ start: 5, end: 6 }] }), 3)).toEqual({ seekTo: null, volume: 1, pause: false });
    expect(playbackStep(rules(), 0)).toEqual({ seekTo: null, volume: 1, pause: false });
  });

  it('jumps from inside a skip to its end plus 0.1 s', () => {
    const r = rules({ skips: [{ start: 5, end: 6.2 }] });
    expect(playbackStep(r, 5)).toEqual({ seekTo: 6.3, volume: 1, pause: false });
    expect(playbackStep(r, 6.19)).toEqual({ seekTo: 6.3, volume: 1, pause: false });
    expect(playbackStep(r, 6.2).seekTo).toBeNull(); // end is exclusive
  });

  it('jumps before entering a skip when it starts within the lookahead', () => {
    const r = rules({ skips: [{ start: 5, end: 6 }] });
    expect(playbackStep(r, 4.99, 0.02).seekTo).toBe(6.1);
    expect(playbackStep(r, 4.97, 0.02).seekTo).toBeNull();
    expect(playbackStep(r, 4.99).seekTo).toBeNull();
  });

  it('ignores a negative or non-finite lookahead', () => {
    const r = rules({ skips: [{ start: 5, end: 6 }] });
    expect(playbackStep(r, 4.9, -1).seekTo).toBeNull();
    expect(playbackStep(r, 4.9, Number.NaN).seekTo).toBeNull();
  });

  it('chains over skips the jump target lands in or near', () => {
    // 6.1 is inside [6.05, 7); 7.1 is within lookahead 0.05 of 7.12; 8.1 clears [8.5, 9)
    const r = rules({
      skips: [
        { start: 5, end: 6 },
        { start: 6.05, end: 7 },
        { start: 7.12, end: 8 },
        { start: 8.5, end: 9 },
      ],
    });
    expect(playbackStep(r, 5.5, 0.05).seekTo).toBe(8.1);
    expect(playbackStep(r, 5.5, 0).seekTo).toBe(7.1);
  });

  it('passes over a skip lying wholly inside the margin', () => {
    const r = rules({
      skips: [
        { start: 5, end: 6 },
        { start: 6.02, end: 6.04 },
      ],
    });
    expect(playbackStep(r, 5.5).seekTo).toBe(6.1);
  });

  it('skips a merged run of cuts at once (cuts 0.1 s apart)', () => {
    const r = buildPlaybackRules({ cuts: [cut(1, 1.2), cut(1.3, 2)], mutes: [], silences: [], mutePreview: false, silencePreview: false, range: null, duration: 10 });
    expect(playbackStep(r, 1.1).seekTo).toBe(2.1);
  });

  it('clamps the jump to the duration and pauses there', () => {
    const r = rules({ skips: [{ start: 9, end: 10 }], duration: 10 });
    expect(playbackStep(r, 9.5)).toEqual({ seekTo: 10, volume: 1, pause: true });
    const unknown = rules({ skips: [{ start: 9, end: 10 }], duration: 0 });
    expect(playbackStep(unknown, 9.5)).toEqual({ seekTo: 10.1, volume: 1, pause: false });
  });

  it('applies the lowest mute volume at the time, after any seek', () => {
    const r = buildPlaybackRules({
      cuts: [cut(1, 2)],
      mutes: [mute(2, 3, 'background'), mute(2.5, 2.8, 'silence')],
      silences: [],
      mutePreview: true,
      silencePreview: false,
      range: null,
      duration: 10,
    });
    expect(playbackStep(r, 1.5)).toEqual({ seekTo: 2.1, volume: 0.3, pause: false });
    expect(playbackStep(r, 2.6).volume).toBe(0);
    expect(playbackStep(r, 2.8).volume).toBe(0.3);
    expect(playbackStep(r, 3).volume).toBe(1);
  });

  describe('preview time-range mode', () => {
    const r = rules({ range: { start: 10, end: 20 }, skips: [{ start: 9, end: 10.5 }, { start: 19.5, end: 25 }] });

    it('pauses at the range end (or within the lookahead of it)', () => {
      const free = rules({ range: { start: 10, end: 20 } });
      expect(playbackStep(free, 20)).toEqual({ seekTo: 20, volume: 1, pause: true });
      expect(playbackStep(free, 21)).toEqual({ seekTo: 20, volume: 1, pause: true });
      expect(playbackStep(free, 19.99, 0.02)).toEqual({ seekTo: 20, volume: 1, pause: true });
      expect(playbackStep(free, 19.97, 0.02)).toEqual({ seekTo: null, volume: 1, pause: false });
    });

    it('seeks to the range start when before it, then past any skip there', () => {
      expect(playbackStep(rules({ range: { start: 10, end: 20 } }), 3)).toEqual({ seekTo: 10, volume: 1, pause: false });
      expect(playbackStep(r, 3)).toEqual({ seekTo: 10.6, volume: 1, pause: false });
    });

    it('pauses at the range end when a skip would jump past it', () => {
      expect(playbackStep(r, 19.6)).toEqual({ seekTo: 20, volume: 1, pause: true });
    });
  });

  it('looks ranges up by binary search: 100,000 frames over 10,000 ranges cost seconds of CPU less than a scan would', () => {
    const skips: TimeRange[] = Array.from({ length: 10_000 }, (_, k) => ({ start: k, end: k + 0.5 }));
    const r = rules({ skips, mutes: skips.map((s) => ({ start: s.end + 0.2, end: s.end + 0.4, volume: 0 })), duration: 10_000 });
    // CPU time of this process (not wall time): a neighbour's load does not count; a scan of
    // every range per frame (10^9 steps) takes many seconds
    const cpu = process.cpuUsage();
    let seeks = 0;
    for (let f = 0; f < 100_000; f++) if (playbackStep(r, (f * 0.1) % 10_000, 0.017).seekTo !== null) seeks++;
    const { user, system } = process.cpuUsage(cpu);
    expect(seeks).toBeGreaterThan(0);
    expect((user + system) / 1000).toBeLessThan(3000);
  });
});

describe('clampSeek', () => {
  it('clamps to 0..duration without a range', () => {
    const r = rules({ duration: 50 });
    expect(clampSeek(r, -3)).toBe(0);
    expect(clampSeek(r, 70)).toBe(50);
    expect(clampSeek(r, 12.5)).toBe(12.5);
    expect(clampSeek(rules({ duration: 0 }), 70)).toBe(70);
  });

  it('clamps to the range in range mode', () => {
    const r = rules({ range: { start: 10, end: 20 } });
    expect(clampSeek(r, 3)).toBe(10);
    expect(clampSeek(r, 25)).toBe(20);
    expect(clampSeek(r, 15)).toBe(15);
  });

  it('moves a target inside a skip to its end plus 0.1 s (chained), clamped', () => {
    const r = rules({ skips: [{ start: 5, end: 6 }, { start: 6.05, end: 7 }], duration: 50 });
    expect(clampSeek(r, 5.5)).toBe(7.1);
    expect(clampSeek(r, 4.99)).toBe(4.99);
    expect(clampSeek(rules({ skips: [{ start: 49, end: 50 }], duration: 50 }), 49.5)).toBe(50);
    expect(clampSeek(rules({ skips: [{ start: 15, end: 22 }], range: { start: 10, end: 20 } }), 16)).toBe(20);
  });

  it('sends a non-finite target to the start', () => {
    expect(clampSeek(rules(), Number.NaN)).toBe(0);
    expect(clampSeek(rules({ range: { start: 10, end: 20 } }), Number.POSITIVE_INFINITY)).toBe(10);
  });
});

describe('validatePreviewSegments', () => {
  it('needs segments, then a loaded duration', () => {
    expect(validatePreviewSegments([], 10)).toBe('No segments to preview - please reorder some content first');
    expect(validatePreviewSegments([], undefined)).toBe('No segments to preview - please reorder some content first');
    for (const d of [undefined, null, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(validatePreviewSegments([seg(0, 1)], d)).toBe('Video metadata not loaded - please wait for video to load');
    }
  });

  it('names the first failing segment, 1-based, with each message', () => {
    expect(validatePreviewSegments([seg(0, 1), seg(Number.NaN, 2)], 10)).toBe('Segment 2 has invalid timing data');
    expect(validatePreviewSegments([seg(0, Number.POSITIVE_INFINITY)], 10)).toBe('Segment 1 has invalid timing data');
    expect(validatePreviewSegments([seg(0, 1), seg(1, 2), seg(3, 3)], 10)).toBe('Segment 3 has invalid time range (start >= end)');
    expect(validatePreviewSegments([seg(4, 3)], 10)).toBe('Segment 1 has invalid time range (start >= end)');
    expect(validatePreviewSegments([seg(-0.5, 3)], 10)).toBe('Segment 1 timing is outside video duration');
    expect(validatePreviewSegments([seg(0, 1), seg(8, 10.1)], 10)).toBe('Segment 2 timing is outside video duration');
    expect(validatePreviewSegments([seg(0, 1), seg(2, 2.05)], 10)).toBe('Segment 2 is too short (0.05 s) - minimum 0.1s required');
    expect(validatePreviewSegments([seg(2, 2.099)], 10)).toBe('Segment 1 is too short (0.10 s) - minimum 0.1s required');
  });

  it('checks in the seed order: the first failing segment wins over later, earlier-listed checks', () => {
    expect(validatePreviewSegments([seg(2, 2.05), seg(Number.NaN, 1)], 10)).toBe('Segment 1 is too short (0.05 s) - minimum 0.1s required');
    expect(validatePreviewSegments([seg(-1, -0.99)], 10)).toBe('Segment 1 timing is outside video duration');
  });

  it('accepts valid segments, a 0.05 s end overshoot and exactly 0.1 s (despite float noise)', () => {
    expect(validatePreviewSegments([seg(5, 9), seg(0, 2)], 10)).toBeNull();
    expect(validatePreviewSegments([seg(9, 10.05)], 10)).toBeNull();
    expect(validatePreviewSegments([seg(0.2, 0.3)], 10)).toBeNull(); // 0.3 - 0.2 = 0.09999999999999998
  });
});

describe('advanceWindow', () => {
  it('is the smaller of 0.05 s and 20% of the length', () => {
    expect(advanceWindow(seg(0, 10))).toBe(0.05);
    expect(advanceWindow(seg(0, 0.25))).toBeCloseTo(0.05, 10);
    expect(advanceWindow(seg(3, 3.1))).toBeCloseTo(0.02, 10);
  });
});

describe('reorderPreviewStep', () => {
  const segments = [seg(10, 12, 0), seg(2, 2.1, 1), seg(5, 8, 2)];

  it('does nothing while the segment plays', () => {
    expect(reorderPreviewStep(segments, 0, 10)).toEqual({ index: 0, seekTo: null, pause: false, done: false });
    expect(reorderPreviewStep(segments, 0, 11.94)).toEqual({ index: 0, seekTo: null, pause: false, done: false });
  });

  it('moves to the next segment within the advance window of the end', () => {
    expect(reorderPreviewStep(segments, 0, 11.96)).toEqual({ index: 1, seekTo: 2, pause: false, done: false });
    expect(reorderPreviewStep(segments, 0, 12)).toEqual({ index: 1, seekTo: 2, pause: false, done: false });
  });

  it('uses a 0.02 s window on a 0.1 s segment', () => {
    expect(reorderPreviewStep(segments, 1, 2.07).seekTo).toBeNull();
    expect(reorderPreviewStep(segments, 1, 2.085)).toEqual({ index: 2, seekTo: 5, pause: false, done: false });
  });

  it('advances on a late frame shortly past the end instead of replaying', () => {
    expect(reorderPreviewStep(segments, 0, 12.2)).toEqual({ index: 1, seekTo: 2, pause: false, done: false });
  });

  it('pauses at the end of the last segment and finishes', () => {
    expect(reorderPreviewStep(segments, 2, 7.96)).toEqual({ index: 2, seekTo: 8, pause: true, done: true });
    expect(reorderPreviewStep([seg(0, 1)], 0, 1)).toEqual({ index: 0, seekTo: 1, pause: true, done: true });
  });

  it('returns to the current segment start when the user seeked away', () => {
    expect(reorderPreviewStep(segments, 2, 1)).toEqual({ index: 2, seekTo: 5, pause: false, done: false });
    expect(reorderPreviewStep(segments, 2, 9)).toEqual({ index: 2, seekTo: 5, pause: false, done: false });
    expect(reorderPreviewStep(segments, 2, Number.NaN)).toEqual({ index: 2, seekTo: 5, pause: false, done: false });
  });

  it('tolerates a playhead slightly before the start (seek latency)', () => {
    expect(reorderPreviewStep(segments, 2, 4.8)).toEqual({ index: 2, seekTo: null, pause: false, done: false });
  });

  it('is done for an index with no segment', () => {
    expect(reorderPreviewStep(segments, 3, 5)).toEqual({ index: 3, seekTo: null, pause: true, done: true });
    expect(reorderPreviewStep([], 0, 5).done).toBe(true);
  });

  it('plays every segment in order when driven frame by frame', () => {
    let index = 0;
    let time = segments[0]!.start;
    const played: number[] = [0];
    for (let frame = 0; frame < 10_000; frame++) {
      const step = reorderPreviewStep(segments, index, time);
      if (step.index !== index) played.push(step.index);
      index = step.index;
      if (step.done) {
        expect(step.seekTo).toBe(8);
        break;
      }
      time = step.seekTo ?? time + 1 / 60;
    }
    expect(played).toEqual([0, 1, 2]);
  });
});

describe('previewButtonState', () => {
  it('is disabled until something changed, then until the video is ready', () => {
    expect(previewButtonState(false, true)).toEqual({ disabled: true, reason: 'No changes made - drag paragraphs to reorder first' });
    expect(previewButtonState(false, false)).toEqual({ disabled: true, reason: 'No changes made - drag paragraphs to reorder first' });
    expect(previewButtonState(true, false)).toEqual({ disabled: true, reason: 'Video is still loading - please wait' });
    expect(previewButtonState(true, true)).toEqual({ disabled: false, reason: null });
  });
});
