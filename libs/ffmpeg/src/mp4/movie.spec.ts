import fc from 'fast-check';
import { bytesSource, checkMovieBoxes, childBoxes, drefIssues, parseBoxHeader, type MovieCheck, MP4_LIMITS } from '.';

const u32 = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const ascii = (s: string) => Buffer.from(s, 'latin1');
const zeros = (n: number) => Buffer.alloc(n);
const cstr = (s: string) => Buffer.concat([ascii(s), zeros(1)]);
const box = (type: string, ...parts: Uint8Array[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), ascii(type), body]);
};
const full = (type: string, flags: number, ...parts: Uint8Array[]) => box(type, u32(flags & 0xffffff), ...parts);
const dref = (...entries: Uint8Array[]) => full('dref', 0, u32(entries.length), ...entries);
const SELF = 0x000001;
const url = (flags: number, location?: string) => full('url ', flags, ...(location === undefined ? [] : [cstr(location)]));

/** A movie as ffmpeg writes it (mvhd, one trak down to its dinf/dref and stbl), with `dinf` children given. */
function movie(dinf: Uint8Array, stsdExtra: Uint8Array = zeros(0)): Buffer {
  const avc1 = box('avc1', zeros(78), box('avcC', zeros(8)), stsdExtra);
  return box(
    'moov',
    box('mvhd', zeros(100)),
    box(
      'trak',
      box('tkhd', zeros(84)),
      box(
        'mdia',
        box('mdhd', zeros(24)),
        box('hdlr', zeros(25)),
        box('minf', box('vmhd', zeros(12)), box('dinf', dinf), box('stbl', full('stsd', 0, u32(1), avc1), box('stts', zeros(8)))),
      ),
    ),
  );
}
const FTYP = box('ftyp', ascii('isom'), u32(512), ascii('isomiso2avc1mp41'));
const MDAT = box('mdat', zeros(64));
const file = (...boxes: Uint8Array[]) => Buffer.concat([FTYP, ...boxes]);
const check = (bytes: Uint8Array, maxMovieBytes?: number): Promise<MovieCheck> => checkMovieBoxes(bytesSource(bytes), maxMovieBytes ? { limits: { ...MP4_LIMITS, maxMovieBytes } } : {});

describe('box headers', () => {
  it('reads 32-bit, 64-bit and to-the-end sizes, clamps to the parent, stops where ffmpeg stops', () => {
    expect(parseBoxHeader(box('free', zeros(4)), 100)).toEqual({ type: 'free', headerSize: 8, size: 12 });
    expect(parseBoxHeader(Buffer.concat([u32(1), ascii('mdat'), u32(0), u32(40)]), 100)).toEqual({ type: 'mdat', headerSize: 16, size: 40 });
    expect(parseBoxHeader(Buffer.concat([u32(0), ascii('mdat')]), 77)).toEqual({ type: 'mdat', headerSize: 8, size: 77 });
    expect(parseBoxHeader(Buffer.concat([u32(500), ascii('moov')]), 60)).toEqual({ type: 'moov', headerSize: 8, size: 60 });
    expect(parseBoxHeader(Buffer.concat([u32(7), ascii('moov')]), 60)).toBeNull();
    expect(parseBoxHeader(Buffer.concat([u32(1), ascii('mdat')]), 12)).toBeNull();
    expect(parseBoxHeader(ascii('abc'), 3)).toBeNull();
  });

  it('lists children in order', () => {
    const bytes = Buffer.concat([box('a   ', zeros(2)), box('b   '), Buffer.from([0, 0, 0, 0])]);
    expect(childBoxes(bytes, 0, bytes.length).map((c) => [c.type, c.start, c.end])).toEqual([
      ['a   ', 0, 10],
      ['b   ', 10, 18],
    ]);
  });
});

