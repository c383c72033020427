/**
 * Where the words of a new version came from. A render keeps some words of the version before it
 * (in play order, which a reorder changes); the words after it are described as runs
 * `[firstIndexBefore, count]`: the run's words are the words `firstIndexBefore ..
 * firstIndexBefore + count - 1` before, in that order. Cuts and reorders give one run per kept
 * block, so the map stays small next to the words.
 */
export type OriginRun = readonly [firstBefore: number, count: number];

/** Runs of the indices before of the words after (each index names the word it came from). */
export function originRuns(indicesBefore: readonly number[]): OriginRun[] {
  const runs: [number, number][] = [];
  for (const i of indicesBefore) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === i) last[1]++;
    else runs.push([i, 1]);
  }
  return runs;
}

/**
 * For each word before, its index after, or -1 when the render removed it. Runs naming words
 * outside `countBefore`, or naming one word twice, are refused (null): they are not a map of
 * these words.
 */
export function indicesAfter(runs: readonly OriginRun[], countBefore: number): Int32Array | null {
  const after = new Int32Array(countBefore).fill(-1);
  let next = 0;
  for (const [first, count] of runs) {
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 1 || first + count > countBefore) return null;
    for (let k = 0; k < count; k++) {
      if (after[first + k] !== -1) return null;
      after[first + k] = next++;
    }
  }
  return after;
}

/** How many words the version after has. */
export function countAfter(runs: readonly OriginRun[]): number {
  return runs.reduce((n, r) => n + r[1], 0);
}
