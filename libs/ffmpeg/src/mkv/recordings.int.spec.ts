/**
 * MKV and WebM recordings through the real ffprobe and ffmpeg: told apart from MP4 by their first
 * bytes, checked, and made into an MP4 master (streams copied where MP4 takes them). Hostile files
 * (links to other files, sizes past the file) are refused before ffprobe reads them, quickly.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserPlayback, FfmpegMediaTools, mediaInput, MediaProbeError, primaryAudioStream, primaryVideoStream } from '@wordcut/ffmpeg';
import { AWKWARD_TOTAL_SEC, AwkwardMedia, ensureAwkwardMedia } from '../../../../tools/media/awkward-media';
import { MKV, str } from './testing';

describe('MKV and WebM recordings (real ffmpeg)', () => {
  let media: string;
  let out: string;
  const tools = new FfmpegMediaTools();
  const file = (name: string) => join(media, name);

  beforeAll(async () => {
    media = await ensureAwkwardMedia();
    out = await mkdtemp(join(tmpdir(), 'wordcut-recordings-'));
  }, 180_000);
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('probes an OBS MKV (H.264 + Opus) and a browser WebM (VP9 + Opus, unknown sizes)', async () => {
    const mkv = await tools.probe(file(AwkwardMedia.obsMkv));
    expect(mkv.formatName).toMatch(/matroska/);
    expect(primaryVideoStream(mkv)).toMatchObject({ codecName: 'h264', width: 320, height: 240 });
    expect(primaryAudioStream(mkv)).toMatchObject({ codecName: 'opus' });
    const webm = await tools.probe(file(AwkwardMedia.screenWebm));
    expect(primaryVideoStream(webm)).toMatchObject({ codecName: 'vp9' });
    expect(primaryAudioStream(webm)).toMatchObject({ codecName: 'opus' });
  });

  it.each([
    [AwkwardMedia.obsMkv, 'copy'],
    [AwkwardMedia.screenWebm, 'encode'],
  ])('makes an MP4 master of %s: video %s, Opus as AAC, the same length, playable in the browser', async (name, video) => {
    const probe = await tools.probe(file(name));
    const master = join(out, `${name}.mp4`);
    const plan = await tools.makeMaster(mediaInput(file(name), 'matroska'), probe, master, { durationSec: probe.durationSec, timeoutMs: 60_000 });
    expect(plan).toMatchObject({ video, audio: 'encode' });
    const result = await tools.probe(master);
    expect(result.formatName).toMatch(/mp4/);
    expect(primaryVideoStream(result)).toMatchObject({ codecName: 'h264', width: 320, height: 240 });
    expect(primaryAudioStream(result)).toMatchObject({ codecName: 'aac' });
    expect(result.durationSec!).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
    expect(browserPlayback(result).playable).toBe(true);
  });

  it.each([
    ['a link to another file (NextFilename)', 'EXTERNAL_REFERENCE', (bytes: Buffer) => withInfoChild(bytes, str(MKV.NextFilename, 'secret.mkv'))],
    ['a Segment that claims 2^52 bytes', 'UNSAFE_STRUCTURE', (bytes: Buffer) => withSegmentSize(bytes, 2 ** 52)],
    ['a Cluster that claims more than the file holds', 'UNSAFE_STRUCTURE', (bytes: Buffer) => withLargestSize(bytes, MKV.Cluster)],
  ])('refuses %s before ffprobe reads it, quickly', async (_what, code, craft) => {
    const path = join(out, `hostile-${code}-${Math.random().toString(36).slice(2)}.mkv`);
    await writeFile(path, craft(await readFile(file(AwkwardMedia.obsMkv))));
    const started = performance.now();
    const err = await tools.probe(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaProbeError);
    expect(err).toMatchObject({ code });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

/** The Segment, or the Segment's child `id`: its offset, ID length and size field's length (walked, not searched). */
function find(bytes: Buffer, id: number): { at: number; idLength: number; sizeLength: number } {
  const header = (at: number) => {
    const idLength = Math.clz32(bytes[at]!) - 23;
    const sizeLength = Math.clz32(bytes[at + idLength]!) - 23;
    return { at, idLength, sizeLength, dataStart: at + idLength + sizeLength, size: readSize(bytes, at + idLength, sizeLength) };
  };
  const ebml = header(0);
  const segment = header(ebml.dataStart + ebml.size);
  if (id === MKV.Segment) return segment;
  for (let at = segment.dataStart; at < bytes.length; ) {
    const h = header(at);
    if (bytes.readUIntBE(at, h.idLength) === id) return h;
    at = h.dataStart + h.size;
  }
  throw new Error(`no element ${id.toString(16)}`);
}

/** The file with the size of its first element `id` rewritten (in the same number of bytes). */
function withElementSize(bytes: Buffer, id: number, size: number): Buffer {
  const copy = Buffer.from(bytes);
  const { at, idLength, sizeLength } = find(copy, id);
  let v = size;
  for (let k = sizeLength - 1; k >= 1; k--) {
    copy[at + idLength + k] = v % 256;
    v = Math.floor(v / 256);
  }
  copy[at + idLength] = (0x80 >> (sizeLength - 1)) | v;
  return copy;
}

/** The file with its first element `id` claiming the largest size its size field holds (past the end of this small file). */
function withLargestSize(bytes: Buffer, id: number): Buffer {
  const { sizeLength } = find(bytes, id);
  const largest = 2 ** (7 * sizeLength) - 2;
  if (largest <= bytes.length) throw new Error(`the size field of ${id.toString(16)} is too short to reach past the file`);
  return withElementSize(bytes, id, largest);
}

const withSegmentSize = (bytes: Buffer, size: number) => withElementSize(bytes, MKV.Segment, size);

/** The file with `child` added to its Info element (the Segment's and Info's sizes grown to match). */
function withInfoChild(bytes: Buffer, child: Buffer): Buffer {
  const info = find(bytes, MKV.Info);
  const infoSize = readSize(bytes, info.at + info.idLength, info.sizeLength);
  const infoEnd = info.at + info.idLength + info.sizeLength + infoSize;
  const grown = Buffer.concat([bytes.subarray(0, infoEnd), child, bytes.subarray(infoEnd)]);
  const segment = find(grown, MKV.Segment);
  const segmentSize = readSize(grown, segment.at + segment.idLength, segment.sizeLength);
  return withElementSize(withElementSize(grown, MKV.Info, infoSize + child.length), MKV.Segment, segmentSize + child.length);
}

function readSize(bytes: Buffer, at: number, length: number): number {
  let v = bytes[at]! & (0xff >> length);
  for (let k = 1; k < length; k++) v = v * 256 + bytes[at + k]!;
  return v;
}
