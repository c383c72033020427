/**
 * What an import skipped or changed. A subtitle file or word-by-word file is read as far as it can
 * be: a bad cue or word is left out (or repaired) and said so here, instead of refusing the file.
 */

/** One thing the import skipped or changed, in words the person who sent the file can act on. */
export interface TranscriptWarning {
  /** 1-based line of the subtitle file it is about; null when it has none (word-by-word files, the summary) */
  line: number | null;
  message: string;
}

/** At most this many warnings are listed; the rest are counted in one last summary warning. */
export const MAX_TRANSCRIPT_WARNINGS = 100;

/** Collects warnings in order, keeping at most MAX_TRANSCRIPT_WARNINGS, and counting all of them. */
export class WarningList {
  private readonly listed: TranscriptWarning[] = [];
  /** every warning added, listed or not */
  count = 0;

  add(line: number | null, message: string): void {
    this.count++;
    if (this.listed.length < MAX_TRANSCRIPT_WARNINGS) this.listed.push({ line, message });
  }

  /** The first warning added, if any. */
  get first(): TranscriptWarning | undefined {
    return this.listed[0];
  }

  /** The listed warnings, plus "… and N more" when some were not listed. */
  toArray(): TranscriptWarning[] {
    const more = this.count - this.listed.length;
    if (more <= 0) return [...this.listed];
    return [...this.listed, { line: null, message: `… and ${more.toLocaleString('en-US')} more warning${more === 1 ? '' : 's'}` }];
  }
}

/** A piece of user text for a message: at most `max` characters, an ellipsis when cut. */
export function excerpt(text: string, max = 40): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** " (and 3 more skipped)" for a refusal that names the first of several problems. */
export function andMore(others: number): string {
  return others > 0 ? ` (and ${others.toLocaleString('en-US')} more skipped)` : '';
}
