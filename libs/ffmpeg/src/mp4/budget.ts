/**
 * The bounds every reading of an MP4 stays inside, whatever the file says (docs/SECURITY.md, "The
 * MP4 reader"), and the work counter that lets a long parse give the event loop back.
 *
 * A parse is a generator that yields whenever its slice of time is used up: `runSliced` runs it
 * in slices (other requests run between them) under a deadline; `runToEnd` runs it at once (tests,
 * small inputs). Either way the total work is bounded by the limits below, linearly.
 */

export interface Mp4Limits {
  /** Largest movie box read whole. */
  maxMovieBytes: number;
  /** Boxes looked at in all, and how deep they nest. */
  maxBoxes: number;
  maxDepth: number;
  /** Top-level boxes of a file. */
  maxTopLevelBoxes: number;
  /** Tracks of the movie. */
  maxTracks: number;
  /** Samples of all tracks together. */
  maxSamples: number;
  /** Entries of all sample tables together (stts, ctts, stss, stsc, stco/co64, stsz, elst). */
  maxEntries: number;
}

export const MP4_LIMITS: Readonly<Mp4Limits> = {
  maxMovieBytes: 64 * 1024 * 1024,
  maxBoxes: 1_000_000,
  maxDepth: 32,
  maxTopLevelBoxes: 100_000,
  maxTracks: 32,
  // twelve hours of 60 fps video with its audio
  maxSamples: 4_000_000,
  maxEntries: 16_000_000,
};

/** The file is outside the reader's bounds or contradicts itself: it is refused, never composed. */
export class Mp4BoundsError extends Error {
  override readonly name = 'Mp4BoundsError';
}

/** The file is well-formed but uses what the composer does not read: renders take the full re-encode. */
export class Mp4UnsupportedError extends Error {
  override readonly name = 'Mp4UnsupportedError';
}

/** A parse that yields between slices of its work; its return value is the result. */
export type Steps<T> = Generator<void, T, void>;

/** Work units between looks at the clock. */
const TICKS_PER_CHECK = 16_384;
export const DEFAULT_SLICE_MS = 20;

/** Counts work against the limits; `due()` says when the current slice of time is used. */
export class Work {
  private ticks = 0;
  private boxes = 0;
  private entries = 0;
  private samples = 0;
  private sampleBytes = 0;
  private sliceEnds = Number.POSITIVE_INFINITY;

  constructor(readonly limits: Readonly<Mp4Limits> = MP4_LIMITS) {}

  /** Starts a slice of `ms` (Infinity: never due). */
  startSlice(ms: number): void {
    this.sliceEnds = ms === Number.POSITIVE_INFINITY ? ms : performance.now() + ms;
  }

  /** Counts `n` units; true when the slice is used up (the caller yields). */
  tick(n = 1): boolean {
    this.ticks += n;
    if (this.ticks < TICKS_PER_CHECK) return false;
    this.ticks = 0;
    return performance.now() >= this.sliceEnds;
  }

  countBox(): void {
    if (++this.boxes > this.limits.maxBoxes) throw new Mp4BoundsError(`more than ${this.limits.maxBoxes} boxes`);
  }

  countEntries(n: number, table: string): void {
    this.entries += n;
    if (this.entries > this.limits.maxEntries) throw new Mp4BoundsError(`the sample tables hold more than ${this.limits.maxEntries} entries (${table})`);
  }

  /** Bytes the tracks' samples claim, in all: at most the file's size (they lie apart inside it). */
  claimSampleBytes(n: number, fileSize: number): void {
    this.sampleBytes += n;
    if (this.sampleBytes > fileSize) throw new Mp4UnsupportedError('the samples claim more bytes than the file holds');
  }

  countSamples(n: number): void {
    this.samples += n;
    if (this.samples > this.limits.maxSamples) throw new Mp4BoundsError(`the tracks hold more than ${this.limits.maxSamples} samples`);
  }
}

/** Runs a parse to its end at once. */
export function runToEnd<T>(steps: Steps<T>, work?: Work): T {
  work?.startSlice(Number.POSITIVE_INFINITY);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs a parse in slices of `sliceMs`, giving the event loop back between them; past `deadline`
 * (an epoch ms) or once `signal` aborts, it stops with Mp4BoundsError / the abort reason.
 */
export async function runSliced<T>(steps: Steps<T>, work: Work, o: { sliceMs?: number; deadline?: number; signal?: AbortSignal } = {}): Promise<T> {
  for (;;) {
    o.signal?.throwIfAborted();
    if (o.deadline !== undefined && Date.now() > o.deadline) throw new Mp4BoundsError('reading the movie took longer than its time budget');
    work.startSlice(o.sliceMs ?? DEFAULT_SLICE_MS);
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}