describe('data reference entries', () => {
  it('self-contained url, urn and alis entries are fine', () => {
    expect(drefIssues(dref(url(SELF)).subarray(8), 'dref')).toEqual([]);
    expect(drefIssues(dref(full('urn ', SELF, cstr('name'), cstr('')), full('alis', SELF)).subarray(8), 'dref')).toEqual([]);
  });

  it('an entry without the self-contained flag, or of another type, points outside the file', () => {
    const issues = drefIssues(dref(url(SELF), url(0, 'http://127.0.0.1:9/x.mp4'), full('urn ', 0, cstr('u'), cstr('file:///etc/passwd')), full('alis', 0, zeros(150)), full('rsrc', SELF)).subarray(8), 'p');
    expect(issues).toEqual([
      { kind: 'external-reference', path: 'p', entry: 'url "http://127.0.0.1:9/x.mp4"' },
      { kind: 'external-reference', path: 'p', entry: 'urn "u"' },
      { kind: 'external-reference', path: 'p', entry: 'alis (alias record)' },
      { kind: 'external-reference', path: 'p', entry: '"rsrc" entry' },
    ]);
    // An empty location with the flag cleared is external too (ISO 14496-12: the flag says "this file").
    expect(drefIssues(dref(url(0)).subarray(8), 'p')).toHaveLength(1);
  });

  it('entries are shown as printable ASCII only, bounded', () => {
    const [issue] = drefIssues(dref(url(0, `http://h/\u0007${'a'.repeat(300)}`)).subarray(8), 'p');
    expect(issue).toMatchObject({ kind: 'external-reference' });
    const entry = (issue as { entry: string }).entry;
    expect(entry).toMatch(/^url "http:\/\/h\/\?a+"$/);
    expect(entry.length).toBeLessThan(140);
  });

  it('a malformed dref is refused (no entries, missing entries, entries overrunning it)', () => {
    expect(drefIssues(zeros(4), 'p')).toEqual([{ kind: 'malformed-reference', path: 'p', detail: 'the data reference box is too short' }]);
    expect(drefIssues(full('dref', 0, u32(0)).subarray(8), 'p')[0]).toMatchObject({ detail: 'the data reference box has no entries' });
    expect(drefIssues(full('dref', 0, u32(2), url(SELF)).subarray(8), 'p')[0]).toMatchObject({ detail: 'data reference entry 2 of 2 is missing' });
    const overrun = Buffer.concat([u32(0), u32(1), u32(40), ascii('url '), u32(1)]);
    expect(drefIssues(overrun, 'p')[0]).toMatchObject({ kind: 'malformed-reference', detail: 'data reference entry 1 has an invalid size (40)' });
  });
});

