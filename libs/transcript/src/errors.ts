/**
 * Errors of the transcript domain. Messages are written for the person who sent the file or the
 * edit: they say what is wrong and where (line number, word position), so they can be shown as is.
 */

export type TranscriptBuildErrorCode = 'VTT_INVALID' | 'VTT_EMPTY' | 'WORDS_INVALID' | 'TOO_MANY_WORDS';

/** A subtitle file or word-by-word file that cannot become a transcript. */
export class TranscriptBuildError extends Error {
  override readonly name = 'TranscriptBuildError';

  constructor(
    readonly code: TranscriptBuildErrorCode,
    message: string,
    /** 1-based line of the subtitle file the problem was found on, when known */
    readonly line?: number,
  ) {
    super(message);
  }
}

export type TranscriptEditErrorCode =
  /** a word_order / index that does not exist in the transcript */
  | 'UNKNOWN_WORD'
  /** a word whose end is before its start, or a time that is not a finite non-negative number */
  | 'INVALID_TIMING'
  /** a word with blank text or a confidence outside 0..1 */
  | 'INVALID_WORD'
  /** two deltas deleting / changing the same word */
  | 'CONFLICTING_DELTAS'
  /** full replacement: a word in no paragraph or in two paragraphs */
  | 'INVALID_PARAGRAPHS';

/** An edit (word deltas or full replacement) that cannot be applied; nothing was changed. */
export class TranscriptEditError extends Error {
  override readonly name = 'TranscriptEditError';

  constructor(
    readonly code: TranscriptEditErrorCode,
    message: string,
  ) {
    super(message);
  }
}
