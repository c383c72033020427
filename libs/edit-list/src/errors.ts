/**
 * Errors of the edit-list domain. Messages are written for the person who made the edit (or the
 * developer reading a log): they say which value is wrong and what was expected, so they can be
 * shown as is.
 */

export type EditListErrorCode =
  /** a time or range that is not finite, negative, empty (start >= end) or outside the video */
  | 'INVALID_RANGE'
  /** the edit would leave no content at all */
  | 'EMPTY_RESULT'
  /** an edit list (or a value used to build one) that breaks the structural invariants */
  | 'INVALID_EDIT_LIST'
  /** a reorder whose ranges overlap or that lists no range */
  | 'INVALID_REORDER';

/** An edit or a mapping that cannot be done; nothing was changed. */
export class EditListError extends Error {
  override readonly name = 'EditListError';

  constructor(
    readonly code: EditListErrorCode,
    message: string,
  ) {
    super(message);
  }
}
