/**
 * Test support (not exported by the library): the fuzz property of our MP4 reader, shared by the
 * short run in CI (fuzz.spec.ts) and the long one (`npm run fuzz`). Inputs are crafted structures
 * (box sizes 0, 1 and 64-bit, deep nesting, giant counts, overlapping and out-of-range offsets,
 * two movies, aliases) and mutations of a valid movie. Every input must be answered (no other
 * error than the reader's own), within a CPU-time bound, with memory linear in its size.
 */
import fc from 'fast-check';
import { Mp4BoundsError, Mp4UnsupportedError } from './budget';
import { bytesSource } from './boxes';
import { checkMovieBoxes, parseMovieTables } from './movie';
import type { MovieTables } from './sample-table';
import { FTYP, ascii, box, full, track, u32, zeros } from './testing';
import { mediaDataHeader, movieBox } from './write';

/** Per input: the most CPU time allowed, and result bytes per input byte. */
export const FUZZ_MAX_MS = 1000;
export const FUZZ_MAX_BYTES_PER_INPUT_BYTE = 32;

const INTERESTING = [0, 1, 2, 7, 8, 12, 16, 0x7f, 0xff, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 12_000_000];
const interesting = fc.oneof(fc.constantFrom(...INTERESTING), fc.nat(), fc.integer({ min: 0, max: 4096 }));

const TYPES = ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd', 'stsz', 'stco', 'co64', 'stsc', 'stts', 'ctts', 'stss', 'edts', 'elst', 'dinf', 'dref', 'url ', 'udta', 'meta', 'hdlr', 'tkhd', 'mdhd', 'mvhd', 'mvex', 'hoov', 'free', 'cmov', 'avc1', 'avcC', 'mdat'];

/** A table box of `type` with a count and entries of interesting values. */
const tableBox = fc
  .record({
    type: fc.constantFrom('stsz', 'stco', 'co64', 'stsc', 'stts', 'ctts', 'stss', 'elst', 'dref'),
    version: fc.constantFrom(0, 1),
    count: interesting,
    fields: fc.array(interesting, { maxLength: 4 }),
    entries: fc.array(interesting, { maxLength: 64 }),
  })
  .map(({ type, version, count, fields, entries }) => full(type, version << 24, ...fields.map(u32), u32(count), ...entries.map(u32)));

/** A header whose size says the truth, runs to the end (0), is 64-bit (1), or lies. */
const sizeMode = fc.constantFrom('exact', 'zero', 'large', 'lie');
function header(type: string, bodyLength: number, mode: string, lie: number): Buffer {
  if (mode === 'zero') return Buffer.concat([u32(0), ascii(type)]);
  if (mode === 'large') return Buffer.concat([u32(1), ascii(type), u32(0), u32(16 + bodyLength)]);
  if (mode === 'lie') return Buffer.concat([u32(lie), ascii(type)]);
  return Buffer.concat([u32(8 + bodyLength), ascii(type)]);
}

const { tree } = fc.letrec<{ tree: Buffer }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tableBox,
    fc.record({ type: fc.constantFrom(...TYPES), body: fc.uint8Array({ maxLength: 96 }) }).map(({ type, body }) => box(type, body)),
    fc
      .record({ type: fc.constantFrom(...TYPES), kids: fc.array(tie('tree'), { maxLength: 5 }), mode: sizeMode, lie: interesting })
      .map(({ type, kids, mode, lie }) => {
        const body = Buffer.concat(kids);
        return Buffer.concat([header(type, body.length, mode, lie), body]);
      }),
  ),
}));

/** A valid two-track movie (video, audio), its media data first. */
function validMovie(): Buffer {
  const mdat = 1000;
  const head = FTYP.length + 16;
  const video = track({ offsets: Float64Array.from([0, 10, 30, 60].map((o) => head + o)) });
  const audio = track({ handler: 'soun', ctts: null, sync: null, editMediaTime: 0, offsets: Float64Array.from([100, 110, 130, 160].map((o) => head + o)) });
  return Buffer.concat([FTYP, mediaDataHeader(mdat), zeros(mdat), movieBox([video, audio])]);
}
const VALID = validMovie();

