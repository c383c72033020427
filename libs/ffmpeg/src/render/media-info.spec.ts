import fc from 'fast-check';
import { analyseVideoPackets, parsePacketCsv, parseRationalParts } from './media-info';

type PacketRow = ReturnType<typeof parsePacketCsv>[number];

/** 30 fps in a 1/15360 time base (what ffmpeg's MP4 muxer writes): 512 ticks per frame. */
const TICKS = 512;

/**
 * Packets in decode order from display indices in decode order, the way an MP4 with B frames
 * reports them: pts shifted by two frames of reorder delay, dts ascending from 0.
 */
function packets(displayInDecodeOrder: readonly number[], keys: ReadonlySet<number>, ptsOf = (i: number): number => (i + 2) * TICKS): PacketRow[] {
  return displayInDecodeOrder.map((d, i) => ({ pts: ptsOf(d), dts: i * TICKS, key: keys.has(d) }));
}

/** The ffprobe CSV for packets (`pts,dts,flags`). */
const csv = (ps: readonly PacketRow[]): string => ps.map((p) => `${p.pts},${p.dts},${p.key ? 'K_' : '__'}`).join('\n') + '\n';

describe('parsePacketCsv', () => {
  it('reads pts, dts and the keyframe flag of ffprobe packet lines', () => {
    expect(parsePacketCsv('1024,0,K_\n2560,512,__\n1536,1024,__\n')).toEqual([
      { pts: 1024, dts: 0, key: true },
      { pts: 2560, dts: 512, key: false },
      { pts: 1536, dts: 1024, key: false },
    ]);
  });

  it('reads negative timestamps and keyframes with other flags (discard, corrupt)', () => {
    expect(parsePacketCsv('-1024,-2048,K_D\n0,-1024,KC\n512,-512,_D')).toEqual([
      { pts: -1024, dts: -2048, key: true },
      { pts: 0, dts: -1024, key: true },
      { pts: 512, dts: -512, key: false },
    ]);
  });

  it('skips packets without a pts and blank lines', () => {
    expect(parsePacketCsv('N/A,0,K_\n\n,512,__\nabc,1,__\n1024,1024,__\n\n')).toEqual([{ pts: 1024, dts: 1024, key: false }]);
    expect(parsePacketCsv('')).toEqual([]);
  });

  it('falls back to the pts when the dts is missing', () => {
    expect(parsePacketCsv('1000,N/A,K_\n2000,,__\n3000')).toEqual([
      { pts: 1000, dts: 1000, key: true },
      { pts: 2000, dts: 2000, key: false },
      { pts: 3000, dts: 3000, key: false },
    ]);
  });

  it('accepts CRLF line ends', () => {
    expect(parsePacketCsv('0,0,K_\r\n512,512,__\r\n')).toEqual([
      { pts: 0, dts: 0, key: true },
      { pts: 512, dts: 512, key: false },
    ]);
  });

  it('round-trips any packet list written as ffprobe CSV', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ pts: fc.integer({ min: -1e9, max: 1e12 }), dts: fc.integer({ min: -1e9, max: 1e12 }), key: fc.boolean() })), (ps) => {
        expect(parsePacketCsv(csv(ps))).toEqual(ps);
      }),
    );
  });
});

describe('parseRationalParts', () => {
  it('parses positive fractions only', () => {
    expect(parseRationalParts('1/15360')).toEqual({ num: 1, den: 15360 });
    expect(parseRationalParts(' 30000/1001 ')).toEqual({ num: 30000, den: 1001 });
    expect(parseRationalParts('0/1')).toBeNull();
    expect(parseRationalParts('1/0')).toBeNull();
    expect(parseRationalParts('25')).toBeNull();
    expect(parseRationalParts('-1/2')).toBeNull();
    expect(parseRationalParts(undefined)).toBeNull();
  });
});

