/**
 * Shared test helpers: fast-check arbitraries of valid edit lists, and comparisons with float
 * tolerance. Excluded from the build (see tsconfig.json); only specs import it.
 */
import fc from 'fast-check';
import { thrownBy } from '../../../tools/testing/thrown';
import { EditListError, MUTE_LEVELS, editListSchema, type EditList, type SourceMute, type SourceSegment, type TimeRange } from './index';

export const EPS = 1e-9;

/**
 * Time grids: 'dyadic' (1/64 s) keeps every sum and difference exact, so properties can demand
 * exact results; 'micro' (1e-6 s, not representable in binary) brings real float noise.
 */
export type Grid = 'dyadic' | 'micro';
export const TICKS_PER_SECOND: Record<Grid, number> = { dyadic: 64, micro: 1_000_000 };

export interface EditListArbOptions {
  grid?: Grid;
  withMutes?: boolean;
  maxSeconds?: number;
}

/** Sorted distinct tick counts strictly inside (0, ticks). */
function innerTicks(ticks: number, maxLength: number): fc.Arbitrary<number[]> {
  if (ticks < 2) return fc.constant([]);
  return fc.uniqueArray(fc.integer({ min: 1, max: ticks - 1 }), { maxLength }).map((ks) => [...ks].sort((a, b) => a - b));
}

/**
 * Valid edit lists: the source is split at random points, a random non-empty subset of the pieces
 * is kept in a random play order (consecutive contiguous pieces merged, as the edits do), with
 * random disjoint mutes and a random captions flag.
 */
export function editListArb(options: EditListArbOptions = {}): fc.Arbitrary<EditList> {
  const grid = options.grid ?? 'dyadic';
  const perSecond = TICKS_PER_SECOND[grid];
  const maxTicks = Math.round((options.maxSeconds ?? 600) * perSecond);
  return fc.integer({ min: Math.round(perSecond / 2), max: maxTicks }).chain((ticks) =>
    fc
      .record({
        cutTicks: innerTicks(ticks, 10),
        muteTicks: options.withMutes === false ? fc.constant([]) : innerTicks(ticks, 8),
        levels: fc.array(fc.constantFrom(...MUTE_LEVELS), { minLength: 4, maxLength: 4 }),
        keep: fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
        keys: fc.array(fc.nat(), { minLength: 11, maxLength: 11 }),
        burnCaptions: fc.boolean(),
      })
      .map(({ cutTicks, muteTicks, levels, keep, keys, burnCaptions }) => {
        const sec = (k: number) => k / perSecond;
        const bounds = [0, ...cutTicks, ticks];
        let chosen = bounds.slice(1).flatMap((end, i) => (keep[i] ? [{ start: sec(bounds[i]!), end: sec(end), key: keys[i]! }] : []));
        if (chosen.length === 0) chosen = [{ start: 0, end: sec(bounds[1]!), key: 0 }];
        chosen.sort((a, b) => a.key - b.key);
        const segments: SourceSegment[] = [];
        for (const c of chosen) {
          const prev = segments[segments.length - 1];
          if (prev && prev.end === c.start) prev.end = c.end;
          else segments.push({ start: c.start, end: c.end });
        }
        const mutes: SourceMute[] = [];
        for (let i = 0; i + 1 < muteTicks.length; i += 2) {
          mutes.push({ start: sec(muteTicks[i]!), end: sec(muteTicks[i + 1]!), level: levels[(i / 2) % 4]! });
        }
        return { sourceDuration: sec(ticks), segments, mutes, burnCaptions };
      }),
  );
}

/** Random output ranges inside [0, duration], given as fractions so they fit any edit list. */
export const fractionRangesArb = (maxLength = 5): fc.Arbitrary<Array<[number, number]>> =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: 1024 }), fc.integer({ min: 0, max: 1024 })), { maxLength }).map((pairs) =>
    pairs.filter(([a, b]) => a !== b).map(([a, b]) => [Math.min(a, b) / 1024, Math.max(a, b) / 1024] as [number, number]),
  );

/** Fractions of the duration -> output ranges; dyadic when the duration is. */
export function scaleRanges(fractions: ReadonlyArray<readonly [number, number]>, duration: number): TimeRange[] {
  return fractions.map(([a, b]) => ({ start: a * duration, end: b * duration })).filter((r) => r.end > r.start);
}

/** Measure of the union of ranges. */
export function measure(ranges: readonly TimeRange[]): number {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let total = 0;
  let from = -Infinity;
  for (const r of sorted) {
    const start = Math.max(r.start, from);
    if (r.end > start) total += r.end - start;
    from = Math.max(from, r.end);
  }
  return total;
}

/** Union of ranges, sorted and merged (touching ranges merge). */
export function union(ranges: readonly TimeRange[]): TimeRange[] {
  const out: TimeRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const prev = out[out.length - 1];
    if (prev && r.start <= prev.end + EPS) prev.end = Math.max(prev.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

export function expectRangesClose(actual: readonly TimeRange[], expected: readonly TimeRange[], eps = EPS): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((r, i) => {
    expect(Math.abs(r.start - expected[i]!.start)).toBeLessThanOrEqual(eps);
    expect(Math.abs(r.end - expected[i]!.end)).toBeLessThanOrEqual(eps);
  });
}

/** The structural invariants, plus what every edit guarantees beyond them (normalised segments and mutes). */
export function expectNormalised(el: EditList): void {
  const parsed = editListSchema.safeParse(el);
  expect(parsed.success ? [] : parsed.error.issues.map((i) => i.message)).toEqual([]);
  el.segments.forEach((s, i) => {
    if (i > 0) expect(el.segments[i - 1]!.end).not.toBe(s.start);
  });
  el.mutes.forEach((m, i) => {
    const prev = el.mutes[i - 1];
    if (prev) expect(prev.end < m.start || (prev.end === m.start && prev.level !== m.level)).toBe(true);
  });
}

/** The EditListError `fn` throws (fails the test when it throws nothing or something else). */
export const editListError = (fn: () => unknown): EditListError => thrownBy(fn, EditListError);

/** Deep-freezes a value, so an accidental mutation throws in the code under test. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Total kept source, merged: what a list plays, regardless of order. */
export function coverage(el: EditList): TimeRange[] {
  return union(el.segments);
}
