import { AAC_BLOCK, adtsFrameOffsets, spliceRegions } from './audio-splice';

describe('spliceRegions', () => {
  const sr = 48000;
  const block = AAC_BLOCK / sr;

  it("takes each gain span's packets with three unchanged packets on both sides", () => {
    // 1.0 s .. 2.0 s: packets 46 (starts 0.981 s) to 94 (ends 2.005 s)
    expect(spliceRegions([{ start: 1, end: 2, volume: 0 }], sr, 1000)).toEqual([{ a: 46 - 3, b: 94 + 3 }]);
  });

  it('merges spans too close to prime a region between them, keeps far ones apart, ignores gain 1 and empty spans', () => {
    const regions = spliceRegions(
      [
        { start: 50 * block, end: 60 * block, volume: 0.3 },
        { start: 64 * block, end: 70 * block, volume: 0 },
        { start: 200 * block, end: 210 * block, volume: 0.1 },
        { start: 300 * block, end: 310 * block, volume: 1 },
        { start: 400 * block, end: 400 * block, volume: 0 },
      ],
      sr,
      1000,
    );
    expect(regions).toEqual([
      { a: 47, b: 73 },
      { a: 197, b: 213 },
    ]);
  });

  it('stays inside the stream at both ends', () => {
    expect(spliceRegions([{ start: 0, end: 0.1, volume: 0 }, { start: 20.9, end: 30, volume: 0 }], sr, 980)).toEqual([
      { a: 0, b: 8 },
      { a: 976, b: 980 },
    ]);
  });
});

describe('adtsFrameOffsets', () => {
  const frame = (length: number) => {
    const b = Buffer.alloc(length);
    b[0] = 0xff;
    b[1] = 0xf1;
    b[3] = (length >> 11) & 0x03;
    b[4] = (length >> 3) & 0xff;
    b[5] = (length & 0x07) << 5;
    return b;
  };

  it('finds every frame, and refuses a stream with a broken or cut frame', () => {
    expect(adtsFrameOffsets(Buffer.concat([frame(10), frame(300), frame(7)]))).toEqual([
      { offset: 0, length: 10 },
      { offset: 10, length: 300 },
      { offset: 310, length: 7 },
    ]);
    expect(adtsFrameOffsets(Buffer.concat([frame(10), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8])]))).toBeNull();
    expect(adtsFrameOffsets(frame(10).subarray(0, 9))).toBeNull();
  });
});
