/** Over 400 lines: one spec per module; the planner's cases and properties for every kind of range. */
import fc from 'fast-check';
import {
  frameRangesToPacketPlan,
  frameRangesToSampleRanges,
  planSmartPieces,
  planStats,
  segmentsToFrameRanges,
  type FrameRange,
  type PlannedPiece,
} from './plan';

/** Frame rates and sample rates the renderer meets in practice (NTSC rates are not integers). */
const FPS = [24, 25, 30, 50, 60, 12.5, 24000 / 1001, 30000 / 1001, 60000 / 1001];
const SAMPLE_RATES = [8000, 16000, 22050, 32000, 44100, 48000, 96000];

/** A source of `frames` frames, keyframes (ascending, starting at 0) and kept ranges in play order. */
interface Source {
  frames: number;
  keyframes: number[];
  ranges: FrameRange[];
}

const arbRange = (frames: number): fc.Arbitrary<FrameRange> =>
  fc
    .tuple(fc.integer({ min: 0, max: frames }), fc.integer({ min: 0, max: frames }))
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) }));

const arbSource: fc.Arbitrary<Source> = fc.integer({ min: 2, max: 600 }).chain((frames) =>
  fc.record({
    frames: fc.constant(frames),
    keyframes: fc
      .uniqueArray(fc.integer({ min: 1, max: frames - 1 }), { maxLength: 40 })
      .map((ks) => [0, ...ks.sort((a, b) => a - b)]),
    // play order: ranges may be out of order or overlap (a segment used twice)
    ranges: fc.array(arbRange(frames), { minLength: 1, maxLength: 8 }),
  }),
);

/** Keyframes `k` with lo <= k <= hi. */
const keysIn = (keyframes: readonly number[], lo: number, hi: number): number[] => keyframes.filter((k) => k >= lo && k <= hi);
/** The keyframe at or before `frame`. */
const keyAtOrBefore = (keyframes: readonly number[], frame: number): number => Math.max(...keyframes.filter((k) => k <= frame));

/** Splits the flat piece list back into per-range lists, checking coverage on the way. */
function piecesPerRange(ranges: readonly FrameRange[], pieces: readonly PlannedPiece[]): PlannedPiece[][] {
  const out: PlannedPiece[][] = [];
  let i = 0;
  for (const r of ranges) {
    const mine: PlannedPiece[] = [];
    let cursor = r.start;
    while (cursor < r.end) {
      const p = pieces[i++];
      if (!p) throw new Error(`pieces end before range ${r.start}-${r.end} is covered (at ${cursor})`);
      expect(p.start).toBe(cursor); // in order, no gap, no overlap
      expect(p.end).toBeGreaterThan(p.start); // never empty
      expect(p.end).toBeLessThanOrEqual(r.end); // never crosses the range boundary
      mine.push(p);
      cursor = p.end;
    }
    out.push(mine);
  }
  expect(i).toBe(pieces.length); // nothing left over
  return out;
}