/** Overwrites, truncations, repeated and renamed boxes of a valid movie. */
const mutated = fc
  .record({
    writes: fc.array(fc.record({ at: fc.nat(VALID.length - 4), value: interesting, aligned: fc.boolean() }), { maxLength: 8 }),
    cut: fc.option(fc.nat(VALID.length)),
    rename: fc.option(fc.constantFrom('hoov', 'free', 'moof', 'mvex')),
    twice: fc.boolean(),
    tail: fc.uint8Array({ maxLength: 64 }),
  })
  .map(({ writes, cut, rename, twice, tail }) => {
    let b = Buffer.from(VALID);
    const moovAt = b.lastIndexOf('moov') - 4;
    if (twice) b = Buffer.concat([b, b.subarray(moovAt)]);
    if (rename) b.write(rename, moovAt + 4, 'latin1');
    // most writes land in the movie's tables, where the reader's work is
    for (const w of writes) {
      const at = moovAt + (w.at % (b.length - moovAt - 4));
      b.writeUInt32BE(w.value >>> 0, w.aligned ? moovAt + ((at - moovAt) & ~3) : at);
    }
    if (cut !== null) b = b.subarray(0, cut);
    return Buffer.concat([b, tail]);
  });

/** What the fuzzer sends: a file of crafted boxes, a mutated valid movie, or raw noise. */
export const fuzzInput: fc.Arbitrary<Buffer> = fc.oneof(
  fc.array(tree, { maxLength: 6 }).map((boxes) => Buffer.concat([FTYP, ...boxes])),
  fc.array(tree, { maxLength: 4 }).map((boxes) => Buffer.concat([FTYP, box('moov', box('mvhd', zeros(100)), ...boxes)])),
  mutated,
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
);

const resultBytes = (t: MovieTables): number =>
  t.tracks.reduce((n, x) => n + x.stsd.length + [x.offsets, x.sizes, x.durations, x.ctts, x.sync, x.descriptions].reduce((m, a) => m + (a?.byteLength ?? 0), 0), 0);

/** One input through both readers: throws when an answer is wrong or too large. */
async function answer(bytes: Buffer): Promise<void> {
  const check = await checkMovieBoxes(bytesSource(bytes));
  if (typeof check.ok !== 'boolean') throw new Error('no answer');
  for (let at = bytes.indexOf('moov'); at >= 4; at = bytes.indexOf('moov', at + 1)) {
    const size = bytes.readUInt32BE(at - 4);
    const moov = bytes.subarray(at - 4, size >= 8 ? Math.min(bytes.length, at - 4 + size) : bytes.length);
    try {
      const tables = parseMovieTables(moov, bytes.length);
      const bound = FUZZ_MAX_BYTES_PER_INPUT_BYTE * bytes.length + 64 * 1024;
      if (resultBytes(tables) > bound) throw new Error(`the tables take ${resultBytes(tables)} bytes for a ${bytes.length}-byte input`);
    } catch (err) {
      if (!(err instanceof Mp4BoundsError || err instanceof Mp4UnsupportedError)) throw err;
    }
  }
}

/** CPU time (ms) the process spends on `fn`: what the input costs, whatever else the machine runs. */
async function cpuMs(fn: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * One input: answered rightly, with memory linear in its size, within FUZZ_MAX_MS of CPU time. A
 * slow answer is measured twice more and the fastest counts (a garbage collection is not the
 * input's cost; a slow input is slow every time).
 */
export async function fuzzOne(bytes: Buffer): Promise<void> {
  let ms = await cpuMs(() => answer(bytes));
  for (let again = 0; again < 2 && ms > FUZZ_MAX_MS; again++) ms = Math.min(ms, await cpuMs(() => answer(bytes)));
  if (ms > FUZZ_MAX_MS) throw new Error(`answered after ${ms.toFixed(0)} ms of CPU time`);
}

export const fuzzProperty = (): fc.IAsyncPropertyWithHooks<[Buffer]> => fc.asyncProperty(fuzzInput, fuzzOne);
