/**
 * De-duplication of rolling captions. YouTube auto-captions (and some other captioners) show two
 * lines at a time: every cue repeats the previous line as its first line, and a short "snapshot"
 * cue repeats the whole text; some files also repeat a cue verbatim. Emitting every cue's words
 * would say everything two or three times.
 *
 * A cue's leading words are dropped when they equal the last words already emitted (compared
 * case-insensitively without punctuation) and the overlap either
 * - ends at one of the cue's line breaks or covers the whole cue (a repeated caption line), or
 * - is at least ROLLING_MIN_WORD_OVERLAP words (captioners that slide word by word),
 * and only when the cue starts at most ROLLING_MAX_GAP_SECONDS after the previous caption ended,
 * so that a sentence genuinely said again later is kept.
 */

/** A repeat is only recognised when the cue starts at most this long after the last caption ended. */
export const ROLLING_MAX_GAP_SECONDS = 2;
/** An overlap that does not end at a caption line break must be at least this many words. */
export const ROLLING_MIN_WORD_OVERLAP = 3;
/** Longest overlap looked for (keeps the search linear in the file size). */
export const ROLLING_MAX_OVERLAP_WORDS = 200;


export class RollingDeduplicator {
  private readonly emitted: string[] = [];
  private lastEnd = -Infinity;

  /**
   * How many leading words of a cue starting at `cueStart` repeat what was already emitted.
   * `norms` are the cue's words normalized, `lines` give each word's caption line.
   */
  overlap(cueStart: number, norms: readonly string[], lines: ReadonlyArray<{ line: number }>): number {
    if (this.emitted.length === 0 || cueStart - this.lastEnd > ROLLING_MAX_GAP_SECONDS) return 0;
    const max = Math.min(norms.length, this.emitted.length, ROLLING_MAX_OVERLAP_WORDS);
    const tail = this.emitted.length;
    for (let k = max; k > 0; k--) {
      const atLineBreak = k === norms.length || lines[k]!.line !== lines[k - 1]!.line;
      if (!atLineBreak && k < ROLLING_MIN_WORD_OVERLAP) continue;
      if (norms[k - 1] !== this.emitted[tail - 1]) continue;
      let equal = true;
      for (let j = 0; j < k - 1 && equal; j++) equal = norms[j] === this.emitted[tail - k + j];
      if (equal) return k;
    }
    return 0;
  }

  /** Record a cue's emitted words (normalized) and its end. */
  record(norms: readonly string[], cueEnd: number): void {
    for (const norm of norms) this.emitted.push(norm);
    if (cueEnd > this.lastEnd) this.lastEnd = cueEnd;
  }
}