describe('segmentsToFrameRanges', () => {
  it('keeps frames round(start*fps) .. round(end*fps)-1 in play order', () => {
    expect(
      segmentsToFrameRanges(
        [
          { start: 10, end: 12.5 },
          { start: 1.01, end: 1.99 },
        ],
        30,
        1000,
      ),
    ).toEqual([
      { start: 300, end: 375 },
      { start: 30, end: 60 },
    ]);
  });

  it('snaps boundaries to the nearest frame at NTSC rates', () => {
    const fps = 30000 / 1001;
    // 1.0 s is frame 29.97 -> 30; 2.0 s is 59.94 -> 60
    expect(segmentsToFrameRanges([{ start: 1, end: 2 }], fps, 1000)).toEqual([{ start: 30, end: 60 }]);
    // 0.016 s is 0.48 of a frame -> frame 0; 0.017 s is 0.51 -> frame 1
    expect(segmentsToFrameRanges([{ start: 0.016, end: 0.5 }], fps, 1000)[0]!.start).toBe(0);
    expect(segmentsToFrameRanges([{ start: 0.017, end: 0.5 }], fps, 1000)[0]!.start).toBe(1);
  });

  it('clamps to the source and drops ranges that keep no frame', () => {
    expect(
      segmentsToFrameRanges(
        [
          { start: -5, end: 1 }, // before the start: clamped to 0
          { start: 9, end: 100 }, // past the end: clamped to frameCount
          { start: 2, end: 2.01 }, // rounds to an empty range
          { start: 5, end: 4 }, // reversed
          { start: 200, end: 300 }, // entirely past the end
        ],
        10,
        95,
      ),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 90, end: 95 },
    ]);
    expect(segmentsToFrameRanges([], 30, 100)).toEqual([]);
  });

  it('always yields non-empty ranges inside [0, frameCount]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: fc.double({ min: -10, max: 120, noNaN: true }), end: fc.double({ min: -10, max: 120, noNaN: true }) })),
        fc.constantFrom(...FPS),
        fc.integer({ min: 0, max: 3000 }),
        (segments, fps, frameCount) => {
          for (const r of segmentsToFrameRanges(segments, fps, frameCount)) {
            expect(Number.isInteger(r.start) && Number.isInteger(r.end)).toBe(true);
            expect(r.start).toBeGreaterThanOrEqual(0);
            expect(r.end).toBeLessThanOrEqual(frameCount);
            expect(r.end).toBeGreaterThan(r.start);
          }
        },
      ),
    );
  });
});