describe('checkMovieBoxes', () => {
  it('a normal MP4 (moov first or last, 64-bit mdat, to-the-end moov) is fine', async () => {
    const moov = movie(dref(url(SELF)));
    await expect(check(file(moov, MDAT))).resolves.toMatchObject({ ok: true, movies: 1 });
    await expect(check(file(box('free'), MDAT, moov))).resolves.toMatchObject({ ok: true, movies: 1 });
    const bigMdat = Buffer.concat([u32(1), ascii('mdat'), u32(0), u32(16 + 32), zeros(32)]);
    await expect(check(file(bigMdat, moov))).resolves.toMatchObject({ ok: true });
    const toEnd = Buffer.concat([u32(0), moov.subarray(4)]);
    await expect(check(file(MDAT, toEnd))).resolves.toMatchObject({ ok: true });
  });

  it('refuses a movie whose track data reference points outside the file, naming it', async () => {
    const result = await check(file(movie(dref(url(0, 'http://127.0.0.1:8081/canary.mp4'))), MDAT));
    expect(result).toEqual({
      ok: false,
      problem: 'external-reference',
      reason: 'a data reference points outside the file (moov/trak/mdia/minf/dinf/dref: url "http://127.0.0.1:8081/canary.mp4")',
    });
  });

  it('finds data references wherever the mov demuxer would read them', async () => {
    const external = dref(url(0, 'http://x/'));
    const metaIso = full('meta', 0, box('hdlr', zeros(25)), box('dinf', external));
    const cases: Array<[string, Buffer]> = [
      ['a second moov', file(movie(dref(url(SELF))), movie(external))],
      ['udta/meta (ISO full box) in the movie', file(box('moov', box('mvhd', zeros(100)), box('udta', metaIso)), MDAT)],
      ['a QuickTime meta', file(box('moov', box('mvhd', zeros(100)), box('meta', box('hdlr', zeros(25)), box('dinf', external))))],
      ['a hoov read as the movie', file(box('hoov', box('mvhd', zeros(100)), box('trak', box('mdia', box('minf', box('dinf', external))))))],
      ['a free box that starts with mvhd', file(MDAT, box('free', box('mvhd', zeros(100)), box('trak', box('mdia', box('minf', box('dinf', external))))))],
      ['a sample entry extension in stsd', file(movie(dref(url(SELF)), external))],
      ['a top-level dref', file(movie(dref(url(SELF))), external)],
      ['a top-level trak', file(box('trak', box('mdia', box('minf', box('dinf', external)))), movie(dref(url(SELF))))],
    ];
    for (const [name, bytes] of cases) {
      await expect(check(bytes).then((r) => [name, r.ok ? 'ok' : r.problem])).resolves.toEqual([name, 'external-reference']);
    }
  });

  it('ignores a dref in boxes the demuxer does not parse (mdat, a plain free box)', async () => {
    const external = dref(url(0, 'http://x/'));
    await expect(check(file(movie(dref(url(SELF))), box('mdat', external), box('free', external)))).resolves.toMatchObject({ ok: true, movies: 1 });
  });

  it('refuses a compressed movie header (it cannot be checked)', async () => {
    await expect(check(file(box('moov', box('cmov', box('dcom', ascii('zlib')), box('cmvd', zeros(20))))))).resolves.toMatchObject({
      ok: false,
      problem: 'compressed-movie',
    });
  });

  it('refuses what is not MP4/MOV at all: HLS playlists, ffconcat lists, text, empty files', async () => {
    const texts = [
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1:9/seg0.ts\n#EXT-X-ENDLIST\n',
      '#EXTM3U\n#EXTINF:2,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n',
      "ffconcat version 1.0\nfile 'http://127.0.0.1:9/a.mp4'\n",
      'This is not a video.\n',
      'mov',
      '',
    ];
    for (const t of texts) {
      await expect(check(ascii(t))).resolves.toEqual({ ok: false, problem: 'not-mp4', reason: 'not an MP4/MOV file (no ISO base media box at its start)' });
    }
    // An unknown first box, even a well-formed one.
    await expect(check(Buffer.concat([box('abcd', zeros(8)), movie(dref(url(SELF)))]))).resolves.toMatchObject({ problem: 'not-mp4' });
  });

  it('an MP4/MOV without a movie is not media; a header larger than the limit is refused', async () => {
    await expect(check(file(MDAT))).resolves.toEqual({ ok: false, problem: 'no-movie', reason: 'moov atom not found' });
    await expect(check(file(movie(dref(url(SELF)))), 64)).resolves.toMatchObject({ ok: false, problem: 'too-large' });
  });

  it('stops at the first fragment after the movie; fragments before the movie do not stop it', async () => {
    const moof = box('moof', box('mfhd', zeros(8)));
    await expect(check(file(movie(dref(url(SELF))), moof, MDAT, box('udta', dref(url(0)))))).resolves.toMatchObject({ ok: true, movies: 1 });
    await expect(check(file(moof, MDAT, movie(dref(url(0)))))).resolves.toMatchObject({ problem: 'external-reference' });
  });

  it('bounds its work: deep nesting and endless top-level boxes are refused, not walked', async () => {
    let deep = dref(url(SELF));
    for (let i = 0; i < 40; i++) deep = box('udta', deep);
    await expect(check(file(movie(dref(url(SELF))), deep))).resolves.toMatchObject({
      ok: false,
      problem: 'malformed-reference',
      reason: expect.stringMatching(/^too many or too deeply nested boxes to check/),
    });
    const many = Buffer.concat([FTYP, Buffer.concat(Array.from({ length: 100_001 }, () => box('skip')))]);
    await expect(check(many)).resolves.toEqual({ ok: false, problem: 'too-large', reason: 'more than 100000 top-level boxes' });
  });

  it('never throws on arbitrary bytes, truncated or not (property)', async () => {
    const sample = file(movie(dref(url(SELF), url(0, 'http://x/'))), MDAT);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.nat(sample.length), async (noise, cut) => {
        for (const bytes of [noise, sample.subarray(0, cut), Buffer.concat([sample.subarray(0, cut), noise])]) {
          const r = await check(bytes);
          expect(typeof r.ok).toBe('boolean');
        }
      }),
    );
  });

  it('reads only headers and the boxes that can hold a reference, never the media data', async () => {
    const big = box('mdat', zeros(1 << 20));
    const bytes = file(big, movie(dref(url(SELF))));
    const reads: Array<[number, number]> = [];
    const src = bytesSource(bytes);
    await checkMovieBoxes({ size: src.size, read: (o, l) => (reads.push([o, l]), src.read(o, l)) });
    expect(reads.reduce((n, [, l]) => n + l, 0)).toBeLessThan(2048);
  });
});