describe('analyseVideoPackets', () => {
  it('orders an IPBB closed-GOP stream for display and finds its keyframes', () => {
    // two 8-frame GOPs, display I0 B1 B2 P3 B4 B5 P6 P7 | I8 ..., decoded I P B B P B B P
    const decode = [0, 3, 1, 2, 6, 4, 5, 7, 8, 11, 9, 10, 14, 12, 13, 15];
    const info = analyseVideoPackets(packets(decode, new Set([0, 8])));
    expect(info).toEqual({
      framePts: Array.from({ length: 16 }, (_, i) => (i + 2) * TICKS),
      keyframes: [0, 8],
      frameTicks: TICKS,
      closedGops: true,
      // I0 | I0 P3 B1 B2 | ... P6 B4 B5 | ... P7: each run of the GOP that shows exactly its frames
      closedEnds: [1, 4, 7, 8, 9, 12, 15, 16],
      leading: [0, 0],
    });
  });

  it('reads the same structure from ffprobe CSV text', () => {
    const text = ['1024,-1024,K_', '2560,-512,__', '1536,0,__', '2048,512,__', '3072,1024,K_', '4096,1536,__', '3584,2048,__'].join('\n');
    expect(analyseVideoPackets(parsePacketCsv(text))).toEqual({
      framePts: [1024, 1536, 2048, 2560, 3072, 3584, 4096],
      keyframes: [0, 4],
      frameTicks: TICKS,
      closedGops: true,
      closedEnds: [1, 4, 5, 7],
      leading: [0, 0],
    });
  });

  it('flags open GOPs: B frames decoded after the second keyframe but shown before it', () => {
    // display I0 B1 B2 P3 B4 B5 P6 B7 B8 I9 B10 B11 P12; B7 and B8 reference I9 and come after it
    const decode = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 12, 10, 11];
    const info = analyseVideoPackets(packets(decode, new Set([0, 9])));
    expect(info.closedGops).toBe(false);
    // the first GOP's runs stand alone up to the leading pictures; the open one's leave them out
    expect(info.closedEnds).toEqual([1, 4, 7, 10, 13]);
    expect(info.leading).toEqual([0, 2]);
    expect(info.keyframes).toEqual([0, 9]);
    expect(info.framePts).toEqual(Array.from({ length: 13 }, (_, i) => (i + 2) * TICKS));
    expect(info.frameTicks).toBe(TICKS); // constant rate: only the GOP structure is in the way
  });

  it('reports variable frame rate as frameTicks null', () => {
    // a phone recording: 30 fps, dropping to ~24 fps in low light, then one frame held longer
    const pts = [0, 512, 1024, 1536, 2176, 2816, 3456, 3968, 4480, 5500, 6012];
    const info = analyseVideoPackets(pts.map((p, i) => ({ pts: p, dts: p, key: i === 0 || i === 6 })));
    expect(info).toEqual({ framePts: pts, keyframes: [0, 6], frameTicks: null, closedGops: true, closedEnds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], leading: [0, 0] });
  });

  it('reports VFR also when the uneven frames are reordered B frames', () => {
    // IPBB with display times 0, 500, 1000, 1600, 2100, 2700
    const displayPts = [0, 500, 1000, 1600, 2100, 2700];
    const decode = [0, 3, 1, 2, 5, 4];
    const info = analyseVideoPackets(decode.map((d, i) => ({ pts: displayPts[d]!, dts: i * 400 - 800, key: d === 0 })));
    expect(info).toEqual({ framePts: displayPts, keyframes: [0], frameTicks: null, closedGops: true, closedEnds: [1, 4, 6], leading: [0] });
  });

  it('treats a dropped frame (a doubled step) as variable', () => {
    expect(analyseVideoPackets(packets([0, 1, 3, 4], new Set([0]))).frameTicks).toBeNull();
  });

  it('handles one packet, no packets and streams that do not start with a keyframe', () => {
    expect(analyseVideoPackets([{ pts: 7, dts: 7, key: true }])).toEqual({ framePts: [7], keyframes: [0], frameTicks: null, closedGops: true, closedEnds: [1], leading: [0] });
    expect(analyseVideoPackets([])).toEqual({ framePts: [], keyframes: [], frameTicks: null, closedGops: true, closedEnds: [], leading: [] });
    const noKeyFirst = analyseVideoPackets(packets([0, 1, 2, 3], new Set([2])));
    expect(noKeyFirst.keyframes).toEqual([2]);
    expect(noKeyFirst.closedGops).toBe(true);
  });

  it('keeps frames with equal pts in decode order', () => {
    const info = analyseVideoPackets([
      { pts: 512, dts: 0, key: false },
      { pts: 0, dts: 1, key: true },
      { pts: 512, dts: 2, key: true },
    ]);
    expect(info.framePts).toEqual([0, 512, 512]);
    expect(info.keyframes).toEqual([0, 2]); // the second 512 (decoded last) is the keyframe
    expect(info.frameTicks).toBeNull(); // a zero step is not a frame duration
  });

  /** GOP sizes and, per GOP, a decode order of its non-key frames (a permutation). */
  const arbGops = fc
    .array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 10 })
    .chain((sizes) =>
      fc.tuple(
        fc.constant(sizes),
        fc.tuple(...sizes.map((n) => fc.shuffledSubarray(Array.from({ length: n - 1 }, (_, i) => i + 1), { minLength: n - 1, maxLength: n - 1 }))),
      ),
    )
    .map(([sizes, orders]) => {
      const keys: number[] = [];
      const decode: number[] = [];
      let at = 0;
      sizes.forEach((n, g) => {
        keys.push(at);
        decode.push(at, ...orders[g]!.map((i) => at + i));
        at += n;
      });
      return { frames: at, keys, decode };
    });

  it('finds every keyframe, display-orders every pts and sees closed GOPs however frames are reordered inside them', () => {
    fc.assert(
      fc.property(arbGops, fc.integer({ min: 1, max: 3003 }), fc.integer({ min: -5, max: 5 }), ({ frames, keys, decode }, ticks, offset) => {
        const ps = packets(decode, new Set(keys), (d) => (d + offset) * ticks);
        const info = analyseVideoPackets(ps);
        expect(info.framePts).toEqual(Array.from({ length: frames }, (_, i) => (i + offset) * ticks));
        expect(info.keyframes).toEqual(keys);
        expect(info.frameTicks).toBe(frames >= 2 ? ticks : null);
        expect(info.closedGops).toBe(true);
      }),
    );
  });

  it('sees an open GOP as soon as one frame before a keyframe is decoded after it', () => {
    fc.assert(
      fc.property(
        arbGops.filter(({ keys }) => keys.length >= 2 && keys[1]! >= 2),
        fc.nat(),
        ({ keys, decode }, pick) => {
          // move one non-key frame of the GOP before the second keyframe to just after that keyframe
          const k = keys[1]!;
          const leading = 1 + (pick % (k - 1)); // display index in 1 .. k-1
          const moved = decode.filter((d) => d !== leading);
          moved.splice(moved.indexOf(k) + 1, 0, leading);
          const info = analyseVideoPackets(packets(moved, new Set(keys)));
          expect(info.closedGops).toBe(false);
          expect(info.keyframes).toEqual(keys); // display order is unchanged
          // one leading picture: copyable when it is the frame right before the keyframe
          expect(info.leading === null ? null : info.leading[1]).toBe(leading === k - 1 ? 1 : null);
        },
      ),
    );
  });
});
