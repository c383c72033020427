/** How many moments of a length fit a talk around those already taken, and the longest length at which enough do. */
import { KEY_MOMENT_MIN_SECONDS } from '@wordcut/contracts';
import type { Sentence } from './sentences';

/** How many windows of at least `len` seconds fit one after the other in sentences a..b (greedy, which is optimal on a line), up to `enough`. */
function packOf(sentences: readonly Sentence[], len: number, a: number, b: number, enough: number): number {
  let count = 0;
  let from = a;
  for (let j = a; j <= b && count < enough; j++) {
    if (sentences[j]!.end - sentences[from]!.start >= len - 1e-9) {
      count++;
      from = j + 1;
    }
  }
  return count;
}

/** How many moments of at least `len` seconds fit around the `taken` ones (sentence ranges i..j), up to `enough`. */
export function momentsThatFit(sentences: readonly Sentence[], len: number, taken: ReadonlyArray<{ i: number; j: number }>, enough: number): number {
  const n = sentences.length;
  let room = 0;
  let from = 0;
  for (const x of [...taken].sort((a, b) => a.i - b.i).concat([{ i: n, j: n }])) {
    if (x.i > from) room += packOf(sentences, len, from, x.i - 1, enough - room);
    if (room >= enough) return room;
    from = x.j + 1;
  }
  return room;
}

/** 15 s, or the longest length at which `count` more moments still fit around the `taken` ones (a talk too short for them). */
export function longestMomentLength(sentences: readonly Sentence[], taken: ReadonlyArray<{ i: number; j: number }>, count: number): number {
  if (count <= 0 || momentsThatFit(sentences, KEY_MOMENT_MIN_SECONDS, taken, count) >= count) return KEY_MOMENT_MIN_SECONDS;
  let lo = 0;
  let hi = KEY_MOMENT_MIN_SECONDS;
  for (let step = 0; step < 24; step++) {
    const mid = (lo + hi) / 2;
    if (momentsThatFit(sentences, mid, taken, count) >= count) lo = mid;
    else hi = mid;
  }
  return lo;
}
