import { Mp4BoundsError, Mp4UnsupportedError, MP4_LIMITS, parameterSetsOf, parseMovieTables, readMovieTables, sampleEntryFor } from '.';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avcStsd, findBox, hevcStsd, track, u32 } from './testing';
import { movieBox } from './write';

const STBL = ['trak', 'mdia', 'minf', 'stbl'];

describe('MP4 tables written and read back (one sample model)', () => {
  it('keeps offsets (64-bit too), sizes, times, sync samples and the edit', () => {
    const audio = track({ handler: 'soun', ctts: null, sync: null, editMediaTime: 0, timescale: 48000, durations: new Uint32Array(4).fill(1024), offsets: Float64Array.from([200, 210, 230, 260]) });
    const t = parseMovieTables(movieBox([track(), audio])).tracks;
    expect(t.map((x) => x.handler)).toEqual(['vide', 'soun']);
    const [v, a] = t;
    expect(Array.from(v!.offsets)).toEqual([100, 110, 130, 5_000_000_000]);
    expect(Array.from(v!.sizes)).toEqual([10, 20, 30, 40]);
    expect(Array.from(v!.ctts!)).toEqual([1024, 2048, 0, 512]);
    expect(Array.from(v!.sync!)).toEqual([1, 0, 0, 0]);
    expect([v!.timescale, v!.editMediaTime, v!.language, v!.width >> 16, v!.entryType, v!.descriptions]).toEqual([15360, 1024, 0x55c4, 1280, 'avc1', null]);
    expect(Array.from(a!.offsets)).toEqual([200, 210, 230, 260]);
    expect([a!.sync, a!.ctts]).toEqual([null, null]);
    expect(Array.from(a!.durations)).toEqual([1024, 1024, 1024, 1024]);
  });

  it('what it reads, it writes back the same (a track read is a track to write)', () => {
    const [v] = parseMovieTables(movieBox([track()])).tracks;
    const again = parseMovieTables(movieBox([{ ...v!, handler: 'vide' }])).tracks[0]!;
    expect(again).toEqual(v);
  });

  it('keeps the display matrix (a rotated phone video) from tkhd', () => {
    const quarter = Buffer.concat([u32(0), u32(0x10000), u32(0), u32(0xffff0000), u32(0), u32(0), u32(0), u32(0), u32(0x40000000)]);
    const [v] = parseMovieTables(movieBox([track({ matrix: quarter })])).tracks;
    expect(v!.matrix.equals(quarter)).toBe(true);
    const [plain] = parseMovieTables(movieBox([track()])).tracks;
    expect(plain!.matrix.readUInt32BE(0)).toBe(0x10000);
  });

  it('labels the sample entry by where parameter sets travel: hvc1/avc1 in the entry only, hev1/avc3 in band too', () => {
    const hevc = hevcStsd([[0x40, 1], [0x42, 2, 3], [0x44, 4]]);
    const inBand = sampleEntryFor(hevc, true);
    expect(inBand.toString('latin1', 20, 24)).toBe('hev1');
    // array_completeness cleared on every array, the NAL units untouched
    expect(parameterSetsOf(inBand)).toEqual(parameterSetsOf(hevc));
    const arrays = inBand.indexOf('hvcC', 0, 'latin1') + 4 + 23;
    expect([inBand[arrays]! >> 7, inBand[arrays + 5]! >> 7, inBand[arrays + 11]! >> 7]).toEqual([0, 0, 0]);
    expect(hevc[arrays]! >> 7).toBe(1);
    expect(sampleEntryFor(inBand, false).toString('latin1', 20, 24)).toBe('hvc1');
    const avc = avcStsd([0x67, 9], [0x68, 8]);
    expect(sampleEntryFor(avc, true).toString('latin1', 20, 24)).toBe('avc3');
    expect(sampleEntryFor(avc, false).equals(avc)).toBe(true);
  });

  it('reads the parameter sets of an avcC, length prefixed; a configuration overrunning its box gives none', () => {
    expect([...parameterSetsOf(avcStsd([0x67, 9], [0x68, 8, 7]))!]).toEqual([0, 0, 0, 2, 0x67, 9, 0, 0, 0, 3, 0x68, 8, 7]);
    const bad = avcStsd([0x67, 9], [0x68, 8, 7]);
    bad.writeUInt16BE(0xffff, bad.length - 5); // the PPS claims 64 KiB
    expect(parameterSetsOf(bad)).toBeNull();
    expect(parameterSetsOf(bad.subarray(0, 40))).toBeNull();
  });
});

