import { bytesSource, type ByteSource } from '../mp4/boxes';
import { checkMatroska, MATROSKA_LIMITS } from './matroska';
import { el, ebmlHeader, matroskaFile, MKV, str, track, uint } from './testing';

const check = (bytes: Buffer, limits = MATROSKA_LIMITS) => checkMatroska(bytesSource(bytes), { limits });

describe('the Matroska/WebM check', () => {
  it('takes a well-formed Matroska file and a WebM file, and names the document type', async () => {
    await expect(check(matroskaFile())).resolves.toEqual({ ok: true, docType: 'matroska' });
    await expect(check(matroskaFile({ docType: 'webm', tracks: [track(1, 'V_VP9'), track(2, 'A_OPUS')] }))).resolves.toEqual({ ok: true, docType: 'webm' });
  });

  it('takes a live recording: a Segment and clusters of unknown size', async () => {
    const live = matroskaFile({ segmentSize: null, clusters: [el(MKV.Cluster, [uint(MKV.Timestamp, 0), el(MKV.SimpleBlock, Buffer.alloc(16))], null)] });
    await expect(check(live)).resolves.toMatchObject({ ok: true });
  });

  it('refuses what is not Matroska: no EBML magic, another document type, a newer read version', async () => {
    await expect(check(Buffer.from('not a video at all'))).resolves.toMatchObject({ ok: false, problem: 'not-matroska' });
    await expect(check(matroskaFile({ docType: 'dvd' }))).resolves.toMatchObject({ ok: false, problem: 'not-matroska', reason: expect.stringContaining('"dvd"') });
    const future = Buffer.concat([el(MKV.EBML, [uint(MKV.EBMLReadVersion, 2), str(MKV.DocType, 'matroska')]), el(MKV.Segment, [])]);
    await expect(check(future)).resolves.toMatchObject({ ok: false, problem: 'not-matroska' });
  });

  it('refuses links to other files (linked segments)', async () => {
    await expect(check(matroskaFile({ info: [str(MKV.NextFilename, '/etc/passwd')] }))).resolves.toMatchObject({ ok: false, problem: 'external-reference', reason: expect.stringContaining('NextFilename') });
    await expect(check(matroskaFile({ info: [el(MKV.PrevUID, Buffer.alloc(16, 1))] }))).resolves.toMatchObject({ ok: false, problem: 'external-reference' });
  });

  it('refuses encrypted tracks', async () => {
    const encrypted = track(1, 'V_VP9', [el(MKV.ContentEncodings, [el(MKV.ContentEncoding, [el(MKV.ContentEncryption, [])])])]);
    await expect(check(matroskaFile({ tracks: [encrypted] }))).resolves.toMatchObject({ ok: false, problem: 'encrypted' });
  });

  it('refuses element sizes past their parent or the file: a huge Segment, Tracks, CodecPrivate or Cluster', async () => {
    await expect(check(matroskaFile({ segmentSize: 2 ** 52 }))).resolves.toMatchObject({ ok: false, problem: 'outside-bounds' });
    const hugePrivate = Buffer.concat([Buffer.from([0x63, 0xa2]), Buffer.from([0x01, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00]), Buffer.alloc(8)]);
    await expect(check(matroskaFile({ tracks: [el(MKV.TrackEntry, [uint(MKV.TrackNumber, 1), hugePrivate])] }))).resolves.toMatchObject({ ok: false, problem: 'outside-bounds' });
    const bigTracks = Buffer.concat([ebmlHeader(), el(MKV.Segment, [el(MKV.Tracks, [track(1)], 2 ** 40)])]);
    await expect(check(bigTracks)).resolves.toMatchObject({ ok: false, problem: 'outside-bounds' });
    await expect(check(matroskaFile({ clusters: [el(MKV.Cluster, [uint(MKV.Timestamp, 0)], 2 ** 45)] }))).resolves.toMatchObject({ ok: false, problem: 'outside-bounds' });
  });

  it('refuses a file without Tracks before its clusters, and metadata with an unknown size', async () => {
    const noTracks = Buffer.concat([ebmlHeader(), el(MKV.Segment, [el(MKV.Info, [])])]);
    await expect(check(noTracks)).resolves.toMatchObject({ ok: false, problem: 'not-matroska' });
    const unknownInfo = Buffer.concat([ebmlHeader(), el(MKV.Segment, [el(MKV.Info, [uint(MKV.TimestampScale, 1)], null)])]);
    await expect(check(unknownInfo)).resolves.toMatchObject({ ok: false });
  });

  it('follows the SeekHead to metadata after the clusters, and checks it too', async () => {
    // a Tags element at the end holding a link: found only through the SeekHead
    const tags = el(MKV.Tags, [el(0x7373, [str(MKV.NextFilename, 'other.mkv')])]);
    const seekHead = (position: number) => el(MKV.SeekHead, [el(MKV.Seek, [el(MKV.SeekID, Buffer.from('1254c367', 'hex')), uint(MKV.SeekPosition, position)])]);
    const build = (position: number) => {
      const children = [seekHead(position), el(MKV.Info, []), el(MKV.Tracks, [track(1)]), el(MKV.Cluster, [uint(MKV.Timestamp, 0)]), tags];
      return { file: Buffer.concat([ebmlHeader(), el(MKV.Segment, children)]), tagsAt: children.slice(0, 4).reduce((n, c) => n + c.length, 0) };
    };
    const { tagsAt } = build(0);
    await expect(check(build(tagsAt).file)).resolves.toMatchObject({ ok: false, problem: 'external-reference' });
    // a dangling entry (a recording cut short) is skipped, as ffmpeg skips it
    await expect(check(build(tagsAt + 1_000_000).file)).resolves.toMatchObject({ ok: true });
  });

  it('bounds its work: elements, depth and reads, whatever the file says', async () => {
    const many = matroskaFile({ beforeClusters: [el(MKV.Tags, Array.from({ length: 2000 }, () => el(MKV.Void, [])))] });
    await expect(check(many, { ...MATROSKA_LIMITS, maxElements: 500 })).resolves.toMatchObject({ ok: false, problem: 'too-large' });
    let deep = el(0x7373, []);
    for (let k = 0; k < 40; k++) deep = el(0x7373, [deep]);
    await expect(check(matroskaFile({ beforeClusters: [el(MKV.Tags, [deep])] }))).resolves.toMatchObject({ ok: false, problem: 'too-large' });
    // every read is counted: a source that would be read forever is stopped
    const file = matroskaFile();
    let reads = 0;
    const counting: ByteSource = { size: file.length, read: (o, n) => (reads++, Promise.resolve(file.subarray(o, o + n))) };
    await checkMatroska(counting);
    expect(reads).toBeLessThan(12);
  });
});