describe('planSmartPieces', () => {
  it('open GOPs: a copy of whole GOPs stops before the next keyframe\'s leading pictures, which are re-encoded', () => {
    // keyframes at 30 and 60 each have two leading pictures (shown just before them, decoded after)
    const pieces = planSmartPieces([{ start: 10, end: 85 }], [0, 30, 60, 90], [], [0, 2, 2, 0]);
    expect(pieces).toEqual([
      { mode: 'encode', start: 10, end: 30, decodeFrom: 0 },
      { mode: 'copy', start: 30, end: 58, decodeFrom: 30 },
      { mode: 'encode', start: 58, end: 60, decodeFrom: 30 },
      { mode: 'encode', start: 60, end: 85, decodeFrom: 60 },
    ]);
    // from one keyframe to past the next: the GOPs between are copied whole, leading pictures and all
    expect(planSmartPieces([{ start: 0, end: 90 }], [0, 30, 60, 90], [], [0, 2, 2, 0])).toEqual([{ mode: 'copy', start: 0, end: 90, decodeFrom: 0 }]);
  });

  const keys = [0, 30, 60, 90];

  it('copies the whole GOPs inside a range and re-encodes the partial ones at both cuts', () => {
    expect(planSmartPieces([{ start: 10, end: 75 }], keys)).toEqual([
      { mode: 'encode', start: 10, end: 30, decodeFrom: 0 },
      { mode: 'copy', start: 30, end: 60, decodeFrom: 30 },
      { mode: 'encode', start: 60, end: 75, decodeFrom: 60 },
    ]);
  });

  it('copies a range that starts and ends on keyframes without re-encoding anything', () => {
    expect(planSmartPieces([{ start: 30, end: 90 }], keys)).toEqual([{ mode: 'copy', start: 30, end: 90, decodeFrom: 30 }]);
    expect(planSmartPieces([{ start: 0, end: 95 }], keys)).toEqual([
      { mode: 'copy', start: 0, end: 90, decodeFrom: 0 },
      { mode: 'encode', start: 90, end: 95, decodeFrom: 90 },
    ]);
  });

  it('after the last keyframe, copies the GOP up to its last self-contained run and re-encodes only the rest', () => {
    // IPBB mini-GOPs of 3: runs from each keyframe end at 1, 4, 7, ... (closedEnds)
    const closed = keys.flatMap((k) => Array.from({ length: 10 }, (_, i) => k + 1 + 3 * i));
    expect(planSmartPieces([{ start: 10, end: 75 }], keys, closed)).toEqual([
      { mode: 'encode', start: 10, end: 30, decodeFrom: 0 },
      { mode: 'copy', start: 30, end: 60, decodeFrom: 30 },
      { mode: 'copy', start: 60, end: 73, decodeFrom: 60 },
      { mode: 'encode', start: 73, end: 75, decodeFrom: 60 },
    ]);
    // a run that ends exactly where the range does: nothing encoded
    expect(planSmartPieces([{ start: 30, end: 64 }], keys, closed)).toEqual([
      { mode: 'copy', start: 30, end: 60, decodeFrom: 30 },
      { mode: 'copy', start: 60, end: 64, decodeFrom: 60 },
    ]);
    // a range that starts inside a GOP still re-encodes its head
    expect(planSmartPieces([{ start: 35, end: 50 }], keys, closed)).toEqual([{ mode: 'encode', start: 35, end: 50, decodeFrom: 30 }]);
  });

  it('re-encodes a range inside one GOP, decoding from that GOP’s keyframe', () => {
    expect(planSmartPieces([{ start: 35, end: 50 }], keys)).toEqual([{ mode: 'encode', start: 35, end: 50, decodeFrom: 30 }]);
    // starts on a keyframe but ends before the next one: a partial GOP, so encoded
    expect(planSmartPieces([{ start: 30, end: 40 }], keys)).toEqual([{ mode: 'encode', start: 30, end: 40, decodeFrom: 30 }]);
  });

  it('splits a range that straddles exactly one keyframe into two encodes', () => {
    expect(planSmartPieces([{ start: 25, end: 40 }], keys)).toEqual([
      { mode: 'encode', start: 25, end: 30, decodeFrom: 0 },
      { mode: 'encode', start: 30, end: 40, decodeFrom: 30 },
    ]);
  });

  it('plans each range on its own, in play order (reordered and repeated ranges)', () => {
    expect(
      planSmartPieces(
        [
          { start: 60, end: 90 },
          { start: 0, end: 30 },
          { start: 60, end: 90 },
        ],
        keys,
      ),
    ).toEqual([
      { mode: 'copy', start: 60, end: 90, decodeFrom: 60 },
      { mode: 'copy', start: 0, end: 30, decodeFrom: 0 },
      { mode: 'copy', start: 60, end: 90, decodeFrom: 60 },
    ]);
  });

  it('re-encodes everything when the only keyframe is frame 0 (all-intra is not assumed)', () => {
    expect(planSmartPieces([{ start: 0, end: 500 }], [0])).toEqual([{ mode: 'encode', start: 0, end: 500, decodeFrom: 0 }]);
  });

  it('copies single-frame GOPs of an all-intra source', () => {
    const allIntra = Array.from({ length: 20 }, (_, i) => i);
    expect(planSmartPieces([{ start: 3, end: 7 }], allIntra)).toEqual([{ mode: 'copy', start: 3, end: 7, decodeFrom: 3 }]);
  });

  it('returns no pieces for no ranges', () => {
    expect(planSmartPieces([], keys)).toEqual([]);
  });

  it('refuses keyframe lists that do not start at frame 0', () => {
    expect(() => planSmartPieces([{ start: 0, end: 10 }], [])).toThrow('the first frame must be a keyframe');
    expect(() => planSmartPieces([{ start: 0, end: 10 }], [5, 10])).toThrow('the first frame must be a keyframe');
  });

  it('covers every frame of every range exactly once, in order, never crossing a range boundary', () => {
    fc.assert(
      fc.property(arbSource, ({ keyframes, ranges }) => {
        const pieces = planSmartPieces(ranges, keyframes);
        const perRange = piecesPerRange(ranges, pieces);
        const flat = perRange.flatMap((ps) => ps.flatMap((p) => Array.from({ length: p.end - p.start }, (_, i) => p.start + i)));
        const wanted = ranges.flatMap((r) => Array.from({ length: r.end - r.start }, (_, i) => r.start + i));
        expect(flat).toEqual(wanted);
      }),
    );
  });

  it('copies only whole GOPs: copy pieces start and end on keyframes and decode from their start', () => {
    fc.assert(
      fc.property(arbSource, ({ keyframes, ranges }) => {
        for (const p of planSmartPieces(ranges, keyframes)) {
          if (p.mode !== 'copy') continue;
          expect(keyframes).toContain(p.start);
          expect(keyframes).toContain(p.end); // also when it is the range end
          expect(p.decodeFrom).toBe(p.start);
        }
      }),
    );
  });

  it('decodes encode pieces from the keyframe at or before their start', () => {
    fc.assert(
      fc.property(arbSource, ({ keyframes, ranges }) => {
        for (const p of planSmartPieces(ranges, keyframes)) {
          if (p.mode === 'encode') expect(p.decodeFrom).toBe(keyAtOrBefore(keyframes, p.start));
        }
      }),
    );
  });

  it('re-encodes at most two partial GOPs per range and copies the largest run of whole GOPs', () => {
    fc.assert(
      fc.property(arbSource, ({ frames, keyframes, ranges }) => {
        const gopEnds = [...keyframes.slice(1), frames];
        const longestGop = Math.max(...keyframes.map((k, i) => gopEnds[i]! - k));
        const perRange = piecesPerRange(ranges, planSmartPieces(ranges, keyframes));
        ranges.forEach((r, i) => {
          const ps = perRange[i]!;
          const modes = ps.map((p) => (p.mode === 'copy' ? 'C' : 'E')).join('');
          expect(modes).toMatch(/^E?C?E?$/);
          const encodes = ps.filter((p) => p.mode === 'encode');
          // each encode piece lies inside one GOP: no keyframe strictly after its start
          for (const p of encodes) expect(keysIn(keyframes, p.start + 1, p.end - 1)).toEqual([]);
          const encoded = encodes.reduce((n, p) => n + p.end - p.start, 0);
          expect(encoded).toBeLessThanOrEqual(2 * longestGop);
          // the copy spans from the first to the last keyframe inside the range whenever there are two
          const inside = keysIn(keyframes, r.start, r.end);
          const copy = ps.find((p) => p.mode === 'copy');
          if (inside.length >= 2) {
            expect(copy).toEqual({ mode: 'copy', start: inside[0], end: inside[inside.length - 1], decodeFrom: inside[0] });
          } else {
            expect(copy).toBeUndefined();
          }
        });
      }),
    );
  });
});