describe('the reader refuses what is outside its bounds, before allocating', () => {
  const one = () => movieBox([track({ offsets: Float64Array.from([8, 18, 38, 68]) })]);

  it('samples beyond the end of the file: unsupported (the composer is not used)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tables-'));
    try {
      const beyond = join(dir, 'beyond.mp4');
      await writeFile(beyond, Buffer.concat([movieBox([track({ offsets: Float64Array.from([100, 110, 130, 4000]) })]), Buffer.alloc(200)]));
      await expect(readMovieTables(beyond)).rejects.toThrow(Mp4UnsupportedError);
      await expect(readMovieTables(beyond)).rejects.toThrow(/beyond the end of the file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a fixed sample size times a giant count must fit the file; counts past the limit are refused', () => {
    const moov = one();
    const stsz = findBox(moov, [...STBL, 'stsz']).start;
    moov.writeUInt32BE(10, stsz + 12); // fixed sample size: no table needed for any count
    moov.writeUInt32BE(4_000_000_000, stsz + 16);
    expect(() => parseMovieTables(moov, 1_000_000)).toThrow(new Mp4UnsupportedError('the samples claim more bytes than the file holds'));
    moov.writeUInt32BE(1, stsz + 12);
    moov.writeUInt32BE(MP4_LIMITS.maxSamples + 1, stsz + 16);
    expect(() => parseMovieTables(moov)).toThrow(Mp4BoundsError);
  });

  it('samples that overlap each other (one range read as many frames) are refused', () => {
    const overlapping = movieBox([track({ offsets: Float64Array.from([8, 18, 38, 68]) }), track({ offsets: Float64Array.from([20, 200, 300, 400]) })]);
    expect(() => parseMovieTables(overlapping, 10_000)).toThrow(new Mp4BoundsError('samples overlap each other in the file'));
    // every sample of a track pointing at the same bytes
    const same = movieBox([track({ offsets: Float64Array.from([8, 8, 8, 8]), sizes: Uint32Array.from([100, 100, 100, 100]) })]);
    expect(() => parseMovieTables(same, 10_000)).toThrow(Mp4BoundsError);
    // out of file order (our renders place some audio in place) but apart: fine; overlapping: not
    expect(parseMovieTables(movieBox([track({ offsets: Float64Array.from([500, 8, 300, 1000]) })]), 10_000).tracks[0]!.offsets[0]).toBe(500);
    expect(() => parseMovieTables(movieBox([track({ offsets: Float64Array.from([500, 8, 505, 1000]) })]), 10_000)).toThrow(new Mp4BoundsError('samples overlap each other in the file'));
    // back to back is fine
    expect(parseMovieTables(movieBox([track({ offsets: Float64Array.from([8, 18, 38, 68]) }), track({ offsets: Float64Array.from([108, 118, 138, 168]) })]), 10_000).tracks).toHaveLength(2);
  });

  it('more tracks than the limit are refused', () => {
    const many = movieBox(Array.from({ length: MP4_LIMITS.maxTracks + 1 }, (_, i) => track({ offsets: Float64Array.from([8, 18, 38, 68].map((o) => o + 100 * i)) })));
    expect(() => parseMovieTables(many)).toThrow(new Mp4BoundsError(`the movie has ${MP4_LIMITS.maxTracks + 1} tracks (at most ${MP4_LIMITS.maxTracks})`));
  });

  it('stsc entries out of order are refused; the walk is linear in chunks and entries', () => {
    const moov = one();
    const stsc = findBox(moov, [...STBL, 'stsc']);
    // one entry [1, 4, 1]: claim a second entry starting at chunk 1 again
    expect(moov.readUInt32BE(stsc.start + 12)).toBe(1);
    const entries = Buffer.alloc(4 + 24);
    entries.writeUInt32BE(2, 0);
    [1, 4, 1, 1, 4, 1].forEach((v, i) => entries.writeUInt32BE(v, 4 + 4 * i));
    const patched = Buffer.concat([moov.subarray(0, stsc.start + 12), entries, moov.subarray(stsc.end)]);
    const grow = 24 + 4 - (stsc.end - stsc.start - 12);
    for (const b of [[], ['trak'], ['trak', 'mdia'], ['trak', 'mdia', 'minf'], STBL, [...STBL, 'stsc']]) {
      const at = b.length === 0 ? { start: 0 } : findBox(moov, b);
      patched.writeUInt32BE(patched.readUInt32BE(at.start) + grow, at.start);
    }
    expect(() => parseMovieTables(patched)).toThrow(new Mp4BoundsError('the stsc entries are out of order'));
  });
});
