/**
 * Test support (not exported by the library): the fuzz property of the Matroska/WebM check, shared
 * by the short run in CI (fuzz.spec.ts) and `npm run fuzz`. Inputs are crafted element trees (sizes
 * unknown, zero, huge, past their parent; deep nesting; links; seek entries anywhere), mutations
 * of a valid file, and noise. Every input must be answered (ok or a refusal, never another error)
 * within a CPU-time bound and a bounded number of reads.
 */
import fc from 'fast-check';
import { bytesSource, type ByteSource } from '../mp4/boxes';
import { checkMatroska, MATROSKA_LIMITS } from './matroska';
import { ebmlHeader, el, matroskaFile, MKV, str, track, uint } from './testing';

export const FUZZ_MAX_MS = 1000;

const IDS = [MKV.Segment, MKV.SeekHead, MKV.Seek, MKV.Info, MKV.Tracks, MKV.TrackEntry, MKV.Cluster, MKV.Tags, MKV.Void, MKV.CodecPrivate, MKV.SimpleBlock, MKV.ContentEncodings, 0x7373, 0x1c53bb6b, 0x1043a770];
const SIZES = [null, 0, 1, 7, 8, 255, 0xffff, 2 ** 31, 2 ** 40, 2 ** 53 - 1];

type Tree = { id: number; size: number | null | undefined; children: Tree[] };

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.record({
    id: fc.constantFrom(...IDS),
    size: fc.oneof(fc.constant(undefined), fc.constantFrom(...SIZES), fc.nat({ max: 4096 })),
    children: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant<Tree[]>([]), fc.array(tie('node'), { maxLength: 4 })),
  }),
})).node;

const write = (t: Tree): Buffer => el(t.id, t.children.map(write), t.size);

/** A valid file with a seek entry, then bytes overwritten at random places. */
const valid = matroskaFile({
  info: [str(0x4d80, 'fuzz')],
  tracks: [track(1), track(2, 'A_OPUS')],
  after: [el(MKV.Tags, [el(0x7373, [])])],
});

const mutated = fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }).map((edits) => {
  const copy = Buffer.from(valid);
  for (const [at, b] of edits) copy[at] = b;
  return copy;
});

export const fuzzInput: fc.Arbitrary<Buffer> = fc.oneof(
  fc.array(tree, { maxLength: 5 }).map((children) => Buffer.concat([ebmlHeader(), el(MKV.Segment, [el(MKV.Info, []), el(MKV.Tracks, [track(1)]), ...children.map(write)])])),
  fc.array(tree, { maxLength: 5 }).map((children) => Buffer.concat([ebmlHeader('webm'), ...children.map(write)])),
  fc.tuple(fc.nat({ max: 10_000_000 }), fc.constantFrom(MKV.Tags, MKV.Info, MKV.Tracks, MKV.SeekHead)).map(([position, id]) =>
    matroskaFile({ beforeClusters: [el(MKV.SeekHead, [el(MKV.Seek, [el(0x53ab, Buffer.from(id.toString(16), 'hex')), uint(0x53ac, position)])])] }),
  ),
  mutated,
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from(b)])),
);

async function cpuMs(fn: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** One input: answered, within the read limit and FUZZ_MAX_MS of CPU time (the fastest of three when slow). */
export async function fuzzOne(bytes: Buffer): Promise<void> {
  const answer = async () => {
    let reads = 0;
    const inner = bytesSource(bytes);
    const counted: ByteSource = { size: inner.size, read: (o, n) => (reads++, inner.read(o, n)) };
    const r = await checkMatroska(counted);
    if (typeof r.ok !== 'boolean') throw new Error('no answer');
    if (reads > MATROSKA_LIMITS.maxReads) throw new Error(`${reads} reads`);
  };
  let ms = await cpuMs(answer);
  for (let again = 0; again < 2 && ms > FUZZ_MAX_MS; again++) ms = Math.min(ms, await cpuMs(answer));
  if (ms > FUZZ_MAX_MS) throw new Error(`answered after ${ms.toFixed(0)} ms of CPU time`);
}

export const fuzzProperty = (): fc.IAsyncPropertyWithHooks<[Buffer]> => fc.asyncProperty(fuzzInput, fuzzOne);