describe('planStats', () => {
  it('counts copied and encoded frames and the encoded share', () => {
    const pieces = planSmartPieces([{ start: 10, end: 75 }], [0, 30, 60, 90]);
    expect(planStats(pieces)).toEqual({ totalFrames: 65, encodedFrames: 35, copiedFrames: 30, encodedShare: 35 / 65 });
  });

  it('reports a share of 0 for an empty plan', () => {
    expect(planStats([])).toEqual({ totalFrames: 0, encodedFrames: 0, copiedFrames: 0, encodedShare: 0 });
  });

  it('totals the kept frames of the ranges, with a share between 0 and 1', () => {
    fc.assert(
      fc.property(arbSource, ({ keyframes, ranges }) => {
        const s = planStats(planSmartPieces(ranges, keyframes));
        expect(s.totalFrames).toBe(ranges.reduce((n, r) => n + r.end - r.start, 0));
        expect(s.encodedFrames + s.copiedFrames).toBe(s.totalFrames);
        expect(s.encodedShare).toBeGreaterThanOrEqual(0);
        expect(s.encodedShare).toBeLessThanOrEqual(1);
        expect(s.encodedShare).toBeCloseTo(s.encodedFrames / s.totalFrames, 12);
      }),
    );
  });
});

describe('frameRangesToSampleRanges', () => {
  it('converts frame boundaries to samples exactly when a frame is a whole number of samples', () => {
    // 30 fps at 48 kHz: 1600 samples per frame
    expect(
      frameRangesToSampleRanges(
        [
          { start: 0, end: 30 },
          { start: 60, end: 90 },
        ],
        30,
        48000,
      ),
    ).toEqual([
      { start: 0, end: 48000 },
      { start: 96000, end: 144000 },
    ]);
  });

  it('spreads the fractional samples of NTSC frames so single-frame cuts never drift', () => {
    // 29.97 fps at 48 kHz: 1601.6 samples per frame
    const fps = 30000 / 1001;
    const ranges = Array.from({ length: 5 }, (_, i) => ({ start: 10 * i, end: 10 * i + 1 }));
    const out = frameRangesToSampleRanges(ranges, fps, 48000);
    expect(out.map((r) => r.end - r.start)).toEqual([1602, 1601, 1602, 1601, 1602]); // 1602, 3203, 4805, 6406, 8008
    expect(out.map((r) => r.start)).toEqual([0, 16016, 32032, 48048, 64064]);
  });

  it('returns nothing for no ranges', () => {
    expect(frameRangesToSampleRanges([], 30, 48000)).toEqual([]);
  });

  it('starts each range at round(start/fps*sr) and keeps the running total at round(frames/fps*sr)', () => {
    fc.assert(
      fc.property(arbSource, fc.constantFrom(...FPS), fc.constantFrom(...SAMPLE_RATES), ({ ranges }, fps, sr) => {
        const out = frameRangesToSampleRanges(ranges, fps, sr);
        expect(out).toHaveLength(ranges.length);
        let frames = 0;
        let samples = 0;
        ranges.forEach((r, i) => {
          const s = out[i]!;
          const length = s.end - s.start;
          expect(s.start).toBe(Math.round((r.start / fps) * sr));
          expect(length).toBeGreaterThanOrEqual(0);
          // one range is within one sample of its exact length
          expect(Math.abs(length - ((r.end - r.start) / fps) * sr)).toBeLessThanOrEqual(1 + 1e-6);
          frames += r.end - r.start;
          samples += length;
          // the output never drifts from the video by more than half a sample, however many cuts
          expect(samples).toBe(Math.round((frames / fps) * sr));
          expect(Math.abs(samples - (frames / fps) * sr)).toBeLessThanOrEqual(0.5 + 1e-6);
        });
      }),
    );
  });

  it('gives back contiguous audio when one range from frame 0 is cut into consecutive pieces', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 9999 }), { maxLength: 30 }),
        fc.constantFrom(...FPS),
        fc.constantFrom(...SAMPLE_RATES),
        (cuts, fps, sr) => {
          const bounds = [0, ...cuts.sort((a, b) => a - b), 10000];
          const ranges = bounds.slice(1).map((end, i) => ({ start: bounds[i]!, end }));
          const out = frameRangesToSampleRanges(ranges, fps, sr);
          out.slice(1).forEach((s, i) => expect(s.start).toBe(out[i]!.end));
          expect(out[0]!.start).toBe(0);
          expect(out[out.length - 1]!.end).toBe(frameRangesToSampleRanges([{ start: 0, end: 10000 }], fps, sr)[0]!.end);
        },
      ),
    );
  });
});

