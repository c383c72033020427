import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose, writeComposition, type SampleRef, type VideoRun } from './compose';
import { parameterSetsOf, readMovieTables } from '../mp4';
import { avcStsd } from '../mp4/testing';
import { displayRanks } from './smart-compose';

describe('display ranks', () => {
  it('ranks B-frames by their presentation time', () => {
    // decode order I P B B: shown I B B P
    const r = displayRanks({ count: 4, durations: new Uint32Array(4).fill(1), ctts: Int32Array.from([1, 3, 0, 0]) });
    expect(Array.from(r.rankOf)).toEqual([0, 3, 1, 2]);
    expect(Array.from(r.sampleAt)).toEqual([0, 2, 3, 1]);
  });
});

describe('compose', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'compose-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('copies runs of the source with the audio between them, puts parameter sets before every sync sample once sets are mixed, and writes only what is not there', async () => {
    // source: video V0 V1 | audio A0 A1 | video V2 V3 | audio A2, each sample filled with its own byte
    const layout = [['V0', 100], ['V1', 50], ['A0', 20], ['A1', 20], ['V2', 60], ['V3', 40], ['A2', 20]] as const;
    const parts: Buffer[] = [];
    const at: Record<string, SampleRef> = {};
    const source = join(dir, 'source.bin');
    let pos = 0;
    layout.forEach(([name, size], i) => {
      parts.push(Buffer.alloc(size, i + 1));
      at[name] = { file: source, offset: pos, size };
      pos += size;
    });
    await writeFile(source, Buffer.concat(parts));
    const piece = join(dir, 'piece.bin');
    await writeFile(piece, Buffer.alloc(30, 0xee));
    const sourceParams = parameterSetsOf(avcStsd([0x67, 1], [0x68, 1]))!;
    const pieceParams = parameterSetsOf(avcStsd([0x67, 2], [0x68, 2]))!;
    const copied: VideoRun = { samples: [at.V0!, at.V1!, at.V2!, at.V3!], ranks: [0, 1, 2, 3], sync: [true, false, false, false], params: sourceParams };
    const encoded: VideoRun = { samples: [{ file: piece, offset: 0, size: 30 }], ranks: [0], sync: [true], params: pieceParams };
    const copiedAgain: VideoRun = { samples: [at.V0!, at.V1!], ranks: [0, 1], sync: [true, false], params: sourceParams };
    const muted = Buffer.alloc(15, 0xaa);
    const c = compose(
      {
        track: { timescale: 30, language: 0, stsd: avcStsd([0x67, 1], [0x68, 1]), width: 0, height: 0 },
        params: sourceParams,
        frameTimes: Array.from({ length: 8 }, (_, i) => i),
        runs: [copied, encoded, copiedAgain],
      },
      { track: { timescale: 10, language: 0, stsd: avcStsd([0x67, 1], [0x68, 1]) }, samples: [at.A0!, muted, at.A2!, at.A1!], durations: new Uint32Array(4).fill(1), editMediaTime: 0 },
    );
    const out = join(dir, 'out.mp4');
    await writeComposition(c, out);
    const bytes = await readFile(out);
    expect(bytes.length).toBe(c.size);
    const [v, a] = (await readMovieTables(out)).tracks;
    const sample = (t: typeof v, i: number) => bytes.subarray(t!.offsets[i]!, t!.offsets[i]! + t!.sizes[i]!);
    const fill = (name: string) => Buffer.alloc(at[name]!.size, layout.findIndex(([n]) => n === name) + 1);
    // the output mixes parameter sets: every sync sample carries its run's, the rest are the source's bytes
    expect(sample(v, 0).equals(Buffer.concat([sourceParams, fill('V0')]))).toBe(true);
    expect(sample(v, 1).equals(fill('V1'))).toBe(true);
    expect(sample(v, 3).equals(fill('V3'))).toBe(true);
    expect(sample(v, 4).equals(Buffer.concat([pieceParams, Buffer.alloc(30, 0xee)]))).toBe(true);
    expect(sample(v, 5).equals(Buffer.concat([sourceParams, fill('V0')]))).toBe(true);
    expect(sample(v, 6).equals(fill('V1'))).toBe(true);
    expect(Array.from(v!.sync!)).toEqual([1, 0, 0, 0, 1, 1, 0]);
    // A0 and A1 lie inside the first copied range and are not written again; A2 is outside it
    expect(sample(a, 0).equals(fill('A0'))).toBe(true);
    expect(sample(a, 1).equals(muted)).toBe(true);
    expect(sample(a, 2).equals(fill('A2'))).toBe(true);
    expect(sample(a, 3).equals(fill('A1'))).toBe(true);
    expect(a!.offsets[0]).toBeLessThan(v!.offsets[3]!);
    const head = c.spans[0] as Buffer;
    // one family of parameter sets (no re-encoded piece): the samples are the source's bytes only
    const plain = compose(
      { track: { timescale: 30, language: 0, stsd: avcStsd([0x67, 1], [0x68, 1]), width: 0, height: 0 }, params: sourceParams, frameTimes: Array.from({ length: 7 }, (_, i) => i), runs: [copied, copiedAgain] },
      null,
    );
    const plainOut = join(dir, 'plain.mp4');
    await writeComposition(plain, plainOut);
    const plainBytes = await readFile(plainOut);
    const pv = (await readMovieTables(plainOut)).tracks[0]!;
    expect(plainBytes.subarray(pv.offsets[4]!, pv.offsets[4]! + pv.sizes[4]!).equals(fill('V0'))).toBe(true);
    expect(plain.newBytes).toBe((plain.spans[0] as Buffer).length);
    expect(c.newBytes).toBe(head.length + 2 * sourceParams.length + pieceParams.length + 15 + 20);
  });
});