describe('frameRangesToPacketPlan', () => {
  const frameRangesToPacketRanges = (...args: Parameters<typeof frameRangesToPacketPlan>) => frameRangesToPacketPlan(...args).ranges;

  /** AAC packets: 1024 samples each, starting at `offsetSec`. */
  const aacStarts = (sr: number, count: number, offsetSec = 0): number[] => Array.from({ length: count }, (_, i) => offsetSec + (i * 1024) / sr);

  it('starts at the nearest packet and takes as many packets as the running video length needs', () => {
    const packetSec = 1024 / 48000; // 21.333 ms
    const starts = aacStarts(48000, 500);
    const out = frameRangesToPacketRanges(
      [
        { start: 0, end: 25 }, // 1 s: 46.875 packets -> 47
        { start: 50, end: 75 }, // 2 s in total: 93.75 -> 94, so 47 more; 2.0 s is nearest packet 94 (2.0053 s)
        { start: 101, end: 102 }, // 2.04 s in total: 95.625 -> 96, so 2 more; 4.04 s is 189.375 packets -> packet 189
      ],
      25,
      starts,
      packetSec,
    );
    expect(out).toEqual([
      { first: 0, count: 47 },
      { first: 94, count: 47 },
      { first: 190, count: 2 },
    ]);
  });

  it('finds the nearest packet when the audio starts before or after the video', () => {
    const packetSec = 1024 / 48000;
    // priming: the first packet starts one packet before the video
    expect(frameRangesToPacketRanges([{ start: 0, end: 30 }], 30, aacStarts(48000, 100, -packetSec), packetSec)[0]!.first).toBe(1);
    // late audio: frame 0 is before every packet, so the first packet is taken
    expect(frameRangesToPacketRanges([{ start: 0, end: 30 }], 30, aacStarts(48000, 100, 0.5), packetSec)[0]!.first).toBe(0);
  });

  it('starts audio that begins after the first kept frame as late, with packets for the rest of the range only', () => {
    const packetSec = 1024 / 48000;
    const late = frameRangesToPacketPlan([{ start: 0, end: 30 }, { start: 60, end: 90 }], 30, aacStarts(48000, 200, 0.25), packetSec);
    expect(late.startSec).toBeCloseTo(0.25, 9);
    // 0.75 s of audio after the offset: 35.16 packets -> 35; then 2 s in all: 82.03 -> 82, so 47 more
    expect(late.ranges.map((r) => r.count)).toEqual([35, 47]);
    expect(late.ranges[0]!.first).toBe(0);
    // a first kept frame after the audio's start needs no offset; nor does a gap under half a packet
    expect(frameRangesToPacketPlan([{ start: 30, end: 60 }], 30, aacStarts(48000, 200, 0.25), packetSec).startSec).toBe(0);
    expect(frameRangesToPacketPlan([{ start: 0, end: 30 }], 30, aacStarts(48000, 200, packetSec / 3), packetSec).startSec).toBe(0);
  });

  it('never points past the packets it has: counts are clipped to what is left, none without packets', () => {
    const packetSec = 1024 / 48000;
    const starts = aacStarts(48000, 10); // 0.213 s of audio
    const out = frameRangesToPacketRanges([{ start: 0, end: 300 }], 30, starts, packetSec); // 10 s of video
    expect(out).toEqual([{ first: 0, count: 10 }]);
    const late = frameRangesToPacketRanges([{ start: 270, end: 300 }], 30, starts, packetSec);
    expect(late).toEqual([{ first: 9, count: 1 }]);
    expect(frameRangesToPacketRanges([{ start: 0, end: 30 }], 30, [], packetSec)).toEqual([{ first: 0, count: 0 }]);
  });

  it('keeps the running audio within half a packet of the running video, and each range in sync within half a packet', () => {
    fc.assert(
      fc.property(
        arbSource,
        fc.constantFrom(...FPS),
        fc.constantFrom(...SAMPLE_RATES),
        fc.constantFrom(0, -1, 1, 0.4),
        ({ frames, ranges }, fps, sr, offsetPackets) => {
          const packetSec = 1024 / sr;
          // enough packets to cover the whole video
          const starts = aacStarts(sr, Math.ceil(frames / fps / packetSec) + 4, offsetPackets * packetSec);
          const { startSec, ranges: out } = frameRangesToPacketPlan(ranges, fps, starts, packetSec);
          expect(out).toHaveLength(ranges.length);
          // late audio (more than half a packet after the first kept frame) starts as late
          const gap = starts[0]! - ranges[0]!.start / fps;
          expect(startSec).toBeCloseTo(gap > packetSec / 2 ? gap : 0, 9);
          let outFrames = 0;
          let outPackets = 0;
          ranges.forEach((r, i) => {
            const p = out[i]!;
            expect(p.count).toBeGreaterThanOrEqual(0);
            expect(p.first + p.count).toBeLessThanOrEqual(starts.length);
            // the range's audio plays within half a packet of its frames: the source packet is
            // the one nearest to (first frame + how far the output audio runs ahead of the video)
            const lead = startSec + outPackets * packetSec - outFrames / fps;
            const t = r.start / fps + lead;
            if (t >= starts[0]! && t <= starts[starts.length - 1]!) {
              const nearest = Math.min(...starts.map((x) => Math.abs(x - t)));
              expect(Math.abs(starts[p.first]! - t)).toBeLessThanOrEqual(nearest + 1e-9);
              expect(Math.abs(starts[p.first]! - t)).toBeLessThanOrEqual(packetSec / 2 + 1e-9);
            }
            outFrames += r.end - r.start;
            outPackets += p.count;
            // (until the late audio has begun, no range takes a packet)
            if (startSec < outFrames / fps) expect(Math.abs(startSec + outPackets * packetSec - outFrames / fps)).toBeLessThanOrEqual(packetSec / 2 + 1e-9);
            else expect(outPackets).toBe(0);
          });
        },
      ),
    );
  });
});
